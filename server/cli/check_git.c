/* check_git: running git (see check_git.h). */
#define _XOPEN_SOURCE 700 /* sigtimedwait */

#include "check_git.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

extern char **environ;

/* Reads `fd` to its end into a malloc'd buffer (NUL after it); NULL on a read error or when
 * memory ran out (then `*no_memory`). */
static char *read_all(int fd, size_t *len, bool *no_memory)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4097 > cap) {
            char *grown = vector_grow(buf, &cap, n + 4097, 1);
            if (grown == NULL) {
                *no_memory = true;
                break;
            }
            buf = grown;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got == 0) {
            buf[n] = '\0';
            *len = n;
            return buf;
        }
        if (got < 0)
            break;
        n += (size_t)got;
    }
    free(buf);
    return NULL;
}

char *check_git_output(char *const argv[], size_t *len, int *status)
{
    *status = -1;
    int out[2];
    if (pipe(out) != 0)
        return NULL;
    posix_spawn_file_actions_t actions;
    /* Each action allocates: one left out for memory would give git our standard output. */
    int prepared = posix_spawn_file_actions_init(&actions);
    bool initialised = prepared == 0;
    if (initialised)
        prepared = posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO) ||
                           posix_spawn_file_actions_addclose(&actions, out[0]) ||
                           posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                                            O_WRONLY, 0) ||
                           posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                                            O_RDONLY, 0)
                       ? ENOMEM
                       : 0;
    pid_t pid;
    int spawned =
        prepared == 0 ? posix_spawnp(&pid, "git", &actions, NULL, argv, environ) : prepared;
    if (initialised)
        posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    bool no_memory = spawned == ENOMEM;
    char *buf = spawned == 0 ? read_all(out[0], len, &no_memory) : NULL;
    close(out[0]);
    int waited = 0;
    if (spawned != 0 || waitpid(pid, &waited, 0) != pid || buf == NULL || !WIFEXITED(waited) ||
        WEXITSTATUS(waited) == 127) { /* 127: the shell's "not found", for a wrapper script */
        free(buf);
        if (no_memory)
            *status = CHECK_GIT_NO_MEMORY;
        return NULL;
    }
    *status = WEXITSTATUS(waited);
    return buf;
}

const char *check_git_missing(void)
{
    return NULL;
}

struct check_git_batch {
    pid_t pid;
    FILE *to_git, *from_git;
};

struct check_git_batch *check_git_batch_open(const char *dir)
{
    struct check_git_batch *batch = calloc(1, sizeof *batch);
    int in[2], out[2];
    if (batch == NULL || pipe(in) != 0) {
        free(batch);
        return NULL;
    }
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        free(batch);
        return NULL;
    }
    posix_spawn_file_actions_t actions;
    /* Each action allocates: one left out for memory would give git our standard streams. */
    int prepared = posix_spawn_file_actions_init(&actions);
    bool initialised = prepared == 0;
    if (initialised)
        prepared = posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO) ||
                           posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO) ||
                           posix_spawn_file_actions_addclose(&actions, in[1]) ||
                           posix_spawn_file_actions_addclose(&actions, out[0]) ||
                           posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                                            O_WRONLY, 0)
                       ? ENOMEM
                       : 0;
    char *argv[] = {"git", "-C", (char *)dir, "cat-file", "--batch", NULL};
    int spawned =
        prepared == 0 ? posix_spawnp(&batch->pid, "git", &actions, NULL, argv, environ) : prepared;
    if (initialised)
        posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    if (spawned == 0) {
        batch->to_git = fdopen(in[1], "w");
        batch->from_git = fdopen(out[0], "r");
    }
    if (batch->to_git == NULL)
        close(in[1]);
    if (batch->from_git == NULL)
        close(out[0]);
    if (spawned != 0)
        batch->pid = 0;
    if (spawned != 0 || batch->to_git == NULL || batch->from_git == NULL) {
        check_git_batch_close(batch);
        return NULL;
    }
    return batch;
}

/* Sends the question with SIGPIPE held back: a git that has died makes the write fail (EPIPE),
 * and the caller fails with a message, instead of the signal ending srcls. */
FILE *check_git_batch_ask(struct check_git_batch *batch, const char *spec)
{
    sigset_t pipe_signal, old;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
    bool sent = fprintf(batch->to_git, "%s\n", spec) >= 0 && fflush(batch->to_git) == 0;
    if (!sent) { /* take the signal the failed write raised before letting it through again */
        struct timespec none = {0, 0};
        while (sigtimedwait(&pipe_signal, NULL, &none) == SIGPIPE)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return sent ? batch->from_git : NULL;
}

void check_git_batch_close(struct check_git_batch *batch)
{
    if (batch == NULL)
        return;
    if (batch->to_git != NULL)
        fclose(batch->to_git); /* git sees the end of its input and stops */
    if (batch->from_git != NULL)
        fclose(batch->from_git);
    if (batch->pid > 0)
        waitpid(batch->pid, NULL, 0);
    free(batch);
}
