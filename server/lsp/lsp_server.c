/* lsp_server: the lifecycle (initialize, shutdown, exit), the method table, dispatch and the
 * libuv loop of the language server.
 *
 * Each method is one line of the table: its name, whether it is a request, its handler, and its
 * part of initialize, which writes the capability it provides; the initialize response is
 * assembled from the table. Messages read from stdin are queued and handled on the next loop
 * turn, a batch at a time: a $/cancelRequest that arrives in the same batch as its request
 * cancels it. Requests are answered synchronously (the core is fast enough). */
#include "lsp_server.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

#include "lsp_code_action.h"
#include "lsp_completion.h"
#include "lsp_configuration.h"
#include "lsp_diagnostics.h"
#include "lsp_documents_review.h"
#include "lsp_formatting.h"
#include "lsp_hover.h"
#include "lsp_inlay_hints.h"
#include "lsp_navigation.h"
#include "lsp_workspace.h"
#include "lsp_state.h"
#include "lsp_position.h"
#include "lsp_symbols.h"
#include "lsp_text_sync.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif

/* How long diagnostics wait after a change for the next one, so that typing is not slowed by
 * re-checking every keystroke; SRCLS_DEBOUNCE_MS overrides it. */
#define DEBOUNCE_MS 75

/* A $/cancelRequest is a short message: a longer body that mentions it is not parsed to see
 * whether it is one. */
#define CANCEL_MESSAGE_MAX 4096

/* ---- the method table ---- */

enum method_type {
    REQUEST,      /* answered; accepted between initialize and shutdown, initialize before */
    NOTIFICATION, /* handled between initialize and shutdown, dropped otherwise */
    LIFECYCLE,    /* a notification handled in any state */
};

struct method {
    const char *name;
    enum method_type type;
    lsp_handler *handler;
    lsp_initializer *initialize; /* its part of initialize (the capability), or NULL */
};

static void handle_initialize(struct lsp_server *s, struct lsp_request *req);
static void handle_shutdown(struct lsp_server *s, struct lsp_request *req);
static void handle_exit(struct lsp_server *s, struct lsp_request *req);
static void handle_set_trace(struct lsp_server *s, struct lsp_request *req);

/* The capabilities are written in this order. */
static const struct method methods[] = {
    {"initialize", REQUEST, handle_initialize, NULL},
    {"shutdown", REQUEST, handle_shutdown, NULL},
    {"exit", LIFECYCLE, handle_exit, NULL},
    {"$/setTrace", LIFECYCLE, handle_set_trace, NULL},
    {"textDocument/didOpen", NOTIFICATION, lsp_text_sync_did_open, lsp_text_sync_initialize},
    {"textDocument/didChange", NOTIFICATION, lsp_text_sync_did_change, NULL},
    {"textDocument/didClose", NOTIFICATION, lsp_text_sync_did_close, NULL},
    {"workspace/didChangeConfiguration", NOTIFICATION, lsp_configuration_did_change,
     lsp_configuration_initialize},
    {"initialized", NOTIFICATION, lsp_configuration_initialized, NULL},
    {"workspace/didChangeWatchedFiles", NOTIFICATION, lsp_configuration_watched_files, NULL},
    {"textDocument/didSave", NOTIFICATION, lsp_configuration_did_save, NULL},
    {"textDocument/completion", REQUEST, lsp_completion_request, lsp_completion_initialize},
    {"textDocument/hover", REQUEST, lsp_hover_request, lsp_hover_initialize},
    {"textDocument/codeAction", REQUEST, lsp_code_action_request, lsp_code_action_initialize},
    {"textDocument/documentSymbol", REQUEST, lsp_symbols_request, lsp_symbols_initialize},
    {"textDocument/formatting", REQUEST, lsp_formatting_request, lsp_formatting_initialize},
    {"textDocument/rangeFormatting", REQUEST, lsp_formatting_range_request, NULL},
    {"textDocument/diagnostic", REQUEST, lsp_diagnostics_request, lsp_diagnostics_initialize},
    {"textDocument/foldingRange", REQUEST, lsp_navigation_folding_request,
     lsp_navigation_folding_initialize},
    {"textDocument/selectionRange", REQUEST, lsp_navigation_selection_request,
     lsp_navigation_selection_initialize},
    {"textDocument/inlayHint", REQUEST, lsp_inlay_hints_request, lsp_inlay_hints_initialize},
    {"workspace/diagnostic", REQUEST, lsp_workspace_diagnostic_request, lsp_workspace_initialize},
    {"$/cancelRequest", NOTIFICATION, lsp_workspace_cancel, NULL},
};

