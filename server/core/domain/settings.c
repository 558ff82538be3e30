/* settings: severity overrides and extra type identifiers. */
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "glob.h"
#include "json/json.h"

void settings_init(struct settings *settings)
{
    memset(settings, 0, sizeof *settings);
    arena_init(&settings->arena);
}

void settings_free(struct settings *settings)
{
    arena_free(&settings->arena);
    memset(settings, 0, sizeof *settings);
}

/* Appends "POINTER: what", the JSON Pointer of `node` in its document, as a line. */
static void note(char *problems, size_t size, struct json_doc *doc, uint32_t node, const char *what)
{
    if (problems == NULL || size == 0)
        return;
    struct arena scratch;
    arena_init(&scratch);
    const char *pointer = json_pointer_of(doc, node, &scratch);
    size_t used = strlen(problems);
    snprintf(problems + used, size - used, "%s%s: %s", used ? "\n" : "",
             pointer == NULL ? "?" : pointer, what);
    arena_free(&scratch);
}

/* Whether `m` is the member of one of `door_keys` (NULL-terminated; may be NULL). */
static bool is_door_key(struct json_doc *doc, uint32_t m, const char *const *door_keys)
{
    for (size_t i = 0; door_keys != NULL && door_keys[i] != NULL; i++) {
        if (json_node_key_equals(doc, m, door_keys[i], strlen(door_keys[i])))
            return true;
    }
    return false;
}

/* Notes every key of `node` that is not a setting (nor one of `door_keys`, a door's own). */
static void note_unknown(struct json_doc *doc, uint32_t node, const char *const *door_keys,
                         char *problems, size_t problems_size)
{
    char what[320], doors[128] = "";
    size_t n = 0;
    for (; door_keys != NULL && door_keys[n] != NULL; n++) {
        size_t used = strlen(doors);
        snprintf(doors + used, sizeof doors - used, ", \"%s\"", door_keys[n]);
    }
    snprintf(what, sizeof what,
             "unknown setting (the settings are \"extends\", \"rules\", \"types\", "
             "\"include\", \"exclude\", \"placeholders\", \"schemas\", \"ignore\"%s%s and "
             "\"baseline\")",
             n > 0 ? "," : "", n > 0 ? doors + 1 : "");
    for (uint32_t m = doc->nodes[node].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        if (!json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_RULES)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_SEVERITY)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_TYPES)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_INCLUDE)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_EXCLUDE)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_SCHEMAS)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_PLACEHOLDERS)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_BASELINE)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_IGNORE)) &&
            !json_node_key_equals(doc, m, JSON_LITERAL(SETTINGS_KEY_EXTENDS)) &&
            !is_door_key(doc, m, door_keys))
            note(problems, problems_size, doc, m, what);
    }
}

/* "include" and "exclude" (arrays of globs) and "schemas" (of directories), at `list` when
 * present, must be arrays of non-empty strings (`what` is "glob" or "directory"): each that is
 * one is read into `out`, each that is not is a problem. */
static void read_strings(struct settings *settings, struct json_doc *doc, uint32_t list,
                         const char *what, struct settings_strings *out, char *problems,
                         size_t problems_size)
{
    char message[80];
    if (list == JSON_NONE)
        return;
    if (doc->nodes[list].kind != JSON_ARRAY) {
        snprintf(message, sizeof message, "must be an array of %s (strings)",
                 what[0] == 'g'   ? "globs"
                 : what[0] == 's' ? "srcls.json files"
                                  : "directories");
        note(problems, problems_size, doc, list, message);
        return;
    }
    snprintf(message, sizeof message, "a %s is a non-empty string", what);
    out->items =
        arena_alloc(&settings->arena, (json_child_count(doc, list) + 1) * sizeof *out->items);
    for (uint32_t g = doc->nodes[list].first_child; g != JSON_NONE; g = doc->nodes[g].next) {
        if (doc->nodes[g].kind != JSON_STRING || doc->nodes[g].end - doc->nodes[g].start <= 2) {
            note(problems, problems_size, doc, g, message);
            continue;
        }
        struct json_str text = json_node_string(doc, g);
        const char *copy = arena_strndup(&settings->arena, text.ptr, text.len);
        if (out->items != NULL && copy != NULL)
            out->items[out->count++] = copy;
    }
}

