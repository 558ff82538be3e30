/* lsp_hover: textDocument/hover — the core's words for what is under the
 * cursor, in Markdown or plain text as the client's contentFormat asks (plain text when absent). */
#ifndef SRCLS_LSP_HOVER_H
#define SRCLS_LSP_HOVER_H

#include "lsp_state.h"

/* Reads the client's hover contentFormat; hoverProvider. */
void lsp_hover_initialize(struct lsp_server *s, struct lsp_request *initialize,
                          struct json_writer *capabilities);
void lsp_hover_request(struct lsp_server *s, struct lsp_request *req);

#endif