static bool name_is(struct json_str name, const char *text)
{
    return strlen(text) == name.len && memcmp(text, name.ptr, name.len) == 0;
}

/* The request (or, when !request, the notification) called `name`, or NULL. */
static const struct method *find_method(struct json_str name, bool request)
{
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if ((methods[i].type == REQUEST) == request && name_is(name, methods[i].name))
            return &methods[i];
    }
    return NULL;
}

/* ---- lifecycle ---- */

static void handle_initialize(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    s->documents.encoding = lsp_position_negotiate(
        doc, lsp_jsonrpc_capability(doc, req->params, "general.positionEncodings"));
    s->rpc.trace = lsp_jsonrpc_trace_value(doc, lsp_jsonrpc_get(doc, req->params, "trace"));

    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "capabilities");
    json_write_object_begin(&w);
    json_write_key(&w, "positionEncoding");
    json_write_string(&w, lsp_position_encoding_name(s->documents.encoding));
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (methods[i].initialize != NULL)
            methods[i].initialize(s, req, &w);
    }
    json_write_object_end(&w);
    json_write_key(&w, "serverInfo");
    json_write_object_begin(&w);
    json_write_key(&w, "name");
    json_write_string(&w, "srcls");
    json_write_key(&w, "version");
    json_write_string(&w, SRCLS_VERSION);
    json_write_object_end(&w);
    json_write_object_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
    s->state = LSP_STATE_INITIALIZED;
}

static void handle_shutdown(struct lsp_server *s, struct lsp_request *req)
{
    lsp_jsonrpc_reply_null(&s->rpc, req);
    s->state = LSP_STATE_SHUT_DOWN;
}

/* Closes everything; the loop ends when the last handle is closed. */
static void stop(struct lsp_server *s, int code)
{
    if (s->exiting)
        return;
    s->exiting = true;
    s->exit_code = code;
    uv_idle_stop(&s->idle);
    lsp_workspace_close(s);
    lsp_documents_close_all(&s->documents);
    lsp_transport_close(&s->transport);
    uv_close((uv_handle_t *)&s->idle, NULL);
}

/* Stops now, or once the workspace pulls running are answered. */
static void stop_after_pulls(struct lsp_server *s, int code)
{
    if (s->pulls != NULL && s->stop_when_pulled == 0)
        s->stop_when_pulled = code + 1;
    else if (s->pulls == NULL)
        stop(s, code);
}

static void pulls_over(struct lsp_server *s)
{
    if (s->stop_when_pulled != 0)
        stop(s, s->stop_when_pulled - 1);
}

static void handle_exit(struct lsp_server *s, struct lsp_request *req)
{
    (void)req;
    stop_after_pulls(s, s->state == LSP_STATE_SHUT_DOWN ? 0 : 1);
}

static void handle_set_trace(struct lsp_server *s, struct lsp_request *req)
{
    s->rpc.trace =
        lsp_jsonrpc_trace_value(req->doc, lsp_jsonrpc_get(req->doc, req->params, "value"));
}

/* ---- dispatch ---- */

