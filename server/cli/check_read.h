/* check_read: opening and reading the files `--check` is given, and their paths made absolute. */
#ifndef SRCLS_CHECK_READ_H
#define SRCLS_CHECK_READ_H

#include <stddef.h>
#include <sys/stat.h>

#include <stdbool.h>

#include "json/json.h"

/* One limit for every input: the parser refuses larger documents anyway. */
#define CHECK_MAX_INPUT_SIZE JSON_DEFAULT_MAX_SIZE

/* Reads `fd` to its end into a malloc'd buffer the caller frees. `expected` (the size fstat
 * gave, or 0 for a stream) sizes the first allocation, so a regular file is read with one
 * allocation and one read (a read that gives `expected` bytes of the `expected` + 1 asked is
 * its end); a file that grows meanwhile is still read whole. NULL with errno set on failure, EFBIG
 * when there is more than CHECK_MAX_INPUT_SIZE bytes: reading stops there. */
char *read_descriptor(int fd, size_t expected, size_t *len);
/* strerror, but ENOMEM is "out of memory": the one way the command line says it. */
const char *check_strerror(int error);

/* What a file that is not a regular file or a directory is ("a FIFO", "a socket", ...), for
 * the message that it is not checked. */
const char *check_file_type_name(mode_t mode);

/* Opens `name` (relative to the directory `at`) for reading, following a final symbolic link
 * only when `follow` is set, and fills `st` from the descriptor: the one stat that cannot race
 * with the open. Returns the descriptor, or -1 with errno set. */
int open_entry(int at, const char *name, bool follow, struct stat *st);

/* `path` made absolute against `cwd` (absolute) and normalised: no "." or empty segments, ".."
 * applied to the segment before it, as the shell's `cd -L` does (a symbolic link is not
 * resolved first). Malloc'd, or NULL. */
char *check_path_absolute(const char *cwd, const char *path);

/* Whether the name `s` ends with `suffix` (".source.json"). */
bool check_ends_with(const char *s, const char *suffix);

/* The largest srcls.json, kind file or baseline --check reads (1 MiB). */
#define CONFIG_MAX_SIZE (1u << 20)
/* The whole of the regular file `path` (a srcls.json, a kind file: at most CONFIG_MAX_SIZE
 * bytes), malloc'd, or NULL with errno set (EFBIG: larger). */
char *check_read_config(const char *path, size_t *len);

#endif
