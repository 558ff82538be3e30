/* lsp_completion: textDocument/completion — the core's completion items as LSP
 * CompletionItems, snippets when the client takes them. */
#ifndef SRCLS_LSP_COMPLETION_H
#define SRCLS_LSP_COMPLETION_H

#include "lsp_state.h"

/* Reads what the client takes (snippets, InsertReplaceEdit, tags, documentation format);
 * completionProvider, triggered by `"` and `:`. */
void lsp_completion_initialize(struct lsp_server *s, struct lsp_request *initialize,
                               struct json_writer *capabilities);
void lsp_completion_request(struct lsp_server *s, struct lsp_request *req);

#endif
