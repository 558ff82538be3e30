/* check_git: running git for the CLI, the one way: natively posix_spawnp with standard input on
 * /dev/null and its messages silenced, its output read whole (check_git.c); in the WebAssembly
 * build the same argv handed to its runner, which starts git (check_git_wasi.c). */
#ifndef SRCLS_CHECK_GIT_H
#define SRCLS_CHECK_GIT_H

#include <stddef.h>
#include <stdio.h>

/* Runs `argv` (argv[0] "git") and returns what it wrote on standard output (malloc'd, with a
 * NUL after its `*len` bytes), setting `*status` to its exit status, or -1 when git could not
 * be started (not installed) or its output not read, CHECK_GIT_NO_MEMORY when memory ran out
 * for either. NULL only when `*status` is negative. */
#define CHECK_GIT_NO_MEMORY (-2)
char *check_git_output(char *const argv[], size_t *len, int *status);

/* Why the last check_git_output could not start git, where that stops a scan of a work tree
 * rather than letting it check what git would skip: the WebAssembly build's (its runner cannot
 * start git, or found no git on PATH). NULL natively, where a missing git ignores nothing. */
const char *check_git_missing(void);

/* `git -C DIR cat-file --batch`, asked one object at a time: natively one git for the run; in
 * the WebAssembly build one git per question, through its runner. NULL when memory ran out or
 * git could not be started. */
struct check_git_batch;
struct check_git_batch *check_git_batch_open(const char *dir);
/* Asks for the object `spec` (e.g. COMMIT:PATH) and returns the stream git's answer is read
 * from (owned by the batch, valid until the next question), or NULL when git does not take the
 * question (it died, or could not be started). */
FILE *check_git_batch_ask(struct check_git_batch *batch, const char *spec);
/* Stops git and frees the batch; NULL is fine. */
void check_git_batch_close(struct check_git_batch *batch);

#endif
