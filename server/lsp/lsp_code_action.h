/* lsp_code_action: textDocument/codeAction — the core's fixes as quick fixes for the
 * diagnostics in a range, and all safe fixes at once as source.fixAll.srcls. */
#ifndef SRCLS_LSP_CODE_ACTION_H
#define SRCLS_LSP_CODE_ACTION_H

#include "lsp_state.h"

/* codeActionProvider with its two kinds. */
void lsp_code_action_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *capabilities);
void lsp_code_action_request(struct lsp_server *s, struct lsp_request *req);

#endif
