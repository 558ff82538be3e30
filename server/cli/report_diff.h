/* report_diff: `--diff`, what `--fix` would change, as a unified diff. */
#ifndef SRCLS_REPORT_DIFF_H
#define SRCLS_REPORT_DIFF_H

#include <stdio.h>

#include "check/check.h"

/* Writes the unified diff from `old` to `new` (their texts; their trees mask the values that
 * could be secrets), both labelled `path`, with three lines of context. Returns 1 when they
 * differ, 0 when they do not (nothing written), -1 when memory ran out. */
int report_diff(FILE *out, const char *path, const struct analysis *old,
                const struct analysis *new);

#endif
