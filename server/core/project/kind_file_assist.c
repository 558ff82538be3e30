/* kind_file_assist: completion and hover in a kind file, read off the JSON Schema of the
 * kind-file format (schema/kind-file.schema.json, embedded) — the same file editors that speak
 * JSON Schema use, so the two never disagree. Only what completion and hover need is read:
 * "properties", "additionalProperties", "items", "$ref" within the file, "oneOf"/"anyOf" (the
 * alternative that fits the object being edited), "enum", "type", "description", and
 * "x-srcls-complete": "kinds" or "groups" for a value that names a kind by its file stem, or a
 * group. */
#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "project.h"

#define MAX_REFS 16

static uint32_t get(struct json_doc *s, uint32_t node, const char *key)
{
    if (node == JSON_NONE || s->nodes[node].kind != JSON_OBJECT)
        return JSON_NONE;
    return json_object_get(s, node, key, strlen(key));
}

/* `node` with its "$ref"s (to "#/...", this file) followed. */
static uint32_t resolve(struct json_doc *s, uint32_t node)
{
    for (int i = 0; i < MAX_REFS && node != JSON_NONE; i++) {
        uint32_t ref = get(s, node, "$ref");
        if (ref == JSON_NONE || s->nodes[ref].kind != JSON_STRING)
            break;
        struct json_str r = json_node_string(s, ref);
        if (r.len == 0 || r.ptr[0] != '#')
            return JSON_NONE;
        node = json_pointer_find(s, r.ptr + 1, r.len - 1);
    }
    return node;
}

/* Whether the object `inst` of `doc` has every key of the array `list`. */
static bool has_all(struct json_doc *s, uint32_t list, struct json_doc *doc, uint32_t inst)
{
    for (uint32_t k = s->nodes[list].kind == JSON_ARRAY ? s->nodes[list].first_child : JSON_NONE;
         k != JSON_NONE; k = s->nodes[k].next) {
        struct json_str key = json_node_string(s, k);
        if (json_object_get(doc, inst, key.ptr, key.len) == JSON_NONE)
            return false;
    }
    return true;
}

/* How well the object `inst` fits the schema `a` (resolved): -1 when `a` describes no objects
 * or rules `inst` out (it has every key of "not": {"required"}), else the keys of `inst` that
 * `a` has as properties, less those it has not (a document being typed may lack required keys
 * yet, so they are not counted). */
static int fit(struct json_doc *s, uint32_t a, struct json_doc *doc, uint32_t inst)
{
    uint32_t properties = get(s, a, "properties");
    if (properties == JSON_NONE && get(s, a, "additionalProperties") == JSON_NONE)
        return -1; /* not an object's schema */
    if (inst == JSON_NONE || doc->nodes[inst].kind != JSON_OBJECT)
        return 0;
    uint32_t not_required = get(s, get(s, a, "not"), "required");
    if (not_required != JSON_NONE && has_all(s, not_required, doc, inst))
        return -1;
    int score = 0;
    for (uint32_t m = doc->nodes[inst].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        bool known = properties != JSON_NONE &&
                     json_object_get(s, properties, key.ptr, key.len) != JSON_NONE;
        score += known ? 1 : -1;
    }
    return score < 0 ? 0 : score;
}

/* The schema of the object `inst` from `node`: resolved, and of "oneOf"/"anyOf" the
 * alternative it fits best (the first of those that fit as well). */
static uint32_t object_schema(struct json_doc *s, uint32_t node, struct json_doc *doc,
                              uint32_t inst)
{
    node = resolve(s, node);
    static const char *const lists[] = {"oneOf", "anyOf"};
    for (int depth = 0; depth < MAX_REFS && node != JSON_NONE; depth++) {
        uint32_t list = JSON_NONE;
        for (int i = 0; i < 2 && list == JSON_NONE; i++)
            list = get(s, node, lists[i]);
        if (list == JSON_NONE || s->nodes[list].kind != JSON_ARRAY || fit(s, node, doc, inst) >= 0)
            return node;
        uint32_t chosen = JSON_NONE;
        int best = -1;
        for (uint32_t e = s->nodes[list].first_child; e != JSON_NONE; e = s->nodes[e].next) {
            uint32_t alternative = resolve(s, e);
            int score = fit(s, alternative, doc, inst);
            if (score > best) {
                best = score;
                chosen = alternative;
            }
        }
        node = chosen;
    }
    return node;
}

