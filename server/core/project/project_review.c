/* project_review: the changes of a srcls.json and of a baseline file since a base version that
 * weaken the gate (see project.h). */
#include "project.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "domain/domain.h"
#include "json/json.h"

/* A code lowered under "rules", grouped by the member (or object) that says so. */
struct lowered {
    uint32_t node; /* the member of "rules", "rules" itself, or the root; JSON_NONE: deleted */
    enum diag_code first;
    enum diag_severity was, is;
    uint32_t count;
};

/* What a place in the new srcls.json is reported as. */
struct place {
    uint32_t start, end;
    const char *pointer;
};

/* More severe first: error 1 ... hint 4, off last. */
static int rank(enum diag_severity severity)
{
    return severity == DIAG_OFF ? DIAG_HINT + 1 : (int)severity;
}

/* Where `node` of `now` is: its key when it has one, else its first byte; the whole file (no
 * place, pointer "") when the file was deleted (no root). */
static struct place place_of(struct analysis *now, uint32_t node)
{
    const struct json_node *n = node != JSON_NONE ? json_node_at(&now->doc, node) : NULL;
    if (n == NULL)
        return (struct place){0, 0, ""};
    bool keyed = n->key_start != JSON_NONE;
    const char *pointer = json_pointer_of(&now->doc, node, &now->arena);
    return (struct place){keyed ? n->key_start : n->start, keyed ? n->key_end : n->start + 1,
                          pointer};
}

static int add(struct analysis *now, uint32_t node, enum diag_severity severity,
               const char *message)
{
    struct place at = place_of(now, node);
    if (message == NULL || at.pointer == NULL)
        return -1;
    struct diagnostic d = {.code = CODE_RISKY_CHANGE,
                           .severity = severity,
                           .start = at.start,
                           .end = at.end,
                           .related_start = UINT32_MAX,
                           .related_end = UINT32_MAX,
                           .message = message,
                           .pointer = at.pointer,
                           .node = JSON_NONE};
    return diag_list_add(&now->diags, &d);
}

/* The root object of `a`, or JSON_NONE (none, a deleted file, not an object). */
static uint32_t root_object(struct analysis *a)
{
    const struct json_node *n = a != NULL ? json_node_at(&a->doc, a->doc.root) : NULL;
    return n != NULL && n->kind == JSON_OBJECT ? a->doc.root : JSON_NONE;
}

static uint32_t member(struct analysis *a, const char *key)
{
    uint32_t root = root_object(a);
    return root != JSON_NONE ? json_object_get(&a->doc, root, key, strlen(key)) : JSON_NONE;
}

static uint32_t rules_of(struct analysis *a)
{
    uint32_t rules = member(a, SETTINGS_KEY_RULES);
    return rules != JSON_NONE ? rules : member(a, SETTINGS_KEY_SEVERITY);
}

/* The node of `now` that sets `code` as it is now: its member of "rules" (the code named, else
 * the first group holding it, as settings_read reads them), else "rules", else "extends" (a file
 * extended sets it), else the root. */
static uint32_t rule_node(struct analysis *now, enum diag_code code)
{
    uint32_t rules = rules_of(now), extends = member(now, SETTINGS_KEY_EXTENDS);
    if (rules == JSON_NONE && extends != JSON_NONE)
        return extends;
    if (rules == JSON_NONE || now->doc.nodes[rules].kind != JSON_OBJECT)
        return rules != JSON_NONE ? rules : root_object(now);
    const char *name = code_name(code);
    uint32_t group = JSON_NONE;
    for (uint32_t m = now->doc.nodes[rules].first_child; m != JSON_NONE;
         m = now->doc.nodes[m].next) {
        struct json_str key = json_node_key(&now->doc, m);
        char text[64];
        snprintf(text, sizeof text, "%.*s", (int)key.len, key.ptr);
        if (strcmp(text, name) == 0)
            return m;
        if (group == JSON_NONE && code_group_known(text) && code_in_group(code, text))
            group = m;
    }
    return group != JSON_NONE ? group : rules;
}

/* Each code whose severity is lower now than at the base (the defaults where a file is
 * absent): one finding per member that lowers codes. */
