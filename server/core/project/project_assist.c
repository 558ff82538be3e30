/* project_assist: completion and hover in srcls.json, from the code table and the registry. */
#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"
#include "project.h"

static const char *const SEVERITIES[] = {"error", "warning", "information", "hint", "off"};
static const char RULES_TEXT[] =
    "Severity per diagnostic code: error, warning, information, hint, or off to turn it off.";
static const char TYPES_TEXT[] =
    "Extra type identifiers: each maps to the type of a kind (srcls --list-kinds lists them).";
static const char INCLUDE_TEXT[] =
    "Globs of the files a directory scan of srcls --check also checks, as documents, whatever "
    "their name (a glob with '/' is matched against the path from this file's directory, one "
    "without against the file's name).";
static const char EXCLUDE_TEXT[] =
    "Globs of what a directory scan of srcls --check skips, files or directories (a glob with "
    "'/' is matched against the path from this file's directory, one without against the name).";
static const char SCHEMAS_TEXT[] =
    "Directories of your own kind files, relative to this file's directory: each *.json in them "
    "adds a kind, or extends a built-in one when it has \"extends\" and no \"types\" "
    "(docs/schema-format.md, \"Your own kinds\"). srcls --check and the editor load them.";
static const char BASELINE_TEXT[] =
    "The baseline file of srcls --check, relative to this file's directory (written by srcls "
    "--check --write-baseline FILE): the findings it records are not reported again.";
static const char IGNORE_TEXT[] =
    "Findings silenced, each with its reason: entries of {\"files\": GLOB, \"pointer\": PATTERN, "
    "\"codes\": [CODE, ...], \"reason\": \"...\"}; \"reason\" is required, and \"pointer\" or "
    "\"codes\". srcls --check reports an entry that silenced nothing.";
static const char IGNORE_FILES_TEXT[] =
    "A glob of the files the entry applies to (default: all): with '/' matched against the path "
    "from this file's directory, without against the file's name; '*' and '?' within a name, "
    "'**' any directories; a backslash makes the character after it plain (\"a\\\\*b.json\": "
    "the file a*b.json).";
static const char IGNORE_POINTER_TEXT[] =
    "A JSON Pointer pattern of where the findings are (the place and below it): '*' is any one "
    "segment, '**' any number; in a bulk file the first segment is a source's index or name.";
static const char IGNORE_CODES_TEXT[] =
    "The codes silenced (or the group \"security\"); without it, every code at the pointer.";
static const char IGNORE_REASON_TEXT[] =
    "Why these findings are accepted (required): for the next reader of this file.";

static const char EXTENDS_TEXT[] =
    "Other srcls.json files this one builds on: a path, or a list of them, relative to this "
    "file's directory (a monorepo's sub-project extends the root's: \"../srcls.json\"). Their "
    "settings apply under this file's: \"rules\" and \"types\" key by key, this file winning "
    "(and a later file over an earlier one); the lists (\"include\", \"exclude\", \"schemas\", "
    "\"ignore\", \"placeholders\") concatenated. Their globs and paths stay relative to the "
    "file that wrote them.";
static const char PLACEHOLDERS_TEXT[] =
    "The syntaxes your renderer fills in, NAME standing for the variable: [\"${NAME}\", "
    "\"{{ NAME }}\"]. A string value holding one is checked as filled in later; srcls --check "
    "--env FILE checks the documents rendered with FILE's values.";

enum place { PLACE_NONE, PLACE_TOP, PLACE_RULES, PLACE_TYPES, PLACE_IGNORE };

/* Which object of srcls.json `object` is: the top, "rules" or "types". */
static enum place place_of(struct json_doc *doc, uint32_t object)
{
    if (object == JSON_NONE || doc->nodes[object].kind != JSON_OBJECT)
        return PLACE_NONE;
    uint32_t parent = doc->nodes[object].parent;
    if (parent == JSON_NONE)
        return PLACE_TOP;
    if (doc->nodes[parent].kind == JSON_ARRAY && doc->nodes[parent].parent == doc->root &&
        json_node_key_equals(doc, parent, JSON_LITERAL(SETTINGS_KEY_IGNORE)))
        return PLACE_IGNORE; /* an entry of "ignore" */
    if (doc->nodes[parent].parent != JSON_NONE)
        return PLACE_NONE;
    if (json_node_key_equals(doc, object, JSON_LITERAL(SETTINGS_KEY_RULES)) ||
        json_node_key_equals(doc, object, JSON_LITERAL(SETTINGS_KEY_SEVERITY)))
        return PLACE_RULES;
    return json_node_key_equals(doc, object, JSON_LITERAL(SETTINGS_KEY_TYPES)) ? PLACE_TYPES
                                                                               : PLACE_NONE;
}

