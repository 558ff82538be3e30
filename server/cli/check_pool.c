/* check_pool: a fixed set of pthreads and a ring of the tasks in flight. The ring's slots are
 * numbered by ever-growing counters: `head` is the oldest task not yet handed back, `next` the
 * next one to work, `tail` the next free slot. Only the submitting thread moves head and
 * tail; the workers move next (a batch at a time) and mark slots finished, all under one mutex;
 * the submitting thread moves next too, a task at a time, when it works one rather than wait.
 * A waiting worker is woken when a batch is queued, or when the submitting thread is about to
 * wait; the submitting thread is woken only by the worker that finishes the task it waits for.
 * A thread with nothing to do polls a while before it waits (spin_until).
 *
 * A task handed back goes to the list of the worker that worked it, which releases the tasks of
 * its list when it next takes a batch (or stops): the memory a worker allocated is freed by that
 * worker. Freed by the submitting thread, each chunk went back to the worker's malloc arena under
 * the arena's lock, which the worker was taking to allocate: on two cores the two threads queued
 * on that lock (futex waits and wakes) for as much time as the pool saved. */
#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP, where glibc has it */
#include "check_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"

/* How long a thread with nothing to do polls before it sleeps on a condition variable, in
 * nanoseconds, with the pause instruction and no system call. A sleeping thread is woken
 * through a futex, and a kernel that packs threads onto fewer cores (this VM's does) then puts
 * it on the waker's core: the two threads took turns on one core, waking each other hundreds of
 * times a run, for a third of the runs (docs/performance.md). A thread that rarely sleeps is
 * rarely woken. (A sched_yield now and then while polling cost a system call each: under load,
 * one a file.) */
#define CHECK_POOL_POLL_NS 2000000L
/* Pauses between two looks at the clock while polling. */
#define CHECK_POOL_PAUSES 256u

/* The tasks a worker takes at once, and the queue that wakes a waiting worker: one lock, one
 * wake and one signal back for that many files rather than for each. */
#define CHECK_POOL_BATCH 8u

struct pool_slot {
    void *task;
    bool finished;
    unsigned worked_by; /* the worker's index, or thread_count: the submitting thread */
};

/* A worker: its thread, and the tasks handed back that it is to release. Both lists hold up to
 * `window` tasks (a worker has no more than that worked and not yet released: each was in the
 * window when the worker last took a batch), made when the pool is: nothing grows on the way. */
struct pool_worker {
    struct check_pool *pool;
    pthread_t thread;
    unsigned index;
    void **handed; /* handed back, to release: filled by the submitting thread, under the lock */
    size_t handed_count;
    void **releasing; /* the worker's own copy of those it releases now, without the lock */
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
    check_pool_work release;
    void *context;
    struct pool_worker *workers;
    unsigned workers_made, thread_count; /* workers_made: the lists allocated */
    /* Released tasks, kept for check_pool_reuse: the submitting thread allocated them, and
     * only it frees them (check_pool_destroy). */
    void **spare;
    size_t spare_count, spare_cap;
};

/* With the lock held: takes the tasks handed back to the worker `w`; returns how many are now
 * in w->releasing, which release_all releases without the lock. */
static size_t take_handed(struct pool_worker *w)
{
    size_t count = w->handed_count;
    memcpy(w->releasing, w->handed, count * sizeof *w->handed);
    w->handed_count = 0;
    return count;
}

/* Without the lock: releases the `count` tasks of w->releasing and keeps them as spares (or,
 * the spares full, frees them: rare, and a free across arenas). */
