/* uv_wasi: the libuv subset of uv.h over WASI's blocking calls, for the language server built
 * as WebAssembly. One thread; the loop waits in poll() (WASI's poll_oneoff) for the stream
 * being read or the next timer, whichever comes first. See uv.h for what is covered. */
#include "uv.h"
#include "uv_wasi_internal.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bytes libuv suggests to an alloc callback; srcls's ignores it. */
#define SUGGESTED_READ 65536

/* Handle flags. */
#define FLAG_ACTIVE 1u
#define FLAG_CLOSING 2u
#define FLAG_READING 4u

static uv_loop_t default_loop;

static uint64_t monotonic_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int uv__wasi_error(int err)
{
    return err > 0 ? -err : (err == 0 ? UV_EIO : err);
}

int uv_replace_allocator(uv_malloc_func malloc_func, uv_realloc_func realloc_func,
                         uv_calloc_func calloc_func, uv_free_func free_func)
{
    (void)malloc_func;
    (void)realloc_func;
    (void)calloc_func;
    (void)free_func;
    return 0;
}

uv_loop_t *uv_default_loop(void)
{
    if (default_loop.time == 0) {
        default_loop.time = monotonic_ms();
        /* The way Windows must take, to be tested anywhere (tests/wasm_lsp.sh --no-poll). */
        const char *no_poll = getenv("SRCLS_WASM_NO_POLL");
        default_loop.poll_unusable = no_poll != NULL && strcmp(no_poll, "1") == 0;
    }
    return &default_loop;
}

const char *uv_strerror(int err)
{
    if (err == UV_EOF)
        return "end of file";
    return strerror(-err);
}

uv_buf_t uv_buf_init(char *base, unsigned int len)
{
    uv_buf_t buf = {base, len};
    return buf;
}

int uv_gettimeofday(uv_timeval64_t *tv)
{
    struct timespec ts;
    if (tv == NULL)
        return UV_EINVAL;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return uv__wasi_error(errno);
    tv->tv_sec = (int64_t)ts.tv_sec;
    tv->tv_usec = (int32_t)(ts.tv_nsec / 1000);
    return 0;
}

/* ---- handles ---- */

static void handle_init(uv_loop_t *loop, uv_handle_t *handle, uv_handle_type type)
{
    handle->loop = loop;
    handle->type = type;
    handle->flags = 0;
    handle->close_cb = NULL;
    handle->next_closing = NULL;
    handle->next_handle = loop->handles;
    loop->handles = handle;
}

static void handle_unlink(uv_handle_t *handle)
{
    uv_handle_t **at = &handle->loop->handles;
    while (*at != NULL && *at != handle)
        at = &(*at)->next_handle;
    if (*at == handle)
        *at = handle->next_handle;
}

void uv_close(uv_handle_t *handle, uv_close_cb close_cb)
{
    if (handle->flags & FLAG_CLOSING)
        return;
    handle->flags = (handle->flags & ~(FLAG_ACTIVE | FLAG_READING)) | FLAG_CLOSING;
    handle->close_cb = close_cb;
    handle_unlink(handle);
    /* Appended, so that close callbacks run in the order of the uv_close calls. */
    uv_handle_t **at = &handle->loop->closing;
    while (*at != NULL)
        at = &(*at)->next_closing;
    handle->next_closing = NULL;
    *at = handle;
}

int uv_is_closing(const uv_handle_t *handle)
{
    return (handle->flags & FLAG_CLOSING) != 0;
}

int uv_is_active(const uv_handle_t *handle)
{
    return (handle->flags & (FLAG_ACTIVE | FLAG_READING)) != 0;
}

int uv_timer_init(uv_loop_t *loop, uv_timer_t *handle)
{
    handle_init(loop, (uv_handle_t *)handle, UV_TIMER);
    return 0;
}

