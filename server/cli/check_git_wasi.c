/* check_git_wasi: check_git.h in the WebAssembly build, which cannot start a process (WASI
 * preview 1). Its runner can: server/main/srcls-wasm.mjs puts functions in the module's table
 * (srcls_host_git) that run git with the argv built here, in the directory named here, with no
 * shell, and hand back its exit status and standard output. The commands and the parsing of their
 * output are the native ones, so the answers are too. A runner without them (an older one, a
 * browser worker) leaves them unset: git is then missing. Not a WebAssembly import: a runner
 * that lacks one cannot start the module at all. */
#include "check_git.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
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

/* An answer of the announced run: its question and where it lies in `announced`. */
struct announced_answer {
    char *spec;
    size_t at, len;
};

/* One git per question, or one for the announced questions (check_git_batch_expect): the
 * runner's call returns when git has answered and stopped. */
struct check_git_batch {
    char *dir;
    char *answer; /* the last answer of its own run, read through `stream` */
    FILE *stream;
    char *announced; /* what the announced run wrote */
    struct announced_answer *answers;
    size_t answer_count;
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

/* git's answers to `specs` on `len` bytes of `out`, each its header line and, when that ends
 * in a size, that many bytes and a newline; stops at the first it cannot place (an answer
 * without a size but "missing", or cut short): those are asked again alone. */
static void place_answers(struct check_git_batch *batch, char *const specs[], size_t count,
                          size_t len)
{
    const char *out = batch->announced;
    size_t at = 0;
    for (size_t i = 0; i < count && at < len; i++) {
        const char *end = memchr(out + at, '\n', len - at);
        if (end == NULL)
            return;
        size_t header = (size_t)(end - (out + at)) + 1, size = 0;
        const char *field = end;
        while (field > out + at && field[-1] >= '0' && field[-1] <= '9')
            field--;
        bool sized = field < end && field > out + at && field[-1] == ' ';
        static const char missing[] = " missing\n";
        if (!sized && (header < sizeof missing - 1 ||
                       memcmp(end + 1 - (sizeof missing - 1), missing, sizeof missing - 1) != 0))
            return;
        for (; sized && field < end; field++) {
            if (size > (SIZE_MAX - 10) / 10)
                return;
            size = size * 10 + (size_t)(*field - '0');
        }
        size_t whole = header + (sized ? size + 1 : 0);
        if (whole > len - at || (batch->answers[i].spec = strdup(specs[i])) == NULL)
            return;
        batch->answers[i].at = at;
        batch->answers[i].len = whole;
        batch->answer_count = i + 1;
        at += whole;
    }
}

void check_git_batch_expect(struct check_git_batch *batch, char *const specs[], size_t count)
{
    size_t input_len = 0;
    for (size_t i = 0; i < count; i++)
        input_len += strlen(specs[i]) + 1;
    char *input = count > 0 && batch->answers == NULL ? malloc(input_len) : NULL;
    if (input == NULL || (batch->answers = calloc(count, sizeof *batch->answers)) == NULL) {
        free(input);
        return;
    }
    for (size_t i = 0, at = 0; i < count; i++) {
        size_t n = strlen(specs[i]);
        memcpy(input + at, specs[i], n);
        input[at + n] = '\n';
        at += n + 1;
    }
    char *argv[] = {"git", "-C", batch->dir, "cat-file", "--batch", NULL};
    size_t len = 0;
    int status;
    batch->announced = run_git(argv, input, input_len, &len, &status);
    free(input);
    if (batch->announced != NULL && status == 0)
        place_answers(batch, specs, count, len);
}

FILE *check_git_batch_ask(struct check_git_batch *batch, const char *spec)
{
    forget_answer(batch);
    for (size_t i = 0; i < batch->answer_count; i++)
        if (strcmp(batch->answers[i].spec, spec) == 0)
            return batch->stream = fmemopen(batch->announced + batch->answers[i].at,
                                            batch->answers[i].len, "r");
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
    if (batch->answers != NULL)
        for (size_t i = 0; i < batch->answer_count; i++)
            free(batch->answers[i].spec);
    free(batch->answers);
    free(batch->announced);
    free(batch->dir);
    free(batch);
}
