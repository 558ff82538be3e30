/* complete: what may be typed at a cursor, from the schema of the place it is in, ranked by
 * what the rule engine would say now. */
#include "complete.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete_internal.h"
#include "check/check.h"
#include "domain/domain.h"
#include "json/json.h"
#include "base/base.h"

/* Room for this many items at first: the keys of most objects. The list lives in its arena
 * (freed at once with the strings of the items), so it grows by copying (arena_copy_array), not
 * with realloc. */
#define COMPLETION_FIRST_CAPACITY 32

struct completion_item *complete__add(struct completion_list *list)
{
    if (list->count == list->cap) {
        uint32_t cap = list->cap ? list->cap * 2 : COMPLETION_FIRST_CAPACITY;
        struct completion_item *items =
            arena_copy_array(&list->arena, list->items, list->count, cap, sizeof *items);
        if (items == NULL)
            return NULL;
        list->items = items;
        list->cap = cap;
    }
    struct completion_item *item = &list->items[list->count++];
    memset(item, 0, sizeof *item);
    item->rank = COMPLETION_RANK_OPTIONAL;
    return item;
}

struct completion_item *completion_list_item(struct completion_list *list,
                                             enum completion_kind kind, const char *label,
                                             const char *text, const char *detail, const char *doc,
                                             uint32_t start, uint32_t end)
{
    /* a text or a documentation made in the list's arena that ran out: the list fails */
    struct completion_item *item =
        label != NULL && text != NULL && !list->arena.failed ? complete__add(list) : NULL;
    if (item == NULL)
        return NULL;
    item->label = label;
    item->kind = kind;
    item->text = text;
    item->detail = detail;
    item->documentation = doc;
    item->start = start;
    item->end = end;
    return item;
}

void completion_list_free(struct completion_list *list)
{
    arena_free(&list->arena);
    memset(list, 0, sizeof *list);
}

/* ---- what the engine says of a field ---- */

/* Whether `condition` reads a field that `object` has: it then holds because of a value. */
static bool reads_present(const struct schema_condition *condition, struct json_doc *doc,
                          const struct schema_object *schema, uint32_t object)
{
    for (uint32_t i = 0; i < condition->child_count; i++) {
        if (reads_present(condition->children[i], doc, schema, object))
            return true;
    }
    if (condition->field == NULL || object == JSON_NONE)
        return false;
    const struct schema_field *field =
        schema_object_field(schema, condition->field, strlen(condition->field));
    uint32_t member =
        field ? schema_at_field_member(doc, object, field)
              : json_object_get(doc, object, condition->field, strlen(condition->field));
    return member != JSON_NONE;
}

enum completion_rank complete__rank(struct json_doc *doc, const struct schema_object *schema,
                                    uint32_t object, const struct schema_field *field)
{
    if (field->required)
        return COMPLETION_RANK_REQUIRED;
    if (field->required_when != NULL &&
        condition_evaluate(field->required_when, doc, schema, object))
        return reads_present(field->required_when, doc, schema, object)
                   ? COMPLETION_RANK_REQUIRED_BY_VALUE
                   : COMPLETION_RANK_REQUIRED;
    if (field->applicable == NULL)
        return COMPLETION_RANK_OPTIONAL;
    if (!condition_evaluate(field->applicable, doc, schema, object))
        return COMPLETION_RANK_NOT_APPLICABLE;
    return reads_present(field->applicable, doc, schema, object)
               ? COMPLETION_RANK_APPLICABLE_BY_VALUE
               : COMPLETION_RANK_OPTIONAL;
}

bool complete__member_present(struct json_doc *doc, uint32_t object, uint32_t except,
                              const struct schema_field *field)
{
    if (object == JSON_NONE)
        return false;
    for (uint32_t m = doc->nodes[object].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        if (m == except)
            continue;
        struct json_str key = json_node_key(doc, m);
        if (key.len == strlen(field->name) && memcmp(key.ptr, field->name, key.len) == 0)
            return true;
        for (uint32_t a = 0; a < field->alias_count; a++) {
            if (key.len == strlen(field->aliases[a]) &&
                memcmp(key.ptr, field->aliases[a], key.len) == 0)
                return true;
        }
    }
    return false;
}