/* "extends": a path, or an array of them (non-empty strings); read as a list. */
static void read_extends(struct settings *settings, struct json_doc *doc, uint32_t value,
                         char *problems, size_t problems_size)
{
    if (value == JSON_NONE)
        return;
    if (doc->nodes[value].kind == JSON_ARRAY) {
        read_strings(settings, doc, value, "srcls.json file", &settings->extends, problems,
                     problems_size);
        return;
    }
    struct json_str path = json_node_string(doc, value);
    settings->extends.items = arena_alloc(&settings->arena, sizeof *settings->extends.items);
    if (doc->nodes[value].kind != JSON_STRING || path.len == 0)
        note(problems, problems_size, doc, value,
             "must be the path of a srcls.json, or an array of them (non-empty strings, "
             "relative to this file)");
    else if (settings->extends.items != NULL &&
             (settings->extends.items[0] = arena_strndup(&settings->arena, path.ptr, path.len)))
        settings->extends.count = 1;
}

void settings_read(struct settings *settings, struct json_doc *doc, uint32_t node, char *problems,
                   size_t problems_size)
{
    settings_read_door(settings, doc, node, NULL, problems, problems_size);
}

/* The entries of "rules" that name a code (`groups` false) or a group of codes (true); a name
 * that is neither is noted in the first pass. The first entry of a code is the one that counts
 * (settings_severity), so a group adds each code once: at most CODE_COUNT entries, whatever the
 * number of group keys. */
static void read_rules(struct settings *settings, struct json_doc *doc, uint32_t rules, bool groups,
                       char *problems, size_t problems_size)
{
    bool added[CODE_COUNT] = {false}; /* by the groups */
    for (uint32_t m = doc->nodes[rules].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        struct json_str code = json_node_key(doc, m);
        struct json_str value = json_node_string(doc, m);
        char code_text[64], value_text[32], line[256];
        snprintf(code_text, sizeof code_text, "%.*s", (int)code.len, code.ptr);
        snprintf(value_text, sizeof value_text, "%.*s", (int)value.len, value.ptr);
        int severity = diag_severity_parse(value_text);
        int known = code_parse(code_text);
        bool group = known < 0 && code_group_known(code_text);
        if (group != groups)
            continue;
        if ((known < 0 && !group) || severity < 0) {
            snprintf(line, sizeof line,
                     known < 0 && !group ? "unknown code \"%s\""
                                         : "the severity of \"%s\" must be error, warning, "
                                           "information, hint or off",
                     code_text);
            note(problems, problems_size, doc, m, line);
            continue;
        }
        for (int c = 0; c < CODE_COUNT; c++) {
            if (c != known && (!group || added[c] || !code_in_group((enum diag_code)c, code_text)))
                continue;
            added[c] = group;
            settings->severities[settings->severity_count++] =
                (struct settings_severity){(enum diag_code)c, (enum diag_severity)severity};
        }
    }
}

/* "placeholders": an array of patterns (placeholder.h); each one that is not is noted. */
static void read_placeholders(struct settings *settings, struct json_doc *doc, uint32_t list,
                              char *problems, size_t problems_size)
{
    if (list == JSON_NONE)
        return;
    uint32_t count = doc->nodes[list].kind == JSON_ARRAY ? json_child_count(doc, list) : 0;
    if (doc->nodes[list].kind != JSON_ARRAY || count > PLACEHOLDER_PATTERNS_MAX) {
        note(problems, problems_size, doc, list,
             "must be an array of at most 16 placeholder patterns (strings such as \"${NAME}\")");
        return;
    }
    settings->placeholders =
        arena_alloc(&settings->arena, (count + 1) * sizeof(struct placeholder_pattern));
    for (uint32_t g = doc->nodes[list].first_child;
         g != JSON_NONE && settings->placeholders != NULL; g = doc->nodes[g].next) {
        struct json_str s = json_node_string(doc, g);
        char *text = arena_strndup(&settings->arena, s.ptr, s.len);
        const char *wrong =
            doc->nodes[g].kind != JSON_STRING
                ? "a placeholder pattern is a string such as \"${NAME}\""
            : text == NULL ? NULL
                           : placeholder_pattern_parse(
                                 text, s.len, &settings->placeholders[settings->placeholder_count]);
        if (wrong != NULL)
            note(problems, problems_size, doc, g, wrong);
        else if (text != NULL)
            settings->placeholder_count++;
    }
}

