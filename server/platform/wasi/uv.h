/* uv.h for WebAssembly (WASI): a stand-in for the part of libuv that the LSP door uses, so that
 * server/lsp builds unchanged where libuv does not (it needs threads, epoll and signals, which
 * WASI lacks). Only the WASI build (tools/wasm32-wasi.ini) puts this directory on the include
 * path; the native build uses the real libuv.
 *
 * The loop is single-threaded and blocking (uv_wasi.c): each turn runs the due timers, the idle
 * handles, the callbacks queued by writes, shutdowns and file reads, and the close callbacks,
 * then waits in poll() for input on the one stream being read, or for the next timer. File
 * system requests run synchronously; one with a callback has it queued for the next turn.
 * Names, types and return values (0 or a negative UV_E* error) follow libuv 1.44's. */
#ifndef SRCLS_WASM_UV_H
#define SRCLS_WASM_UV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* as libuv's uv.h, which some includers rely on */
#include <sys/types.h>

#define UV_EOF (-4095)
#define UV_ENOMEM (-ENOMEM)
#define UV_ENOBUFS (-ENOBUFS)
#define UV_EINVAL (-EINVAL)
#define UV_EPIPE (-EPIPE)
#define UV_EIO (-EIO)
#define UV_EBUSY (-EBUSY)
#define UV_ECANCELED (-ECANCELED)
#define UV_EAGAIN (-EAGAIN)
#define UV_ENOTSUP (-ENOTSUP)

#define UV_FS_O_RDONLY 0 /* O_RDONLY, as uv_fs_open takes it */

typedef int uv_file;

typedef enum {
    UV_UNKNOWN_HANDLE = 0,
    UV_FILE,
    UV_IDLE,
    UV_NAMED_PIPE,
    UV_TCP,
    UV_TIMER,
    UV_TTY,
    UV_UDP,
} uv_handle_type;

typedef enum { UV_RUN_DEFAULT = 0, UV_RUN_ONCE, UV_RUN_NOWAIT } uv_run_mode;

typedef enum {
    UV_FS_UNKNOWN = -1,
    UV_FS_OPEN,
    UV_FS_CLOSE,
    UV_FS_READ,
    UV_FS_WRITE,
    UV_FS_STAT,
    UV_FS_SCANDIR
} uv_fs_type;

typedef enum {
    UV_DIRENT_UNKNOWN,
    UV_DIRENT_FILE,
    UV_DIRENT_DIR,
    UV_DIRENT_LINK,
    UV_DIRENT_FIFO,
    UV_DIRENT_SOCKET,
    UV_DIRENT_CHAR,
    UV_DIRENT_BLOCK,
} uv_dirent_type_t;

typedef struct uv_buf_t {
    char *base;
    size_t len;
} uv_buf_t;

typedef struct {
    long tv_sec;
    long tv_nsec;
} uv_timespec_t;

typedef struct {
    uint64_t st_dev, st_mode, st_nlink, st_uid, st_gid, st_rdev, st_ino, st_size, st_blksize,
        st_blocks, st_flags, st_gen;
    uv_timespec_t st_atim, st_mtim, st_ctim, st_birthtim;
} uv_stat_t;

typedef struct {
    int64_t tv_sec;
    int32_t tv_usec;
} uv_timeval64_t;

typedef struct uv_dirent_s {
    const char *name;
    uv_dirent_type_t type;
} uv_dirent_t;

typedef struct uv_loop_s uv_loop_t;
typedef struct uv_handle_s uv_handle_t;
typedef struct uv_stream_s uv_stream_t;
typedef struct uv_stream_s uv_pipe_t;
typedef struct uv_stream_s uv_tty_t;
typedef struct uv_timer_s uv_timer_t;
typedef struct uv_idle_s uv_idle_t;
typedef struct uv_req_s uv_req_t;
typedef struct uv_fs_s uv_fs_t;
typedef struct uv_write_s uv_write_t;
typedef struct uv_shutdown_s uv_shutdown_t;
typedef struct uv_work_s uv_work_t;

typedef void (*uv_close_cb)(uv_handle_t *handle);
typedef void (*uv_alloc_cb)(uv_handle_t *handle, size_t suggested_size, uv_buf_t *buf);
typedef void (*uv_read_cb)(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);
typedef void (*uv_write_cb)(uv_write_t *req, int status);
typedef void (*uv_shutdown_cb)(uv_shutdown_t *req, int status);
typedef void (*uv_timer_cb)(uv_timer_t *handle);
typedef void (*uv_idle_cb)(uv_idle_t *handle);
typedef void (*uv_fs_cb)(uv_fs_t *req);
typedef void (*uv_work_cb)(uv_work_t *req);
typedef void (*uv_after_work_cb)(uv_work_t *req, int status);

/* Every handle starts with these fields (libuv's UV_HANDLE_FIELDS, reduced); aligned for the
 * widest member of any handle, so that a uv_handle_t * casts to the handle it is. */
#define UV_WASI_HANDLE_FIELDS                                                                      \
    _Alignas(8) void *data;                                                                        \
    uv_loop_t *loop;                                                                               \
    uv_handle_type type;                                                                           \
    unsigned flags;                                                                                \
    uv_close_cb close_cb;                                                                          \
    uv_handle_t *next_handle; /* the loop's list of handles */                                     \
    uv_handle_t *next_closing;

struct uv_handle_s {
    UV_WASI_HANDLE_FIELDS
};

struct uv_stream_s {
    UV_WASI_HANDLE_FIELDS
    int fd;
    uv_alloc_cb alloc_cb;
    uv_read_cb read_cb;
};

