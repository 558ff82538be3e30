/* file_replace_posix: how the native `--fix` rewrites a file so that it is always either the old
 * or the new text: through symbolic links to their target, via a hidden temporary file beside
 * the target and one rename, keeping owner, group and mode; refusing what a rename would damage
 * (file_replace.c). */
#define _DEFAULT_SOURCE /* mkstemps, realpath */

#include "file_replace.h"
#include "file_replace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room kept for the name of a file in the name of its temporary file (NAME_MAX is 255). */
#define TEMP_BASE_MAX 200u

/* The temporary file `--fix` is writing, for the signal handler to remove: a handler takes no
 * arguments, so this one global is the only way to reach it. */
static char *volatile pending_temp;

static void remove_pending_temp(int sig)
{
    char *temp = pending_temp;
    if (temp != NULL)
        unlink(temp);
    raise(sig); /* SA_RESETHAND restored the default action: die of the same signal */
}

/* The temporary file's name for `target` (an absolute path): `.NAME.srcls-XXXXXX.tmp` beside
 * it. Hidden and not *.json, so that no directory scan ever checks it, and a leftover (after
 * kill -9) is recognisable and harmless. Malloc'd; NULL when memory ran out. */
static char *temp_name_for(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir_len = (size_t)(slash - target);
    const char *base = slash + 1;
    size_t base_len = strlen(base);
    if (base_len > TEMP_BASE_MAX)
        base_len = TEMP_BASE_MAX;
    size_t size = dir_len + base_len + sizeof "/..srcls-XXXXXX.tmp";
    char *temp = malloc(size);
    if (temp != NULL)
        snprintf(temp, size, "%.*s/.%.*s.srcls-XXXXXX.tmp", (int)dir_len, target, (int)base_len,
                 base);
    return temp;
}

/* Best effort: makes the rename itself durable. */
static void sync_directory_of(const char *temp)
{
    const char *slash = strrchr(temp, '/');
    char *dir = strndup(temp, slash == temp ? 1 : (size_t)(slash - temp));
    int fd = dir ? open(dir, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Gives the temporary file `fd` the owner, group and mode of `was`, writes `text` and flushes
 * it to disk; its stat in `written`. Returns 0, or -1 with the reason in `why`. */
static int fill_temp(int fd, const struct stat *was, const char *text, size_t len,
                     struct stat *written, char *why, size_t why_size)
{
    struct stat created;
    if (fstat(fd, &created) != 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        return -1;
    }
    if ((created.st_uid != was->st_uid || created.st_gid != was->st_gid) &&
        fchown(fd, was->st_uid, was->st_gid) != 0) {
        snprintf(why, why_size,
                 "it belongs to user %lu, group %lu, and srcls, running as user %lu, cannot "
                 "keep that owner; run srcls as the owner",
                 (unsigned long)was->st_uid, (unsigned long)was->st_gid, (unsigned long)geteuid());
        return -1;
    }
    /* after fchown, which clears the set-user-ID and set-group-ID bits */
    if (fchmod(fd, was->st_mode & 07777) != 0 || file_replace_write_all(fd, text, len) != 0 ||
        fsync(fd) != 0 || fstat(fd, written) != 0) {
        snprintf(why, why_size, "cannot write a temporary file beside it: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int file_replace(const char *path, const struct stat *was, const char *text, size_t len,
                 struct stat *written, char *why, size_t why_size)
{
    char *temp = NULL;
    int fd = -1;
    char *target = realpath(path, NULL);
    if (target == NULL) {
        snprintf(why, why_size, "%s", errno == ENOMEM ? "out of memory" : strerror(errno));
        goto fail;
    }
    if (!file_replace_allowed(target, was, why, why_size))
        goto fail;
    temp = temp_name_for(target);
    if (temp == NULL) {
        snprintf(why, why_size, "out of memory");
        goto fail;
    }
    fd = mkstemps(temp, 4);
    if (fd < 0) {
        snprintf(why, why_size, "cannot create a temporary file beside it: %s", strerror(errno));
        free(temp);
        temp = NULL;
        goto fail;
    }
    pending_temp = temp;
    if (fill_temp(fd, was, text, len, written, why, why_size) != 0)
        goto fail;
    int closed = close(fd);
    fd = -1;
    if (closed != 0) {
        snprintf(why, why_size, "cannot write a temporary file beside it: %s", strerror(errno));
        goto fail;
    }
    if (!file_replace_unchanged(target, was, why, why_size))
        goto fail;
    if (rename(temp, target) != 0) {
        snprintf(why, why_size, "cannot replace it: %s", strerror(errno));
        goto fail;
    }
    pending_temp = NULL;
    sync_directory_of(temp);
    free(temp);
    free(target);
    return 0;
fail:
    if (fd >= 0)
        close(fd);
    if (temp != NULL) {
        unlink(temp);
        pending_temp = NULL;
    }
    free(temp);
    free(target);
    return -1;
}

/* Removes the temporary file of `--fix` when srcls is interrupted. Signals that were ignored
 * (nohup) stay ignored. */
static struct sigaction old_actions[3];

void file_replace_install_cleanup(void)
{
    struct sigaction *old = old_actions;
    static const int signals[3] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction action = {.sa_handler = remove_pending_temp, .sa_flags = SA_RESETHAND};
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 3; i++) {
        sigaction(signals[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN)
            sigaction(signals[i], &action, NULL);
    }
}

void file_replace_restore_signals(void)
{
    const struct sigaction *old = old_actions;
    static const int signals[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++)
        sigaction(signals[i], &old[i], NULL);
}
