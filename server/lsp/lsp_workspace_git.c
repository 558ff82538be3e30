/* lsp_workspace_git: the native build's side of workspace/diagnostic: the cores, and what git
 * ignores below a workspace folder —
 * `git -C DIR ls-files --others --ignored --exclude-standard --directory -z`, the question
 * `srcls --check` asks (check_ignored.c), run through uv_spawn with its output read on the loop.
 * lsp_workspace_git_wasi.c is the WebAssembly build's, which starts no process. */
#include "lsp_workspace_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* git's answer is cut (and taken as unknown) past this many bytes. */
#define GIT_OUTPUT_MAX ((size_t)64 << 20)

struct git_run {
    uv_process_t process;
    uv_pipe_t out;
    char *output;
    size_t len, cap;
    int64_t exit_code; /* -1 until git exits */
    bool cut;          /* the output was cut or not read whole */
    int open;          /* handles not closed yet */
    lsp_workspace_git_done *done;
    void *context;
};

static void on_close(uv_handle_t *handle)
{
    struct git_run *run = handle->data;
    if (--run->open > 0)
        return;
    bool known = run->exit_code == 0 && !run->cut;
    run->done(run->context, known ? run->output : NULL, known ? run->len : 0);
    free(run->output);
    free(run);
}

static void on_exit(uv_process_t *process, int64_t exit_status, int term_signal)
{
    struct git_run *run = process->data;
    run->exit_code = term_signal != 0 ? 128 + term_signal : exit_status;
    uv_close((uv_handle_t *)process, on_close);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    struct git_run *run = handle->data;
    if (run->cap - run->len < suggested && run->cap < GIT_OUTPUT_MAX) {
        char *grown = vector_grow(run->output, &run->cap, run->len + suggested, 1);
        if (grown != NULL)
            run->output = grown;
    }
    *buf = uv_buf_init(run->output + run->len, (unsigned)(run->cap - run->len));
}

static void on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *buf)
{
    (void)buf;
    struct git_run *run = stream->data;
    if (n > 0)
        run->len += (size_t)n;
    if (n < 0 || run->len >= GIT_OUTPUT_MAX) { /* UV_ENOBUFS: no room left */
        run->cut |= n != UV_EOF;
        if (run->cut && run->exit_code < 0)
            uv_process_kill(&run->process, SIGTERM);
        uv_read_stop(stream);
        uv_close((uv_handle_t *)stream, on_close);
    }
}

unsigned lsp_workspace_cores(void)
{
    uv_cpu_info_t *cpus;
    int count = 0;
    if (uv_cpu_info(&cpus, &count) != 0)
        return 1;
    uv_free_cpu_info(cpus, count);
    return count > 0 ? (unsigned)count : 1;
}

int lsp_workspace_git_ignored(uv_loop_t *loop, const char *dir, lsp_workspace_git_done *done,
                              void *context)
{
    struct git_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return UV_ENOMEM;
    *run = (struct git_run){.exit_code = -1, .done = done, .context = context, .open = 2};
    char *args[] = {"git",      "-C",        (char *)dir,          "ls-files",
                    "--others", "--ignored", "--exclude-standard", "--directory",
                    "-z",       NULL};
    uv_pipe_init(loop, &run->out, 0);
    run->process.data = run->out.data = run;
    uv_stdio_container_t stdio[3] = {
        {.flags = UV_IGNORE},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&run->out},
        {.flags = UV_IGNORE},
    };
    uv_process_options_t options = {
        .exit_cb = on_exit, .file = "git", .args = args, .stdio_count = 3, .stdio = stdio};
    int error = uv_spawn(loop, &run->process, &options);
    if (error != 0) { /* no git: nothing known, said through `done` once both are closed */
        run->cut = true;
        uv_close((uv_handle_t *)&run->process, on_close);
        uv_close((uv_handle_t *)&run->out, on_close);
        return 0;
    }
    uv_read_start((uv_stream_t *)&run->out, on_alloc, on_read);
    return 0;
}
