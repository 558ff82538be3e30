/* lsp_transport: the server's stdin and stdout through libuv, whatever they are (pipes,
 * sockets, terminals or files), with Content-Length framing. Nothing here blocks the loop
 * except writes to a regular file, which libuv cannot poll. */
#ifndef SRCLS_LSP_TRANSPORT_H
#define SRCLS_LSP_TRANSPORT_H

#include <stdbool.h>
#include <uv.h>

#include "lsp_framing.h"

struct lsp_transport {
    uv_loop_t *loop;
    int in_fd, out_fd;
    uv_handle_type in_type, out_type;
    union {
        uv_pipe_t pipe;
        uv_tty_t tty;
    } in, out;
    uv_fs_t in_req; /* for an input that is a regular file */
    /* Closing the output after the writes queued: held here, as closing must not need memory
     * (an allocation that failed there closed the output at once, losing the last answers) */
    uv_shutdown_t out_shutdown;
    char *file_buf;
    struct lsp_framing framing;
    struct lsp_framing_sink sink;
    void (*on_eof)(void *context);
    void *eof_context;
    bool reading, closed;
    int write_error; /* the first write to the client that failed (a negative libuv error), or 0 */
    /* When set, lsp_transport_send hands each framed message here instead of writing out_fd:
     * a server without stdio, for tests and fuzzing (lsp_server_new_in_memory). */
    void (*capture)(void *context, const char *data, size_t len);
    void *capture_context;
};

/* Starts reading `in_fd`; each message body goes to `sink`, end of input to `on_eof`. Returns
 * 0 or a negative libuv error. */
int lsp_transport_start(struct lsp_transport *t, uv_loop_t *loop, int in_fd, int out_fd,
                        const struct lsp_framing_sink *sink, void (*on_eof)(void *context),
                        void *eof_context);
/* Feeds bytes read from the client to the framing; input dropped because memory ran out is
 * reported to the sink's error function. */
void lsp_transport_receive(struct lsp_transport *t, const char *data, size_t len);
/* Frames and writes one message body (copied). Returns 0 or a negative libuv error; a failed
 * write is also kept in `write_error`, and one that fails later, in the loop, ends the input
 * (`on_eof`) as well. */
int lsp_transport_send(struct lsp_transport *t, const char *body, size_t len);
/* Stops reading and closes the handles; pending writes still complete while the loop runs. */
void lsp_transport_close(struct lsp_transport *t);
/* Frees the buffers, once the loop has finished. */
void lsp_transport_free(struct lsp_transport *t);

#endif
