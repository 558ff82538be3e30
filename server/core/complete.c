/* complete: what may be typed at a cursor, from the schema of the place it is in. */
#include "complete.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "condition.h"
#include "envelope.h"
#include "json_pointer.h"
#include "schema_at.h"
#include "secret.h"

/* Room for this many items at first: the keys of most objects. The list lives in its arena
 * (freed at once with the strings of the items), so it grows by copying, not with realloc. */
#define COMPLETION_FIRST_CAPACITY 32

static struct completion_item *add_item(struct completion_list *list)
{
    if (list->count == list->cap) {
        uint32_t cap = list->cap ? list->cap * 2 : COMPLETION_FIRST_CAPACITY;
        struct completion_item *items = arena_alloc(&list->arena, cap * sizeof *items);
        if (items == NULL)
            return NULL;
        if (list->count > 0)
            memcpy(items, list->items, list->count * sizeof *items);
        list->items = items;
        list->cap = cap;
    }
    struct completion_item *item = &list->items[list->count++];
    memset(item, 0, sizeof *item);
    return item;
}

void completion_list_free(struct completion_list *list)
{
    arena_free(&list->arena);
    memset(list, 0, sizeof *list);
}

/* ---- Markdown for a field (shared with hover) ---- */

static void append(char *out, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *out, size_t size, const char *format, ...)
{
    size_t used = strlen(out);
    if (used + 1 >= size)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(out + used, size - used, format, args);
    va_end(args);
}

const char *complete_field_markdown(const struct schema_field *field, struct arena *arena)
{
    char md[4096] = "";
    const char *types = schema_types_describe(field->types | field->sample_types, arena);
    append(md, sizeof md, "**`%s`** — %s", field->name, types);
    if (field->required) {
        append(md, sizeof md, ", **required**");
    } else if (field->required_when != NULL) {
        char condition[512];
        condition_describe(field->required_when, condition, sizeof condition);
        append(md, sizeof md, ", required when %s", condition);
    } else {
        append(md, sizeof md, ", optional");
    }
    if (field->secret)
        append(md, sizeof md, ", secret");
    else if (field->sensitive)
        append(md, sizeof md, ", sensitive");
    append(md, sizeof md, "\n\n");
    bool facts = false;
    if (field->has_default) {
        append(md, sizeof md, "Default: `%s`",
               field->default_value.type == SCHEMA_STRING ? schema_value_text(&field->default_value)
                                                          : field->default_value.text);
        facts = true;
    }
    if (field->has_minimum || field->has_maximum) {
        append(md, sizeof md, "%sRange: ", facts ? " · " : "");
        if (field->has_minimum && field->has_maximum)
            append(md, sizeof md, "%g to %g", field->minimum, field->maximum);
        else if (field->has_minimum)
            append(md, sizeof md, "at least %g", field->minimum);
        else
            append(md, sizeof md, "at most %g", field->maximum);
        facts = true;
    }
    if (field->format != SCHEMA_FORMAT_NONE) {
        append(md, sizeof md, "%sFormat: %s", facts ? " · " : "",
               schema_format_name(field->format));
        facts = true;
    }
    if (field->applicable != NULL) {
        char condition[512];
        condition_describe(field->applicable, condition, sizeof condition);
        append(md, sizeof md, "%sApplies when %s", facts ? " · " : "", condition);
        facts = true;
    }
    if (facts)
        append(md, sizeof md, "\n\n");
    if (field->enum_count > 0) {
        append(md, sizeof md, "Values:\n");
        for (uint32_t i = 0; i < field->enum_count; i++) {
            const struct schema_enum_value *e = &field->enums[i];
            append(md, sizeof md, "- `%s`%s%s\n", schema_value_text(&e->value),
                   e->description ? " — " : "", e->description ? e->description : "");
        }
        append(md, sizeof md, "\n");
    }
    if (field->secret)
        append(md, sizeof md,
               "Write secrets as `" SECRET_PLAIN_PREFIX "<text>` (or `" SECRET_BASE64_PREFIX
               "<base64>` when the text has a colon), `" SECRET_PLACEHOLDER "`, or a "
               "secret-store reference.\n\n");
    if (field->description != NULL)
        append(md, sizeof md, "%s", field->description);
    return arena_strndup(arena, md, strlen(md));
}

