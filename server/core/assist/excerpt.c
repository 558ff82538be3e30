/* excerpt: a window of a line, string values masked, found by a binary search on the nodes. */
#include "excerpt.h"

#include <string.h>

#include "check/check.h"
#include "domain/domain.h"

#define MASK "***"
#define CUT "..."
#define MAX_MASKED (EXCERPT_WIDTH / 2 + 2) /* a masked range holds at least two bytes */

static uint32_t node_from(const struct json_node *n)
{
    return n->key_start != JSON_NONE ? n->key_start : n->start;
}

/* Whether the string `node` may be shown: the value of a known field that is neither secret
 * nor sensitive and holds no credential shape (plaintext-credential), under a key the parser read
 * as written. */
static bool shown(const struct analysis *a, uint32_t node)
{
    struct json_doc *doc = (struct json_doc *)&a->doc; /* lookups decode keys into its arena */
    const struct json_node *n = &doc->nodes[node];
    if (n->key_start == JSON_NONE || (n->flags & JSON_FLAG_KEY_RECOVERED) || a->registry == NULL)
        return false;
    const struct schema_field *f = schema_at_member(doc, node, a->registry, a->settings);
    if (f == NULL || f->secret || f->sensitive)
        return false;
    struct json_str s = json_node_string(doc, node); /* no credential shape either */
    return schema_credential_find(a->registry, s.ptr, s.len) == NULL;
}

/* Adds [start, end) clipped to [from, to), when it is not empty. */
static void add(uint32_t *starts, uint32_t *ends, uint32_t *count, uint32_t start, uint32_t end,
                uint32_t from, uint32_t to)
{
    start = start < from ? from : start;
    end = end > to ? to : end;
    if (start < end && *count < MAX_MASKED) {
        starts[*count] = start;
        ends[(*count)++] = end;
    }
}

/* The ranges of [from, to) to mask, in order: string bodies and recovered keys. Nodes are in
 * document order of their first byte (the key's for a member), so those in the window follow
 * the last one before it, which may be a string that reaches into the window. */