/* The schema of the node `node` of `doc` (the root's is the file's), or JSON_NONE. */
static uint32_t schema_at(struct json_doc *s, struct json_doc *doc, uint32_t node)
{
    uint32_t path[256];
    size_t depth = 0;
    for (uint32_t n = node; n != doc->root && n != JSON_NONE; n = doc->nodes[n].parent) {
        if (depth == sizeof path / sizeof *path)
            return JSON_NONE; /* deeper than any kind file */
        path[depth++] = n;
    }
    uint32_t at = s->root;
    for (uint32_t parent = doc->root; depth > 0 && at != JSON_NONE; parent = path[depth]) {
        uint32_t child = path[--depth];
        uint32_t container = object_schema(s, at, doc, parent);
        if (doc->nodes[parent].kind == JSON_ARRAY) {
            at = get(s, container, "items");
            continue;
        }
        struct json_str key = json_node_key(doc, child);
        uint32_t properties = get(s, container, "properties");
        at = properties != JSON_NONE ? json_object_get(s, properties, key.ptr, key.len) : JSON_NONE;
        if (at == JSON_NONE) {
            uint32_t more = get(s, container, "additionalProperties");
            at = more != JSON_NONE && s->nodes[more].kind == JSON_OBJECT ? more : JSON_NONE;
        }
    }
    return at;
}

/* A property's description: its own, else that of what it refers to. */
static const char *description(struct json_doc *s, uint32_t node, struct arena *arena)
{
    uint32_t d = get(s, node, "description");
    if (d == JSON_NONE)
        d = get(s, resolve(s, node), "description");
    if (d == JSON_NONE || s->nodes[d].kind != JSON_STRING)
        return NULL;
    struct json_str text = json_node_string(s, d);
    return arena_strndup(arena, text.ptr, text.len);
}

static int parse_format(struct json_doc *s)
{
    size_t len;
    const char *text = schema_kind_file_json_schema(&len);
    if (text == NULL || json_parse(s, text, len, NULL) != 0)
        return -1;
    return s->error_count == 0 && s->root != JSON_NONE ? 0 : -1;
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

/* An empty value of the property's "type", for a key completed with its value. */
static const char *skeleton(struct json_doc *s, uint32_t property)
{
    uint32_t type = get(s, resolve(s, property), "type");
    if (type == JSON_NONE || s->nodes[type].kind != JSON_STRING)
        return NULL;
    static const struct {
        const char *type, *value;
    } empty[] = {{"string", "\"\""},  {"array", "[]"},  {"object", "{}"},
                 {"boolean", "true"}, {"integer", "0"}, {"number", "0"}};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
        if (json_node_string_equals(s, type, empty[i].type, strlen(empty[i].type)))
            return empty[i].value;
    }
    return NULL;
}

struct assist {
    struct json_doc *s, *doc;
    const struct schema_registry *registry;
    struct completion_list *out;
    uint32_t start, end, order;
};

static int add(struct assist *a, enum completion_kind kind, const char *label, const char *text,
               const char *detail, const char *doc)
{
    struct completion_item *item =
        completion_list_item(a->out, kind, label, text, detail, doc, a->start, a->end);
    if (item == NULL)
        return -1;
    snprintf(item->sort, sizeof item->sort, "%05u", a->order++);
    return 0;
}

/* The keys the object `object` may still take (`member`: the key being typed, which counts as
 * absent), with their value when `with_value`. */
static int complete_keys(struct assist *a, uint32_t object, uint32_t member, bool with_value)
{
    struct json_doc *s = a->s;
    uint32_t properties =
        get(s, object_schema(s, schema_at(s, a->doc, object), a->doc, object), "properties");
    for (uint32_t p = properties != JSON_NONE ? s->nodes[properties].first_child : JSON_NONE;
         p != JSON_NONE; p = s->nodes[p].next) {
        struct json_str key = json_node_key(s, p);
        uint32_t there = json_object_get(a->doc, object, key.ptr, key.len);
        if (there != JSON_NONE && there != member)
            continue;
        const char *name = arena_strndup(&a->out->arena, key.ptr, key.len);
        const char *value = with_value ? skeleton(s, p) : NULL;
        const char *text = value != NULL ? arena_printf(&a->out->arena, "\"%s\": %s", name, value)
                                         : arena_printf(&a->out->arena, "\"%s\"", name);
        if (name == NULL || text == NULL ||
            add(a, COMPLETION_KEY, name, text, NULL, description(s, p, &a->out->arena)) != 0)
            return -1;
    }
    return 0;
}

