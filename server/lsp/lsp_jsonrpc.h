/* lsp_jsonrpc: JSON-RPC 2.0 over the transport — a message body read as a request or a
 * notification, results, errors and notifications written, params read, and the two messages any
 * part of the server may send: window/logMessage and $/logTrace. It knows nothing of documents
 * or features. */
#ifndef SRCLS_LSP_JSONRPC_H
#define SRCLS_LSP_JSONRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "lsp_transport.h"

/* Method names are cut to this many bytes in traces and error messages. */
#define LSP_JSONRPC_METHOD_SHOWN 100

enum lsp_error_code {
    LSP_PARSE_ERROR = -32700,
    LSP_INVALID_REQUEST = -32600,
    LSP_METHOD_NOT_FOUND = -32601,
    LSP_INVALID_PARAMS = -32602,
    LSP_INTERNAL_ERROR = -32603,
    LSP_SERVER_NOT_INITIALIZED = -32002,
    LSP_REQUEST_CANCELLED = -32800,
};

/* window/logMessage's MessageType. */
enum lsp_message_type {
    LSP_MESSAGE_ERROR = 1,
    LSP_MESSAGE_WARNING = 2,
    LSP_MESSAGE_INFO = 3,
    LSP_MESSAGE_LOG = 4,
};

/* What $/logTrace reports: nothing, each message handled, or that with details. */
enum lsp_trace {
    LSP_TRACE_OFF,
    LSP_TRACE_MESSAGES,
    LSP_TRACE_VERBOSE,
};

/* A request or a notification being handled; it points into `doc`. */
struct lsp_request {
    struct json_doc *doc; /* the message */
    struct json_str method;
    uint32_t params;     /* JSON_NONE when absent */
    const char *id_text; /* the id's JSON text; NULL for notifications */
    size_t id_len;
};

/* The connection: where messages go, and what is traced. */
struct lsp_jsonrpc {
    struct lsp_transport *transport; /* not owned */
    enum lsp_trace trace;
    uint64_t requests_sent; /* the server's own requests, for their ids */
    /* The request being handled (set by the dispatcher): when its result cannot be built, it is
     * answered with an error instead. */
    const struct lsp_request *current;
    const char *sending; /* the method of the notification or request being written, or NULL */
};

void lsp_jsonrpc_init(struct lsp_jsonrpc *rpc, struct lsp_transport *transport);

/* Parses a message `body` into `doc` (which the caller frees with json_doc_free, whatever the
 * result) and `req`, and traces its method. Returns false when it is neither a request nor a
 * notification: a body that is not JSON and a message without a method are answered with an
 * error; responses (the server waits for none) are ignored. */
bool lsp_jsonrpc_read(struct lsp_jsonrpc *rpc, const char *body, size_t len, struct json_doc *doc,
                      struct lsp_request *req);

/* A message is written into a writer the begin function initialises, then sent (and the writer
 * freed): a response by lsp_jsonrpc_finish, a notification or a request of the server's by
 * lsp_jsonrpc_send. */
void lsp_jsonrpc_result_begin(struct json_writer *w, const struct lsp_request *req);
void lsp_jsonrpc_notification_begin(struct lsp_jsonrpc *rpc, struct json_writer *w,
                                    const char *method);
/* A request from the server to the client, whose answer is not waited for (its response is
 * ignored as every response is): its id is "srcls-N"; the caller writes "params" if it has
 * any. */
void lsp_jsonrpc_request_begin(struct lsp_jsonrpc *rpc, struct json_writer *w, const char *method);
void lsp_jsonrpc_finish(struct lsp_jsonrpc *rpc, struct json_writer *w);
/* Whether the notification or request was sent; one that was not for memory is logged. */
bool lsp_jsonrpc_send(struct lsp_jsonrpc *rpc, struct json_writer *w);

void lsp_jsonrpc_reply_null(struct lsp_jsonrpc *rpc, const struct lsp_request *req);
/* Answers `req` (id null when `req` is NULL or has no id) with an error. */
void lsp_jsonrpc_reply_error(struct lsp_jsonrpc *rpc, const struct lsp_request *req,
                             enum lsp_error_code code, const char *message);
/* Sends window/logMessage (the text is cut at 511 bytes). */
void lsp_jsonrpc_log(struct lsp_jsonrpc *rpc, enum lsp_message_type type, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Sends window/showMessage: the client shows `message` to the user. */
void lsp_jsonrpc_show(struct lsp_jsonrpc *rpc, enum lsp_message_type type, const char *message);
/* Sends $/logTrace when tracing is on; `verbose` (or NULL) only when it is verbose. */
void lsp_jsonrpc_trace(struct lsp_jsonrpc *rpc, const char *message, const char *verbose);
/* A TraceValue ("off", "messages", "verbose"); off when it is none of them. */
enum lsp_trace lsp_jsonrpc_trace_value(struct json_doc *doc, uint32_t node);

/* Member `key` of object `node`, or JSON_NONE (also when `node` is not an object). */
uint32_t lsp_jsonrpc_get(struct json_doc *doc, uint32_t node, const char *key);
/* The client capability at `path` (keys joined by '.', e.g. "textDocument.hover") in the
 * params of the initialize request `params`, or JSON_NONE where the client says nothing. */
uint32_t lsp_jsonrpc_capability(struct json_doc *doc, uint32_t params, const char *path);
/* An integer in [0, UINT32_MAX] into `out`; false (and `out` untouched) when it is not one. */
bool lsp_jsonrpc_get_uint(struct json_doc *doc, uint32_t node, uint32_t *out);
/* Whether `node` is `true` (false when it is absent, JSON_NONE, or anything else). */
bool lsp_jsonrpc_is_true(struct json_doc *doc, uint32_t node);
/* Whether the array `list` holds the integer `value` (false when it is not an array). */
bool lsp_jsonrpc_array_has_int(struct json_doc *doc, uint32_t list, int64_t value);
/* Whether a client's MarkupKind list `formats` (preferred first) puts "markdown" before
 * "plaintext"; false when it names neither or is absent: LSP's default is plain text. */
bool lsp_jsonrpc_prefers_markdown(struct json_doc *doc, uint32_t formats);

#endif