void settings_read_door(struct settings *settings, struct json_doc *doc, uint32_t node,
                        const char *const *door_keys, char *problems, size_t problems_size)
{
    settings_free(settings);
    settings_init(settings);
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_OBJECT)
        return;
    uint32_t rules = json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_RULES));
    if (rules == JSON_NONE)
        rules = json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_SEVERITY));
    uint32_t types = json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_TYPES));
    note_unknown(doc, node, door_keys, problems, problems_size);
    read_strings(settings, doc, json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_INCLUDE)),
                 "glob", &settings->include, problems, problems_size);
    read_strings(settings, doc, json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_EXCLUDE)),
                 "glob", &settings->exclude, problems, problems_size);
    read_strings(settings, doc, json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_SCHEMAS)),
                 "directory", &settings->schemas, problems, problems_size);
    read_placeholders(settings, doc,
                      json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_PLACEHOLDERS)), problems,
                      problems_size);
    suppress_read(settings, doc, json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_IGNORE)),
                  note, problems, problems_size);
    read_extends(settings, doc, json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_EXTENDS)),
                 problems, problems_size);
    uint32_t baseline = json_object_get(doc, node, JSON_LITERAL(SETTINGS_KEY_BASELINE));
    if (baseline != JSON_NONE && (doc->nodes[baseline].kind != JSON_STRING ||
                                  doc->nodes[baseline].end - doc->nodes[baseline].start <= 2))
        note(problems, problems_size, doc, baseline,
             "must be the path of a baseline file (a non-empty string, relative to srcls.json)");
    else if (baseline != JSON_NONE) {
        struct json_str path = json_node_string(doc, baseline);
        settings->baseline = arena_strndup(&settings->arena, path.ptr, path.len);
    }
    if (rules != JSON_NONE && doc->nodes[rules].kind != JSON_OBJECT)
        note(problems, problems_size, doc, rules, "must be an object mapping a code to a severity");
    if (types != JSON_NONE && doc->nodes[types].kind != JSON_OBJECT)
        note(problems, problems_size, doc, types,
             "must be an object mapping a type identifier to a kind's type");
    if (rules != JSON_NONE && doc->nodes[rules].kind == JSON_OBJECT) {
        uint32_t count = json_child_count(doc, rules);
        settings->severities =
            arena_alloc(&settings->arena, (count + CODE_COUNT + 1) * sizeof *settings->severities);
        if (settings->severities != NULL) { /* codes first: one named alone beats its group */
            read_rules(settings, doc, rules, false, problems, problems_size);
            read_rules(settings, doc, rules, true, problems, problems_size);
        }
    }
    if (types != JSON_NONE && doc->nodes[types].kind == JSON_OBJECT) {
        uint32_t count = json_child_count(doc, types);
        settings->types = arena_alloc(&settings->arena, (count + 1) * sizeof *settings->types);
        for (uint32_t m = doc->nodes[types].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            struct json_str id = json_node_key(doc, m);
            struct json_str kind = json_node_string(doc, m);
            if (doc->nodes[m].kind != JSON_STRING) {
                note(problems, problems_size, doc, m,
                     "a \"types\" entry maps an identifier to a kind's type (a string)");
                continue;
            }
            settings->types[settings->type_count++] =
                (struct settings_type){arena_strndup(&settings->arena, id.ptr, id.len),
                                       arena_strndup(&settings->arena, kind.ptr, kind.len)};
        }
    }
}

/* The placeholders of `over` when it names some, else those of `base`; of both (`base`'s
 * first) when `both`. */