int uv_timer_start(uv_timer_t *handle, uv_timer_cb cb, uint64_t timeout, uint64_t repeat)
{
    if (cb == NULL || (handle->flags & FLAG_CLOSING))
        return UV_EINVAL;
    handle->timer_cb = cb;
    handle->due = handle->loop->time + timeout;
    handle->order = handle->loop->timer_order++;
    handle->repeat = repeat;
    handle->flags |= FLAG_ACTIVE;
    return 0;
}

int uv_timer_stop(uv_timer_t *handle)
{
    handle->flags &= ~FLAG_ACTIVE;
    return 0;
}

int uv_idle_init(uv_loop_t *loop, uv_idle_t *idle)
{
    handle_init(loop, (uv_handle_t *)idle, UV_IDLE);
    return 0;
}

int uv_idle_start(uv_idle_t *idle, uv_idle_cb cb)
{
    if (cb == NULL || (idle->flags & FLAG_CLOSING))
        return UV_EINVAL;
    idle->idle_cb = cb;
    idle->flags |= FLAG_ACTIVE;
    return 0;
}

int uv_idle_stop(uv_idle_t *idle)
{
    idle->flags &= ~FLAG_ACTIVE;
    return 0;
}

/* ---- streams: stdin and stdout ---- */

uv_handle_type uv_guess_handle(uv_file file)
{
    struct stat st;
    if (fstat(file, &st) != 0)
        return UV_UNKNOWN_HANDLE;
    if (S_ISREG(st.st_mode))
        return UV_FILE;
    if (S_ISCHR(st.st_mode))
        return UV_TTY;
    /* A pipe or a socket (WASI does not tell them apart): read and written as a pipe. */
    return UV_NAMED_PIPE;
}

static int stream_init(uv_loop_t *loop, uv_stream_t *stream, uv_handle_type type)
{
    handle_init(loop, (uv_handle_t *)stream, type);
    stream->fd = -1;
    stream->alloc_cb = NULL;
    stream->read_cb = NULL;
    return 0;
}

int uv_pipe_init(uv_loop_t *loop, uv_pipe_t *handle, int ipc)
{
    if (ipc)
        return UV_ENOTSUP;
    return stream_init(loop, handle, UV_NAMED_PIPE);
}

int uv_pipe_open(uv_pipe_t *handle, uv_file file)
{
    handle->fd = file;
    return 0;
}

int uv_tty_init(uv_loop_t *loop, uv_tty_t *handle, uv_file fd, int readable)
{
    (void)readable;
    stream_init(loop, handle, UV_TTY);
    handle->fd = fd;
    return 0;
}

int uv_read_start(uv_stream_t *stream, uv_alloc_cb alloc_cb, uv_read_cb read_cb)
{
    if (alloc_cb == NULL || read_cb == NULL || (stream->flags & FLAG_CLOSING))
        return UV_EINVAL;
    stream->alloc_cb = alloc_cb;
    stream->read_cb = read_cb;
    stream->flags |= FLAG_READING;
    return 0;
}

int uv_read_stop(uv_stream_t *stream)
{
    stream->flags &= ~FLAG_READING;
    return 0;
}

void uv__wasi_queue(uv_loop_t *loop, uv_req_t *req, int type, int status)
{
    req->req_type = type;
    req->status = status;
    req->next_pending = NULL;
    if (loop->pending_tail != NULL)
        loop->pending_tail->next_pending = req;
    else
        loop->pending = req;
    loop->pending_tail = req;
}

/* Writes everything at once (WASI's fd_write blocks); the callback runs on the next turn. */
int uv_write(uv_write_t *req, uv_stream_t *handle, const uv_buf_t bufs[], unsigned int nbufs,
             uv_write_cb cb)
{
    if (handle->flags & FLAG_CLOSING)
        return UV_EPIPE;
    int status = 0;
    for (unsigned i = 0; i < nbufs && status == 0; i++) {
        size_t done = 0;
        while (done < bufs[i].len) {
            ssize_t n = write(handle->fd, bufs[i].base + done, bufs[i].len - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EAGAIN) { /* a non-blocking pipe that is full: wait */
                struct pollfd p = {handle->fd, POLLOUT, 0};
                (void)poll(&p, 1, -1);
                continue;
            }
            if (n <= 0) {
                status = n < 0 ? uv__wasi_error(errno) : UV_EIO;
                break;
            }
            done += (size_t)n;
        }
    }
    req->cb = cb;
    req->handle = handle;
    uv__wasi_queue(handle->loop, (uv_req_t *)req, UV__WASI_REQ_WRITE, status);
    return 0;
}

