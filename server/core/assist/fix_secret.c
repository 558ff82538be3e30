/* fix_secret: the fixes of secret fields — bare plaintext marked as plaintext (data:,) or
 * base64-encoded, and plaintext with a colon base64-encoded. */
#include <string.h>

#include "domain/domain.h"
#include "fix_internal.h"
#include "json/json.h"
#include "check/check.h"
#include "base/base.h"

/* The title's end for a fix that encodes a bare secret: it makes the value valid and leaves the
 * secret in the file, so it is unsafe (fix.c's table) and says so. */
#define STAYS " (the secret stays in the file)"

/* `plaintext` is the decoded value, after SECRET_PLAIN_PREFIX when it has one; `stays`: the
 * value was bare plaintext (the title says the secret stays in the file). */
static int encode_secret(struct analysis *a, uint32_t index, struct fix_list *out,
                         struct json_str plaintext, bool needs_base64, bool stays)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->node == JSON_NONE) /* the callers checked; aarch64 gcc 12 -O3 warns without */
        return 0;
    const struct json_node *n = &a->doc.nodes[d->node];
    struct arena *arena = &out->arena;
    if (needs_base64) {
        const char *encoded = secret_base64_encode(arena, plaintext.ptr, plaintext.len);
        return fix__add(
            out, index,
            stays ? "Encode the secret as " SECRET_BASE64_PREFIX "…" STAYS
                  : "Encode the secret as " SECRET_BASE64_PREFIX "…",
            n->start, n->end,
            arena_printf(arena, "\"" SECRET_BASE64_PREFIX "%s\"", encoded ? encoded : ""), true,
            true);
    }
    /* The raw text between the quotes keeps its escapes. */
    uint32_t body = n->start + 1, body_end = n->end > n->start + 1 ? n->end - 1 : n->end;
    return fix__add(out, index, "Mark the secret as plaintext: " SECRET_PLAIN_PREFIX "…" STAYS,
                    n->start, n->end,
                    arena_printf(arena, "\"" SECRET_PLAIN_PREFIX "%.*s\"", (int)(body_end - body),
                                 a->doc.text + body),
                    true, true);
}

/* Bare plaintext: marked as plaintext, or base64-encoded when it has a colon. */
int fix_encode_secret(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->field == NULL || d->node == JSON_NONE || a->doc.nodes[d->node].kind != JSON_STRING)
        return 0;
    struct json_str s = json_node_string(&a->doc, d->node);
    return encode_secret(a, index, out, s, memchr(s.ptr, ':', s.len) != NULL, true);
}

/* Plaintext with a colon: its plaintext base64-encoded. */
int fix_secret_base64(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->field == NULL || d->node == JSON_NONE || a->doc.nodes[d->node].kind != JSON_STRING)
        return 0;
    struct json_str s = json_node_string(&a->doc, d->node);
    s.ptr += sizeof SECRET_PLAIN_PREFIX - 1;
    s.len -= sizeof SECRET_PLAIN_PREFIX - 1;
    return encode_secret(a, index, out, s, true, false);
}
