/* lsp_symbols: textDocument/documentSymbol — the core's outline as DocumentSymbols. */
#ifndef SRCLS_LSP_SYMBOLS_H
#define SRCLS_LSP_SYMBOLS_H

#include "lsp_state.h"

/* documentSymbolProvider. */
void lsp_symbols_initialize(struct lsp_server *s, struct lsp_request *initialize,
                            struct json_writer *capabilities);
void lsp_symbols_request(struct lsp_server *s, struct lsp_request *req);

#endif
