/* file_replace: what both ways of rewriting a file for `--fix` check before they write
 * (file_replace_posix.c: a temporary file and a rename; file_replace_wasi.c: in place). */
#include "file_replace.h"
#include "file_replace_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether the file at `target` is still the one read (same inode, size and time), so that a
 * rewrite cannot undo a change made meanwhile. */
bool file_replace_unchanged(const char *target, const struct stat *was, char *why, size_t why_size)
{
    struct stat now;
    if (stat(target, &now) != 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return false;
    }
    if (now.st_dev != was->st_dev || now.st_ino != was->st_ino || now.st_size != was->st_size ||
        now.st_mtim.tv_sec != was->st_mtim.tv_sec || now.st_mtim.tv_nsec != was->st_mtim.tv_nsec) {
        snprintf(why, why_size, "the file changed while srcls was checking it");
        return false;
    }
    return true;
}

/* Whether `target` (read with stat `was`) may be replaced; the reason in `why` if not. */
bool file_replace_allowed(const char *target, const struct stat *was, char *why, size_t why_size)
{
    if (!file_replace_unchanged(target, was, why, why_size))
        return false;
    if (was->st_nlink > 1) {
        snprintf(why, why_size,
                 "it has %lu hard links, which replacing it would split; fix it by hand",
                 (unsigned long)was->st_nlink);
        return false;
    }
    if (access(target, W_OK) != 0) {
        snprintf(why, why_size, "the file is not writable: %s", strerror(errno));
        return false;
    }
    return true;
}

int file_replace_write_all(int fd, const char *text, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}