/* ---- the value a key is inserted with ---- */

/* Marks the part of `item`'s text the user will type over: in `value` (the value's JSON, at
 * byte `at` of the text), the inside of a string's quotes or of empty brackets, or the whole
 * value; with the field's enum values as choices when they are strings. Returns 0 or -1. */
static int set_placeholder(struct completion_item *item, const struct schema_field *field,
                           const char *value, uint32_t at, struct arena *arena)
{
    struct completion_placeholder *p = &item->placeholder;
    uint32_t len = (uint32_t)strlen(value);
    bool inside =
        len >= 2 && (value[0] == '"' || strcmp(value, "[]") == 0 || strcmp(value, "{}") == 0);
    p->start = inside ? at + 1 : at;
    p->end = inside ? at + len - 1 : at + len;
    item->has_placeholder = true;
    if (field->enum_count < 2 || field->enums[0].value.type != SCHEMA_STRING)
        return 0;
    const char **choices = arena_alloc(arena, field->enum_count * sizeof *choices);
    if (choices == NULL)
        return -1;
    for (uint32_t i = 0; i < field->enum_count; i++)
        choices[i] = schema_value_text(&field->enums[i].value);
    p->choices = choices;
    p->choice_count = field->enum_count;
    return 0;
}

/* ---- keys ---- */

