/* command: what main.c hands the CLI door once the command line is read (options.h): `srcls
 * --check` (its options checked, the schema loaded, each srcls.json's settings with --select and
 * --ignore over them, then the walk) and the reference actions (--list-kinds, --explain,
 * --export-json-schema, --generate-docs). */
#ifndef SRCLS_COMMAND_H
#define SRCLS_COMMAND_H

#include <stddef.h>

#include "options.h"

/* `srcls --check`; the exit status (0, 1, or 2 after saying why on stderr). */
int command_check(const struct cli_options *options);
/* An action (`action` a row's name, without "--"), its argument (NULL when it takes none) and
 * --format (NULL when not given); the exit status. */
int command_reference(const char *action, const char *arg, const char *format);
/* The name of the `i`th WHAT of --generate-docs, or NULL past the last. */
const char *command_docs_name(size_t i);

#endif
