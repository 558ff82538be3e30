/* suppress: reading and matching srcls.json's "ignore" entries (see suppress.h). */
#include "suppress.h"

#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "envelope.h"
#include "glob.h"
#include "settings.h"

/* The name of the bulk element whose index is the segment [s, se), or an empty slice. */
static struct json_str element_name(struct json_doc *doc, const uint32_t *elements, uint32_t count,
                                    const char *s, const char *se)
{
    struct json_str none = {0};
    if (elements == NULL || s == se || se - s > 9)
        return none;
    uint32_t index = 0;
    for (const char *c = s; c < se; c++) {
        if (*c < '0' || *c > '9')
            return none;
        index = index * 10 + (uint32_t)(*c - '0');
    }
    if (index >= count)
        return none;
    uint32_t name = json_object_get(doc, elements[index], JSON_LITERAL(ENVELOPE_NAME));
    return name != JSON_NONE && doc->nodes[name].kind == JSON_STRING ? json_node_string(doc, name)
                                                                     : none;
}

/* The pointer pattern [p, pe) against the pointer [s, se) (both from a '/' or at their end):
 * true when it matches the pointer or one of its ancestors. `first`: the first segment. */
static bool pointer_at(const char *p, const char *pe, const char *s, const char *se, bool first,
                       struct json_doc *doc, const uint32_t *elements, uint32_t count)
{
    if (p == pe)
        return true; /* the place, or below it */
    if (s == se && !(pe - p == 3 && memcmp(p, "/**", 3) == 0))
        return false;
    const char *pn = memchr(p + 1, '/', (size_t)(pe - p - 1));
    pn = pn != NULL ? pn : pe;
    if (pn - p == 3 && memcmp(p, "/**", 3) == 0) {
        for (const char *at = s;; at++) {
            if ((at == se || *at == '/') &&
                pointer_at(pn, pe, at, se, first && at == s, doc, elements, count))
                return true;
            if (at == se)
                return false;
        }
    }
    const char *sn = s + 1 < se ? memchr(s + 1, '/', (size_t)(se - s - 1)) : NULL;
    sn = sn != NULL ? sn : se;
    size_t plen = (size_t)(pn - p - 1), slen = (size_t)(sn - s - 1);
    bool same = (plen == 1 && p[1] == '*') || (plen == slen && memcmp(p + 1, s + 1, plen) == 0);
    if (!same && first) { /* a bulk source by its name */
        struct json_str name = element_name(doc, elements, count, s + 1, sn);
        same = name.ptr != NULL && name.len == plen && memcmp(name.ptr, p + 1, plen) == 0;
    }
    return same && pointer_at(pn, pe, sn, se, false, doc, elements, count);
}

bool suppress_matches(const struct settings_ignore *e, const struct diagnostic *d, const char *path,
                      struct json_doc *doc, const uint32_t *elements, uint32_t count)
{
    if (!e->any_code && !e->codes[d->code])
        return false;
    if (e->files != NULL && (path == NULL || !glob_match_from(e->files, e->files_from, path)))
        return false;
    if (e->pointer == NULL)
        return true;
    const char *pointer = d->pointer != NULL ? d->pointer : "";
    return pointer_at(e->pointer, e->pointer + strlen(e->pointer), pointer,
                      pointer + strlen(pointer), true, doc, elements, count);
}

bool suppress_codes_checked(const struct settings_ignore *e, const struct settings *settings)
{
    for (int c = 0; c < CODE_COUNT; c++) {
        if ((e->any_code || e->codes[c]) &&
            settings_severity(settings, (enum diag_code)c,
                              code_info((enum diag_code)c)->severity) != DIAG_OFF)
            return true;
    }
    return false;
}

/* The string member `key` of `entry` copied into the settings' arena: NULL when absent; when
 * present and not a non-empty string, and nothing was wrong before, `*bad` and `*why` (`wrong`,
 * which names the key: the message is often read without the text it points at). */
static const char *string_member(struct settings *s, struct json_doc *doc, uint32_t entry,
                                 const char *key, const char *wrong, uint32_t *bad,
                                 const char **why)
{
    uint32_t m = json_object_get(doc, entry, key, strlen(key));
    if (m == JSON_NONE)
        return NULL;
    struct json_str v = json_node_string(doc, m);
    if (doc->nodes[m].kind != JSON_STRING || v.len == 0) {
        if (*bad == JSON_NONE)
            *bad = m, *why = wrong;
        return NULL;
    }
    return arena_strndup(&s->arena, v.ptr, v.len);
}

