/* lsp_server: the language server — lifecycle, JSON-RPC dispatch, open documents, settings.
 * It translates between LSP (positions, JSON-RPC) and the core (byte offsets, analyses); the
 * features themselves live in the core. */
#ifndef SRCLS_LSP_SERVER_H
#define SRCLS_LSP_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "analysis.h"
#include "json_write.h"
#include "line_index.h"
#include "lsp_transport.h"
#include "schema.h"
#include "settings.h"

enum lsp_state {
    LSP_STATE_NEW,         /* before initialize */
    LSP_STATE_INITIALIZED, /* after the initialize response */
    LSP_STATE_SHUT_DOWN,   /* after shutdown: only exit is accepted */
};

struct lsp_server;
struct lsp_request;

struct lsp_document {
    struct lsp_server *server;
    struct lsp_document *next;
    char *uri;
    char *text; /* owned */
    size_t len, cap;
    int64_t version;
    bool analyzed; /* `analysis` is of the current text */
    struct analysis analysis;
    uv_timer_t debounce;
    bool timer_open;
};

struct lsp_message {
    char *body;
    size_t len;
};

struct lsp_server {
    uv_loop_t *loop;
    struct lsp_transport transport;
    enum lsp_state state;
    enum position_encoding encoding;
    bool snippets; /* the client takes snippet completions */
    bool markdown; /* the client renders Markdown hovers */
    int trace;     /* 0 off, 1 messages, 2 verbose */
    unsigned debounce_ms;
    struct schema_registry registry;
    struct settings settings;
    struct lsp_document *documents;
    struct lsp_message *queue; /* messages read, not handled yet */
    size_t queue_len, queue_cap;
    uv_idle_t idle;
    bool exiting;
    int exit_code;
    const struct lsp_request *current; /* the request being handled, for error replies */
    bool registry_borrowed;            /* `registry` is a copy of the caller's: not freed here */
};

/* Runs the server on stdin/stdout until `exit` or the end of input; returns the exit code. */
int lsp_server_run(void);

/* A server without stdio, for tests and fuzzing: bytes go in through lsp_server_feed, and each
 * framed message it sends goes to `write`. It uses `loop` (which must have no other handles) and
 * borrows `registry` (NULL: loads the embedded one), which must outlive it. NULL when memory ran
 * out or the schema does not load. */
struct lsp_server *
lsp_server_new_in_memory(uv_loop_t *loop, const struct schema_registry *registry,
                         void (*write)(void *context, const char *data, size_t len), void *context);
/* Feeds bytes as if read from stdin, handles the messages they complete as one batch (as one
 * loop turn would), then publishes the diagnostics still waiting for their debounce. */
void lsp_server_feed(struct lsp_server *s, const char *data, size_t len);
/* Ends the input as EOF does, closes and frees everything; returns the exit code. */
int lsp_server_free_in_memory(struct lsp_server *s);

#endif
