/* platform_wasi: the WebAssembly (WASI preview 1) side of platform.h. */
#include "platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char platform_version_suffix[] = " (wasm32-wasi)";
const bool platform_has_threads = false;

void platform_start(void)
{
    /* wasi-libc keeps the current directory itself (chdir is its emulation over the preopened
     * directories): a $PWD that is not there leaves "/", and relative paths are then not found,
     * which each file's message says. */
    const char *pwd = getenv("PWD");
    if (pwd != NULL && pwd[0] == '/')
        (void)chdir(pwd);
}

/* Appends the component `name` (`len` bytes) to the absolute path `out` (`*used` bytes): "."
 * is nothing, ".." drops the last component. False when the result does not fit. */
static bool append_component(char *out, size_t *used, const char *name, size_t len)
{
    if (len == 0 || (len == 1 && name[0] == '.'))
        return true;
    if (len == 2 && name[0] == '.' && name[1] == '.') {
        while (*used > 1 && out[*used - 1] != '/')
            (*used)--;
        if (*used > 1)
            (*used)--; /* the slash, but not the root's */
        out[*used] = '\0';
        return true;
    }
    bool root = *used == 1;
    if (*used + !root + len + 1 > PATH_MAX)
        return false;
    if (!root)
        out[(*used)++] = '/';
    memcpy(out + *used, name, len);
    *used += len;
    out[*used] = '\0';
    return true;
}

char *platform_realpath(const char *path, char *resolved)
{
    char cwd[PATH_MAX];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd) == NULL)
        return NULL;
    size_t used = 1;
    strcpy(resolved, "/");
    for (int part = path[0] == '/' ? 1 : 0; part < 2; part++) {
        const char *at = part == 0 ? cwd : path;
        while (*at != '\0') {
            size_t len = strcspn(at, "/");
            if (!append_component(resolved, &used, at, len)) {
                errno = ENAMETOOLONG;
                return NULL;
            }
            at += len + (at[len] == '/');
        }
    }
    return resolved;
}