/* What the group name in "rules" sets: its codes, each at the severity given. */
static const char *group_text(struct arena *arena)
{
    const char *text = "the posture codes (risky settings), information by default, all at once:";
    for (uint32_t c = 0; text != NULL && c < CODE_COUNT; c++) {
        if (code_in_group((enum diag_code)c, CODE_GROUP_SECURITY))
            text = arena_printf(arena, "%s %s", text, code_name((enum diag_code)c));
    }
    return text;
}

static int add(struct completion_list *out, enum completion_kind kind, const char *label,
               const char *text, const char *detail, const char *doc, uint32_t start, uint32_t end,
               uint32_t order)
{
    struct completion_item *item =
        completion_list_item(out, kind, label, text, detail, doc, start, end);
    if (item == NULL)
        return -1;
    snprintf(item->sort, sizeof item->sort, "%05u", order);
    return 0;
}

/* The bytes a completion replaces: the key or string value under the cursor, or nothing. */
static void token(const struct json_doc *doc, struct json_location at, uint32_t offset,
                  uint32_t *start, uint32_t *end)
{
    const struct json_node *n = at.node != JSON_NONE ? &doc->nodes[at.node] : NULL;
    *start = *end = offset;
    if (at.kind == JSON_LOCATION_KEY && n != NULL) {
        *start = n->key_start;
        *end = n->key_end;
    } else if (at.kind == JSON_LOCATION_VALUE && n != NULL && n->kind == JSON_STRING) {
        *start = n->start;
        *end = n->end;
    }
}

static int complete_keys(struct completion_list *out, struct json_doc *doc, uint32_t object,
                         enum place place, uint32_t start, uint32_t end, bool key_only)
{
    struct arena *arena = &out->arena;
    if (place == PLACE_TOP || place == PLACE_IGNORE) {
        static const struct {
            enum place place;
            const char *key, *doc, *empty, *type;
        } table[] = {
            {PLACE_TOP, SETTINGS_KEY_EXTENDS, EXTENDS_TEXT, "\"\"", "string"},
            {PLACE_TOP, SETTINGS_KEY_RULES, RULES_TEXT, "{}", "object"},
            {PLACE_TOP, SETTINGS_KEY_TYPES, TYPES_TEXT, "{}", "object"},
            {PLACE_TOP, SETTINGS_KEY_INCLUDE, INCLUDE_TEXT, "[]", "array"},
            {PLACE_TOP, SETTINGS_KEY_EXCLUDE, EXCLUDE_TEXT, "[]", "array"},
            {PLACE_TOP, SETTINGS_KEY_SCHEMAS, SCHEMAS_TEXT, "[]", "array"},
            {PLACE_TOP, SETTINGS_KEY_PLACEHOLDERS, PLACEHOLDERS_TEXT, "[]", "array"},
            {PLACE_TOP, SETTINGS_KEY_IGNORE, IGNORE_TEXT, "[]", "array"},
            {PLACE_TOP, SETTINGS_KEY_BASELINE, BASELINE_TEXT, "\"\"", "string"},
            {PLACE_IGNORE, "files", IGNORE_FILES_TEXT, "\"\"", "string"},
            {PLACE_IGNORE, "pointer", IGNORE_POINTER_TEXT, "\"\"", "string"},
            {PLACE_IGNORE, "codes", IGNORE_CODES_TEXT, "[]", "array"},
            {PLACE_IGNORE, "reason", IGNORE_REASON_TEXT, "\"\"", "string"},
        };
        for (uint32_t i = 0; i < sizeof table / sizeof *table; i++) {
            if (table[i].place != place)
                continue;
            const char *key = table[i].key;
            if (json_object_get(doc, object, key, strlen(key)) != JSON_NONE)
                continue;
            const char *text = key_only ? arena_printf(arena, "\"%s\"", key)
                                        : arena_printf(arena, "\"%s\": %s", key, table[i].empty);
            if (add(out, COMPLETION_KEY, key, text, table[i].type, table[i].doc, start, end, i) !=
                0)
                return -1;
        }
        return 0;
    }
    for (uint32_t c = 0; place == PLACE_RULES && c < CODE_COUNT; c++) {
        const char *name = code_name((enum diag_code)c);
        if (json_object_get(doc, object, name, strlen(name)) != JSON_NONE)
            continue;
        const struct code_info *info = code_info((enum diag_code)c);
        const char *text = key_only ? arena_printf(arena, "\"%s\"", name)
                                    : arena_printf(arena, "\"%s\": \"%s\"", name,
                                                   diag_severity_name(info->severity));
        if (add(out, COMPLETION_KEY, name, text, diag_severity_name(info->severity), info->summary,
                start, end, c) != 0)
            return -1;
    }
    const char *group = CODE_GROUP_SECURITY;
    if (place != PLACE_RULES || json_object_get(doc, object, group, strlen(group)) != JSON_NONE)
        return 0;
    const char *text = key_only ? arena_printf(arena, "\"%s\"", group)
                                : arena_printf(arena, "\"%s\": \"error\"", group);
    return add(out, COMPLETION_KEY, group, text, "group", group_text(arena), start, end,
               CODE_COUNT);
}