static bool member_present(struct json_doc *doc, uint32_t object, uint32_t except,
                           const struct schema_field *field)
{
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

static int complete_keys(struct analysis *a, const struct schema_object *schema, uint32_t object,
                         uint32_t member, bool key_only, uint32_t start, uint32_t end,
                         struct completion_list *out)
{
    /* A member inserted before another one needs a comma after it. */
    uint32_t next = end;
    while (next < a->doc.len && strchr(" \t\r\n", a->doc.text[next]) != NULL)
        next++;
    const char *comma = !key_only && next < a->doc.len && a->doc.text[next] == '"' ? "," : "";
    struct json_doc *doc = &a->doc;
    for (uint32_t i = 0; i < schema->field_count; i++) {
        const struct schema_field *f = &schema->fields[i];
        if (member_present(doc, object, member, f))
            continue;
        struct completion_item *item = add_item(out);
        if (item == NULL)
            return -1;
        item->label = f->name;
        item->kind = COMPLETION_KEY;
        item->detail = schema_types_describe(f->types | f->sample_types, &out->arena);
        item->documentation = complete_field_markdown(f, &out->arena);
        item->start = start;
        item->end = end;
        bool first = f->required || f->required_when != NULL;
        snprintf(item->sort, sizeof item->sort, "%c%04u", first ? '0' : '1', i);
        if (key_only) {
            item->text = arena_printf(&out->arena, "\"%s\"", f->name);
            continue;
        }
        const char *value = schema_field_value_json(f, &out->arena);
        item->text = arena_printf(&out->arena, "\"%s\": %s%s", f->name, value, comma);
        uint32_t at = (uint32_t)strlen(f->name) + 4; /* after `"name": ` */
        if (item->text == NULL || set_placeholder(item, f, value, at, &out->arena) != 0)
            return -1;
    }
    return 0;
}

/* ---- values ---- */

static int add_value(struct completion_list *out, enum completion_kind kind, const char *label,
                     const char *text, const char *detail, const char *doc, uint32_t start,
                     uint32_t end, unsigned order)
{
    struct completion_item *item = add_item(out);
    if (item == NULL)
        return -1;
    item->label = label;
    item->kind = kind;
    item->text = text;
    item->detail = detail;
    item->documentation = doc;
    item->start = start;
    item->end = end;
    snprintf(item->sort, sizeof item->sort, "%05u", order);
    return 0;
}

static int complete_values(const struct schema_field *field, uint32_t start, uint32_t end,
                           struct completion_list *out)
{
    struct arena *arena = &out->arena;
    unsigned order = 0;
    for (uint32_t i = 0; i < field->enum_count; i++) {
        const struct schema_enum_value *e = &field->enums[i];
        const char *text = e->value.type == SCHEMA_STRING
                               ? arena_printf(arena, "\"%s\"", e->value.text)
                               : schema_value_text(&e->value);
        if (add_value(out, COMPLETION_ENUM, text, text, field->name, e->description, start, end,
                      order++) != 0)
            return -1;
    }
    if (field->enum_count == 0 && (field->types & SCHEMA_BOOLEAN)) {
        if (add_value(out, COMPLETION_VALUE, "true", "true", field->name, NULL, start, end,
                      order++) != 0 ||
            add_value(out, COMPLETION_VALUE, "false", "false", field->name, NULL, start, end,
                      order++) != 0)
            return -1;
    }
    if (field->secret) {
        static const char plain[] = "\"" SECRET_PLAIN_PREFIX "\"";
        static const char kept[] = "\"" SECRET_PLACEHOLDER "\"";
        if (add_value(out, COMPLETION_VALUE, plain, plain, field->name,
                      "Plaintext secret: write it after the comma (base64 with "
                      "`" SECRET_BASE64_PREFIX "` when it contains a colon).",
                      start, end, order++) != 0 ||
            add_value(out, COMPLETION_VALUE, kept, kept, field->name,
                      "Keep the value the service already holds.", start, end, order++) != 0)
            return -1;
    } else if (field->has_default && field->enum_count == 0 &&
               field->default_value.type != SCHEMA_BOOLEAN) {
        const char *text = schema_field_value_json(field, arena);
        if (add_value(out, COMPLETION_VALUE, text, text, "default", NULL, start, end, order++) != 0)
            return -1;
    }
    return 0;
}

static int complete_kinds(const struct schema_registry *registry, uint32_t start, uint32_t end,
                          struct completion_list *out)
{
    unsigned order = 0;
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        for (uint32_t t = 0; t < kind->type_count; t++) {
            const char *text = arena_printf(&out->arena, "\"%s\"", kind->types[t]);
            if (add_value(out, COMPLETION_KIND_ID, text, text, kind->title, kind->description,
                          start, end, order++) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- entry point ---- */

int complete_at(struct analysis *a, const struct schema_registry *registry,
                const struct settings *settings, uint32_t offset, struct completion_list *out)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    struct json_doc *doc = &a->doc;
    struct json_location loc = json_locate(doc, offset);
    const struct json_node *n = json_node_at(doc, loc.node);
    if (n == NULL)
        return 0;
    switch (loc.kind) {
    case JSON_LOCATION_KEY: {
        struct schema_place place = schema_at_object(doc, n->parent, registry, settings);
        if (place.object == NULL)
            return 0;
        /* Only the key is replaced when the member already has its ':' and value. */
        bool key_only = n->kind != JSON_INVALID || n->start > n->key_end;
        return complete_keys(a, place.object, n->parent, loc.node, key_only, n->key_start,
                             n->key_end, out);
    }
    case JSON_LOCATION_OBJECT: {
        struct schema_place place = schema_at_object(doc, loc.node, registry, settings);
        if (place.object == NULL)
            return 0;
        return complete_keys(a, place.object, loc.node, JSON_NONE, false, offset, offset, out);
    }
    case JSON_LOCATION_AFTER_KEY:
    case JSON_LOCATION_VALUE: {
        if (n->key_start == JSON_NONE ||
            (loc.kind == JSON_LOCATION_VALUE && (n->kind == JSON_OBJECT || n->kind == JSON_ARRAY)))
            return 0;
        uint32_t start = offset, end = offset;
        if (loc.kind == JSON_LOCATION_VALUE) {
            start = n->start;
            end = n->end;
        }
        struct schema_place parent = schema_at_object(doc, n->parent, registry, settings);
        if (parent.source && envelope_is_type(doc, loc.node))
            return complete_kinds(registry, start, end, out);
        const struct schema_field *field = schema_at_member(doc, loc.node, registry, settings);
        return field ? complete_values(field, start, end, out) : 0;
    }
    case JSON_LOCATION_ARRAY: {
        const struct schema_field *field = schema_at_member(doc, loc.node, registry, settings);
        if (field == NULL || field->items == NULL)
            return 0;
        return complete_values(field->items, offset, offset, out);
    }
    case JSON_LOCATION_NONE: break;
    }
    return 0;
}