/* The one kind the config of the source object `source` fits, or NULL. */
static const struct schema_kind *inferred_kind(struct completer *c, uint32_t source)
{
    const struct schema_kind *best[2];
    uint32_t config = envelope_config(c->doc, source);
    if (config == JSON_NONE)
        return NULL;
    return kind_resolve_infer(c->doc, c->registry, config, best, 2) == 1 ? best[0] : NULL;
}

/* ---- keys ---- */

/* Every kind identifier, as choices, in the list's arena (NULL when out of memory). */
static const char *const *kind_identifiers(struct completer *c, uint32_t *count)
{
    *count = 0;
    for (uint32_t k = 0; k < c->registry->kind_count; k++)
        *count += c->registry->kinds[k].type_count;
    const char **ids = arena_alloc(&c->out->arena, (*count + 1) * sizeof *ids);
    uint32_t n = 0;
    for (uint32_t k = 0; ids != NULL && k < c->registry->kind_count; k++) {
        for (uint32_t t = 0; t < c->registry->kinds[k].type_count; t++)
            ids[n++] = c->registry->kinds[k].types[t];
    }
    return ids;
}

/* The `type` key of a source: with the kind its config tells, which then leads the list, or
 * empty with every identifier as a choice. */
static int type_key_item(struct completer *c, struct completion_item *item, uint32_t source,
                         const char *comma)
{
    const struct schema_kind *kind = inferred_kind(c, source);
    const char *id = kind ? kind->types[0] : "";
    item->text = arena_printf(&c->out->arena, "\"%s\": \"%s\"%s", ENVELOPE_TYPE, id, comma);
    item->placeholders = arena_alloc(&c->out->arena, sizeof *item->placeholders);
    if (item->text == NULL || item->placeholders == NULL)
        return -1;
    uint32_t at = (uint32_t)strlen(ENVELOPE_TYPE) + 5; /* after `"type": "` */
    struct completion_placeholder *p = &item->placeholders[0];
    *p = (struct completion_placeholder){at, at + (uint32_t)strlen(id), NULL, 0};
    item->placeholder_count = 1;
    if (kind != NULL) {
        item->rank = COMPLETION_RANK_REQUIRED_BY_VALUE;
        return 0;
    }
    p->choices = kind_identifiers(c, &p->choice_count);
    return p->choices ? 0 : -1;
}

static int key_item(struct completer *c, const struct schema_place *place, uint32_t object,
                    uint32_t index, bool key_only, const char *comma)
{
    const struct schema_field *f = &place->object->fields[index];
    struct completion_item *item = complete__add(c->out);
    if (item == NULL)
        return -1;
    item->label = f->name;
    item->kind = COMPLETION_KEY;
    item->detail = schema_types_describe(f->types | f->sample_types, &c->out->arena);
    item->documentation = field_text_describe(f, c->markup, &c->out->arena);
    item->rank = complete__rank(c->doc, place->object, object, f);
    if (key_only) {
        item->text = arena_printf(&c->out->arena, "\"%s\"", f->name);
    } else if (place->source && strcmp(f->name, ENVELOPE_TYPE) == 0) {
        if (type_key_item(c, item, object, comma) != 0)
            return -1;
    } else {
        struct complete_text t = {0};
        complete__text_member(c, &t, f, COMPLETE_VALUE_CHOICES);
        complete__text_add(&t, comma);
        if (complete__text_finish(c, &t, item) != 0)
            return -1;
    }
    snprintf(item->sort, sizeof item->sort, "%c%04u", '0' + item->rank, index);
    return item->text ? 0 : -1;
}

static int complete_keys(struct completer *c, const struct schema_place *place, uint32_t object,
                         uint32_t member, bool key_only, uint32_t start, uint32_t end)
{
    /* A member inserted before another one needs a comma after it. */
    uint32_t next = end;
    while (next < c->doc->len && strchr(" \t\r\n", c->doc->text[next]) != NULL)
        next++;
    const char *comma = !key_only && next < c->doc->len && c->doc->text[next] == '"' ? "," : "";
    for (uint32_t i = 0; i < place->object->field_count; i++) {
        if (complete__member_present(c->doc, object, member, &place->object->fields[i]))
            continue;
        uint32_t first = c->out->count;
        if (key_item(c, place, object, i, key_only, comma) != 0)
            return -1;
        c->out->items[first].start = start;
        c->out->items[first].end = end;
    }
    return 0;
}

