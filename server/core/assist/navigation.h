/* navigation: the document's structure for moving around it — the regions an editor can fold
 * (objects and arrays that span lines) and the ranges a selection grows through from a cursor
 * (the string's text, the token, the member, the container, its member, ... the document). */
#ifndef SRCLS_NAVIGATION_H
#define SRCLS_NAVIGATION_H

#include <stdint.h>

#include "check/check.h"

struct byte_range {
    uint32_t start, end; /* bytes [start, end) */
};

/* The objects and arrays that span more than one line, as the bytes from their opening to their
 * closing bracket, in document order, at most `max` of them (the outermost first when there are
 * more: a fold inside a larger one is dropped before it). malloc'd into `*out` (the caller
 * frees it); returns how many, or -1 when memory ran out. */
int64_t navigation_folds(const struct analysis *analysis, uint32_t max, struct byte_range **out);

/* The ranges a selection grows through from the cursor `offset`, innermost first, each strictly
 * larger than the one before: inside a string its text, then the token (key or value), the
 * member (key to value), the container, its member, and so on up to the whole value. Writes at
 * most `max` into `out`; returns how many. */
uint32_t navigation_selection(const struct analysis *analysis, uint32_t offset,
                              struct byte_range *out, uint32_t max);

#endif