/* The values `property` allows: its "enum" (and its alternatives'), or the kinds' stems. */
static int complete_values(struct assist *a, uint32_t property, int depth)
{
    struct json_doc *s = a->s;
    uint32_t node = resolve(s, property);
    if (node == JSON_NONE || depth > MAX_REFS)
        return 0;
    uint32_t special = get(s, property, "x-srcls-complete");
    bool kinds = special != JSON_NONE && json_node_string_equals(s, special, JSON_LITERAL("kinds"));
    bool groups =
        special != JSON_NONE && json_node_string_equals(s, special, JSON_LITERAL("groups"));
    for (uint32_t k = 0; kinds && a->registry != NULL && k < a->registry->kind_count; k++) {
        const struct schema_kind *kind = &a->registry->kinds[k];
        if (add(a, COMPLETION_ENUM, kind->stem, arena_printf(&a->out->arena, "\"%s\"", kind->stem),
                kind->title, kind->description) != 0)
            return -1;
    }
    for (uint32_t g = 0; groups && a->registry != NULL && g < a->registry->group_count; g++) {
        const char *name = a->registry->groups[g];
        if (add(a, COMPLETION_ENUM, name, arena_printf(&a->out->arena, "\"%s\"", name), "group",
                NULL) != 0)
            return -1;
    }
    uint32_t values = get(s, node, "enum");
    for (uint32_t v = values != JSON_NONE ? s->nodes[values].first_child : JSON_NONE;
         v != JSON_NONE; v = s->nodes[v].next) {
        const struct json_node *n = &s->nodes[v];
        const char *text = arena_strndup(&a->out->arena, s->text + n->start, n->end - n->start);
        struct json_str label = n->kind == JSON_STRING ? json_node_string(s, v)
                                                       : (struct json_str){text, n->end - n->start};
        if (text == NULL ||
            add(a, COMPLETION_ENUM, arena_strndup(&a->out->arena, label.ptr, label.len), text, NULL,
                description(s, property, &a->out->arena)) != 0)
            return -1;
    }
    static const char *const lists[] = {"anyOf", "oneOf"};
    for (int i = 0; i < 2; i++) {
        uint32_t list = get(s, node, lists[i]);
        for (uint32_t e = list != JSON_NONE ? s->nodes[list].first_child : JSON_NONE;
             e != JSON_NONE; e = s->nodes[e].next) {
            if (complete_values(a, e, depth + 1) != 0)
                return -1;
        }
    }
    return 0;
}

int project_kind_file_complete(struct analysis *analysis, const struct schema_registry *registry,
                               uint32_t offset, struct completion_list *out)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    struct json_doc s;
    if (parse_format(&s) != 0) {
        json_doc_free(&s);
        return -1;
    }
    struct assist a = {&s, &analysis->doc, registry, out, 0, 0, 0};
    struct json_doc *doc = &analysis->doc;
    struct json_location at = json_locate(doc, offset);
    token(doc, at, offset, &a.start, &a.end);
    int status = 0;
    switch (at.kind) {
    case JSON_LOCATION_OBJECT: status = complete_keys(&a, at.node, JSON_NONE, true); break;
    case JSON_LOCATION_KEY:
        status = complete_keys(&a, doc->nodes[at.node].parent, at.node, false);
        break;
    case JSON_LOCATION_AFTER_KEY:
    case JSON_LOCATION_VALUE: status = complete_values(&a, schema_at(&s, doc, at.node), 0); break;
    case JSON_LOCATION_ARRAY:
        status = complete_values(&a, get(&s, resolve(&s, schema_at(&s, doc, at.node)), "items"), 0);
        break;
    default: break;
    }
    json_doc_free(&s);
    return status;
}

const char *project_kind_file_hover(struct analysis *analysis,
                                    const struct schema_registry *registry, uint32_t offset,
                                    enum text_markup markup, struct arena *arena, uint32_t *start,
                                    uint32_t *end)
{
    struct json_doc *doc = &analysis->doc;
    struct json_location at = json_locate(doc, offset);
    if ((at.kind != JSON_LOCATION_KEY && at.kind != JSON_LOCATION_VALUE) || at.node == JSON_NONE)
        return NULL;
    struct json_doc s;
    const char *text = NULL;
    const struct json_node *n = &doc->nodes[at.node];
    const char *b = markup == TEXT_MARKDOWN ? "**" : "";
    uint32_t property = parse_format(&s) == 0 ? schema_at(&s, doc, at.node) : JSON_NONE;
    uint32_t special = get(&s, property, "x-srcls-complete");
    if (at.kind == JSON_LOCATION_KEY && property != JSON_NONE) {
        const char *about = description(&s, property, arena);
        struct json_str key = json_node_key(doc, at.node);
        text =
            about ? arena_printf(arena, "%s%.*s%s: %s", b, (int)key.len, key.ptr, b, about) : NULL;
        *start = n->key_start;
        *end = n->key_end;
    } else if (special != JSON_NONE &&
               json_node_string_equals(&s, special, JSON_LITERAL("kinds")) &&
               n->kind == JSON_STRING && registry != NULL) {
        struct json_str stem = json_node_string(doc, at.node);
        for (uint32_t k = 0; text == NULL && k < registry->kind_count; k++) {
            const struct schema_kind *kind = &registry->kinds[k];
            if (strlen(kind->stem) == stem.len && memcmp(kind->stem, stem.ptr, stem.len) == 0)
                text = arena_printf(arena, "%s%s%s (kind %d)\n\n%s", b, kind->title, b,
                                    kind->number, kind->description ? kind->description : "");
        }
        *start = n->start;
        *end = n->end;
    }
    json_doc_free(&s);
    return text;
}
