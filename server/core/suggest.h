/* suggest: the known name nearest to a misspelled one, by edit distance, for "did you mean"
 * messages and the rename fix. */
#ifndef SRCLS_SUGGEST_H
#define SRCLS_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json_doc.h"
#include "schema.h"

/* Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; names longer than
 * SUGGEST_MAX_LENGTH are SUGGEST_TOO_FAR from everything. */
#define SUGGEST_MAX_LENGTH 64
#define SUGGEST_TOO_FAR 99
unsigned suggest_distance(const char *a, size_t a_len, const char *b, size_t b_len);

/* The field of `schema` nearest to `key` within the edits its length allows (1 below 4
 * characters, 2 below 10, else 3), or NULL. With `only_missing`, only fields that the object
 * node `object` does not have count. */
const struct schema_field *suggest_field(struct json_doc *doc, const struct schema_object *schema,
                                         uint32_t object, struct json_str key, bool only_missing);

#endif