/* Whether a $/cancelRequest in the batch names `req`. */
static bool is_cancelled(const struct lsp_request *req, const struct lsp_message *batch,
                         size_t count)
{
    static const char marker[] = "$/cancelRequest";
    for (size_t i = 0; i < count; i++) {
        if (batch[i].body == NULL || batch[i].len > CANCEL_MESSAGE_MAX ||
            strstr(batch[i].body, marker) == NULL) /* bodies are NUL-terminated copies */
            continue;
        struct json_doc doc;
        json_parse(&doc, batch[i].body, batch[i].len, NULL);
        uint32_t params = lsp_jsonrpc_get(&doc, doc.root, "params");
        uint32_t target = lsp_jsonrpc_get(&doc, params, "id");
        bool match = false;
        if (target != JSON_NONE) {
            const struct json_node *t = &doc.nodes[target];
            match = t->end - t->start == req->id_len &&
                    memcmp(doc.text + t->start, req->id_text, req->id_len) == 0;
        }
        json_doc_free(&doc);
        if (match)
            return true;
    }
    return false;
}

static void handle_notification(struct lsp_server *s, struct lsp_request *req)
{
    const struct method *m = find_method(req->method, false);
    if (m == NULL || (m->type != LIFECYCLE && s->state != LSP_STATE_INITIALIZED))
        return;
    if (m->handler == lsp_configuration_did_change ||
        m->handler == lsp_configuration_watched_files || m->handler == lsp_configuration_did_save)
        lsp_workspace_quiesce(s); /* what a pull's workers read is about to change */
    m->handler(s, req);
}

/* Answers a request that cannot be handled now; true when it did. */
static bool refuse_request(struct lsp_server *s, const struct lsp_request *req,
                           const struct lsp_message *batch, size_t count)
{
    bool initialize = name_is(req->method, "initialize");
    if (s->state == LSP_STATE_NEW && !initialize)
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_SERVER_NOT_INITIALIZED,
                                "the server is not initialized yet: send initialize first");
    else if (s->state == LSP_STATE_SHUT_DOWN)
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INVALID_REQUEST,
                                "the server is shut down: only exit is accepted");
    else if (s->state == LSP_STATE_INITIALIZED && initialize)
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INVALID_REQUEST,
                                "initialize was already received");
    else if (is_cancelled(req, batch, count))
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_REQUEST_CANCELLED, "the request was cancelled");
    else
        return false;
    return true;
}

static void handle_request(struct lsp_server *s, struct lsp_request *req,
                           const struct lsp_message *batch, size_t count)
{
    if (refuse_request(s, req, batch, count))
        return;
    const struct method *m = find_method(req->method, true);
    if (m == NULL) {
        char message[200];
        snprintf(message, sizeof message, "unknown method \"%.*s\"",
                 (int)(req->method.len < LSP_JSONRPC_METHOD_SHOWN ? req->method.len
                                                                  : LSP_JSONRPC_METHOD_SHOWN),
                 req->method.ptr);
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_METHOD_NOT_FOUND, message);
        return;
    }
    struct json_doc *doc = req->doc;
    if (req->params != JSON_NONE && doc->nodes[req->params].kind != JSON_OBJECT &&
        doc->nodes[req->params].kind != JSON_ARRAY) {
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INVALID_PARAMS, "params must be an object");
        return;
    }
    s->rpc.current = req;
    m->handler(s, req);
    s->rpc.current = NULL;
}

/* Handles one message; `batch` holds the `count` messages read after it. */
static void handle_message(struct lsp_server *s, const char *body, size_t len,
                           const struct lsp_message *batch, size_t count)
{
    struct json_doc doc;
    struct lsp_request req;
    if (lsp_jsonrpc_read(&s->rpc, body, len, &doc, &req)) {
        if (req.id_text == NULL)
            handle_notification(s, &req);
        else
            handle_request(s, &req, batch, count);
    }
    json_doc_free(&doc);
}

/* ---- the loop ---- */

/* A client that cannot be written to cannot be served: after a failed write (a closed pipe, a
 * full disk) the server says so on stderr and stops, as `exit` without `shutdown` would. */
static void stop_after_write_error(struct lsp_server *s)
{
    int error = s->transport.write_error;
    if (error == 0 || s->exiting)
        return;
    fprintf(stderr, "srcls: cannot write to the client: %s\n", uv_strerror(error));
    stop(s, 1);
}

