/* check_git: running git for the CLI, the one way: posix_spawnp with standard input on
 * /dev/null and its messages silenced, its output read whole. */
#ifndef SRCLS_CHECK_GIT_H
#define SRCLS_CHECK_GIT_H

#include <stddef.h>

/* Runs `argv` (argv[0] "git") and returns what it wrote on standard output (malloc'd, with a
 * NUL after its `*len` bytes), setting `*status` to its exit status, or -1 when git could not
 * be started (not installed) or its output not read, CHECK_GIT_NO_MEMORY when memory ran out
 * for either. NULL only when `*status` is negative. */
#define CHECK_GIT_NO_MEMORY (-2)
char *check_git_output(char *const argv[], size_t *len, int *status);

#endif
