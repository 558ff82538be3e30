/* schema_at: walking from the root down to a node, one schema step per level. */
#include "schema_at.h"

#include <string.h>

#include "domain/domain.h"
#include "kind_resolve.h"

#define MAX_DEPTH 64

/* The schema object of a value described by `field`: its fields, or its items' fields. */
static const struct schema_object *object_of(const struct schema_field *field)
{
    if (field == NULL)
        return NULL;
    return field->object;
}

static const struct schema_field *field_in(const struct schema_object *object, struct json_str key)
{
    const struct schema_field *f = schema_object_field(object, key.ptr, key.len);
    return f ? f : schema_object_alias(object, key.ptr, key.len);
}

/* The place of the document's root, or of a bulk element. */
static struct schema_place root_place(struct json_doc *doc, const struct schema_registry *registry)
{
    struct schema_place place = {NULL, NULL, false};
    enum document_kind kind = envelope_classify(doc);
    if (kind == DOCUMENT_JOB) {
        place.object = registry->job.object;
    } else if (kind == DOCUMENT_SOURCE || kind == DOCUMENT_UNKNOWN) {
        place.object = registry->source.object;
        place.source = true;
    }
    return place;
}

struct schema_place schema_at_object(struct json_doc *doc, uint32_t node,
                                     const struct schema_registry *registry,
                                     const struct settings *settings)
{
    struct schema_place none = {NULL, NULL, false};
    uint32_t path[MAX_DEPTH];
    int depth = 0;
    if (node == JSON_NONE)
        return none;
    for (uint32_t n = node; n != JSON_NONE; n = doc->nodes[n].parent) {
        if (depth == MAX_DEPTH)
            return none;
        path[depth++] = n;
    }
    /* path[depth-1] is the root. */
    uint32_t root = path[depth - 1];
    struct schema_place place;
    const struct schema_field *element_field = NULL; /* set while inside an array */
    int i = depth - 1;
    if (doc->nodes[root].kind == JSON_ARRAY) {
        /* A bulk file: each element is a source. */
        if (depth < 2)
            return none;
        place = (struct schema_place){registry->source.object, NULL, true};
        i = depth - 2;
    } else {
        place = root_place(doc, registry);
    }
    for (; i > 0; i--) {
        uint32_t parent = path[i], child = path[i - 1];
        const struct json_node *p = &doc->nodes[parent];
        if (p->kind == JSON_OBJECT) {
            struct json_str key = json_node_key(doc, child);
            if (place.source && envelope_is_config(doc, child)) {
                const struct schema_kind *kind =
                    kind_resolve_source(doc, parent, registry, settings);
                place = (struct schema_place){kind ? &kind->config : NULL, kind, false};
                element_field = NULL;
                continue;
            }
            const struct schema_field *f = field_in(place.object, key);
            element_field = f;
            place = (struct schema_place){object_of(f), NULL, false};
        } else if (p->kind == JSON_ARRAY) {
            const struct schema_field *items = element_field ? element_field->items : NULL;
            element_field = items;
            place = (struct schema_place){object_of(items), NULL, false};
        } else {
            return none;
        }
        if (place.object == NULL && element_field == NULL)
            return none;
    }
    return place;
}

uint32_t schema_at_field_member(struct json_doc *doc, uint32_t object,
                                const struct schema_field *field)
{
    uint32_t m = json_object_get(doc, object, field->name, strlen(field->name));
    for (uint32_t i = 0; m == JSON_NONE && i < field->alias_count; i++)
        m = json_object_get(doc, object, field->aliases[i], strlen(field->aliases[i]));
    return m;
}

const struct schema_field *schema_at_member(struct json_doc *doc, uint32_t member,
                                            const struct schema_registry *registry,
                                            const struct settings *settings)
{
    const struct json_node *m = json_node_at(doc, member);
    if (m == NULL || m->parent == JSON_NONE)
        return NULL;
    const struct json_node *parent = &doc->nodes[m->parent];
    if (parent->kind == JSON_OBJECT) {
        struct schema_place place = schema_at_object(doc, m->parent, registry, settings);
        return field_in(place.object, json_node_key(doc, member));
    }
    /* An array element: the array's field's items. */
    const struct schema_field *array = schema_at_member(doc, m->parent, registry, settings);
    return array ? array->items : NULL;
}
