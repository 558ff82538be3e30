/* lsp_workspace_wasi: the WebAssembly build's side of workspace/diagnostic (lsp_workspace_posix.c
 * is the native build's). No threads: a batch is worked when it is submitted, through the
 * stand-in's uv_queue_work, and handed back on the next turn of the loop. No process: the pull
 * does not know what git ignores there and checks every file, as it always has. */
#include "lsp_workspace_internal.h"

#include <stdlib.h>

unsigned lsp_workspace_cores(void)
{
    return 1;
}

struct ws_pool {
    uv_loop_t *loop;
    ws_batch_fn *work, *after;
};

struct ws_pool *lsp_workspace_pool_new(uv_loop_t *loop, unsigned threads, ws_batch_fn *work,
                                       ws_batch_fn *after)
{
    (void)threads;
    struct ws_pool *pool = malloc(sizeof *pool);
    if (pool != NULL)
        *pool = (struct ws_pool){loop, work, after};
    return pool;
}

static void on_work(uv_work_t *work)
{
    struct ws_batch *b = work->data;
    b->pool->work(b);
}

static void on_after(uv_work_t *work, int status)
{
    (void)status;
    struct ws_batch *b = work->data;
    b->pool->after(b);
}

void lsp_workspace_pool_submit(struct ws_pool *pool, struct ws_batch *b)
{
    b->pool = pool;
    b->work.data = b;
    uv_queue_work(pool->loop, &b->work, on_work, on_after); /* fails only without work */
}

void lsp_workspace_pool_close(struct ws_pool *pool)
{
    free(pool);
}

int lsp_workspace_git_ignored(uv_loop_t *loop, const char *dir, lsp_workspace_git_done *done,
                              void *context)
{
    (void)loop;
    (void)dir;
    (void)done;
    (void)context;
    return -1; /* not started: nothing is known of git here */
}
