/* hover: the schema's words about a key or a value. */
#include "hover.h"

#include <stdio.h>
#include <string.h>

#include "complete.h"
#include "envelope.h"
#include "json_pointer.h"
#include "kind_resolve.h"
#include "schema_at.h"

static const char *kind_markdown(const struct schema_kind *kind, struct arena *arena)
{
    char ids[512] = "";
    for (uint32_t t = 0; t < kind->type_count; t++) {
        size_t used = strlen(ids);
        snprintf(ids + used, sizeof ids - used, "%s`%s`", t ? ", " : "", kind->types[t]);
    }
    return arena_printf(arena, "**%s** (kind %d)\n\n`type`: %s\n\n%s", kind->title, kind->number,
                        ids, kind->description ? kind->description : "");
}

const char *hover_at(struct analysis *a, const struct schema_registry *registry,
                     const struct settings *settings, uint32_t offset, struct arena *arena,
                     uint32_t *start, uint32_t *end)
{
    struct json_doc *doc = &a->doc;
    struct json_location loc = json_locate(doc, offset);
    if (loc.kind != JSON_LOCATION_KEY && loc.kind != JSON_LOCATION_VALUE)
        return NULL;
    const struct json_node *n = json_node_at(doc, loc.node);
    if (n == NULL || n->parent == JSON_NONE)
        return NULL;
    bool on_key = loc.kind == JSON_LOCATION_KEY;
    *start = on_key ? n->key_start : n->start;
    *end = on_key ? n->key_end : n->end;
    if (n->key_start != JSON_NONE) {
        struct schema_place parent = schema_at_object(doc, n->parent, registry, settings);
        bool config = envelope_is_config(doc, loc.node);
        if (parent.source && (config || envelope_is_type(doc, loc.node))) {
            const struct schema_kind *kind =
                kind_resolve_source(doc, n->parent, registry, settings);
            if (kind != NULL && (on_key ? config : n->kind == JSON_STRING))
                return kind_markdown(kind, arena);
        }
    }
    const struct schema_field *field = schema_at_member(doc, loc.node, registry, settings);
    if (field == NULL)
        return NULL;
    if (!on_key && field->enum_count > 0 && !field->secret && !field->sensitive) {
        for (uint32_t i = 0; i < field->enum_count; i++) {
            const struct schema_enum_value *e = &field->enums[i];
            bool match = e->value.type == SCHEMA_STRING
                             ? json_node_string_equals(doc, loc.node, e->value.text, e->value.len)
                             : false;
            if (match)
                return arena_printf(arena, "`%s` — %s\n\n---\n\n%s", e->value.text,
                                    e->description ? e->description : "one of the allowed values",
                                    complete_field_markdown(field, arena));
        }
    }
    return complete_field_markdown(field, arena);
}
