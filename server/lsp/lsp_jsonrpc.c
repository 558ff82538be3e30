/* lsp_jsonrpc: reading JSON-RPC messages and writing answers and notifications. */
#include "lsp_jsonrpc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void lsp_jsonrpc_init(struct lsp_jsonrpc *rpc, struct lsp_transport *transport)
{
    *rpc = (struct lsp_jsonrpc){.transport = transport, .trace = LSP_TRACE_OFF};
}

/* ---- writing ---- */

static void message_begin(struct json_writer *w)
{
    json_writer_init(w, 0);
    json_write_object_begin(w);
    json_write_key(w, "jsonrpc");
    json_write_string(w, "2.0");
}

void lsp_jsonrpc_result_begin(struct json_writer *w, const struct lsp_request *req)
{
    message_begin(w);
    json_write_key(w, "id");
    json_write_raw(w, req->id_text, req->id_len);
    json_write_key(w, "result");
}

void lsp_jsonrpc_notification_begin(struct lsp_jsonrpc *rpc, struct json_writer *w,
                                    const char *method)
{
    rpc->sending = method;
    message_begin(w);
    json_write_key(w, "method");
    json_write_string(w, method);
    json_write_key(w, "params");
}

void lsp_jsonrpc_request_begin(struct lsp_jsonrpc *rpc, struct json_writer *w, const char *method)
{
    rpc->sending = method;
    message_begin(w);
    char id[32];
    snprintf(id, sizeof id, "srcls-%llu", (unsigned long long)++rpc->requests_sent);
    json_write_key(w, "id");
    json_write_string(w, id);
    json_write_key(w, "method");
    json_write_string(w, method);
}

void lsp_jsonrpc_finish(struct lsp_jsonrpc *rpc, struct json_writer *w)
{
    json_write_object_end(w);
    bool built = !w->failed;
    int status = built ? lsp_transport_send(rpc->transport, w->buf, w->len) : 0;
    json_writer_free(w);
    /* A response that could not be built, or framed for lack of memory, still gets an answer (a
     * short one). A failed write needs nothing here: the transport keeps it for the server. */
    if ((!built || status == UV_ENOMEM) && rpc->current != NULL && rpc->current->id_text != NULL)
        lsp_jsonrpc_reply_error(rpc, rpc->current, LSP_INTERNAL_ERROR,
                                !built ? "the response could not be built (out of memory or "
                                         "nested too deeply)"
                                       : "the response could not be sent (out of memory)");
}

bool lsp_jsonrpc_send(struct lsp_jsonrpc *rpc, struct json_writer *w)
{
    json_write_object_end(w);
    const char *method = rpc->sending;
    rpc->sending = NULL;
    bool built = !w->failed;
    int status = built ? lsp_transport_send(rpc->transport, w->buf, w->len) : 0;
    json_writer_free(w);
    /* A log that could not be sent is not logged again: there is nothing smaller to say it. */
    if ((!built || status == UV_ENOMEM) && method != NULL && strncmp(method, "window/", 7) != 0)
        lsp_jsonrpc_log(rpc, LSP_MESSAGE_ERROR, "srcls: out of memory: a %s was not sent", method);
    return built && status == 0;
}

void lsp_jsonrpc_reply_null(struct lsp_jsonrpc *rpc, const struct lsp_request *req)
{
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_null(&w);
    lsp_jsonrpc_finish(rpc, &w);
}

/* The error response to `req`, built and sent; false when memory ran out. */
static bool send_error(struct lsp_jsonrpc *rpc, const struct lsp_request *req,
                       enum lsp_error_code code, const char *message)
{
    struct json_writer w;
    message_begin(&w);
    json_write_key(&w, "id");
    if (req != NULL && req->id_text != NULL)
        json_write_raw(&w, req->id_text, req->id_len);
    else
        json_write_null(&w);
    json_write_key(&w, "error");
    json_write_object_begin(&w);
    json_write_key(&w, "code");
    json_write_int(&w, code);
    json_write_key(&w, "message");
    json_write_string(&w, message);
    json_write_object_end(&w);
    json_write_object_end(&w);
    /* A failed write is kept in the transport, where the server sees it. */
    bool sent = !w.failed && lsp_transport_send(rpc->transport, w.buf, w.len) != UV_ENOMEM;
    json_writer_free(&w);
    return sent;
}

