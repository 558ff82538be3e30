/* check_names: duplicate-name across the files of one `--check` run. The walk hands each file
 * over in the report's order (submission order, the same for every --jobs); a table keeps, per
 * source name, where it was first seen (the file's path, made as every format shows it once the
 * name is taken again, and the place in every column unit), so a later file's source of that
 * name is a warning with that place as related information. Memory per name, not per file: the
 * earlier file's text is gone by then. */
#ifndef SRCLS_CHECK_NAMES_H
#define SRCLS_CHECK_NAMES_H

#include <stddef.h>

#include "base/base.h"
#include "check/check.h"
#include "check_config.h"
#include "report.h"

struct check_names_slot;

/* Zeroed: an empty table. */
struct check_names {
    struct check_names_slot *slots;
    size_t size, used;
    unsigned file;      /* the file being added (its serial) */
    struct arena arena; /* the names, the paths and the places */
};

/* Adds the source names of `a` (the analysis reported for `path`, checked with `target`) to
 * the table, and to `a` a duplicate-name warning on each that an earlier file holds, with the
 * settings applied. A file with a syntax error, a kind file and a job contribute nothing. When
 * memory runs out the report is not whole (`reporter->failed`). */
void check_names_add(struct check_names *names, struct reporter *reporter, const char *path,
                     struct analysis *a, const struct check_target *target);
void check_names_free(struct check_names *names);

#endif
