/* check_pool: a fixed set of pthreads and a ring of the tasks in flight. The ring's slots are
 * numbered by ever-growing counters: `head` is the oldest task not yet handed back, `next` the
 * next one to work, `tail` the next free slot. Only the submitting thread moves head and
 * tail; the workers move next (a batch at a time) and mark slots finished, all under one mutex;
 * the submitting thread moves next too, a task at a time, when it works one rather than wait.
 * A waiting worker is woken when a batch is queued, or when the submitting thread is about to
 * wait; the submitting thread is woken only by the batch holding the task it waits for. */
#include "check_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

/* The tasks a worker takes at once, and the queue that wakes a waiting worker: one lock, one
 * wake and one signal back for that many files rather than for each. */
#define CHECK_POOL_BATCH 8u

struct pool_slot {
    void *task;
    bool finished;
};

struct check_pool {
    pthread_mutex_t lock;
    pthread_cond_t work_ready; /* a task was queued, or the pool stops */
    pthread_cond_t finished;   /* a worker finished a task */
    struct pool_slot *slots;
    size_t window, head, next, tail;
    bool stopping;
    unsigned idle;     /* workers waiting for work_ready */
    bool main_waiting; /* the submitting thread waits for finished */
    check_pool_work work;
    check_pool_done done;
    void *context;
    pthread_t *threads;
    unsigned thread_count;
};

static void *worker_main(void *arg)
{
    struct check_pool *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stopping && pool->next == pool->tail) {
            pool->idle++;
            pthread_cond_wait(&pool->work_ready, &pool->lock);
            pool->idle--;
        }
        if (pool->next == pool->tail)
            break; /* stopping, and nothing is left */
        /* a share of what is queued, at most a batch: one lock and one wake for several */
        size_t first = pool->next, share = (pool->tail - first) / pool->thread_count;
        size_t count = share < 1 ? 1 : share > CHECK_POOL_BATCH ? CHECK_POOL_BATCH : share;
        pool->next += count;
        for (size_t i = first; i < first + count; i++) {
            pthread_mutex_unlock(&pool->lock);
            pool->work(pool->slots[i % pool->window].task);
            pthread_mutex_lock(&pool->lock);
            pool->slots[i % pool->window].finished = true; /* handed back without the batch */
            /* signals cost system calls: only when the submitting thread waits for this one */
            if (pool->main_waiting && pool->head == i)
                pthread_cond_signal(&pool->finished);
        }
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* With the lock held: wakes a waiting worker when a batch is queued, or (`all`) anything. */
static void wake_workers(struct check_pool *pool, bool all)
{
    size_t queued = pool->tail - pool->next;
    if (pool->idle > 0 && queued > 0 && (all || queued >= CHECK_POOL_BATCH))
        pthread_cond_signal(&pool->work_ready);
}

/* With the lock held: hands back the oldest task, waiting for it when `wait` is set. False when
 * there is none (or it is not finished and `wait` is not set). The lock is released meanwhile. */
static bool hand_back_one(struct check_pool *pool, bool wait)
{
    if (pool->head == pool->tail)
        return false;
    struct pool_slot *slot = &pool->slots[pool->head % pool->window];
    while (wait && !slot->finished) {
        if (pool->next != pool->tail) { /* rather than wait, work the oldest queued task here */
            size_t mine = pool->next++;
            pthread_mutex_unlock(&pool->lock);
            pool->work(pool->slots[mine % pool->window].task);
            pthread_mutex_lock(&pool->lock);
            pool->slots[mine % pool->window].finished = true;
            continue;
        }
        wake_workers(pool, true); /* what is queued is worked before waiting for it */
        pool->main_waiting = true;
        pthread_cond_wait(&pool->finished, &pool->lock);
        pool->main_waiting = false;
    }
    if (!slot->finished)
        return false;
    void *task = slot->task;
    *slot = (struct pool_slot){0};
    pool->head++;
    pthread_mutex_unlock(&pool->lock);
    pool->done(pool->context, task);
    pthread_mutex_lock(&pool->lock);
    return true;
}

struct check_pool *check_pool_create(unsigned jobs, unsigned window, check_pool_work work,
                                     check_pool_done done, void *context)
{
    struct check_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL)
        return NULL;
    pool->window = window > 0 ? window : 1;
    pool->work = work;
    pool->done = done;
    pool->context = context;
    pool->slots = calloc(pool->window, sizeof *pool->slots);
    pool->threads = calloc(jobs > 0 ? jobs : 1, sizeof *pool->threads);
    if (pool->slots == NULL || pool->threads == NULL) {
        free(pool->slots);
        free(pool->threads);
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work_ready, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (unsigned i = 0; i == 0 || i + 1 < jobs; i++) { /* the submitting thread is one */
        if (pthread_create(&pool->threads[pool->thread_count], NULL, worker_main, pool) == 0)
            pool->thread_count++;
    }
    if (pool->thread_count == 0) {
        check_pool_destroy(pool);
        return NULL;
    }
    return pool;
}

void check_pool_submit(struct check_pool *pool, void *task)
{
    pthread_mutex_lock(&pool->lock);
    while (hand_back_one(pool, false)) /* what is finished already, to keep the output flowing */
        ;
    while (pool->tail - pool->head == pool->window)
        hand_back_one(pool, true);
    pool->slots[pool->tail++ % pool->window] = (struct pool_slot){.task = task};
    wake_workers(pool, false);
    pthread_mutex_unlock(&pool->lock);
}

void check_pool_drain(struct check_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    while (hand_back_one(pool, true))
        ;
    pthread_mutex_unlock(&pool->lock);
}

void check_pool_destroy(struct check_pool *pool)
{
    if (pool == NULL)
        return;
    check_pool_drain(pool);
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->thread_count; i++)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->finished);
    pthread_cond_destroy(&pool->work_ready);
    pthread_mutex_destroy(&pool->lock);
    free(pool->threads);
    free(pool->slots);
    free(pool);
}
