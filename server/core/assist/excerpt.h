/* excerpt: the piece of a line a code frame shows, with every string value that could hold a
 * secret masked — all but the values of known fields that are neither secret nor sensitive (an
 * unknown key may be a misspelled "password"), and every key the parser guessed while
 * recovering (it may be the rest of a value). Nothing of a secret leaves through it. */
#ifndef SRCLS_EXCERPT_H
#define SRCLS_EXCERPT_H

#include <stdint.h>

#include "check/check.h"

/* The most bytes of a line an excerpt shows around its offset (a long line is cut, with "..."). */
#define EXCERPT_WIDTH 120u

/* The excerpt of the line holding byte `offset` (without the line break), masked, in `arena`;
 * `*caret` and `*caret_end` the bytes of the excerpt that stand for `offset` and for `end` (or
 * the excerpt's end when `end` is beyond it; a masked value is `***` between its quotes). NULL
 * when out of memory. */
const char *excerpt_at(const struct analysis *analysis, uint32_t offset, uint32_t end,
                       struct arena *arena, uint32_t *caret, uint32_t *caret_end);

/* The bytes [from, to) whole (a line of a diff), every string value that could hold a secret
 * shown as `***` between its quotes, after the prefix that says how a secret is written when it
 * starts with one (`"data:,***"`, `"data:;base64,***"`, `"vault:***"`; the placeholder whole), so
 * that a fix of the encoding shows; NUL-terminated in `arena`, or NULL when out of memory. */
const char *excerpt_line(const struct analysis *analysis, uint32_t from, uint32_t to,
                         struct arena *arena);

#endif