void lsp_jsonrpc_reply_error(struct lsp_jsonrpc *rpc, const struct lsp_request *req,
                             enum lsp_error_code code, const char *message)
{
    /* The last resort: there is nothing smaller to send, so what ran out of memory is tried
     * once more (a request is never left unanswered while memory can be had). */
    if (!send_error(rpc, req, code, message))
        (void)send_error(rpc, req, code, message);
}

/* window/logMessage or window/showMessage. One that could not be built or framed for memory
 * is tried once more: it is often what says that something else ran out. */
static void message_notification(struct lsp_jsonrpc *rpc, const char *method,
                                 enum lsp_message_type type, const char *message)
{
    const char *outer = rpc->sending; /* a log may be sent while another message is written */
    for (int attempt = 0; attempt < 2; attempt++) {
        struct json_writer w;
        lsp_jsonrpc_notification_begin(rpc, &w, method);
        json_write_object_begin(&w);
        json_write_key(&w, "type");
        json_write_int(&w, type);
        json_write_key(&w, "message");
        json_write_string(&w, message);
        json_write_object_end(&w);
        if (lsp_jsonrpc_send(rpc, &w) || rpc->transport->write_error != 0)
            break;
    }
    rpc->sending = outer;
}

void lsp_jsonrpc_show(struct lsp_jsonrpc *rpc, enum lsp_message_type type, const char *message)
{
    message_notification(rpc, "window/showMessage", type, message);
}

void lsp_jsonrpc_log(struct lsp_jsonrpc *rpc, enum lsp_message_type type, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    message_notification(rpc, "window/logMessage", type, message);
}

void lsp_jsonrpc_trace(struct lsp_jsonrpc *rpc, const char *message, const char *verbose)
{
    if (rpc->trace == LSP_TRACE_OFF)
        return;
    struct json_writer w;
    const char *outer = rpc->sending;
    lsp_jsonrpc_notification_begin(rpc, &w, "$/logTrace");
    json_write_object_begin(&w);
    json_write_key(&w, "message");
    json_write_string(&w, message);
    if (rpc->trace == LSP_TRACE_VERBOSE && verbose != NULL) {
        json_write_key(&w, "verbose");
        json_write_string(&w, verbose);
    }
    json_write_object_end(&w);
    lsp_jsonrpc_send(rpc, &w);
    rpc->sending = outer;
}

/* ---- reading ---- */

enum lsp_trace lsp_jsonrpc_trace_value(struct json_doc *doc, uint32_t node)
{
    if (json_node_string_equals(doc, node, "verbose", 7))
        return LSP_TRACE_VERBOSE;
    if (json_node_string_equals(doc, node, "messages", 8))
        return LSP_TRACE_MESSAGES;
    return LSP_TRACE_OFF;
}

uint32_t lsp_jsonrpc_get(struct json_doc *doc, uint32_t node, const char *key)
{
    if (node == JSON_NONE || doc->nodes[node].kind != JSON_OBJECT)
        return JSON_NONE;
    return json_object_get(doc, node, key, strlen(key));
}

uint32_t lsp_jsonrpc_capability(struct json_doc *doc, uint32_t params, const char *path)
{
    uint32_t node = lsp_jsonrpc_get(doc, params, "capabilities");
    while (node != JSON_NONE && *path != '\0') {
        const char *dot = strchr(path, '.');
        size_t len = dot != NULL ? (size_t)(dot - path) : strlen(path);
        node = doc->nodes[node].kind == JSON_OBJECT ? json_object_get(doc, node, path, len)
                                                    : JSON_NONE;
        path += len + (dot != NULL);
    }
    return node;
}

bool lsp_jsonrpc_get_uint(struct json_doc *doc, uint32_t node, uint32_t *out)
{
    int64_t value;
    if (!json_node_int64(doc, node, &value) || value < 0 || value > UINT32_MAX)
        return false;
    *out = (uint32_t)value;
    return true;
}

