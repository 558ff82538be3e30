/* condition: the schema's conditions (struct schema_condition) — evaluated against an object of
 * a document, and described in words for messages, hover and the generated docs. A condition
 * reads a field's value, or its default when the field is absent. */
#ifndef SRCLS_CONDITION_H
#define SRCLS_CONDITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "schema/schema.h"

/* Whether `condition` holds for the object node `object`, whose schema is `schema`. */
bool condition_evaluate(const struct schema_condition *condition, struct json_doc *doc,
                        const struct schema_object *schema, uint32_t object);
/* The same, with `members` (NULL: look members up) the member of `object` that holds each field
 * of `schema`, by field index, as schema_at_field_member finds it (JSON_NONE when absent). */
bool condition_evaluate_indexed(const struct schema_condition *condition, struct json_doc *doc,
                                const struct schema_object *schema, uint32_t object,
                                const uint32_t *members);

/* Whether the node `node` holds the schema value `value` (what "in" compares). */
bool condition_value_matches(struct json_doc *doc, uint32_t node, const struct schema_value *value);

/* Whether `condition` reads the value (not only the presence) of a field for which
 * `invalid(context, name)` is true: "in", "noOtherThan", "nonEmpty" and both fields of
 * "notBefore" read values; "present" does not. */
bool condition_reads_any(const struct schema_condition *condition,
                         bool (*invalid)(void *context, const char *field), void *context);

/* Writes `condition` in words into `out` ("\"credentialType\" is ACCESS_KEY"). */
void condition_describe(const struct schema_condition *condition, char *out, size_t size);

#endif
