/* duplicate_names: two sources of one bulk document with the same "name" (duplicate-name).
 * Names are how a source is found in the catalog and named in SQL, where an unquoted identifier
 * ignores case: names compare as written but for ASCII case ("Sales" and "sales" clash; " sales"
 * and "sales" do not: whitespace is part of a name). One pass with a hash table: linear in the
 * number of sources. */
#ifndef SRCLS_DUPLICATE_NAMES_H
#define SRCLS_DUPLICATE_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/* Adds to `a` (a bulk document) a duplicate-name error on the "name" of each source whose name
 * an earlier source has, with that earlier name as the related place. `*found` says whether
 * there was one (whatever the severity settings make of it). 0, or -1 when memory ran out. */
int duplicate_names_check(struct analysis *a, bool *found);
/* Whether the source `index` of the bulk elements `elements` (`count`) has a name that
 * another has (after an edit of it: linear, no table). */
bool duplicate_names_shared(struct json_doc *doc, const uint32_t *elements, uint32_t count,
                            uint32_t index);
/* Whether two source names clash. */
bool duplicate_names_equal(struct json_str a, struct json_str b);
/* The hash of a source name, equal for names that clash. */
uint64_t duplicate_names_hash(struct json_str name);

#endif
