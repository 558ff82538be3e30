/* check_pool: the threads of `srcls --check --jobs N`: N - 1 workers and the submitting thread.
 * Tasks run in any order; each is then handed back on the submitting thread strictly in
 * submission order, so the report is the same as one thread's. At most `window` tasks are in
 * flight: when the window is full, the submitting thread works queued tasks itself (and waits
 * only when every one left is on a worker), which bounds memory and keeps N threads, not N + 1,
 * busy on N cores. */
#ifndef SRCLS_CHECK_POOL_H
#define SRCLS_CHECK_POOL_H

struct check_pool;

/* Runs on a worker: must touch nothing but `task` and what is shared read-only. */
typedef void (*check_pool_work)(void *task);
/* Runs on the submitting thread, in submission order, once `task` was worked. */
typedef void (*check_pool_done)(void *context, void *task);

/* A pool of `jobs` - 1 worker threads (at least 1); NULL when not even one thread could start
 * (the caller then works alone). Tasks are single malloc'd blocks, made by the submitting
 * thread. After `done`, `release` (a check_pool_work) frees what the work allocated, on the
 * thread that worked the task, so that memory goes back to the malloc arena it came from (when
 * that worker next takes work, or stops); the task itself is then kept for check_pool_reuse. */
struct check_pool *check_pool_create(unsigned jobs, unsigned window, check_pool_work work,
                                     check_pool_done done, check_pool_work release, void *context);
/* A task released, for the submitting thread to fill anew (its bytes as release left them), or
 * NULL: tasks go back to the thread that allocated them, not freed by another. */
void *check_pool_reuse(struct check_pool *pool);
/* Queues `task`, after waiting for room in the window. */
void check_pool_submit(struct check_pool *pool, void *task);
/* Waits for every queued task and hands each back. */
void check_pool_drain(struct check_pool *pool);
/* Drains, stops the workers and frees the pool; NULL is allowed. */
void check_pool_destroy(struct check_pool *pool);

#endif
