/* An LD_PRELOAD shim that makes the N-th allocation fail and counts allocations and live blocks
 * (tests/faults/README.md).
 *
 *   SRCLS_FAULT_AT=N      the N-th allocation (1-based) returns NULL; 0 or unset: none fails.
 *   SRCLS_FAULT_REPORT=F  at exit, write "allocations A live L failed X" to the file F.
 *   SRCLS_FAULT_TRACE=1   print the stack of the allocation that fails to stderr (addr2line -f
 *                         -e build/server/srcls names the offsets of the binary).
 *
 * The shim loads into the one process: it takes LD_PRELOAD out of the environment, so the
 * programs srcls runs (git) neither fail nor count.
 *
 * Every allocation of the process goes through malloc, calloc, realloc, posix_memalign,
 * aligned_alloc or memalign: glibc's own strdup, strndup, realpath and stdio call the malloc
 * that is interposed, so they are counted (and fail) here too, once. The real functions are
 * glibc's __libc_* entry points, so no dlsym is needed (dlsym itself allocates). Counters are
 * atomic: libuv's threads allocate too. Only the one allocation fails, so a run either recovers
 * from it or reports it; later allocations succeed as they would under a passing pressure. */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void __libc_free(void *block);
extern void *__libc_memalign(size_t alignment, size_t size);

static unsigned long fail_at;
static unsigned long allocations;
static long live;
static unsigned long failed;
static int trace;

__attribute__((constructor)) static void fault_start(void)
{
    const char *at = getenv("SRCLS_FAULT_AT");
    if (at != NULL)
        fail_at = strtoul(at, NULL, 10);
    trace = getenv("SRCLS_FAULT_TRACE") != NULL;
    unsetenv("LD_PRELOAD");
}

__attribute__((destructor)) static void fault_report(void)
{
    const char *path = getenv("SRCLS_FAULT_REPORT");
    if (path == NULL)
        return;
    char line[128];
    int length = snprintf(line, sizeof line, "allocations %lu live %ld failed %lu\n",
                          __atomic_load_n(&allocations, __ATOMIC_SEQ_CST),
                          __atomic_load_n(&live, __ATOMIC_SEQ_CST),
                          __atomic_load_n(&failed, __ATOMIC_SEQ_CST));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, (size_t)length) != length) { /* the sweep reads a short file as lost */
    }
    close(fd);
}

/* 1 when this allocation is the one that fails. */
static int fault_now(void)
{
    unsigned long n = __atomic_add_fetch(&allocations, 1, __ATOMIC_SEQ_CST);
    if (fail_at != 0 && n == fail_at) {
        __atomic_add_fetch(&failed, 1, __ATOMIC_SEQ_CST);
        if (trace) {
            void *frames[64];
            backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
        }
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

static void *counted(void *block)
{
    if (block != NULL)
        __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST);
    return block;
}

void *malloc(size_t size)
{
    return fault_now() ? NULL : counted(__libc_malloc(size));
}

void *calloc(size_t count, size_t size)
{
    return fault_now() ? NULL : counted(__libc_calloc(count, size));
}

void free(void *block)
{
    if (block != NULL)
        __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
    __libc_free(block);
}

void *realloc(void *block, size_t size)
{
    if (block == NULL)
        return malloc(size);
    if (size == 0) { /* glibc frees the block and returns NULL */
        free(block);
        return NULL;
    }
    if (fault_now())
        return NULL; /* the block stays as it was */
    return __libc_realloc(block, size);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (fault_now())
        return ENOMEM;
    void *block = counted(__libc_memalign(alignment, size));
    if (block == NULL)
        return ENOMEM;
    *out = block;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size)
{
    return fault_now() ? NULL : counted(__libc_memalign(alignment, size));
}

void *memalign(size_t alignment, size_t size)
{
    return fault_now() ? NULL : counted(__libc_memalign(alignment, size));
}