static int copy_placeholders(struct settings *out, const struct settings *over,
                             const struct settings *base, bool both)
{
    bool over_names = over != NULL && over->placeholder_count > 0;
    const struct settings *layers[2] = {both || !over_names ? base : NULL,
                                        both || over_names ? over : NULL};
    uint32_t total = 0;
    for (int l = 0; l < 2; l++)
        total += layers[l] != NULL ? layers[l]->placeholder_count : 0;
    if (total == 0)
        return 0;
    out->placeholders = arena_alloc(&out->arena, total * sizeof *out->placeholders);
    if (out->placeholders == NULL)
        return -1;
    for (int l = 0; l < 2; l++) {
        for (uint32_t i = 0; layers[l] != NULL && i < layers[l]->placeholder_count; i++) {
            const struct placeholder_pattern *from = &layers[l]->placeholders[i];
            size_t len = from->prefix_len + 4 + from->suffix_len;
            char *copy = arena_strndup(&out->arena, from->text, len);
            struct placeholder_pattern *to = &out->placeholders[out->placeholder_count];
            if (copy == NULL || placeholder_pattern_parse(copy, len, to) != NULL)
                return -1;
            out->placeholder_count++;
        }
    }
    return 0;
}

/* A copy of `text` (may be NULL) in `out`'s arena; false when memory ran out. */
static bool copy_text(struct settings *out, const char **text)
{
    return *text == NULL || (*text = arena_strndup(&out->arena, *text, strlen(*text))) != NULL;
}

/* `from`'s strings appended to `to`'s, copied into `out`'s arena; 0, or -1 (memory). */
static int append_strings(struct settings *out, struct settings_strings *to,
                          const struct settings_strings *from)
{
    if (from->count == 0)
        return 0;
    uint32_t count = to->count + from->count;
    const char **all = arena_alloc(&out->arena, count * sizeof *all);
    const char **origins = arena_alloc(&out->arena, count * sizeof *origins);
    if (all == NULL || origins == NULL)
        return -1;
    for (uint32_t i = 0; i < count; i++) {
        const struct settings_strings *list = i < to->count ? to : from;
        uint32_t at = i < to->count ? i : i - to->count;
        all[i] = list->items[at];
        origins[i] = list->from != NULL ? list->from[at] : NULL;
        if (i >= to->count && (!copy_text(out, &all[i]) || !copy_text(out, &origins[i])))
            return -1;
    }
    to->items = all;
    to->from = origins;
    to->count = count;
    return 0;
}

/* The lists of `base` then `over`, and the baseline of `over` or else `base`, into `out`; with
 * `extend`, `base`'s items counted as inherited, else `base`'s inherited kept. */
static int merge_paths(struct settings *out, const struct settings *base,
                       const struct settings *over, bool extend)
{
    const struct settings *layers[2] = {base, over};
    for (int l = 0; l < 2; l++) {
        if (layers[l] == NULL)
            continue;
        if (append_strings(out, &out->include, &layers[l]->include) != 0 ||
            append_strings(out, &out->exclude, &layers[l]->exclude) != 0 ||
            append_strings(out, &out->schemas, &layers[l]->schemas) != 0)
            return -1;
        if (layers[l]->baseline != NULL &&
            (out->baseline = arena_strndup(&out->arena, layers[l]->baseline,
                                           strlen(layers[l]->baseline))) == NULL)
            return -1;
    }
    if (base != NULL) {
        out->include.inherited = extend ? base->include.count : base->include.inherited;
        out->exclude.inherited = extend ? base->exclude.count : base->exclude.inherited;
        out->schemas.inherited = extend ? base->schemas.count : base->schemas.inherited;
        out->ignore_inherited = extend ? base->ignore_count : base->ignore_inherited;
    }
    return 0;
}

char *settings_baseline_path(const struct settings *settings, const char *dir)
{
    const char *name = settings->baseline;
    if (name == NULL)
        return NULL;
    bool absolute = name[0] == '/';
    size_t size = (absolute ? 0 : strlen(dir) + 1) + strlen(name) + 1;
    char *path = malloc(size);
    if (path != NULL)
        snprintf(path, size, "%s%s%s", absolute ? "" : dir, absolute ? "" : "/", name);
    return path;
}

