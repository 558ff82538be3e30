/* lsp_transport: libuv stdio for the language server. */
#include "lsp_transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes asked of each read of stdin. */
#define READ_CHUNK 65536

struct write_request {
    uv_write_t req;
    struct lsp_transport *transport;
    size_t len;
    char data[]; /* header and body */
};

static void alloc_buffer(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    (void)handle;
    (void)suggested;
    buf->base = malloc(READ_CHUNK);
    buf->len = buf->base ? READ_CHUNK : 0;
}

static void end_of_input(struct lsp_transport *t)
{
    if (!t->reading)
        return;
    t->reading = false;
    if (t->on_eof != NULL)
        t->on_eof(t->eof_context);
}

void lsp_transport_receive(struct lsp_transport *t, const char *data, size_t len)
{
    if (lsp_framing_feed(&t->framing, data, len, &t->sink) != 0)
        t->sink.error(t->sink.context,
                      "out of memory: input dropped up to the next Content-Length");
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    struct lsp_transport *t = stream->data;
    if (nread > 0)
        lsp_transport_receive(t, buf->base, (size_t)nread);
    free(buf->base);
    if (nread < 0 && nread != UV_ENOBUFS) { /* no buffer: the bytes wait in the pipe, read later */
        uv_read_stop(stream);
        end_of_input(t);
    }
}

static void on_file_read(uv_fs_t *req)
{
    struct lsp_transport *t = req->data;
    ssize_t result = req->result;
    uv_fs_req_cleanup(req);
    if (result > 0 && t->reading) {
        lsp_transport_receive(t, t->file_buf, (size_t)result);
        uv_buf_t buf = uv_buf_init(t->file_buf, READ_CHUNK);
        if (t->reading && uv_fs_read(t->loop, &t->in_req, t->in_fd, &buf, 1, -1, on_file_read) == 0)
            return;
    }
    end_of_input(t);
}

static int open_stream(uv_loop_t *loop, int fd, uv_handle_type type, void *handle, bool readable)
{
    if (type == UV_TTY)
        return uv_tty_init(loop, handle, fd, readable);
    int status = uv_pipe_init(loop, handle, 0);
    if (status != 0)
        return status;
    return uv_pipe_open(handle, fd);
}

int lsp_transport_start(struct lsp_transport *t, uv_loop_t *loop, int in_fd, int out_fd,
                        const struct lsp_framing_sink *sink, void (*on_eof)(void *context),
                        void *eof_context)
{
    memset(t, 0, sizeof *t);
    t->loop = loop;
    t->in_fd = in_fd;
    t->out_fd = out_fd;
    t->sink = *sink;
    t->on_eof = on_eof;
    t->eof_context = eof_context;
    lsp_framing_init(&t->framing, 0);
    t->in_type = uv_guess_handle(in_fd);
    t->out_type = uv_guess_handle(out_fd);
    t->reading = true;
    int status;
    if (t->out_type == UV_NAMED_PIPE || t->out_type == UV_TCP || t->out_type == UV_TTY) {
        if (t->out_type == UV_TCP)
            t->out_type = UV_NAMED_PIPE; /* a socket from the client: a pipe handle serves */
        status = open_stream(loop, out_fd, t->out_type, &t->out, false);
        if (status != 0)
            return status;
        t->out.pipe.data = t;
    }
    if (t->in_type == UV_NAMED_PIPE || t->in_type == UV_TCP || t->in_type == UV_TTY) {
        if (t->in_type == UV_TCP)
            t->in_type = UV_NAMED_PIPE;
        status = open_stream(loop, in_fd, t->in_type, &t->in, true);
        if (status != 0)
            return status;
        t->in.pipe.data = t;
        return uv_read_start((uv_stream_t *)&t->in, alloc_buffer, on_read);
    }
    /* A regular file (or anything else): read it through the thread pool. */
    t->file_buf = malloc(READ_CHUNK);
    if (t->file_buf == NULL)
        return UV_ENOMEM;
    t->in_req.data = t;
    uv_buf_t buf = uv_buf_init(t->file_buf, READ_CHUNK);
    return uv_fs_read(loop, &t->in_req, in_fd, &buf, 1, -1, on_file_read);
}

