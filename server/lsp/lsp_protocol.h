/* lsp_protocol: what the server's parts share — a request being handled, JSON-RPC error
 * codes, reading params, writing positions, and the feature handlers. */
#ifndef SRCLS_LSP_PROTOCOL_H
#define SRCLS_LSP_PROTOCOL_H

#include "lsp_server.h"

enum {
    LSP_PARSE_ERROR = -32700,
    LSP_INVALID_REQUEST = -32600,
    LSP_METHOD_NOT_FOUND = -32601,
    LSP_INVALID_PARAMS = -32602,
    LSP_INTERNAL_ERROR = -32603,
    LSP_SERVER_NOT_INITIALIZED = -32002,
    LSP_REQUEST_CANCELLED = -32800,
};

struct lsp_request {
    struct lsp_server *server;
    struct json_doc *doc; /* the message */
    struct json_str method;
    uint32_t params;     /* JSON_NONE when absent */
    const char *id_text; /* the id's JSON text; NULL for notifications */
    size_t id_len;
};

/* Member `key` of object `node`, or JSON_NONE (also when `node` is not an object). */
uint32_t lsp_get(struct json_doc *doc, uint32_t node, const char *key);

void lsp_send(struct lsp_server *s, struct json_writer *w);
void lsp_begin_result(struct json_writer *w, const struct lsp_request *req);
void lsp_end_result(struct lsp_server *s, struct json_writer *w);
void lsp_begin_notification(struct json_writer *w, const char *method);
void lsp_reply_error(struct lsp_server *s, const char *id_text, size_t id_len, int code,
                     const char *message);
void lsp_log(struct lsp_server *s, int type, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
void lsp_write_range(struct json_writer *w, const struct line_index *lines, uint32_t start,
                     uint32_t end, enum position_encoding encoding);

struct lsp_document *lsp_find_document(struct lsp_server *s, struct json_str uri);
struct lsp_document *lsp_open_document(struct lsp_server *s, struct json_str uri, const char *text,
                                       size_t len, int64_t version);
int lsp_document_set_text(struct lsp_document *d, const char *text, size_t len);
void lsp_close_document(struct lsp_server *s, struct lsp_document *d);
void lsp_document_changed(struct lsp_server *s, struct lsp_document *d, bool now);
void lsp_analyze(struct lsp_server *s, struct lsp_document *d);
void lsp_write_diagnostic(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                          uint32_t index);
void lsp_write_diagnostics(struct lsp_server *s, struct json_writer *w, struct lsp_document *d);
void lsp_republish_all(struct lsp_server *s);
void lsp_read_settings(struct lsp_server *s, struct json_doc *doc, uint32_t node);

void lsp_handle_did_open(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_did_change(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_did_close(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_did_change_configuration(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_pull_diagnostics(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_completion(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_hover(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_code_action(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_document_symbol(struct lsp_server *s, struct lsp_request *req);
void lsp_handle_formatting(struct lsp_server *s, struct lsp_request *req);

#endif
