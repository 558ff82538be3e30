/* lsp_documents_review: srcls.reviewBase's review over the document store. The review
 * (lsp_review.h) knows only URIs; this module answers its questions from the store (a
 * document's base, publish it again, read every base again). It sits above the store and the
 * review, so the store never calls up into it: the server starts the review once the store is
 * made. */
#ifndef SRCLS_LSP_DOCUMENTS_REVIEW_H
#define SRCLS_LSP_DOCUMENTS_REVIEW_H

#include "lsp_documents.h"

/* Starts store->review with the store's answers; lsp_documents_close_all closes it. */
void lsp_documents_review_init(struct lsp_documents *store);

#endif
