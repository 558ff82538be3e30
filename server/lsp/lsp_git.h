/* lsp_git: one git process on the event loop, the LSP door's one way to run git (natively; the
 * WebAssembly build starts no process): started through uv_spawn with its arguments, a working
 * directory and a standard input written whole, its standard output read on the loop up to a
 * limit, then handed to a callback once the process has ended and its pipes are closed. Its
 * standard error is not kept: git's messages may quote a revision or a path. */
#ifndef SRCLS_LSP_GIT_H
#define SRCLS_LSP_GIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct lsp_git;

/* What a run gave. */
struct lsp_git_result {
    int spawn_error;   /* uv_spawn's error (git could not be started), or 0 */
    int64_t exit_code; /* its exit status, or 128 + the signal that ended it */
    char *output;      /* what it wrote, NUL-terminated; the run's, valid during the callback */
    size_t len;
    bool cut; /* over the limit, or not read whole: the output is not all of it */
};

/* Called once a run has ended: `result` and the run are freed when it returns. */
typedef void lsp_git_done(void *context, const struct lsp_git_result *result);

/* Starts `args` (args[0] "git", NULL-terminated) in `cwd` (NULL: the server's), with `input`
 * (copied; "" for none) on its standard input; its output is read up to `max_output` bytes
 * (then it is stopped, and the result is cut). `done` is called once, from the loop, even when
 * git cannot be started. Returns the run, or NULL when memory ran out (then `done` is never
 * called). */
struct lsp_git *lsp_git_start(uv_loop_t *loop, char **args, const char *cwd, const char *input,
                              size_t max_output, lsp_git_done *done, void *context);
/* Asks a run still going to stop (SIGTERM); its `done` is still called. */
void lsp_git_stop(struct lsp_git *run);

#endif