static int lowered_rules(struct analysis *now, const struct settings *now_settings,
                         const struct settings *base_settings, const char *base_name,
                         enum diag_severity severity)
{
    struct lowered found[CODE_COUNT];
    uint32_t count = 0;
    for (int c = 0; c < CODE_COUNT; c++) {
        enum diag_severity fallback = code_info((enum diag_code)c)->severity;
        enum diag_severity was = settings_severity(base_settings, (enum diag_code)c, fallback);
        enum diag_severity is = settings_severity(now_settings, (enum diag_code)c, fallback);
        if (rank(is) <= rank(was))
            continue;
        uint32_t node = rule_node(now, (enum diag_code)c), i = 0;
        while (i < count && found[i].node != node)
            i++;
        if (i == count)
            found[count++] = (struct lowered){node, (enum diag_code)c, was, is, 0};
        found[i].count++;
    }
    for (uint32_t i = 0; i < count; i++) {
        const char *more = found[i].count > 1
                               ? arena_printf(&now->arena, " (and %u more code%s)",
                                              found[i].count - 1, found[i].count > 2 ? "s" : "")
                               : "";
        const char *message = more == NULL ? NULL
                                           : arena_printf(&now->arena,
                                                          "\"rules\" weakened since %s: %s from "
                                                          "%s to %s%s: the gate reports less",
                                                          base_name, code_name(found[i].first),
                                                          diag_severity_name(found[i].was),
                                                          diag_severity_name(found[i].is), more);
        if (add(now, found[i].node, severity, message) != 0)
            return -1;
    }
    return 0;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool same_ignore(const struct settings_ignore *a, const struct settings_ignore *b)
{
    return same_text(a->files, b->files) && same_text(a->files_from, b->files_from) &&
           same_text(a->pointer, b->pointer) && a->any_code == b->any_code &&
           memcmp(a->codes, b->codes, sizeof a->codes) == 0;
}

/* Each "ignore" entry now that no entry at the base equals in "files", "pointer" and "codes"
 * (its "reason" aside): added, or changed in a way not proved narrower. */
static int added_ignores(struct analysis *now, const struct settings *now_settings,
                         const struct settings *base_settings, const char *base_name,
                         enum diag_severity severity)
{
    uint32_t list = member(now, SETTINGS_KEY_IGNORE), extends = member(now, SETTINGS_KEY_EXTENDS);
    uint32_t element = list != JSON_NONE ? now->doc.nodes[list].first_child : JSON_NONE;
    for (uint32_t i = 0; i < now_settings->ignore_count; i++) {
        bool known = false, inherited = i < now_settings->ignore_inherited;
        for (uint32_t j = 0; base_settings != NULL && j < base_settings->ignore_count; j++)
            known = known || same_ignore(&now_settings->ignores[i], &base_settings->ignores[j]);
        /* an entry written in a file extended is said at "extends" */
        uint32_t at = inherited ? extends : element != JSON_NONE ? element : list;
        if (!inherited && element != JSON_NONE)
            element = now->doc.nodes[element].next;
        if (!known && add(now, at != JSON_NONE ? at : root_object(now), severity,
                          arena_printf(&now->arena,
                                       "\"ignore\" entry added or widened since %s: it may silence "
                                       "findings the gate reported",
                                       base_name)) != 0)
            return -1;
    }
    return 0;
}

void project_review_ignores(struct settings *applied, const struct settings *base)
{
    for (uint32_t i = 0; i < applied->ignore_count; i++) {
        struct settings_ignore *e = &applied->ignores[i];
        bool known = false;
        for (uint32_t j = 0; base != NULL && j < base->ignore_count; j++)
            known = known || same_ignore(e, &base->ignores[j]);
        for (int c = 0; !known && c < CODE_COUNT; c++)
            e->codes[c] = (e->any_code || e->codes[c]) &&
                          !code_in_group((enum diag_code)c, CODE_GROUP_SECURITY);
        e->any_code = e->any_code && known;
    }
}

/* Whether the string array `list` of `a` holds a string equal to `s`. */
static bool holds(struct analysis *a, uint32_t list, struct json_str s)
{
    if (list == JSON_NONE || a->doc.nodes[list].kind != JSON_ARRAY)
        return false;
    for (uint32_t g = a->doc.nodes[list].first_child; g != JSON_NONE; g = a->doc.nodes[g].next) {
        struct json_str t = json_node_string(&a->doc, g);
        if (a->doc.nodes[g].kind == JSON_STRING && t.len == s.len &&
            memcmp(t.ptr, s.ptr, s.len) == 0)
            return true;
    }
    return false;
}

/* The strings of `key` in `from` that `other` lacks; each reported at itself (`at_self`) or at
 * `key`'s member in `now` (else the root). `what` completes the message. */
static int missing_strings(struct analysis *now, struct analysis *from, struct analysis *other,
                           const char *key, bool at_self, const char *what, const char *base_name,
                           enum diag_severity severity)
{
    uint32_t list = member(from, key), there = member(other, key);
    if (list == JSON_NONE || from->doc.nodes[list].kind != JSON_ARRAY)
        return 0;
    for (uint32_t g = from->doc.nodes[list].first_child; g != JSON_NONE;
         g = from->doc.nodes[g].next) {
        struct json_str s = json_node_string(&from->doc, g);
        if (from->doc.nodes[g].kind != JSON_STRING || holds(other, there, s))
            continue;
        uint32_t node = at_self ? g : member(now, key);
        const char *message =
            arena_printf(&now->arena, "\"%s\" %s since %s: \"%.*s\" %s", key,
                         at_self ? "widened" : "narrowed", base_name, (int)s.len, s.ptr, what);
        if (add(now, node != JSON_NONE ? node : root_object(now), severity, message) != 0)
            return -1;
    }
    return 0;
}

/* Whether the string arrays `key` of `a` and `b` hold the same strings. */
static bool same_strings(struct analysis *a, struct analysis *b, const char *key)
{
    uint32_t x = member(a, key), y = member(b, key);
    if ((x == JSON_NONE) != (y == JSON_NONE))
        return false;
    for (int pass = 0; x != JSON_NONE && pass < 2; pass++) {
        struct analysis *from = pass == 0 ? a : b, *to = pass == 0 ? b : a;
        uint32_t list = pass == 0 ? x : y, other = pass == 0 ? y : x;
        if (from->doc.nodes[list].kind != JSON_ARRAY)
            return false;
        for (uint32_t g = from->doc.nodes[list].first_child; g != JSON_NONE;
             g = from->doc.nodes[g].next) {
            if (!holds(to, other, json_node_string(&from->doc, g)))
                return false;
        }
    }
    return true;
}

static bool same_types(const struct settings *a, const struct settings *b)
{
    if (a->type_count != b->type_count)
        return false;
    for (uint32_t i = 0; i < a->type_count; i++) {
        const char *kind = settings_type(b, a->types[i].id, strlen(a->types[i].id));
        if (kind == NULL || strcmp(kind, a->types[i].kind_type) != 0)
            return false;
    }
    return true;
}

/* "types", "schemas" and "baseline" changed (only against a srcls.json at the base). */
static int changed_sources(struct analysis *now, const struct settings *now_settings,
                           struct analysis *base, const struct settings *base_settings,
                           const char *base_name, enum diag_severity severity)
{
    static const char *const why[] = {
        "documents may be checked as different kinds",
        "the project's own kinds the documents are checked against changed",
    };
    for (int k = 0; k < 2; k++) {
        const char *key = k == 0 ? SETTINGS_KEY_TYPES : SETTINGS_KEY_SCHEMAS;
        bool same = k == 0 ? same_types(now_settings, base_settings) : same_strings(now, base, key);
        uint32_t node = member(now, key);
        if (!same && add(now, node != JSON_NONE ? node : root_object(now), severity,
                         arena_printf(&now->arena, "\"%s\" changed since %s: %s", key, base_name,
                                      why[k])) != 0)
            return -1;
    }
    uint32_t was = member(base, SETTINGS_KEY_BASELINE), is = member(now, SETTINGS_KEY_BASELINE);
    if (was == JSON_NONE || base->doc.nodes[was].kind != JSON_STRING)
        return 0;
    struct json_str old = json_node_string(&base->doc, was);
    struct json_str new = is != JSON_NONE ? json_node_string(&now->doc, is) : (struct json_str){0};
    if (new.ptr != NULL &&new.len == old.len && memcmp(new.ptr, old.ptr, old.len) == 0)
        return 0;
    const char *message =
        new.ptr == NULL
            ? arena_printf(&now->arena,
                           "\"baseline\" removed since %s (it was \"%.*s\"): the findings it "
                           "held are no longer compared with it",
                           base_name, (int)old.len, old.ptr)
            : arena_printf(&now->arena,
                           "\"baseline\" points elsewhere since %s: \"%.*s\" instead of \"%.*s\"",
                           base_name, (int)new.len, new.ptr, (int)old.len, old.ptr);
    return add(now, is != JSON_NONE ? is : root_object(now), severity, message);
}

int project_review(struct analysis *now, const struct settings *now_settings, struct analysis *base,
                   const struct settings *base_settings, const char *base_name,
                   enum diag_severity severity)
{
    uint32_t first = now->diags.count;
    int status = 0;
    if (severity == DIAG_OFF)
        return 0;
    if (lowered_rules(now, now_settings, base_settings, base_name, severity) != 0 ||
        added_ignores(now, now_settings, base_settings, base_name, severity) != 0 ||
        missing_strings(now, now, base, SETTINGS_KEY_EXCLUDE, true,
                        "is no longer checked: the files it matches are skipped", base_name,
                        severity) != 0 ||
        (base != NULL &&
         (missing_strings(now, base, now, SETTINGS_KEY_INCLUDE, false,
                          "was removed: the files it named are no longer checked", base_name,
                          severity) != 0 ||
          changed_sources(now, now_settings, base, base_settings, base_name, severity) != 0)))
        status = -1;
    if (now->diags.count > first)
        diag_list_sort(&now->diags);
    return status;
}

/* The number of entries of the sorted `now` beyond those of the sorted `base` (equal lines
 * matched one to one). */
static size_t entries_added(struct baseline_index *now, const struct baseline_index *base)
{
    size_t added = 0, j = 0;
    for (size_t i = 0; i < now->count; i++) {
        int c = 1;
        while (j < base->count && (c = strcmp(base->entries[j].line, now->entries[i].line)) < 0)
            j++;
        if (j < base->count && c == 0)
            j++;
        else
            added++;
        now->entries[i].used = c != 0; /* marks the added ones */
    }
    return added;
}

/* The added entries of `now` (marked by entries_added) counted by file and code, sorted as
 * they are: " (a.source.json: 2 unknown-field; b.json: 1 inline-secret; and 2 more)", the
 * first three groups, in `arena` (NULL when memory ran out). */
static const char *added_detail(struct arena *arena, const struct baseline_index *now)
{
    const char *text = " (";
    size_t groups = 0;
    for (size_t i = 0; i < now->count && text != NULL;) {
        const struct baseline_entry *e = &now->entries[i];
        size_t n = 0;
        for (; i < now->count && strcmp(now->entries[i].path, e->path) == 0 &&
               strcmp(now->entries[i].code, e->code) == 0;
             i++)
            n += now->entries[i].used;
        if (n > 0 && groups++ < 3)
            text = arena_printf(arena, "%s%s%s: %zu %s", text, groups > 1 ? "; " : "", e->path, n,
                                e->code);
    }
    return text == NULL ? NULL
           : groups > 3 ? arena_printf(arena, "%s; and %zu more)", text, groups - 3)
                        : arena_printf(arena, "%s)", text);
}

int project_review_baseline(struct analysis *now, const char *text, size_t len,
                            const char *base_text, size_t base_len, const char *base_name,
                            enum diag_severity severity)
{
    struct baseline_index is = {0}, was = {0};
    char why[256];
    int status = 0;
    if (severity != DIAG_OFF && baseline_parse(&is, text, len, why, sizeof why) == 0 &&
        (base_text == NULL || baseline_parse(&was, base_text, base_len, why, sizeof why) == 0)) {
        size_t added = entries_added(&is, &was);
        const char *detail = added > 0 ? added_detail(&now->arena, &is) : NULL;
        const char *message =
            detail == NULL ? NULL
                           : arena_printf(&now->arena,
                                          "%zu entr%s added to the baseline since %s: findings "
                                          "hidden, not fixed%s",
                                          added, added == 1 ? "y" : "ies", base_name, detail);
        struct diagnostic d = {.code = CODE_RISKY_CHANGE,
                               .severity = severity,
                               .related_start = UINT32_MAX,
                               .related_end = UINT32_MAX,
                               .message = message,
                               .pointer = "",
                               .node = JSON_NONE,
                               .end = len > 0 ? 1 : 0};
        if (added > 0 && (message == NULL || diag_list_add(&now->diags, &d) != 0))
            status = -1;
    }
    baseline_index_free(&is);
    baseline_index_free(&was);
    return status;
}