static void on_idle(uv_idle_t *idle)
{
    struct lsp_server *s = idle->data;
    struct lsp_message *batch = s->queue;
    size_t count = s->queue_len;
    s->queue = NULL;
    s->queue_len = s->queue_cap = 0;
    uv_idle_stop(idle);
    for (size_t i = 0; i < count; i++) {
        if (!s->exiting && s->stop_when_pulled == 0) /* nothing after exit */
            handle_message(s, batch[i].body, batch[i].len, batch + i + 1, count - i - 1);
        free(batch[i].body);
    }
    free(batch);
    stop_after_write_error(s);
}

/* Queues a copy of `body` for the next loop turn; false when memory ran out. */
static bool enqueue(struct lsp_server *s, const char *body, size_t len)
{
    struct lsp_message *grown =
        vector_grow(s->queue, &s->queue_cap, s->queue_len + 1, sizeof *grown);
    if (grown == NULL)
        return false;
    s->queue = grown;
    char *copy = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (copy == NULL)
        return false;
    memcpy(copy, body, len);
    copy[len] = '\0';
    s->queue[s->queue_len++] = (struct lsp_message){copy, len};
    return true;
}

static void on_message(void *context, const char *body, size_t len)
{
    struct lsp_server *s = context;
    if (s->exiting || s->stop_when_pulled != 0)
        return;
    if (!enqueue(s, body, len)) {
        if (s->queue_len > 0)
            on_idle(&s->idle); /* what is queued first, which frees its memory; then again */
        if (!enqueue(s, body, len)) {
            lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_ERROR,
                            "srcls: out of memory: a message was dropped");
            return;
        }
    }
    /* uv_idle_start fails only for a handle being closed; then no later turn would come. */
    if (uv_idle_start(&s->idle, on_idle) != 0)
        on_idle(&s->idle);
}

static void on_framing_error(void *context, const char *message)
{
    struct lsp_server *s = context;
    lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_ERROR, "srcls: %s", message);
}

static void on_eof(void *context)
{
    struct lsp_server *s = context;
    /* The client went away (or cannot be written to): handle what was read, then stop. */
    if (s->queue_len > 0)
        on_idle(&s->idle);
    stop_after_write_error(s);
    stop_after_pulls(s, s->state == LSP_STATE_SHUT_DOWN ? 0 : 1);
}

/* A server on `loop`, with a shallow copy of `registry` (the handlers only read it) or, when
 * NULL, the embedded one. NULL when memory ran out or the schema does not load; then `error`
 * says why, or is empty. */
static struct lsp_server *server_new(uv_loop_t *loop, const struct schema_registry *registry,
                                     unsigned debounce_ms, char *error, size_t size)
{
    error[0] = '\0';
    struct lsp_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->loop = loop;
    s->pulls_over = pulls_over;
    settings_init(&s->settings);
    if (registry != NULL) {
        s->registry = *registry;
        s->registry_borrowed = true;
    } else if (schema_registry_load_embedded(&s->registry, error, size) != 0) {
        free(s);
        return NULL;
    }
    lsp_jsonrpc_init(&s->rpc, &s->transport);
    lsp_documents_init(&s->documents, loop, &s->rpc, &s->registry, &s->settings, debounce_ms);
    lsp_documents_review_init(&s->documents);
    if (uv_idle_init(loop, &s->idle) != 0) {
        if (!s->registry_borrowed)
            schema_registry_free(&s->registry);
        free(s);
        return NULL;
    }
    s->idle.data = s;
    return s;
}

/* Frees what the loop no longer uses; returns the exit code. */
static int server_free(struct lsp_server *s)
{
    for (size_t i = 0; i < s->queue_len; i++)
        free(s->queue[i].body);
    free(s->queue);
    int code = s->exit_code;
    lsp_transport_free(&s->transport);
    if (!s->registry_borrowed)
        schema_registry_free(&s->registry);
    settings_free(&s->settings);
    lsp_projects_free(&s->documents.projects);
    lsp_workspace_free(s);
    free(s);
    return code;
}