static int merge(struct settings *out, const struct settings *base, const struct settings *over,
                 bool extend)
{
    settings_free(out);
    settings_init(out);
    const struct settings *layers[2] = {over, base}; /* the first match is the one that counts */
    uint32_t severities = 0, types = 0;
    for (int l = 0; l < 2; l++) {
        severities += layers[l] ? layers[l]->severity_count : 0;
        types += layers[l] ? layers[l]->type_count : 0;
    }
    out->severities = arena_alloc(&out->arena, (severities + 1) * sizeof *out->severities);
    out->types = arena_alloc(&out->arena, (types + 1) * sizeof *out->types);
    if (out->severities == NULL || out->types == NULL ||
        copy_placeholders(out, over, base, extend) != 0)
        goto fail;
    for (int l = 0; l < 2; l++) {
        for (uint32_t i = 0; layers[l] != NULL && i < layers[l]->severity_count; i++)
            out->severities[out->severity_count++] = layers[l]->severities[i];
        for (uint32_t i = 0; layers[l] != NULL && i < layers[l]->type_count; i++) {
            struct settings_type copy = layers[l]->types[i];
            if (!copy_text(out, &copy.id) || !copy_text(out, &copy.kind_type))
                goto fail;
            out->types[out->type_count++] = copy;
        }
    }
    /* "ignore" in list order: base's first */
    if (suppress_copy(out, base) != 0 || suppress_copy(out, over) != 0 ||
        merge_paths(out, base, over, extend) != 0)
        goto fail;
    return 0;
fail:
    settings_free(out);
    settings_init(out);
    return -1;
}

int settings_merge(struct settings *out, const struct settings *base, const struct settings *over)
{
    return merge(out, base, over, false);
}

int settings_extend(struct settings *out, const struct settings *base, const struct settings *over)
{
    return merge(out, base, over, true);
}

/* Each path of `list` joined to `dir` unless absolute. */
static bool join_paths(struct settings *settings, struct settings_strings *list, const char *dir)
{
    for (uint32_t i = 0; i < list->count; i++) {
        if (list->items[i][0] != '/' &&
            (list->items[i] = arena_printf(&settings->arena, "%s/%s", dir, list->items[i])) == NULL)
            return false;
    }
    return true;
}

/* Each glob of `list` marked as written `from`. */
static bool mark_globs(struct settings *settings, struct settings_strings *list, const char *from)
{
    if (list->count == 0)
        return true;
    list->from = arena_alloc(&settings->arena, list->count * sizeof *list->from);
    for (uint32_t i = 0; list->from != NULL && i < list->count; i++)
        list->from[i] = from;
    return list->from != NULL;
}

int settings_rebase(struct settings *settings, const char *from, const char *dir, const char *path)
{
    const char *mark = arena_strndup(&settings->arena, from, strlen(from));
    const char *origin = arena_strndup(&settings->arena, path, strlen(path));
    if (mark == NULL || origin == NULL || !mark_globs(settings, &settings->include, mark) ||
        !mark_globs(settings, &settings->exclude, mark) ||
        !join_paths(settings, &settings->schemas, dir))
        return -1;
    for (uint32_t i = 0; i < settings->ignore_count; i++) {
        settings->ignores[i].files_from = mark;
        settings->ignores[i].origin = origin;
        settings->ignores[i].origin_index = i;
    }
    if (settings->baseline != NULL && settings->baseline[0] != '/' &&
        (settings->baseline = arena_printf(&settings->arena, "%s/%s", dir, settings->baseline)) ==
            NULL)
        return -1;
    return 0;
}

bool settings_glob_match(const struct settings_strings *globs, const char *path)
{
    for (uint32_t i = 0; i < globs->count; i++) {
        if (glob_match_from(globs->items[i], globs->from != NULL ? globs->from[i] : NULL, path))
            return true;
    }
    return false;
}

/* More severe first: error 1 ... hint 4, off last. */
static int rank(enum diag_severity severity)
{
    return severity == DIAG_OFF ? DIAG_HINT + 1 : (int)severity;
}

