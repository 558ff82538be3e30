/* check_git_wasi: check_git.h in the WebAssembly build, which cannot start a process (WASI
 * preview 1). Its runner can: server/main/srcls-wasm.mjs puts functions in the module's table
 * (srcls_host_git) that run git with the argv built here, in the directory named here, with no
 * shell, and hand back its exit status and standard output. The commands and the parsing of their
 * output are the native ones, so the answers are too. A runner without them (an older one, a
 * browser worker) leaves them unset: git is then missing. Not a WebAssembly import: a runner
 * that lacks one cannot start the module at all. */
#include "check_git.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The runner's git, two functions it puts in the module's table and whose indices it writes
 * here before the program starts (an exported function would not do: in a WASI command each
 * one runs the constructors again). run_git: `request` is the current directory and then argv,
 * each ended by a NUL, `input` is git's standard input; returns git's exit status, keeping its
 * standard output (`*out_len` bytes) for take_output, or a HOST_GIT_* failure. take_output
 * copies what it kept into `out` (NULL: drops it). */
struct srcls_host_git {
    int (*run_git)(const char *request, size_t request_len, const char *input, size_t input_len,
                   size_t *out_len);
    void (*take_output)(char *out);
};
enum { HOST_GIT_NOT_FOUND = -1, HOST_GIT_FAILED = -2 };

/* Exported by its address (server/meson.build); NULLs without the runner's git. */
extern struct srcls_host_git srcls_host_git;
struct srcls_host_git srcls_host_git;
static const char *missing; /* why the last call did not run git, or NULL */

/* The request for `argv` run in the current directory (malloc'd), or NULL. */
static char *request_of(char *const argv[], size_t *len)
{
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return NULL;
    size_t size = strlen(cwd) + 1;
    for (int i = 0; argv[i] != NULL; i++)
        size += strlen(argv[i]) + 1;
    char *request = malloc(size);
    if (request == NULL)
        return NULL;
    size_t at = 0;
    for (int i = -1; i < 0 || argv[i] != NULL; i++) {
        const char *word = i < 0 ? cwd : argv[i];
        memcpy(request + at, word, strlen(word) + 1);
        at += strlen(word) + 1;
    }
    *len = size;
    return request;
}

/* check_git_output with `input` on git's standard input. */
static char *run_git(char *const argv[], const char *input, size_t input_len, size_t *len,
                     int *status)
{
    *len = 0;
    *status = -1;
    if (srcls_host_git.run_git == NULL || srcls_host_git.take_output == NULL) {
        missing = "its runner cannot start git: run it with srcls-wasm.mjs, or the npm package's "
                  "srcls";
        return NULL;
    }
    size_t request_len = 0;
    char *request = request_of(argv, &request_len);
    size_t out_len = 0;
    int got = request != NULL
                  ? srcls_host_git.run_git(request, request_len, input, input_len, &out_len)
                  : HOST_GIT_FAILED;
    free(request);
    char *out = got >= 0 ? malloc(out_len + 1) : NULL;
    if (got >= 0)
        srcls_host_git.take_output(out);
    if (out == NULL) {
        missing = got == HOST_GIT_NOT_FOUND ? "git is not on PATH"
                  : got >= 0                ? "out of memory"
                                            : "git could not be run";
        return NULL;
    }
    out[out_len] = '\0';
    missing = NULL;
    *status = got;
    *len = out_len;
    return out;
}

char *check_git_output(char *const argv[], size_t *len, int *status)
{
    return run_git(argv, NULL, 0, len, status);
}

const char *check_git_missing(void)
{
    return missing;
}

/* One git per question: the runner's call returns when git has answered and stopped. */
struct check_git_batch {
    char *dir;
    char *answer; /* the last answer, read through `stream` */
    FILE *stream;
};

struct check_git_batch *check_git_batch_open(const char *dir)
{
    struct check_git_batch *batch = calloc(1, sizeof *batch);
    if (batch == NULL || (batch->dir = strdup(dir)) == NULL) {
        free(batch);
        return NULL;
    }
    return batch;
}

/* The previous answer is dropped. */
static void forget_answer(struct check_git_batch *batch)
{
    if (batch->stream != NULL)
        fclose(batch->stream);
    free(batch->answer);
    batch->stream = NULL;
    batch->answer = NULL;
}

FILE *check_git_batch_ask(struct check_git_batch *batch, const char *spec)
{
    forget_answer(batch);
    size_t input_len = strlen(spec) + 1;
    char *input = malloc(input_len + 1);
    if (input == NULL)
        return NULL;
    memcpy(input, spec, input_len - 1);
    memcpy(input + input_len - 1, "\n", 2);
    char *argv[] = {"git", "-C", batch->dir, "cat-file", "--batch", NULL};
    size_t len = 0;
    int status;
    batch->answer = run_git(argv, input, input_len, &len, &status);
    free(input);
    if (batch->answer != NULL && status == 0 && len > 0) /* fmemopen takes no empty buffer */
        batch->stream = fmemopen(batch->answer, len, "r");
    return batch->stream;
}

void check_git_batch_close(struct check_git_batch *batch)
{
    if (batch == NULL)
        return;
    forget_answer(batch);
    free(batch->dir);
    free(batch);
}
