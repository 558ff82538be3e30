/* check_git_wasi: check_git.h in the WebAssembly build, which cannot start a process (WASI
 * preview 1): git is never there. Its callers ask platform_runs_git first and say so. */
#include "check_git.h"

#include <stddef.h>

char *check_git_output(char *const argv[], size_t *len, int *status)
{
    (void)argv;
    *len = 0;
    *status = -1;
    return NULL;
}