/* The entry `entry` into `e`; the node at fault and what is wrong, or JSON_NONE. */
static uint32_t read_entry(struct settings *s, struct json_doc *doc, uint32_t entry,
                           struct settings_ignore *e, const char **why)
{
    uint32_t bad = JSON_NONE;
    memset(e, 0, sizeof *e);
    for (uint32_t m = doc->nodes[entry].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        static const char *const keys[] = {"files", "pointer", "codes", "reason"};
        bool known = false;
        for (size_t k = 0; k < 4; k++)
            known |= json_node_key_equals(doc, m, keys[k], strlen(keys[k]));
        if (!known) {
            *why = "unknown key in an \"ignore\" entry (files, pointer, codes, reason)";
            return m;
        }
    }
    e->files = string_member(s, doc, entry, "files",
                             "\"files\" must be a non-empty string (a glob)", &bad, why);
    e->pointer =
        string_member(s, doc, entry, "pointer",
                      "\"pointer\" must be a non-empty string (a JSON Pointer)", &bad, why);
    e->reason = string_member(s, doc, entry, "reason",
                              "\"reason\" must be a non-empty string: why the finding is accepted",
                              &bad, why);
    if (bad == JSON_NONE && e->pointer != NULL && e->pointer[0] != '/')
        bad = json_object_get(doc, entry, JSON_LITERAL("pointer")),
        *why = "a pointer starts with '/'";
    uint32_t codes = json_object_get(doc, entry, JSON_LITERAL("codes"));
    e->any_code = codes == JSON_NONE;
    if (bad == JSON_NONE && codes != JSON_NONE && doc->nodes[codes].kind != JSON_ARRAY)
        bad = codes, *why = "must be an array of codes (or the group \"security\")";
    for (uint32_t c = codes != JSON_NONE && bad == JSON_NONE ? doc->nodes[codes].first_child
                                                             : JSON_NONE;
         c != JSON_NONE; c = doc->nodes[c].next) {
        struct json_str name = json_node_string(doc, c);
        char text[64] = "";
        if (doc->nodes[c].kind == JSON_STRING && name.len < sizeof text)
            memcpy(text, name.ptr, name.len);
        int code = code_parse(text);
        if (code < 0 && !code_group_known(text))
            return *why = "unknown code (docs/rules.md lists them)", c;
        for (int k = 0; k < CODE_COUNT; k++)
            e->codes[k] |= k == code || code_in_group((enum diag_code)k, text);
    }
    if (bad == JSON_NONE && e->reason == NULL)
        bad = entry, *why = "an \"ignore\" entry needs a \"reason\": why the finding is accepted";
    if (bad == JSON_NONE && e->pointer == NULL && e->any_code)
        bad = entry, *why = "an \"ignore\" entry needs \"pointer\" or \"codes\" (it would silence "
                            "everything)";
    return bad;
}

void suppress_read(struct settings *s, struct json_doc *doc, uint32_t list,
                   void (*note)(char *, size_t, struct json_doc *, uint32_t, const char *),
                   char *problems, size_t problems_size)
{
    if (list == JSON_NONE)
        return;
    if (doc->nodes[list].kind != JSON_ARRAY) {
        note(problems, problems_size, doc, list,
             "must be an array of {\"files\", \"pointer\", \"codes\", \"reason\"} entries");
        return;
    }
    uint32_t count = json_child_count(doc, list);
    s->ignores = arena_alloc(&s->arena, (count + 1) * sizeof *s->ignores);
    for (uint32_t e = doc->nodes[list].first_child; s->ignores != NULL && e != JSON_NONE;
         e = doc->nodes[e].next) {
        const char *why = "must be an object";
        struct settings_ignore *slot = &s->ignores[s->ignore_count];
        uint32_t bad = doc->nodes[e].kind != JSON_OBJECT ? e : read_entry(s, doc, e, slot, &why);
        if (bad != JSON_NONE) {
            note(problems, problems_size, doc, bad, why);
            memset(slot, 0, sizeof *slot); /* silences nothing (no code): where the settings are
                                              applied with their mistakes, as the editor's are */
        }
        s->ignore_count++; /* kept in place even when wrong: an entry's index is its pointer */
    }
}

int suppress_copy(struct settings *to, const struct settings *from)
{
    if (from == NULL || from->ignore_count == 0)
        return 0;
    struct settings_ignore *all =
        arena_alloc(&to->arena, (to->ignore_count + from->ignore_count) * sizeof *all);
    if (all == NULL)
        return -1;
    if (to->ignore_count > 0)
        memcpy(all, to->ignores, to->ignore_count * sizeof *all);
    for (uint32_t i = 0; i < from->ignore_count; i++) {
        struct settings_ignore e = from->ignores[i];
        const char **strings[] = {&e.files, &e.files_from, &e.origin, &e.pointer, &e.reason};
        for (size_t k = 0; k < 5; k++) {
            if (*strings[k] != NULL &&
                (*strings[k] = arena_strndup(&to->arena, *strings[k], strlen(*strings[k]))) == NULL)
                return -1;
        }
        all[to->ignore_count + i] = e;
    }
    to->ignores = all;
    to->ignore_count += from->ignore_count;
    return 0;
}

const char *suppress_add_entry(const char *text, size_t len, const char *entry, struct arena *arena,
                               uint32_t *start, uint32_t *end)
{
    return settings_edit_add(text, len, SETTINGS_KEY_IGNORE, true, NULL, entry, arena, start, end);
}
