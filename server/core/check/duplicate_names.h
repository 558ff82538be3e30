/* duplicate_names: two sources with the same "name" (duplicate-name): of one bulk document (an
 * error), or of two documents (a warning: a door keeps a table of the names of the documents it
 * checked, and reports a later one on the later document).
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
/* The names of a bulk document's sources counted by hash, so that an edit of one source's name
 * asks one slot whether another may have it, not every source. */
struct name_counts {
    uint64_t *hashes;         /* per element: its name's hash, 0 when it has no name */
    struct name_count *slots; /* open addressing; hash 0: empty */
    size_t size, used;        /* slots, and slots that hold a hash (with a count of 0 or more) */
};
/* Counts the names of `a`'s elements into `counts` (freed first); -1 when memory ran out (then
 * `counts` is empty, and duplicate_names_recount says "maybe" for every name). */
int duplicate_names_count(struct analysis *a, struct name_counts *counts);
void duplicate_names_counts_free(struct name_counts *counts);
/* The name of element `index` may have changed: it is counted again. False when no other element
 * can have it (no other name of its hash); true when another may (duplicate_names_shared tells). */
bool duplicate_names_recount(struct analysis *a, struct name_counts *counts, uint32_t index);
/* The "name" string node of the source `element`, or JSON_NONE. */
uint32_t duplicate_names_node(struct json_doc *doc, uint32_t element);
/* Calls `visit` with the "name" string node of each source of `a` (a source document's own, or
 * each bulk element's, in order, with its index; UINT32_MAX for a source document) and its
 * duplicate_names_hash, except a name an earlier element of the same bulk document has
 * (reported within it). Stops at the first non-zero `visit` returns, and returns it; 0 after
 * the last. */
int duplicate_names_each(struct analysis *a,
                         int (*visit)(void *context, struct analysis *a, uint32_t node,
                                      uint32_t index, uint64_t hash),
                         void *context);
/* Adds to `a` a duplicate-name warning on the name `node` (of bulk element `index`, or of the
 * source document: UINT32_MAX) that a source of another document has first, at `first` (which
 * must outlive the diagnostic). The settings are applied by analysis_settle. 0, or -1 when
 * memory ran out. */
int duplicate_names_report_elsewhere(struct analysis *a, uint32_t node, uint32_t index,
                                     const struct diag_elsewhere *first);
/* Whether two source names clash. */
bool duplicate_names_equal(struct json_str a, struct json_str b);
/* The hash of a source name, equal for names that clash. */
uint64_t duplicate_names_hash(struct json_str name);

#endif