/* The first node whose first byte is at `from` or after it. */
static uint32_t first_node_from(const struct analysis *a, uint32_t from)
{
    uint32_t lo = 0, hi = a->doc.node_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (node_from(&a->doc.nodes[mid]) < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t masked(const struct analysis *a, uint32_t from, uint32_t to, uint32_t *starts,
                       uint32_t *ends)
{
    uint32_t lo = first_node_from(a, from), count = 0;
    for (uint32_t i = lo > 0 ? lo - 1 : 0; i < a->doc.node_count; i++) {
        const struct json_node *n = &a->doc.nodes[i];
        if (i >= lo && node_from(n) >= to)
            break;
        if (n->flags & JSON_FLAG_KEY_RECOVERED)
            add(starts, ends, &count, n->key_start + 1, n->key_end - 1, from, to);
        if (n->kind != JSON_STRING || n->end <= from || shown(a, i))
            continue;
        bool closed = !(n->flags & JSON_FLAG_UNTERMINATED) && n->end > n->start + 1;
        add(starts, ends, &count, n->start + 1, closed ? n->end - 1 : n->end, from, to);
    }
    return count;
}

/* Moves `at` back (or forward, when `forward`) to the first byte of a UTF-8 character. */
static uint32_t char_start(const char *text, uint32_t at, uint32_t limit, bool forward)
{
    while (at != limit && ((unsigned char)text[at] & 0xC0) == 0x80)
        at = forward ? at + 1 : at - 1;
    return at;
}

const char *excerpt_at(const struct analysis *a, uint32_t offset, uint32_t stop,
                       struct arena *arena, uint32_t *caret, uint32_t *caret_end)
{
    const char *text = a->doc.text;
    uint32_t line = line_index_position(&a->lines, offset, POSITION_UTF8).line;
    uint32_t start = line_index_start(&a->lines, line);
    uint32_t end = line + 1 < a->lines.count ? line_index_start(&a->lines, line + 1) : a->doc.len;
    while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r'))
        end--;
    offset = offset > end ? end : offset;
    uint32_t from = offset - start > EXCERPT_WIDTH / 2 ? offset - EXCERPT_WIDTH / 2 : start;
    from = char_start(text, from, end, true);
    uint32_t to = end - from > EXCERPT_WIDTH ? from + EXCERPT_WIDTH : end;
    to = char_start(text, to, from, false);
    uint32_t starts[MAX_MASKED], ends[MAX_MASKED];
    uint32_t count = masked(a, from, to, starts, ends);
    char *out = arena_alloc(arena, (size_t)(to - from) + (MAX_MASKED + 2) * sizeof MASK);
    if (out == NULL)
        return NULL;
    uint32_t n = 0, at = from;
    stop = stop < offset ? offset : stop > to ? to : stop;
    *caret = *caret_end = 0;
    if (from > start) {
        memcpy(out, CUT, sizeof CUT - 1);
        n = sizeof CUT - 1;
    }
    for (uint32_t k = 0; k <= count; k++) {
        uint32_t upto = k < count ? starts[k] : to;
        upto = upto < at ? at : upto; /* ranges never overlap; kept safe if they did */
        if (offset >= at && offset <= upto)
            *caret = n + (offset - at);
        if (stop >= at && stop <= upto)
            *caret_end = n + (stop - at);
        memcpy(out + n, text + at, upto - at);
        n += upto - at;
        if (k == count)
            break;
        if (offset > upto && offset < ends[k])
            *caret = n; /* inside a masked value: at its mask */
        if (stop > upto && stop < ends[k])
            *caret_end = n + (uint32_t)(sizeof MASK - 1);
        memcpy(out + n, MASK, sizeof MASK - 1);
        n += sizeof MASK - 1;
        at = ends[k] > upto ? ends[k] : upto;
    }
    *caret_end = *caret_end < *caret ? *caret : *caret_end;
    if (to < end) {
        memcpy(out + n, CUT, sizeof CUT - 1);
        n += sizeof CUT - 1;
    }
    out[n] = '\0';
    return out;
}

/* How many bytes at the start of the string body [body, end) say how a secret is written and
 * are shown before the mask (excerpt_line): an encoding's prefix or a reference's scheme, text
 * of srcls's own and never part of a secret, so that a diff shows "data:,***" where a fix
 * encoded "***". The whole body when it is the placeholder; 0 when none matches as written (an
 * escape in it included). */
static uint32_t shown_prefix(const char *text, uint32_t body, uint32_t end)
{
    static const char *const prefixes[] = {SECRET_BASE64_PREFIX, SECRET_PLAIN_PREFIX,
                                           SECRET_SCHEME_ARN, SECRET_SCHEME_VAULT,
                                           SECRET_SCHEME_HTTPS};
    uint32_t len = end - body;
    if (len == sizeof SECRET_PLACEHOLDER - 1 &&
        memcmp(text + body, SECRET_PLACEHOLDER, sizeof SECRET_PLACEHOLDER - 1) == 0)
        return len;
    for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
        size_t n = strlen(prefixes[p]);
        if (len >= n && memcmp(text + body, prefixes[p], n) == 0)
            return (uint32_t)n;
    }
    return 0;
}

/* One masked range of [from, to) after `at` (the next in order), or false when there is none;
 * `*i` walks the nodes. */
static bool next_masked(const struct analysis *a, uint32_t from, uint32_t to, uint32_t lo,
                        uint32_t *i, uint32_t *start, uint32_t *end)
{
    for (; *i < a->doc.node_count; ++*i) {
        const struct json_node *n = &a->doc.nodes[*i];
        if (*i >= lo && node_from(n) >= to)
            return false;
        uint32_t s = JSON_NONE, e = 0;
        if (n->flags & JSON_FLAG_KEY_RECOVERED) {
            s = n->key_start + 1;
            e = n->key_end - 1;
        }
        if (n->kind == JSON_STRING && n->end > from && !shown(a, *i)) {
            bool closed = !(n->flags & JSON_FLAG_UNTERMINATED) && n->end > n->start + 1;
            e = closed ? n->end - 1 : n->end;
            s = n->start + 1 + shown_prefix(a->doc.text, n->start + 1, e);
            if (n->flags & JSON_FLAG_KEY_RECOVERED)
                s = n->key_start + 1; /* after a recovered key: the value is masked with it */
        }
        s = s < from ? from : s;
        e = e > to ? to : e;
        if (s != JSON_NONE && s < e) {
            *start = s;
            *end = e;
            ++*i;
            return true;
        }
    }
    return false;
}

const char *excerpt_line(const struct analysis *a, uint32_t from, uint32_t to, struct arena *arena)
{
    uint32_t lo = first_node_from(a, from), i = lo > 0 ? lo - 1 : 0, start, end;
    size_t size = (size_t)(to - from) + 1;
    while (next_masked(a, from, to, lo, &i, &start, &end))
        size += sizeof MASK - 1;
    char *out = arena_alloc(arena, size);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    uint32_t at = from;
    i = lo > 0 ? lo - 1 : 0;
    while (next_masked(a, from, to, lo, &i, &start, &end)) {
        start = start < at ? at : start;
        memcpy(out + n, a->doc.text + at, start - at);
        n += start - at;
        memcpy(out + n, MASK, sizeof MASK - 1);
        n += sizeof MASK - 1;
        at = end > at ? end : at;
    }
    memcpy(out + n, a->doc.text + at, to - at);
    out[n + (to - at)] = '\0';
    return out;
}