/* ---- values ---- */

static int add_value(struct completion_list *out, enum completion_kind kind, const char *label,
                     const char *text, const char *detail, const char *doc, uint32_t start,
                     uint32_t end, char group, unsigned order)
{
    struct completion_item *item =
        text != NULL ? completion_list_item(out, kind, label, text, detail, doc, start, end) : NULL;
    if (item == NULL)
        return -1;
    snprintf(item->sort, sizeof item->sort, "%c%05u", group, order);
    return 0;
}

static int complete_secret(struct completer *c, const struct schema_field *field, uint32_t start,
                           uint32_t end, unsigned *order)
{
    static const char plain[] = "\"" SECRET_PLAIN_PREFIX "\"";
    static const char kept[] = "\"" SECRET_PLACEHOLDER "\"";
    struct completion_list *out = c->out;
    const char *code = field_text_code(c->markup);
    const char *doc = arena_printf(&out->arena,
                                   "Plaintext secret: write it after the comma (base64 with "
                                   "%s" SECRET_BASE64_PREFIX "%s when it contains a colon).",
                                   code, code);
    if (doc == NULL || add_value(out, COMPLETION_VALUE, plain, plain, field->name, doc, start, end,
                                 '0', (*order)++) != 0)
        return -1;
    return add_value(out, COMPLETION_VALUE, kept, kept, field->name,
                     "Keep the value the service already holds.", start, end, '0', (*order)++);
}

/* Whether the cursor is inside a string with text (not between the quotes of an empty one): a
 * placeholder then replaces the one under the cursor, or goes in at the cursor, and the rest of
 * the string stays ("/data/${ENV}/raw"). Sets [*start, *end) to what it replaces. */
static bool within_string(const struct completer *c, const struct settings *s, uint32_t *start,
                          uint32_t *end)
{
    struct json_location at = json_locate(c->doc, c->offset);
    const struct json_node *n = at.kind == JSON_LOCATION_VALUE ? &c->doc->nodes[at.node] : NULL;
    if (n == NULL || n->kind != JSON_STRING || c->offset <= n->start || c->offset >= n->end ||
        n->end - n->start <= 2)
        return false;
    struct placeholder_match m;
    for (uint32_t from = 0;
         placeholder_in_string(s->placeholders, s->placeholder_count, c->doc, at.node, from, &m);
         from = m.end) {
        if (m.start <= c->offset && c->offset <= m.end) {
            *start = m.start;
            *end = m.end;
            return true;
        }
    }
    size_t typed;
    *end = c->offset;
    *start = placeholder_open_before(s->placeholders, s->placeholder_count, c->doc->text,
                                     n->start + 1, c->offset, &typed)
                 ? (uint32_t)typed
                 : c->offset;
    return true;
}

/* Where the project templates values: a placeholder of each variable it uses (this document's
 * and those the door knows), in the first syntax of its "placeholders", after the other values. */
static int complete_variables(struct completer *c, uint32_t start, uint32_t end)
{
    const struct settings *s = c->settings;
    if (s == NULL || s->placeholder_count == 0)
        return 0;
    const char **names = NULL;
    uint32_t count = 0;
    size_t cap = 0;
    struct arena *arena = &c->out->arena;
    int status = placeholder_names(s->placeholders, s->placeholder_count, c->doc->text, c->doc->len,
                                   arena, &names, &count, &cap);
    for (uint32_t i = 0; status == 0 && c->options != NULL && i < c->options->variable_count; i++) {
        const char *name = c->options->variables[i];
        bool known = false;
        for (uint32_t k = 0; k < count && !known; k++)
            known = strcmp(names[k], name) == 0;
        const char **grown = known ? names : vector_grow(names, &cap, count + 1, sizeof *names);
        if (grown == NULL)
            status = -1;
        else if (!known)
            (names = grown)[count++] = name;
    }
    placeholder_names_sort(names, count);
    bool quoted = !within_string(c, s, &start, &end);
    const struct placeholder_pattern *p = &s->placeholders[0];
    for (uint32_t i = 0; status == 0 && i < count; i++) {
        const char *text =
            arena_printf(arena, "%s%.*s%s%.*s%s", quoted ? "\"" : "", (int)p->prefix_len, p->prefix,
                         names[i], (int)p->suffix_len, p->suffix, quoted ? "\"" : "");
        status = add_value(c->out, COMPLETION_VALUE, text, text, "placeholder",
                           "A variable the project's templates use: filled in by the renderer.",
                           start, end, '1', i);
    }
    free(names);
    return status;
}