bool lsp_jsonrpc_is_true(struct json_doc *doc, uint32_t node)
{
    return node != JSON_NONE && doc->nodes[node].kind == JSON_TRUE;
}

bool lsp_jsonrpc_array_has_int(struct json_doc *doc, uint32_t list, int64_t value)
{
    if (list == JSON_NONE || doc->nodes[list].kind != JSON_ARRAY)
        return false;
    for (uint32_t e = doc->nodes[list].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        int64_t v;
        if (json_node_int64(doc, e, &v) && v == value)
            return true;
    }
    return false;
}

bool lsp_jsonrpc_prefers_markdown(struct json_doc *doc, uint32_t formats)
{
    if (formats == JSON_NONE || doc->nodes[formats].kind != JSON_ARRAY)
        return false;
    for (uint32_t e = doc->nodes[formats].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        if (json_node_string_equals(doc, e, JSON_LITERAL("markdown")))
            return true;
        if (json_node_string_equals(doc, e, JSON_LITERAL("plaintext")))
            return false;
    }
    return false;
}

/* A message with "result" or "error" and no "method": the answer to a request. */
static bool is_response(struct json_doc *doc)
{
    uint32_t root = doc->root;
    return doc->nodes[root].kind == JSON_OBJECT &&
           (json_object_get(doc, root, "result", 6) != JSON_NONE ||
            json_object_get(doc, root, "error", 5) != JSON_NONE);
}

bool lsp_jsonrpc_read(struct lsp_jsonrpc *rpc, const char *body, size_t len, struct json_doc *doc,
                      struct lsp_request *req)
{
    int parsed = json_parse(doc, body, len, NULL);
    if (parsed != 0) { /* out of memory, not a wrong body: once more, or it is dropped, and said */
        json_doc_free(doc);
        parsed = json_parse(doc, body, len, NULL);
    }
    *req = (struct lsp_request){.doc = doc, .params = JSON_NONE};
    if (parsed != 0) {
        lsp_jsonrpc_log(rpc, LSP_MESSAGE_ERROR, "srcls: out of memory: a message was dropped");
        return false;
    }
    if (doc->error_count > 0 || doc->root == JSON_NONE) {
        lsp_jsonrpc_reply_error(rpc, NULL, LSP_PARSE_ERROR, "the message body is not valid JSON");
        return false;
    }
    uint32_t root = doc->root;
    uint32_t id = JSON_NONE, method = JSON_NONE;
    if (doc->nodes[root].kind == JSON_OBJECT) {
        id = json_object_get(doc, root, "id", 2);
        method = json_object_get(doc, root, "method", 6);
        req->params = json_object_get(doc, root, "params", 6);
        /* "params": null is sent for methods without parameters (shutdown, exit): absent. */
        if (req->params != JSON_NONE && doc->nodes[req->params].kind == JSON_NULL)
            req->params = JSON_NONE;
    }
    if (id != JSON_NONE && doc->nodes[id].kind != JSON_NUMBER && doc->nodes[id].kind != JSON_STRING)
        id = JSON_NONE;
    if (id != JSON_NONE) {
        req->id_text = doc->text + doc->nodes[id].start;
        req->id_len = doc->nodes[id].end - doc->nodes[id].start;
    }
    if (method == JSON_NONE || doc->nodes[method].kind != JSON_STRING) {
        if (!is_response(doc))
            lsp_jsonrpc_reply_error(
                rpc, req, LSP_INVALID_REQUEST,
                "not a JSON-RPC request or notification: \"method\" is missing");
        return false;
    }
    req->method = json_node_string(doc, method);
    char shown[LSP_JSONRPC_METHOD_SHOWN + 1];
    snprintf(shown, sizeof shown, "%.*s",
             (int)(req->method.len < LSP_JSONRPC_METHOD_SHOWN ? req->method.len
                                                              : LSP_JSONRPC_METHOD_SHOWN),
             req->method.ptr);
    lsp_jsonrpc_trace(rpc, shown, NULL);
    return true;
}