/* Records the first failed write: the server stops when it sees one (lsp_server). */
static void write_failed(struct lsp_transport *t, int status)
{
    if (t->write_error == 0)
        t->write_error = status;
}

static void on_written(uv_write_t *req, int status)
{
    struct write_request *w = (struct write_request *)req;
    struct lsp_transport *t = w->transport;
    free(w);
    if (status == 0 || status == UV_ECANCELED) /* cancelled: the handle is being closed */
        return;
    /* A client that cannot be written to is gone, whatever its side of stdin says. This runs in
     * a loop callback, not inside a handler, so the input can end here. */
    write_failed(t, status);
    end_of_input(t);
}

int lsp_transport_send(struct lsp_transport *t, const char *body, size_t len)
{
    char header[64];
    int header_len = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", len);
    struct write_request *w = malloc(sizeof *w + (size_t)header_len + len);
    if (w == NULL)
        return UV_ENOMEM;
    memcpy(w->data, header, (size_t)header_len);
    memcpy(w->data + header_len, body, len);
    w->len = (size_t)header_len + len;
    w->transport = t;
    if (t->capture != NULL) {
        t->capture(t->capture_context, w->data, w->len);
        free(w);
        return 0;
    }
    uv_buf_t buf = uv_buf_init(w->data, (unsigned)w->len);
    if (t->out_type == UV_NAMED_PIPE || t->out_type == UV_TTY) {
        if (t->closed) {
            free(w);
            return UV_EPIPE;
        }
        int status = uv_write(&w->req, (uv_stream_t *)&t->out, &buf, 1, on_written);
        if (status != 0) {
            write_failed(t, status);
            free(w);
        }
        return status;
    }
    /* A regular file: synchronous writes, in order. */
    size_t done = 0;
    int status = 0;
    while (done < w->len) {
        uv_fs_t req;
        uv_buf_t part = uv_buf_init(w->data + done, (unsigned)(w->len - done));
        int n = uv_fs_write(NULL, &req, t->out_fd, &part, 1, -1, NULL);
        uv_fs_req_cleanup(&req);
        if (n <= 0) {
            status = n < 0 ? n : UV_EIO;
            write_failed(t, status);
            break;
        }
        done += (size_t)n;
    }
    free(w);
    return status;
}

static void on_closed(uv_handle_t *handle)
{
    (void)handle;
}

/* Closing the output waits for the writes queued before it: a shutdown request runs after
 * them, and its callback closes the handle. */
static void on_output_drained(uv_shutdown_t *req, int status)
{
    (void)status;
    uv_close((uv_handle_t *)req->handle, on_closed);
}

void lsp_transport_close(struct lsp_transport *t)
{
    if (t->closed)
        return;
    t->closed = true;
    t->reading = false;
    if ((t->in_type == UV_NAMED_PIPE || t->in_type == UV_TTY) &&
        !uv_is_closing((uv_handle_t *)&t->in)) {
        uv_close((uv_handle_t *)&t->in, on_closed);
    } else if (t->file_buf != NULL) {
        /* uv_cancel fails (UV_EBUSY) only when the read is running: its callback then sees
         * `reading` off and ends, as a cancelled one does. Either way nothing is left to do. */
        (void)uv_cancel((uv_req_t *)&t->in_req);
    }
    if ((t->out_type == UV_NAMED_PIPE || t->out_type == UV_TTY) &&
        !uv_is_closing((uv_handle_t *)&t->out)) {
        if (uv_shutdown(&t->out_shutdown, (uv_stream_t *)&t->out, on_output_drained) != 0)
            uv_close((uv_handle_t *)&t->out, on_closed);
    }
}

void lsp_transport_free(struct lsp_transport *t)
{
    lsp_framing_free(&t->framing);
    free(t->file_buf);
    t->file_buf = NULL;
}