static int complete_values(struct completion_list *out, const struct schema_registry *registry,
                           enum place place, uint32_t start, uint32_t end)
{
    struct arena *arena = &out->arena;
    for (uint32_t i = 0; place == PLACE_RULES && i < sizeof SEVERITIES / sizeof *SEVERITIES; i++) {
        if (add(out, COMPLETION_ENUM, SEVERITIES[i], arena_printf(arena, "\"%s\"", SEVERITIES[i]),
                "severity", NULL, start, end, i) != 0)
            return -1;
    }
    uint32_t order = 0;
    for (uint32_t k = 0; place == PLACE_TYPES && registry && k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        for (uint32_t t = 0; t < kind->type_count; t++) {
            if (add(out, COMPLETION_KIND_ID, kind->types[t],
                    arena_printf(arena, "\"%s\"", kind->types[t]), kind->title, kind->description,
                    start, end, order++) != 0)
                return -1;
        }
    }
    return 0;
}

/* Whether `array` is the "codes" of an "ignore" entry. */
static bool ignore_codes(struct json_doc *doc, uint32_t array)
{
    return array != JSON_NONE && doc->nodes[array].kind == JSON_ARRAY &&
           json_node_key_equals(doc, array, JSON_LITERAL("codes")) &&
           place_of(doc, doc->nodes[array].parent) == PLACE_IGNORE;
}

/* The codes (and the group) an "ignore" entry's "codes" `array` does not hold yet, `current`
 * (the string under the cursor, or JSON_NONE) aside, as "rules" offers them. */
static int complete_codes(struct completion_list *out, struct json_doc *doc, uint32_t array,
                          uint32_t current, uint32_t start, uint32_t end)
{
    struct arena *arena = &out->arena;
    for (uint32_t c = 0; c <= CODE_COUNT; c++) {
        const char *name = c < CODE_COUNT ? code_name((enum diag_code)c) : CODE_GROUP_SECURITY;
        bool held = false;
        for (uint32_t e = doc->nodes[array].first_child; e != JSON_NONE && !held;
             e = doc->nodes[e].next) {
            struct json_str v = json_node_string(doc, e);
            held = e != current && doc->nodes[e].kind == JSON_STRING && v.len == strlen(name) &&
                   memcmp(v.ptr, name, v.len) == 0;
        }
        if (held)
            continue;
        const struct code_info *info = c < CODE_COUNT ? code_info((enum diag_code)c) : NULL;
        if (add(out, COMPLETION_ENUM, name, arena_printf(arena, "\"%s\"", name),
                info != NULL ? diag_severity_name(info->severity) : "group",
                info != NULL ? info->summary : group_text(arena), start, end, c) != 0)
            return -1;
    }
    return 0;
}

