/* file_replace_internal: the checks and the writing shared by file_replace_posix.c and
 * file_replace_wasi.c (file_replace.c). */
#ifndef SRCLS_FILE_REPLACE_INTERNAL_H
#define SRCLS_FILE_REPLACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Whether the file at `target` is still the one read (same inode, size and time), so that a
 * rewrite cannot undo a change made meanwhile; the reason in `why` if not. */
bool file_replace_unchanged(const char *target, const struct stat *was, char *why, size_t why_size);

/* Whether `target` (read with stat `was`) may be replaced: unchanged, no other hard links,
 * writable; the reason in `why` if not. */
bool file_replace_allowed(const char *target, const struct stat *was, char *why, size_t why_size);

/* Writes all `len` bytes of `text` to `fd`. 0, or -1 with errno set. */
int file_replace_write_all(int fd, const char *text, size_t len);

#endif
