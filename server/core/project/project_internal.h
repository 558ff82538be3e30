/* project_internal: what the files of core/project share and no door needs. */
#ifndef SRCLS_PROJECT_INTERNAL_H
#define SRCLS_PROJECT_INTERNAL_H

#include "project.h"

/* Follows the "extends" of the configuration `a` (settings_read into `settings`, without
 * mistakes, in the directory `config_dir`) through `reader`, and lays its settings over theirs
 * in `settings`. A file that cannot be read, has a mistake or makes a cycle is a project-config
 * diagnostic of `a` at the "extends" value that leads to it (then `settings` is left as it
 * was). 0, or -1 when memory ran out. */
int project_extend(struct analysis *a, const char *config_dir, const struct project_reader *reader,
                   struct settings *settings);

#endif