static int complete_values(struct completer *c, const struct schema_field *field, uint32_t start,
                           uint32_t end)
{
    if (complete_variables(c, start, end) != 0)
        return -1;
    struct completion_list *out = c->out;
    struct arena *arena = &out->arena;
    unsigned order = 0;
    for (uint32_t i = 0; i < field->enum_count; i++) {
        const struct schema_enum_value *e = &field->enums[i];
        const char *text = e->value.type == SCHEMA_STRING
                               ? arena_printf(arena, "\"%s\"", e->value.text)
                               : schema_value_text(&e->value);
        if (add_value(out, COMPLETION_ENUM, text, text, field->name, e->description, start, end,
                      '0', order++) != 0)
            return -1;
    }
    if (field->enum_count == 0 && (field->types & SCHEMA_BOOLEAN)) {
        if (add_value(out, COMPLETION_VALUE, "true", "true", field->name, NULL, start, end, '0',
                      order++) != 0 ||
            add_value(out, COMPLETION_VALUE, "false", "false", field->name, NULL, start, end, '0',
                      order++) != 0)
            return -1;
    }
    if (field->format == SCHEMA_FORMAT_TIMESTAMP && c->now != NULL) {
        const char *text = arena_printf(arena, "\"%s\"", c->now);
        if (add_value(out, COMPLETION_VALUE, text, text, "now (UTC)", NULL, start, end, '0',
                      order++) != 0)
            return -1;
    }
    if (field->secret)
        return complete_secret(c, field, start, end, &order);
    if (field->has_default && field->enum_count == 0 &&
        field->default_value.type != SCHEMA_BOOLEAN) {
        const char *text = schema_field_value_json(field, arena);
        if (add_value(out, COMPLETION_VALUE, text, text, "default", NULL, start, end, '0',
                      order++) != 0)
            return -1;
    }
    return 0;
}