static void release_all(struct pool_worker *w, size_t count)
{
    struct check_pool *pool = w->pool;
    if (count == 0)
        return;
    for (size_t i = 0; i < count; i++)
        pool->release(w->releasing[i]);
    pthread_mutex_lock(&pool->lock);
    size_t kept = 0;
    while (kept < count && pool->spare_count < pool->spare_cap)
        pool->spare[pool->spare_count++] = w->releasing[kept++];
    pthread_mutex_unlock(&pool->lock);
    while (kept < count)
        free(w->releasing[kept++]);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Monotonic nanoseconds. */
static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* With the lock held: polls, the lock released meanwhile, for at most CHECK_POOL_POLL_NS until
 * `ready(pool, arg)` holds (read with atomic loads: what it reads is written with atomic stores
 * under the lock). True when it held. */
static bool spin_until(struct check_pool *pool, bool (*ready)(struct check_pool *, void *),
                       void *arg)
{
    pthread_mutex_unlock(&pool->lock);
    bool held = ready(pool, arg);
    for (long long until = held ? 0 : now_ns() + CHECK_POOL_POLL_NS; !held && now_ns() < until;) {
        for (unsigned i = 0; i < CHECK_POOL_PAUSES && !held; i++) {
            cpu_relax();
            held = ready(pool, arg);
        }
    }
    pthread_mutex_lock(&pool->lock);
    return held;
}

/* spin_until's tests: a worker's (a task queued, or the pool stopping), and the submitting
 * thread's (the slot it hands back next finished). */
static bool work_or_stop(struct check_pool *pool, void *unused)
{
    (void)unused;
    return __atomic_load_n(&pool->tail, __ATOMIC_ACQUIRE) !=
               __atomic_load_n(&pool->next, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&pool->stopping, __ATOMIC_ACQUIRE);
}

static bool slot_finished(struct check_pool *pool, void *slot)
{
    (void)pool;
    return __atomic_load_n(&((struct pool_slot *)slot)->finished, __ATOMIC_ACQUIRE);
}

static void *worker_main(void *arg)
{
    struct pool_worker *self = arg;
    struct check_pool *pool = self->pool;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stopping && pool->next == pool->tail) {
            /* polled in vain; asked again under the lock, as what came since the last poll
             * woke no one (this thread was not idle yet) */
            if (spin_until(pool, work_or_stop, NULL) || work_or_stop(pool, NULL))
                continue;
            pool->idle++;
            pthread_cond_wait(&pool->work_ready, &pool->lock);
            pool->idle--;
        }
        size_t released = take_handed(self);
        if (pool->next == pool->tail) { /* stopping, and nothing is left */
            pthread_mutex_unlock(&pool->lock);
            release_all(self, released);
            return NULL;
        }
        /* a share of what is queued, at most a batch: one lock and one wake for several */
        size_t first = pool->next, share = (pool->tail - first) / pool->thread_count;
        size_t count = share < 1 ? 1 : share > CHECK_POOL_BATCH ? CHECK_POOL_BATCH : share;
        __atomic_store_n(&pool->next, first + count, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&pool->lock);
        release_all(self, released);
        for (size_t i = first; i < first + count; i++) {
            struct pool_slot *slot = &pool->slots[i % pool->window];
            pool->work(slot->task);
            pthread_mutex_lock(&pool->lock);
            slot->worked_by = self->index;
            __atomic_store_n(&slot->finished, true, __ATOMIC_RELEASE); /* not the batch */
            /* signals cost system calls: only when the submitting thread waits for this one */
            if (pool->main_waiting && pool->head == i)
                pthread_cond_signal(&pool->finished);
            if (i + 1 < first + count)
                pthread_mutex_unlock(&pool->lock);
        }
    }
}

/* With the lock held: wakes a waiting worker when a batch is queued, or (`all`) anything. */
static void wake_workers(struct check_pool *pool, bool all)
{
    size_t queued = pool->tail - pool->next;
    if (pool->idle > 0 && queued > 0 && (all || queued >= CHECK_POOL_BATCH))
        pthread_cond_signal(&pool->work_ready);
}

/* With the lock held: the task handed back goes to the list of the worker that worked it; one
 * the submitting thread worked is released here (and one whose worker's list is full, which the
 * bound on that list rules out). */
