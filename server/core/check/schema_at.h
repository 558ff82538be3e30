/* schema_at: which part of the schema describes a node of a document — for completion, hover
 * and fixes, which ask about a place rather than check the whole document. */
#ifndef SRCLS_SCHEMA_AT_H
#define SRCLS_SCHEMA_AT_H

#include "json/json.h"
#include "schema/schema.h"
#include "domain/domain.h"

struct schema_place {
    const struct schema_object *object; /* the schema of the object node, or NULL */
    const struct schema_kind *kind;     /* the kind, when the object is a source's config */
    bool source;                        /* the object is a source's top level */
};

/* The schema of the object `node` (a JSON object in `doc`). */
struct schema_place schema_at_object(struct json_doc *doc, uint32_t node,
                                     const struct schema_registry *registry,
                                     const struct settings *settings);
/* The member of the object node `object` that holds `field` (by its name, or an alias), or
 * JSON_NONE. */
uint32_t schema_at_field_member(struct json_doc *doc, uint32_t object,
                                const struct schema_field *field);
/* The field that describes `member` (an object member, or an array element), or NULL. */
const struct schema_field *schema_at_member(struct json_doc *doc, uint32_t member,
                                            const struct schema_registry *registry,
                                            const struct settings *settings);

#endif