int settings_stricter(struct settings *out, const struct settings *applied,
                      const struct settings *other, const char *group)
{
    struct settings_severity raised[CODE_COUNT];
    struct settings over = {.severities = raised};
    for (int c = 0; c < CODE_COUNT; c++) {
        enum diag_code code = (enum diag_code)c;
        if (!code_in_group(code, group))
            continue;
        enum diag_severity fallback = code_info(code)->severity;
        enum diag_severity is = settings_severity(applied, code, fallback);
        enum diag_severity was = settings_severity(other, code, fallback);
        if (rank(was) < rank(is))
            raised[over.severity_count++] = (struct settings_severity){code, was};
    }
    return settings_merge(out, applied, &over);
}

enum diag_severity settings_severity(const struct settings *settings, enum diag_code code,
                                     enum diag_severity fallback)
{
    for (uint32_t i = 0; settings != NULL && i < settings->severity_count; i++) {
        if (settings->severities[i].code == code)
            return settings->severities[i].severity;
    }
    return fallback;
}

bool settings_placeholder(const struct settings *settings, const struct json_doc *doc,
                          uint32_t node, struct placeholder_match *m)
{
    return settings != NULL && placeholder_in_string(settings->placeholders,
                                                     settings->placeholder_count, doc, node, 0, m);
}

bool settings_template_unconfigured(const struct settings *settings, const struct json_doc *doc,
                                    uint32_t node)
{
    static const struct placeholder_pattern common[] = {
        {"${NAME}", "${", "}", 2, 1},
        {"{{ NAME }}", "{{ ", " }}", 3, 3},
    };
    struct placeholder_match m;
    return (settings == NULL || settings->placeholder_count == 0) &&
           placeholder_in_string(common, sizeof common / sizeof common[0], doc, node, 0, &m);
}

const char *settings_type(const struct settings *settings, const char *id, size_t len)
{
    for (uint32_t i = 0; settings != NULL && i < settings->type_count; i++) {
        if (strlen(settings->types[i].id) == len && memcmp(settings->types[i].id, id, len) == 0)
            return settings->types[i].kind_type;
    }
    return NULL;
}

const char *settings_edit_add(const char *text, size_t len, const char *key, bool array,
                              const char *item_key, const char *item, struct arena *arena,
                              uint32_t *start, uint32_t *end)
{
    /* an element on a line of its own, a member after the last on its line */
    const char *wrapped =
        array ? arena_printf(arena, "[\n    %s\n  ]", item) : arena_printf(arena, "{%s}", item);
    size_t blank = 0;
    while (blank < len && strchr(" \t\r\n", text[blank]) != NULL)
        blank++;
    if (wrapped == NULL || blank == len) { /* a new (or empty) file */
        *start = 0;
        *end = (uint32_t)len;
        return wrapped ? arena_printf(arena, "{\n  \"%s\": %s\n}\n", key, wrapped) : NULL;
    }
    struct json_doc doc;
    const char *edit = NULL;
    if (json_parse(&doc, text, len, NULL) != 0 || doc.error_count > 0 || doc.root == JSON_NONE ||
        doc.nodes[doc.root].kind != JSON_OBJECT)
        goto done;
    uint32_t member = json_object_get(&doc, doc.root, key, strlen(key));
    if (member != JSON_NONE && doc.nodes[member].kind != (array ? JSON_ARRAY : JSON_OBJECT))
        goto done;
    if (member != JSON_NONE && item_key != NULL &&
        json_object_get(&doc, member, item_key, strlen(item_key)) != JSON_NONE)
        goto done; /* there already */
    uint32_t into = member != JSON_NONE ? member : doc.root, last = JSON_NONE;
    for (uint32_t m = doc.nodes[into].first_child; m != JSON_NONE; m = doc.nodes[m].next)
        last = m;
    *start = *end = last != JSON_NONE ? doc.nodes[last].end : doc.nodes[into].start + 1;
    const char *comma = last != JSON_NONE ? "," : "", *space = last != JSON_NONE ? " " : "";
    if (array && member != JSON_NONE)
        edit = arena_printf(arena, "%s\n    %s", comma, item);
    else if (array)
        edit = arena_printf(arena, "%s\n  \"%s\": %s", comma, key, wrapped);
    else if (member != JSON_NONE)
        edit = arena_printf(arena, "%s%s%s", comma, space, item);
    else
        edit = arena_printf(arena, "%s%s\"%s\": %s", comma, space, key, wrapped);
done:
    json_doc_free(&doc);
    return edit;
}
