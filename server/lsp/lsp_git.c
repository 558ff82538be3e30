/* lsp_git: one git process on the event loop (see lsp_git.h). The run holds the process and
 * its two pipes; it is finished when all three are closed. */
#include "lsp_git.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* The output buffer's first size, grown by doubling up to the run's limit. */
#define LSP_GIT_FIRST_OUTPUT 4096u

struct lsp_git {
    uv_process_t process;
    uv_pipe_t in, out;
    uv_write_t write;
    char *input;
    size_t max_output;
    struct lsp_git_result result;
    size_t cap; /* the output's room, its NUL apart */
    int open;   /* handles not closed yet */
    bool exited;
    lsp_git_done *done;
    void *context;
};

static void on_close(uv_handle_t *handle)
{
    struct lsp_git *run = handle->data;
    if (--run->open > 0)
        return;
    run->done(run->context, &run->result);
    free(run->input);
    free(run->result.output);
    free(run);
}

static void on_exit(uv_process_t *process, int64_t exit_status, int term_signal)
{
    struct lsp_git *run = process->data;
    run->exited = true;
    run->result.exit_code = term_signal != 0 ? 128 + term_signal : exit_status;
    uv_close((uv_handle_t *)process, on_close);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    struct lsp_git *run = handle->data;
    if (run->cap - run->result.len < suggested && run->cap < run->max_output) {
        size_t room = run->cap + 1; /* the output and its NUL */
        char *grown = vector_grow(run->result.output, &room, 2 * run->cap + 1, 1);
        if (grown != NULL) {
            run->result.output = grown;
            run->cap = room - 1;
        }
    }
    *buf =
        uv_buf_init(run->result.output + run->result.len, (unsigned)(run->cap - run->result.len));
}

static void on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *buf)
{
    (void)buf;
    struct lsp_git *run = stream->data;
    if (n > 0) {
        run->result.len += (size_t)n;
        run->result.output[run->result.len] = '\0';
    }
    if (n < 0 || run->result.len >= run->max_output) { /* UV_ENOBUFS: no room left */
        if (n != UV_EOF) {
            run->result.cut = true;
            lsp_git_stop(run);
        }
        uv_read_stop(stream);
        uv_close((uv_handle_t *)stream, on_close);
    }
}

static void on_written(uv_write_t *write, int status)
{
    (void)status;
    uv_close((uv_handle_t *)write->handle, on_close);
}

struct lsp_git *lsp_git_start(uv_loop_t *loop, char **args, const char *cwd, const char *input,
                              size_t max_output, lsp_git_done *done, void *context)
{
    struct lsp_git *run = calloc(1, sizeof *run);
    char *copy = run != NULL ? vector_copy_string(input) : NULL;
    char *output = copy != NULL ? calloc(1, LSP_GIT_FIRST_OUTPUT + 1) : NULL;
    if (output == NULL) {
        free(copy);
        free(run);
        return NULL;
    }
    *run = (struct lsp_git){.input = copy,
                            .max_output = max_output,
                            .result = {.exit_code = -1, .output = output},
                            .cap = LSP_GIT_FIRST_OUTPUT,
                            .open = 3,
                            .done = done,
                            .context = context};
    uv_pipe_init(loop, &run->in, 0);
    uv_pipe_init(loop, &run->out, 0);
    run->process.data = run->in.data = run->out.data = run;
    uv_stdio_container_t stdio[3] = {
        {.flags = UV_CREATE_PIPE | UV_READABLE_PIPE, .data.stream = (uv_stream_t *)&run->in},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&run->out},
        {.flags = UV_IGNORE},
    };
    uv_process_options_t options = {.exit_cb = on_exit,
                                    .file = "git",
                                    .args = args,
                                    .cwd = cwd,
                                    .stdio_count = 3,
                                    .stdio = stdio};
    run->result.spawn_error = uv_spawn(loop, &run->process, &options);
    if (run->result.spawn_error != 0) { /* said through `done` once the three are closed */
        run->exited = true;
        run->result.cut = true;
        uv_close((uv_handle_t *)&run->process, on_close);
        uv_close((uv_handle_t *)&run->in, on_close);
        uv_close((uv_handle_t *)&run->out, on_close);
        return run;
    }
    uv_read_start((uv_stream_t *)&run->out, on_alloc, on_read);
    uv_buf_t buf = uv_buf_init(run->input, (unsigned)strlen(run->input));
    if (buf.len == 0 || uv_write(&run->write, (uv_stream_t *)&run->in, &buf, 1, on_written) != 0)
        uv_close((uv_handle_t *)&run->in, on_close);
    return run;
}

void lsp_git_stop(struct lsp_git *run)
{
    if (!run->exited)
        uv_process_kill(&run->process, SIGTERM);
}
