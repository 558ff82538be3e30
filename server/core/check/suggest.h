/* suggest: the known name nearest to a misspelled one, by edit distance, for "did you mean"
 * messages, the rename fix and the nearest kind for an unknown `type`. */
#ifndef SRCLS_SUGGEST_H
#define SRCLS_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "schema/schema.h"

/* Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; names longer than
 * SUGGEST_MAX_LENGTH are SUGGEST_TOO_FAR from everything. */
#define SUGGEST_MAX_LENGTH 64
#define SUGGEST_TOO_FAR 99
unsigned suggest_distance(const char *a, size_t a_len, const char *b, size_t b_len);

/* The edits a name of `len` bytes may be away from a known one and still suggest it: 1 below 4
 * characters, 2 below 10, else 3 (short names allow fewer, or every short key would look like
 * a typo of another). */
unsigned suggest_edits_allowed(size_t len);

/* The kind identifier of `registry` nearest to `id`, ignoring case, within the edits its length
 * allows, or NULL; `*ties` is how many identifiers of other kinds are as near. */
const char *suggest_kind(const struct schema_registry *registry, struct json_str id,
                         uint32_t *ties);

/* Whether `id` is `name` but for the case of its letters (ASCII). */
bool suggest_same_but_case(struct json_str id, const char *name);

/* The field of `schema` nearest to `key` within the edits its length allows (1 below 4
 * characters, 2 below 10, else 3), or NULL. With `only_missing`, only fields that the object
 * node `object` does not have count. */
const struct schema_field *suggest_field(struct json_doc *doc, const struct schema_object *schema,
                                         uint32_t object, struct json_str key, bool only_missing);

#endif
