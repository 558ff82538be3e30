/* lsp_workspace_posix: the native build's side of workspace/diagnostic (lsp_workspace_wasi.c is
 * the WebAssembly build's): the workers, threads started by libuv's uv_thread_create, which says
 * when a thread cannot start where libuv's own pool (uv_queue_work) aborts the process, so that
 * running out of memory is answered, not a crash; and what git ignores below a workspace folder —
 * `git -C DIR ls-files --others --ignored --exclude-standard --directory -z`, the question
 * `srcls --check` asks (check_ignored.c), run through lsp_git (uv_spawn, its output read on the
 * loop). */
#include "lsp_workspace_internal.h"

#include <stdlib.h>

#include "lsp_git.h"

/* git's answer is cut (and taken as unknown) past this many bytes. */
#define GIT_OUTPUT_MAX ((size_t)64 << 20)

unsigned lsp_workspace_cores(void)
{
    uv_cpu_info_t *cpus;
    int count = 0;
    if (uv_cpu_info(&cpus, &count) != 0)
        return 1;
    uv_free_cpu_info(cpus, count);
    return count > 0 ? (unsigned)count : 1;
}

/* ---- the workers ---- */

/* Threads at most, as libuv's own pool. */
#define POOL_THREADS 4u

struct ws_pool {
    uv_async_t async; /* a batch is done; referenced while batches are in the pool */
    uv_mutex_t lock;
    uv_cond_t wake;
    uv_thread_t threads[POOL_THREADS];
    unsigned started;                  /* threads running; 0: the loop works, a batch a turn */
    struct ws_batch *todo, *todo_last; /* waiting for a worker */
    struct ws_batch *done, *done_last; /* worked, waiting for the loop */
    unsigned pending;                  /* submitted, not handed back */
    bool stopping;
    ws_batch_fn *work, *after;
};

static void push(struct ws_batch **first, struct ws_batch **last, struct ws_batch *b)
{
    b->pool_next = NULL;
    if (*last != NULL)
        (*last)->pool_next = b;
    else
        *first = b;
    *last = b;
}

static struct ws_batch *pop(struct ws_batch **first, struct ws_batch **last)
{
    struct ws_batch *b = *first;
    if (b != NULL && (*first = b->pool_next) == NULL)
        *last = NULL;
    return b;
}

static void worker(void *arg)
{
    struct ws_pool *pool = arg;
    uv_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stopping && pool->todo == NULL)
            uv_cond_wait(&pool->wake, &pool->lock);
        if (pool->stopping)
            break;
        struct ws_batch *b = pop(&pool->todo, &pool->todo_last);
        uv_mutex_unlock(&pool->lock);
        pool->work(b);
        uv_mutex_lock(&pool->lock);
        push(&pool->done, &pool->done_last, b);
        uv_async_send(&pool->async);
    }
    uv_mutex_unlock(&pool->lock);
}

static void on_done(uv_async_t *async)
{
    struct ws_pool *pool = async->data;
    uv_mutex_lock(&pool->lock);
    struct ws_batch *done = pool->done;
    pool->done = pool->done_last = NULL;
    struct ws_batch *inline_batch = pool->started == 0 ? pop(&pool->todo, &pool->todo_last) : NULL;
    bool more = pool->started == 0 && pool->todo != NULL;
    uv_mutex_unlock(&pool->lock);
    if (inline_batch != NULL) { /* no thread: the loop works, a batch a turn */
        pool->work(inline_batch);
        inline_batch->pool_next = done;
        done = inline_batch;
    }
    if (more)
        uv_async_send(&pool->async);
    while (done != NULL) {
        struct ws_batch *b = done;
        done = b->pool_next;
        if (--pool->pending == 0)
            uv_unref((uv_handle_t *)&pool->async);
        pool->after(b);
    }
}

struct ws_pool *lsp_workspace_pool_new(uv_loop_t *loop, unsigned threads, ws_batch_fn *work,
                                       ws_batch_fn *after)
{
    struct ws_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL)
        return NULL;
    pool->work = work;
    pool->after = after;
    if (uv_mutex_init(&pool->lock) != 0) {
        free(pool);
        return NULL;
    }
    if (uv_cond_init(&pool->wake) != 0 || uv_async_init(loop, &pool->async, on_done) != 0) {
        uv_mutex_destroy(&pool->lock);
        free(pool); /* uv_async_init fails before it registers the handle */
        return NULL;
    }
    pool->async.data = pool;
    uv_unref((uv_handle_t *)&pool->async);
    while (pool->started < threads && pool->started < POOL_THREADS &&
           uv_thread_create(&pool->threads[pool->started], worker, pool) == 0)
        pool->started++; /* a thread that cannot start: fewer work (none: the loop does) */
    return pool;
}

void lsp_workspace_pool_submit(struct ws_pool *pool, struct ws_batch *b)
{
    uv_mutex_lock(&pool->lock);
    push(&pool->todo, &pool->todo_last, b);
    if (pool->pending++ == 0)
        uv_ref((uv_handle_t *)&pool->async);
    uv_cond_signal(&pool->wake);
    uv_mutex_unlock(&pool->lock);
    if (pool->started == 0)
        uv_async_send(&pool->async);
}

static void on_pool_closed(uv_handle_t *handle)
{
    struct ws_pool *pool = handle->data;
    uv_cond_destroy(&pool->wake);
    uv_mutex_destroy(&pool->lock);
    free(pool);
}

void lsp_workspace_pool_close(struct ws_pool *pool)
{
    uv_mutex_lock(&pool->lock);
    pool->stopping = true;
    uv_cond_broadcast(&pool->wake);
    uv_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->started; i++)
        uv_thread_join(&pool->threads[i]); /* each ends the batch it works on */
    uv_close((uv_handle_t *)&pool->async, on_pool_closed);
}

/* What a pull asked git, and whom to tell. */
struct git_ignored {
    lsp_workspace_git_done *done;
    void *context;
};

static void on_git_done(void *context, const struct lsp_git_result *result)
{
    struct git_ignored *asked = context;
    bool known = result->spawn_error == 0 && result->exit_code == 0 && !result->cut;
    asked->done(asked->context, known ? result->output : NULL, known ? result->len : 0);
    free(asked);
}

int lsp_workspace_git_ignored(uv_loop_t *loop, const char *dir, lsp_workspace_git_done *done,
                              void *context)
{
    struct git_ignored *asked = malloc(sizeof *asked);
    if (asked == NULL)
        return UV_ENOMEM;
    *asked = (struct git_ignored){done, context};
    char *args[] = {"git",      "-C",        (char *)dir,          "ls-files",
                    "--others", "--ignored", "--exclude-standard", "--directory",
                    "-z",       NULL};
    /* no git: nothing known, said through `done` */
    if (lsp_git_start(loop, args, NULL, "", GIT_OUTPUT_MAX, on_git_done, asked) == NULL) {
        free(asked);
        return UV_ENOMEM;
    }
    return 0;
}
