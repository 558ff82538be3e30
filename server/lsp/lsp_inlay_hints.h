/* lsp_inlay_hints: textDocument/inlayHint — the core's kind and default hints as InlayHints. */
#ifndef SRCLS_LSP_INLAY_HINTS_H
#define SRCLS_LSP_INLAY_HINTS_H

#include "lsp_state.h"

/* inlayHintProvider. */
void lsp_inlay_hints_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *capabilities);
void lsp_inlay_hints_request(struct lsp_server *s, struct lsp_request *req);

#endif