/* libuv's allocations, with a reserve: libuv aborts when some of its own fail (uv_loop_init),
 * so the first that fails frees the reserve and is tried again. */
#define LIBUV_RESERVE (256u * 1024u)
static void *libuv_reserve;

static bool reserve_released(void)
{
    if (libuv_reserve == NULL)
        return false;
    free(libuv_reserve);
    libuv_reserve = NULL;
    return true;
}

static void *reserve_malloc(size_t size)
{
    void *block = malloc(size);
    return block != NULL || !reserve_released() ? block : malloc(size);
}

static void *reserve_realloc(void *block, size_t size)
{
    size_t capacity = 0; /* unknown: grown to `size` (libuv never asks for 0) */
    void *moved = vector_grow(block, &capacity, size, 1);
    return moved != NULL || !reserve_released() ? moved : vector_grow(block, &capacity, size, 1);
}

static void *reserve_calloc(size_t count, size_t size)
{
    void *block = calloc(count, size);
    return block != NULL || !reserve_released() ? block : calloc(count, size);
}

int lsp_server_run(void)
{
    signal(SIGPIPE, SIG_IGN);
    libuv_reserve = malloc(LIBUV_RESERVE);
    uv_replace_allocator(reserve_malloc, reserve_realloc, reserve_calloc, free);
    uv_loop_t *loop = uv_default_loop();
    if (loop == NULL) {
        fputs("srcls: out of memory\n", stderr);
        free(libuv_reserve);
        return 1;
    }
    unsigned debounce_ms = DEBOUNCE_MS;
    const char *debounce = getenv("SRCLS_DEBOUNCE_MS");
    if (debounce != NULL)
        debounce_ms = (unsigned)atoi(debounce);
    char error[512];
    struct lsp_server *s = server_new(loop, NULL, debounce_ms, error, sizeof error);
    if (s == NULL) {
        fprintf(stderr, "srcls: %s%s\n", error[0] ? "the built-in schema does not load: " : "",
                error[0] ? error : "out of memory");
        free(libuv_reserve);
        return 1;
    }
    struct lsp_framing_sink sink = {on_message, on_framing_error, s};
    int status = lsp_transport_start(&s->transport, s->loop, 0, 1, &sink, on_eof, s);
    if (status != 0) {
        /* The handles opened so far stay open, and the loop with them, until the process ends. */
        fprintf(stderr, "srcls: cannot use stdin/stdout: %s\n",
                status == UV_ENOMEM ? "out of memory" : uv_strerror(status));
        s->exit_code = 1;
    } else {
        uv_run(s->loop, UV_RUN_DEFAULT); /* returns once every handle is closed */
        int closed = uv_loop_close(s->loop);
        if (closed != 0)
            fprintf(stderr, "srcls: the event loop did not close: %s\n", uv_strerror(closed));
    }
    free(libuv_reserve);
    return server_free(s);
}

/* ---- in memory (tests, fuzzing) ---- */

struct lsp_server *
lsp_server_new_in_memory(uv_loop_t *loop, const struct schema_registry *registry,
                         void (*write)(void *context, const char *data, size_t len), void *context)
{
    char error[512];
    struct lsp_server *s = server_new(loop, registry, DEBOUNCE_MS, error, sizeof error);
    if (s == NULL)
        return NULL;
    /* The transport is never started: no fds, and lsp_transport_close has nothing to close. */
    lsp_framing_init(&s->transport.framing, 0);
    s->transport.sink = (struct lsp_framing_sink){on_message, on_framing_error, s};
    s->transport.reading = true;
    s->transport.capture = write;
    s->transport.capture_context = context;
    return s;
}

void lsp_server_feed(struct lsp_server *s, const char *data, size_t len)
{
    lsp_transport_receive(&s->transport, data, len);
    if (s->queue_len > 0)
        on_idle(&s->idle);
    lsp_documents_publish_pending(&s->documents);
}

int lsp_server_free_in_memory(struct lsp_server *s)
{
    on_eof(s);
    uv_run(s->loop, UV_RUN_DEFAULT); /* the close callbacks free the documents */
    return server_free(s);
}
