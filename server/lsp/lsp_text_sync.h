/* lsp_text_sync: textDocument/didOpen, didChange (whole texts and incremental edits) and
 * didClose, into the document store. */
#ifndef SRCLS_LSP_TEXT_SYNC_H
#define SRCLS_LSP_TEXT_SYNC_H

#include "lsp_state.h"

/* textDocumentSync: open and close, incremental changes. */
void lsp_text_sync_initialize(struct lsp_server *s, struct lsp_request *initialize,
                              struct json_writer *capabilities);
void lsp_text_sync_did_open(struct lsp_server *s, struct lsp_request *req);
void lsp_text_sync_did_change(struct lsp_server *s, struct lsp_request *req);
void lsp_text_sync_did_close(struct lsp_server *s, struct lsp_request *req);

#endif
