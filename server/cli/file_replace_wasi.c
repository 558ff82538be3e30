/* file_replace_wasi: `--fix` in the WebAssembly build. WASI preview 1 has no owners and no
 * modes: a temporary file renamed over the target would take the runtime's default mode and the
 * runner's owner. So the target itself is rewritten (opened through its links, written from the
 * start, cut to the new length, synced), which keeps its owner, mode and links; the price is
 * that a run killed during the write leaves the file cut short (docs/install.md). */
#include "file_replace.h"
#include "file_replace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int file_replace(const char *path, const struct stat *was, const char *text, size_t len,
                 struct stat *written, char *why, size_t why_size)
{
    if (!file_replace_allowed(path, was, why, why_size))
        return -1;
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_size, "cannot open it for writing: %s", strerror(errno));
        return -1;
    }
    /* the same file still (not replaced between the check and the open) */
    struct stat opened;
    if (fstat(fd, &opened) != 0 || opened.st_dev != was->st_dev || opened.st_ino != was->st_ino) {
        snprintf(why, why_size, "the file changed while srcls was checking it");
        close(fd);
        return -1;
    }
    if (file_replace_write_all(fd, text, len) != 0 || ftruncate(fd, (off_t)len) != 0 ||
        fsync(fd) != 0 || fstat(fd, written) != 0) {
        snprintf(why, why_size, "cannot rewrite it: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        snprintf(why, why_size, "cannot rewrite it: %s", strerror(errno));
        return -1;
    }
    static bool said;
    if (!said)
        fputs("srcls: the WebAssembly build rewrites files in place (owner and mode kept): a run "
              "stopped while it writes leaves that file cut short\n",
              stderr);
    said = true;
    return 0;
}

void file_replace_install_cleanup(void)
{
}

void file_replace_restore_signals(void)
{
}
