/* lsp_navigation: textDocument/foldingRange and textDocument/selectionRange — the core's folds
 * and selection ranges as LSP ranges. */
#ifndef SRCLS_LSP_NAVIGATION_H
#define SRCLS_LSP_NAVIGATION_H

#include "lsp_state.h"

/* foldingRangeProvider; reads the client's rangeLimit. */
void lsp_navigation_folding_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                       struct json_writer *capabilities);
void lsp_navigation_folding_request(struct lsp_server *s, struct lsp_request *req);
/* selectionRangeProvider. */
void lsp_navigation_selection_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                         struct json_writer *capabilities);
void lsp_navigation_selection_request(struct lsp_server *s, struct lsp_request *req);

#endif
