/* file_replace: rewriting a file in place for `--fix`, atomically and through links. */
#ifndef SRCLS_FILE_REPLACE_H
#define SRCLS_FILE_REPLACE_H

#include <stddef.h>
#include <sys/stat.h>

/* Replaces the file `path` was read from (`was`, its stat at the read) by `text`: through
 * symbolic links to their target, via a hidden temporary file `.NAME.srcls-XXXXXX.tmp` beside
 * the target and one rename, with the target's owner, group and mode. The file is always either
 * the old or the new text. Refuses, leaving the file unchanged, a file with other hard links (a
 * rename would split them), one that is not writable, one that changed since it was read, and
 * one whose owner cannot be kept. Returns 0 and the new file's stat in `written`, or -1 with
 * the reason, for a person, in `why`.
 * The WebAssembly build (file_replace_wasi.c) cannot create a file with an owner or a mode (WASI
 * preview 1 has neither): it rewrites the file in place instead, which keeps both, but a run
 * stopped in the middle of the write leaves the file cut short. */
int file_replace(const char *path, const struct stat *was, const char *text, size_t len,
                 struct stat *written, char *why, size_t why_size);

/* While `--fix` runs: SIGINT, SIGTERM and SIGHUP remove the temporary file being written and
 * then end srcls as the signal would have (signals that were ignored stay ignored);
 * file_replace_restore_signals puts back the actions there were. Nothing in the WebAssembly
 * build, which has no signals and writes no temporary file. */
void file_replace_install_cleanup(void);
void file_replace_restore_signals(void);

#endif
