/* check_pool_wasi: check_pool.h in the WebAssembly build, which has no threads (WASI preview 1):
 * no pool is ever created, so the walk checks one file at a time, as with --jobs 1 (main says so
 * when more were asked for). */
#include "check_pool.h"

#include <stddef.h>

struct check_pool *check_pool_create(unsigned jobs, unsigned window, check_pool_work work,
                                     check_pool_done done, check_pool_work release, void *context)
{
    (void)jobs, (void)window, (void)work, (void)done, (void)release, (void)context;
    return NULL; /* the caller works alone */
}

void *check_pool_reuse(struct check_pool *pool)
{
    (void)pool;
    return NULL;
}

void check_pool_submit(struct check_pool *pool, void *task)
{
    (void)pool, (void)task; /* never called: there is no pool */
}

void check_pool_drain(struct check_pool *pool)
{
    (void)pool;
}

void check_pool_destroy(struct check_pool *pool)
{
    (void)pool;
}