static void hand_to_releaser(struct check_pool *pool, void *task, unsigned worked_by)
{
    struct pool_worker *w = worked_by < pool->thread_count ? &pool->workers[worked_by] : NULL;
    if (w != NULL && w->handed_count < pool->window) {
        w->handed[w->handed_count++] = task;
        return;
    }
    pthread_mutex_unlock(&pool->lock);
    pool->release(task);
    pthread_mutex_lock(&pool->lock);
    if (pool->spare_count < pool->spare_cap)
        pool->spare[pool->spare_count++] = task;
    else
        free(task);
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
            struct pool_slot *mine = &pool->slots[pool->next % pool->window];
            __atomic_store_n(&pool->next, pool->next + 1, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&pool->lock);
            pool->work(mine->task);
            pthread_mutex_lock(&pool->lock);
            mine->worked_by = pool->thread_count;
            __atomic_store_n(&mine->finished, true, __ATOMIC_RELEASE);
            continue;
        }
        /* polled in vain; asked again under the lock: finished since the last poll, it was
         * not signalled (main_waiting was not set), and waiting would never end */
        if (spin_until(pool, slot_finished, slot) || slot_finished(pool, slot))
            continue;
        wake_workers(pool, true); /* what is queued is worked before waiting for it */
        pool->main_waiting = true;
        pthread_cond_wait(&pool->finished, &pool->lock);
        pool->main_waiting = false;
    }
    if (!slot->finished)
        return false;
    struct pool_slot handed = *slot;
    *slot = (struct pool_slot){0};
    pool->head++;
    pthread_mutex_unlock(&pool->lock);
    pool->done(pool->context, handed.task);
    pthread_mutex_lock(&pool->lock);
    hand_to_releaser(pool, handed.task, handed.worked_by);
    return true;
}

/* Frees the pool's memory (its threads stopped): the spare tasks, the lists of the first
 * `workers` workers, and the rest. */
static void pool_free(struct check_pool *pool, unsigned workers)
{
    for (size_t i = 0; i < pool->spare_count; i++)
        free(pool->spare[i]);
    for (unsigned i = 0; pool->workers != NULL && i < workers; i++) {
        free(pool->workers[i].handed);
        free(pool->workers[i].releasing);
    }
    free(pool->spare);
    free(pool->workers);
    free(pool->slots);
    free(pool);
}

struct check_pool *check_pool_create(unsigned jobs, unsigned window, check_pool_work work,
                                     check_pool_done done, check_pool_work release, void *context)
{
    struct check_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL)
        return NULL;
    pool->window = window > 0 ? window : 1;
    pool->work = work;
    pool->done = done;
    pool->release = release;
    pool->context = context;
    unsigned workers = jobs > 1 ? jobs - 1 : 1;
    pool->slots = calloc(pool->window, sizeof *pool->slots);
    pool->workers = calloc(workers, sizeof *pool->workers);
    /* twice the window: as many as are in flight, and as many again handed back and not yet
     * released; a task beyond that is freed (release_all) */
    pool->spare_cap = 2 * pool->window;
    pool->spare = calloc(pool->spare_cap, sizeof *pool->spare);
    bool made = pool->slots != NULL && pool->workers != NULL && pool->spare != NULL;
    for (unsigned i = 0; made && i < workers; i++, pool->workers_made++) {
        pool->workers[i].handed = calloc(pool->window, sizeof(void *));
        pool->workers[i].releasing = calloc(pool->window, sizeof(void *));
        made = pool->workers[i].handed != NULL && pool->workers[i].releasing != NULL;
    }
    if (!made) {
        pool_free(pool, workers);
        return NULL;
    }
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
#ifdef PTHREAD_MUTEX_ADAPTIVE_NP /* a contended lock spins a while before it sleeps */
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    pthread_mutex_init(&pool->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_cond_init(&pool->work_ready, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (unsigned i = 0; i < workers; i++) { /* the submitting thread is one of the jobs */
        struct pool_worker *w = &pool->workers[pool->thread_count];
        w->pool = pool;
        w->index = pool->thread_count;
        if (pthread_create(&w->thread, NULL, worker_main, w) == 0)
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
    pool->slots[pool->tail % pool->window] = (struct pool_slot){.task = task};
    __atomic_store_n(&pool->tail, pool->tail + 1, __ATOMIC_RELEASE);
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
    __atomic_store_n(&pool->stopping, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->thread_count; i++)
        pthread_join(pool->workers[i].thread, NULL); /* each released its list as it stopped */
    pthread_cond_destroy(&pool->finished);
    pthread_cond_destroy(&pool->work_ready);
    pthread_mutex_destroy(&pool->lock);
    pool_free(pool, pool->workers_made);
}

void *check_pool_reuse(struct check_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    void *task = pool->spare_count > 0 ? pool->spare[--pool->spare_count] : NULL;
    pthread_mutex_unlock(&pool->lock);
    return task;
}