int project_complete(struct analysis *a, const struct schema_registry *registry, uint32_t offset,
                     enum text_markup markup, struct completion_list *out)
{
    (void)markup; /* the texts are plain sentences, the same in both markups */
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    struct json_doc *doc = &a->doc;
    struct json_location at = json_locate(doc, offset);
    uint32_t start, end;
    token(doc, at, offset, &start, &end);
    switch (at.kind) {
    case JSON_LOCATION_OBJECT:
        return complete_keys(out, doc, at.node, place_of(doc, at.node), start, end, false);
    case JSON_LOCATION_KEY:
        return complete_keys(out, doc, doc->nodes[at.node].parent,
                             place_of(doc, doc->nodes[at.node].parent), start, end, true);
    case JSON_LOCATION_ARRAY:
        return ignore_codes(doc, at.node) ? complete_codes(out, doc, at.node, JSON_NONE, start, end)
                                          : 0;
    case JSON_LOCATION_AFTER_KEY:
    case JSON_LOCATION_VALUE:
        if (at.kind == JSON_LOCATION_VALUE && doc->nodes[at.node].kind == JSON_STRING &&
            ignore_codes(doc, doc->nodes[at.node].parent))
            return complete_codes(out, doc, doc->nodes[at.node].parent, at.node, start, end);
        return complete_values(out, registry, place_of(doc, doc->nodes[at.node].parent), start,
                               end);
    default: return 0;
    }
}

const char *project_hover(struct analysis *a, const struct schema_registry *registry,
                          uint32_t offset, enum text_markup markup, struct arena *arena,
                          uint32_t *start, uint32_t *end)
{
    struct json_doc *doc = &a->doc;
    struct json_location at = json_locate(doc, offset);
    if ((at.kind != JSON_LOCATION_KEY && at.kind != JSON_LOCATION_VALUE) || at.node == JSON_NONE)
        return NULL;
    const struct json_node *n = &doc->nodes[at.node];
    enum place place = place_of(doc, n->parent);
    bool key = at.kind == JSON_LOCATION_KEY;
    *start = key ? n->key_start : n->start;
    *end = key ? n->key_end : n->end;
    const char *b = markup == TEXT_MARKDOWN ? "**" : "";
    if (place == PLACE_IGNORE && key) {
        static const char *const keys[] = {"files", "pointer", "codes", "reason"};
        static const char *const texts[] = {IGNORE_FILES_TEXT, IGNORE_POINTER_TEXT,
                                            IGNORE_CODES_TEXT, IGNORE_REASON_TEXT};
        for (size_t i = 0; i < 4; i++) {
            if (json_node_key_equals(doc, at.node, keys[i], strlen(keys[i])))
                return texts[i];
        }
        return NULL;
    }
    if (place == PLACE_TOP && key) {
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_TYPES)))
            return TYPES_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_EXTENDS)))
            return EXTENDS_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_INCLUDE)))
            return INCLUDE_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_EXCLUDE)))
            return EXCLUDE_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_SCHEMAS)))
            return SCHEMAS_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_PLACEHOLDERS)))
            return PLACEHOLDERS_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_BASELINE)))
            return BASELINE_TEXT;
        if (json_node_key_equals(doc, at.node, JSON_LITERAL(SETTINGS_KEY_IGNORE)))
            return IGNORE_TEXT;
        return place_of(doc, at.node) == PLACE_RULES ? RULES_TEXT : NULL;
    }
    if (place == PLACE_RULES && key) {
        struct json_str name = json_node_key(doc, at.node);
        char code[64];
        snprintf(code, sizeof code, "%.*s", (int)name.len, name.ptr);
        int c = code_parse(code);
        if (c < 0)
            return code_group_known(code) ? group_text(arena) : NULL;
        const struct code_info *info = code_info((enum diag_code)c);
        return arena_printf(arena, "%s%s%s (default %s): %s\n\n%s", b, info->name, b,
                            diag_severity_name(info->severity), info->summary, info->explanation);
    }
    if (place == PLACE_TYPES && !key && n->kind == JSON_STRING && registry != NULL) {
        struct json_str type = json_node_string(doc, at.node);
        const struct schema_kind *kind = schema_find_kind(registry, type.ptr, type.len);
        if (kind == NULL)
            return NULL;
        return arena_printf(arena, "%s%s%s (kind %d)\n\n%s", b, kind->title, b, kind->number,
                            kind->description ? kind->description : "");
    }
    return NULL;
}