int uv_shutdown(uv_shutdown_t *req, uv_stream_t *handle, uv_shutdown_cb cb)
{
    if (handle->flags & FLAG_CLOSING)
        return UV_EINVAL;
    req->cb = cb;
    req->handle = handle;
    uv__wasi_queue(handle->loop, (uv_req_t *)req, UV__WASI_REQ_SHUTDOWN, 0);
    return 0;
}

int uv_queue_work(uv_loop_t *loop, uv_work_t *req, uv_work_cb work_cb,
                  uv_after_work_cb after_work_cb)
{
    if (work_cb == NULL)
        return UV_EINVAL;
    work_cb(req);
    req->after_work_cb = after_work_cb;
    uv__wasi_queue(loop, (uv_req_t *)req, UV__WASI_REQ_WORK, 0);
    return 0;
}

/* A request is cancelled when its callback has not run yet: it then runs with UV_ECANCELED. */
int uv_cancel(uv_req_t *req)
{
    uv_loop_t *loop = &default_loop;
    for (uv_req_t *r = loop->pending; r != NULL; r = r->next_pending) {
        if (r == req && req->req_type != UV__WASI_REQ_WORK) {
            if (req->req_type == UV__WASI_REQ_FS)
                ((uv_fs_t *)req)->result = UV_ECANCELED;
            else
                req->status = UV_ECANCELED;
            return 0;
        }
    }
    return UV_EBUSY;
}

/* ---- the loop ---- */

static void run_pending(uv_loop_t *loop)
{
    uv_req_t *req = loop->pending;
    loop->pending = loop->pending_tail = NULL;
    while (req != NULL) {
        uv_req_t *next = req->next_pending;
        if (req->req_type == UV__WASI_REQ_FS) {
            uv_fs_t *fs = (uv_fs_t *)req;
            fs->cb(fs);
        } else if (req->req_type == UV__WASI_REQ_WRITE) {
            uv_write_t *w = (uv_write_t *)req;
            if (w->cb != NULL)
                w->cb(w, w->status);
        } else if (req->req_type == UV__WASI_REQ_WORK) {
            uv_work_t *w = (uv_work_t *)req;
            if (w->after_work_cb != NULL)
                w->after_work_cb(w, w->status);
        } else {
            uv_shutdown_t *s = (uv_shutdown_t *)req;
            if (s->cb != NULL)
                s->cb(s, s->status);
        }
        req = next;
    }
}

static uv_timer_t *next_timer(uv_loop_t *loop)
{
    uv_timer_t *best = NULL;
    for (uv_handle_t *h = loop->handles; h != NULL; h = h->next_handle) {
        if (h->type != UV_TIMER || !(h->flags & FLAG_ACTIVE))
            continue;
        uv_timer_t *t = (uv_timer_t *)h;
        if (best == NULL || t->due < best->due || (t->due == best->due && t->order < best->order))
            best = t;
    }
    return best;
}

static void run_timers(uv_loop_t *loop)
{
    uv_timer_t *t;
    while ((t = next_timer(loop)) != NULL && t->due <= loop->time) {
        t->flags &= ~FLAG_ACTIVE;
        if (t->repeat > 0)
            uv_timer_start(t, t->timer_cb, t->repeat, t->repeat);
        t->timer_cb(t);
    }
}

static void run_idle(uv_loop_t *loop)
{
    uv_handle_t *h = loop->handles;
    while (h != NULL) {
        uv_handle_t *next = h->next_handle; /* the callback may close `h` */
        if (h->type == UV_IDLE && (h->flags & FLAG_ACTIVE))
            ((uv_idle_t *)h)->idle_cb((uv_idle_t *)h);
        h = next;
    }
}

