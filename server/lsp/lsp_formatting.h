/* lsp_formatting: textDocument/formatting — the core's formatter as one edit of the whole
 * document, or none — and textDocument/rangeFormatting, its whitespace edits in a range. */
#ifndef SRCLS_LSP_FORMATTING_H
#define SRCLS_LSP_FORMATTING_H

#include "lsp_state.h"

/* documentFormattingProvider and documentRangeFormattingProvider. */
void lsp_formatting_initialize(struct lsp_server *s, struct lsp_request *initialize,
                               struct json_writer *capabilities);
void lsp_formatting_request(struct lsp_server *s, struct lsp_request *req);
/* textDocument/rangeFormatting: the whitespace edits of formatting that touch the range. */
void lsp_formatting_range_request(struct lsp_server *s, struct lsp_request *req);

#endif
