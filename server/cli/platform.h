/* platform: the few calls of the CLI that differ between the native build (POSIX: Linux, macOS)
 * and the WebAssembly build (WASI preview 1, run by server/main/srcls-wasm.mjs under Node), one
 * file per platform (platform_posix.c, platform_wasi.c) chosen by server/meson.build. What the
 * WebAssembly build does its own way has its own WASI file beside the module (check_pool_wasi.c,
 * check_git_wasi.c: git started by the runner, file_replace_wasi.c); docs/install.md lists the
 * differences a user sees. */
#ifndef SRCLS_PLATFORM_H
#define SRCLS_PLATFORM_H

#include <limits.h>
#include <stdbool.h>

/* Said after the version by --version: "" natively, " (wasm32-wasi)" in the WebAssembly build. */
extern const char platform_version_suffix[];

/* Whether --jobs can run files on threads (WASI preview 1 has none: one file at a time). */
extern const bool platform_has_threads;

/* Called first by main. WASI: makes $PWD, which the runner sets to the directory node was started
 * in, the current directory (WASI programs start in "/"), so that relative paths mean what
 * they mean natively. Nothing natively. */
void platform_start(void);

/* The absolute path of `path` in `resolved` (PATH_MAX bytes), or NULL with errno set: realpath
 * natively; in WASI, which has none, the current directory and `path` joined and "." and ".."
 * removed without resolving symbolic links. */
char *platform_realpath(const char *path, char *resolved);

#endif