struct uv_timer_s {
    UV_WASI_HANDLE_FIELDS
    uv_timer_cb timer_cb;
    uint64_t due;    /* in loop time (milliseconds) */
    uint64_t order;  /* start order: timers due at once run in it */
    uint64_t repeat; /* unused by srcls, kept for uv_timer_start's signature */
};

struct uv_idle_s {
    UV_WASI_HANDLE_FIELDS
    uv_idle_cb idle_cb;
};

/* Every request starts with these fields (aligned as the handles'). */
#define UV_WASI_REQ_FIELDS                                                                         \
    _Alignas(8) void *data;                                                                        \
    int req_type;                                                                                  \
    uv_req_t *next_pending; /* the loop's queue of callbacks to run */                             \
    int status;

struct uv_req_s {
    UV_WASI_REQ_FIELDS
};

struct uv_fs_s {
    UV_WASI_REQ_FIELDS
    uv_fs_type fs_type;
    uv_loop_t *loop;
    uv_fs_cb cb;
    ssize_t result;
    void *ptr;
    const char *path;
    uv_stat_t statbuf;
    /* uv_fs_scandir's entries (owned until uv_fs_req_cleanup) and the next one to give. */
    char **names;
    unsigned char *types;
    size_t count, next;
};

struct uv_write_s {
    UV_WASI_REQ_FIELDS
    uv_write_cb cb;
    uv_stream_t *handle;
};

struct uv_shutdown_s {
    UV_WASI_REQ_FIELDS
    uv_shutdown_cb cb;
    uv_stream_t *handle;
};

/* No threads: the work runs when it is queued, its after-work callback on the next turn (so
 * uv_cancel never finds it waiting: UV_EBUSY, as libuv says of work already done). */
struct uv_work_s {
    UV_WASI_REQ_FIELDS
    uv_after_work_cb after_work_cb;
};

struct uv_loop_s {
    void *data;
    uint64_t time; /* milliseconds, monotonic, updated each turn */
    uint64_t timer_order;
    uv_handle_t *handles; /* every initialised handle not yet closed */
    uv_handle_t *closing; /* closed, its close callback not yet run */
    uv_req_t *pending, *pending_tail;
    bool stopped;
    bool poll_unusable; /* poll() failed on the stream: wait for timers, then read blocking */
};

typedef void *(*uv_malloc_func)(size_t size);
typedef void *(*uv_realloc_func)(void *ptr, size_t size);
typedef void *(*uv_calloc_func)(size_t count, size_t size);
typedef void (*uv_free_func)(void *ptr);
/* Accepted and unused: this loop allocates nothing that could make it abort. */
int uv_replace_allocator(uv_malloc_func malloc_func, uv_realloc_func realloc_func,
                         uv_calloc_func calloc_func, uv_free_func free_func);
uv_loop_t *uv_default_loop(void);
int uv_run(uv_loop_t *loop, uv_run_mode mode);
int uv_loop_close(uv_loop_t *loop);
const char *uv_strerror(int err);
uv_buf_t uv_buf_init(char *base, unsigned int len);
int uv_gettimeofday(uv_timeval64_t *tv);

void uv_close(uv_handle_t *handle, uv_close_cb close_cb);
int uv_is_closing(const uv_handle_t *handle);
int uv_is_active(const uv_handle_t *handle);
int uv_cancel(uv_req_t *req);
int uv_queue_work(uv_loop_t *loop, uv_work_t *req, uv_work_cb work_cb,
                  uv_after_work_cb after_work_cb);

int uv_timer_init(uv_loop_t *loop, uv_timer_t *handle);
int uv_timer_start(uv_timer_t *handle, uv_timer_cb cb, uint64_t timeout, uint64_t repeat);
int uv_timer_stop(uv_timer_t *handle);

int uv_idle_init(uv_loop_t *loop, uv_idle_t *idle);
int uv_idle_start(uv_idle_t *idle, uv_idle_cb cb);
int uv_idle_stop(uv_idle_t *idle);

uv_handle_type uv_guess_handle(uv_file file);
int uv_pipe_init(uv_loop_t *loop, uv_pipe_t *handle, int ipc);
int uv_pipe_open(uv_pipe_t *handle, uv_file file);
int uv_tty_init(uv_loop_t *loop, uv_tty_t *handle, uv_file fd, int readable);
int uv_read_start(uv_stream_t *stream, uv_alloc_cb alloc_cb, uv_read_cb read_cb);
int uv_read_stop(uv_stream_t *stream);
int uv_write(uv_write_t *req, uv_stream_t *handle, const uv_buf_t bufs[], unsigned int nbufs,
             uv_write_cb cb);
int uv_shutdown(uv_shutdown_t *req, uv_stream_t *handle, uv_shutdown_cb cb);

void uv_fs_req_cleanup(uv_fs_t *req);
int uv_fs_open(uv_loop_t *loop, uv_fs_t *req, const char *path, int flags, int mode, uv_fs_cb cb);
int uv_fs_close(uv_loop_t *loop, uv_fs_t *req, uv_file file, uv_fs_cb cb);
int uv_fs_read(uv_loop_t *loop, uv_fs_t *req, uv_file file, const uv_buf_t bufs[],
               unsigned int nbufs, int64_t offset, uv_fs_cb cb);
int uv_fs_write(uv_loop_t *loop, uv_fs_t *req, uv_file file, const uv_buf_t bufs[],
                unsigned int nbufs, int64_t offset, uv_fs_cb cb);
int uv_fs_stat(uv_loop_t *loop, uv_fs_t *req, const char *path, uv_fs_cb cb);
int uv_fs_scandir(uv_loop_t *loop, uv_fs_t *req, const char *path, int flags, uv_fs_cb cb);
int uv_fs_scandir_next(uv_fs_t *req, uv_dirent_t *ent);

#endif
