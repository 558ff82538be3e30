/* lsp_workspace_git_wasi: the WebAssembly build starts no process, so workspace/diagnostic does
 * not know what git ignores there and checks every file, as it always has (lsp_workspace_git.c
 * is the native build's). */
#include "lsp_workspace_internal.h"

unsigned lsp_workspace_cores(void)
{
    return 1; /* no threads: the work runs when queued */
}

int lsp_workspace_git_ignored(uv_loop_t *loop, const char *dir, lsp_workspace_git_done *done,
                              void *context)
{
    (void)loop;
    (void)dir;
    (void)done;
    (void)context;
    return -1; /* not started: nothing is known of git here */
}
