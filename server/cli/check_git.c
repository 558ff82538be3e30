/* check_git: running git (see check_git.h). */
#include "check_git.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
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