static void run_closing(uv_loop_t *loop)
{
    while (loop->closing != NULL) {
        uv_handle_t *h = loop->closing;
        loop->closing = h->next_closing;
        if (h->close_cb != NULL)
            h->close_cb(h);
    }
}

static uv_stream_t *reading_stream(uv_loop_t *loop)
{
    for (uv_handle_t *h = loop->handles; h != NULL; h = h->next_handle) {
        if (h->flags & FLAG_READING)
            return (uv_stream_t *)h;
    }
    return NULL;
}

static bool has_active(uv_loop_t *loop)
{
    if (loop->pending != NULL || loop->closing != NULL)
        return true;
    for (uv_handle_t *h = loop->handles; h != NULL; h = h->next_handle) {
        if (h->flags & (FLAG_ACTIVE | FLAG_READING))
            return true;
    }
    return false;
}

static bool has_active_idle(uv_loop_t *loop)
{
    for (uv_handle_t *h = loop->handles; h != NULL; h = h->next_handle) {
        if (h->type == UV_IDLE && (h->flags & FLAG_ACTIVE))
            return true;
    }
    return false;
}

/* Reads what the stream has (poll said it is readable, or at its end) and hands it over. */
static void read_stream(uv_stream_t *stream)
{
    uv_buf_t buf = {NULL, 0};
    stream->alloc_cb((uv_handle_t *)stream, SUGGESTED_READ, &buf);
    if (buf.base == NULL || buf.len == 0) { /* libuv's word for it: the bytes wait */
        stream->read_cb(stream, UV_ENOBUFS, &buf);
        return;
    }
    ssize_t n;
    do
        n = read(stream->fd, buf.base, buf.len);
    while (n < 0 && errno == EINTR);
    if (n < 0 && errno == EAGAIN)
        n = 0; /* nothing after all: libuv's read callback takes 0 for that */
    else if (n == 0)
        n = UV_EOF;
    else if (n < 0)
        n = uv__wasi_error(errno);
    stream->read_cb(stream, n, &buf);
}

static void sleep_ms(int ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits for input or the next timer (not at all when idle handles or callbacks wait). Where
 * poll() cannot watch the stream (Node's WASI on Windows polls sockets only, not the pipes an
 * editor gives), the loop waits for the next timer, then blocks in read: input that comes
 * meanwhile waits for the timer (at most the debounce) instead of cutting it short. */
static void wait_for_events(uv_loop_t *loop)
{
    int timeout = -1;
    if (loop->pending != NULL || loop->closing != NULL || has_active_idle(loop)) {
        timeout = 0;
    } else {
        uv_timer_t *t = next_timer(loop);
        if (t != NULL)
            timeout = t->due <= loop->time ? 0 : (int)(t->due - loop->time);
    }
    uv_stream_t *stream = reading_stream(loop);
    if (stream != NULL && !loop->poll_unusable) {
        struct pollfd p = {stream->fd, POLLIN, 0};
        int ready = poll(&p, 1, timeout);
        loop->time = monotonic_ms();
        if (ready > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)))
            read_stream(stream);
        if (ready >= 0 || errno == EINTR || errno == EAGAIN)
            return;
        loop->poll_unusable = true;
    }
    if (stream == NULL || timeout >= 0)
        sleep_ms(timeout);
    else
        read_stream(stream); /* nothing to wait for but input: block in read */
}

int uv_run(uv_loop_t *loop, uv_run_mode mode)
{
    loop->stopped = false;
    while (!loop->stopped && has_active(loop)) {
        loop->time = monotonic_ms();
        run_timers(loop);
        run_pending(loop);
        run_idle(loop);
        run_closing(loop);
        if (!has_active(loop))
            break;
        wait_for_events(loop);
        if (mode != UV_RUN_DEFAULT)
            break;
    }
    return has_active(loop);
}

int uv_loop_close(uv_loop_t *loop)
{
    if (loop->handles != NULL || loop->closing != NULL || loop->pending != NULL)
        return UV_EBUSY;
    return 0;
}