/* Every kind identifier; those of the kind the config fits first. */
static int complete_kinds(struct completer *c, uint32_t source, uint32_t start, uint32_t end)
{
    const struct schema_kind *inferred = inferred_kind(c, source);
    unsigned order = 0;
    for (uint32_t k = 0; k < c->registry->kind_count; k++) {
        const struct schema_kind *kind = &c->registry->kinds[k];
        for (uint32_t t = 0; t < kind->type_count; t++) {
            const char *text = arena_printf(&c->out->arena, "\"%s\"", kind->types[t]);
            if (add_value(c->out, COMPLETION_KIND_ID, text, text, kind->title, kind->description,
                          start, end, kind == inferred ? '0' : '1', order++) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- places ---- */

/* The config object of a source whose kind is unknown: a hint to choose the type first. */
static int config_hint(struct completer *c, uint32_t object)
{
    const struct json_node *n = &c->doc->nodes[object];
    if (n->key_start == JSON_NONE || !envelope_is_config(c->doc, object) ||
        !schema_at_object(c->doc, n->parent, c->registry, c->settings).source)
        return 0;
    const char *code = field_text_code(c->markup);
    struct completion_item *item = complete__add(c->out);
    if (item == NULL)
        return -1;
    item->label = "(choose the source's type first)";
    item->kind = COMPLETION_HINT;
    item->text = "";
    item->start = item->end = c->offset;
    item->documentation = arena_printf(
        &c->out->arena,
        "The keys of %sconfig%s depend on the kind of source. Set %s" ENVELOPE_TYPE
        "%s next to %sconfig%s (completion offers the identifiers), or write keys of one kind "
        "so that it can be inferred.",
        code, code, code, code, code, code);
    snprintf(item->sort, sizeof item->sort, "0");
    return item->documentation ? 0 : -1;
}

static int complete_in_object(struct completer *c, uint32_t object, uint32_t member, uint32_t start,
                              uint32_t end)
{
    struct schema_place place = schema_at_object(c->doc, object, c->registry, c->settings);
    if (place.object == NULL)
        return config_hint(c, object);
    if (complete_keys(c, &place, object, member, false, start, end) != 0 ||
        complete__fill_required(c, place.object, object, member, start, end) != 0)
        return -1;
    const struct schema_kind *kind =
        place.source ? kind_resolve_source(c->doc, object, c->registry, c->settings) : NULL;
    if (kind != NULL && envelope_config(c->doc, object) == JSON_NONE)
        return complete__fill_config(c, kind, object, start, end);
    return 0;
}

static int complete_key(struct completer *c, uint32_t member)
{
    const struct json_node *n = &c->doc->nodes[member];
    /* Only the key is replaced when its ':' is there, value or not; without one, the parser may
     * have taken the next member's key for this one's value (`"|"` on a line of its own above
     * another member), and the whole member goes in. */
    uint32_t after = n->key_end;
    while (after < c->doc->len && strchr(" \t\r\n", c->doc->text[after]) != NULL)
        after++;
    bool key_only = after < c->doc->len && c->doc->text[after] == ':';
    if (!key_only)
        return complete_in_object(c, n->parent, member, n->key_start, n->key_end);
    struct schema_place place = schema_at_object(c->doc, n->parent, c->registry, c->settings);
    if (place.object == NULL)
        return 0;
    return complete_keys(c, &place, n->parent, member, true, n->key_start, n->key_end);
}

static int complete_value(struct completer *c, struct json_location loc)
{
    const struct json_node *n = &c->doc->nodes[loc.node];
    if (n->key_start == JSON_NONE ||
        (loc.kind == JSON_LOCATION_VALUE && (n->kind == JSON_OBJECT || n->kind == JSON_ARRAY)))
        return 0;
    uint32_t start = c->offset, end = c->offset;
    if (loc.kind == JSON_LOCATION_VALUE) {
        start = n->start;
        end = n->end;
    }
    struct schema_place parent = schema_at_object(c->doc, n->parent, c->registry, c->settings);
    if (parent.source && envelope_is_type(c->doc, loc.node))
        return complete_kinds(c, n->parent, start, end);
    const struct schema_field *field = schema_at_member(c->doc, loc.node, c->registry, c->settings);
    return field ? complete_values(c, field, start, end) : 0;
}

static int complete_in_array(struct completer *c, uint32_t array)
{
    if (array == c->doc->root)
        return complete__element_skeleton(c, NULL);
    const struct schema_field *field = schema_at_member(c->doc, array, c->registry, c->settings);
    if (field == NULL || field->items == NULL)
        return 0;
    const struct schema_object *element = field->items->object;
    if (element != NULL && element->field_count > 0)
        return complete__element_skeleton(c, element);
    return complete_values(c, field->items, c->offset, c->offset);
}

static bool only_whitespace(const struct json_doc *doc)
{
    for (uint32_t i = 0; i < doc->len; i++) {
        if (strchr(" \t\r\n", doc->text[i]) == NULL)
            return false;
    }
    return true;
}

static int complete_place(struct completer *c)
{
    if (c->doc->root == JSON_NONE)
        return only_whitespace(c->doc) ? complete__document_skeletons(c) : 0;
    struct json_location loc = json_locate(c->doc, c->offset);
    if (loc.node == JSON_NONE)
        return 0;
    switch (loc.kind) {
    case JSON_LOCATION_KEY: return complete_key(c, loc.node);
    case JSON_LOCATION_OBJECT:
        return complete_in_object(c, loc.node, JSON_NONE, c->offset, c->offset);
    case JSON_LOCATION_AFTER_KEY:
    case JSON_LOCATION_VALUE: return complete_value(c, loc);
    case JSON_LOCATION_ARRAY: return complete_in_array(c, loc.node);
    case JSON_LOCATION_NONE: break;
    }
    return 0;
}

int complete_at(struct analysis *a, const struct schema_registry *registry,
                const struct settings *settings, uint32_t offset,
                const struct completion_options *options, struct completion_list *out)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    struct completer c = {a,    &a->doc, registry, settings, TEXT_MARKDOWN,
                          NULL, offset,  out,      options};
    if (options != NULL) {
        c.markup = options->markup;
        if (options->now != NULL &&
            value_format_valid(SCHEMA_FORMAT_TIMESTAMP, options->now, strlen(options->now)))
            c.now = options->now;
    }
    return complete_place(&c);
}
