/* lsp_diagnostics: textDocument/diagnostic, the diagnostics a client pulls. The store pushes
 * them too (textDocument/publishDiagnostics, lsp_documents). */
#ifndef SRCLS_LSP_DIAGNOSTICS_H
#define SRCLS_LSP_DIAGNOSTICS_H

#include "lsp_state.h"

/* diagnosticProvider: per document, no workspace diagnostics. */
void lsp_diagnostics_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *capabilities);
void lsp_diagnostics_request(struct lsp_server *s, struct lsp_request *req);

#endif
