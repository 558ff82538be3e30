/* lsp_rendered: a diagnostic as LSP JSON (lsp_diagnostic_write), and the JSON each diagnostic
 * of a document was last written as, so that a publish or a pull writes again only the
 * diagnostics an edit changed or moved. One entry per diagnostic of the document's analysis, in
 * the same order; an entry without JSON is written afresh when next needed. */
#ifndef SRCLS_LSP_RENDERED_H
#define SRCLS_LSP_RENDERED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/check.h"

/* Diagnostic `index` of `analysis` as an LSP Diagnostic: the text of `uri`, positions in
 * `encoding` (the store's documents, and files the client has not opened). */
void lsp_diagnostic_write(struct json_writer *w, const struct analysis *analysis, const char *uri,
                          enum position_encoding encoding, uint32_t index);

struct lsp_rendered_entry {
    char *json; /* owned; NULL: not written since the diagnostic last changed */
    size_t len;
    uint32_t first_line; /* the first line the JSON names (its range's or a related one's) */
};

struct lsp_rendered {
    struct lsp_rendered_entry *items;
    uint32_t count;
    size_t cap; /* items allocated (vector_grow) */
};

void lsp_rendered_free(struct lsp_rendered *rendered);
/* Forgets every JSON: the analysis is new, with `count` diagnostics. -1 when memory ran out
 * (then the cache is empty and every diagnostic is written afresh). */
int lsp_rendered_reset(struct lsp_rendered *rendered, uint32_t count);
/* An update replaced the diagnostics `delta` names. The edit ended on line `edit_line` of the
 * old text; `lines_moved` when the text has more or fewer lines now. The diagnostics after the
 * replaced ones keep their JSON when their lines are after the edit's and did not move (their
 * line and character are then the same); the others are written afresh. -1 when memory ran out
 * (then the cache is empty). */
int lsp_rendered_update(struct lsp_rendered *rendered, const struct analysis_delta *delta,
                        uint32_t edit_line, bool lines_moved);
/* The JSON of diagnostic `index`, or NULL. */
const struct lsp_rendered_entry *lsp_rendered_get(const struct lsp_rendered *rendered,
                                                  uint32_t index);
/* Keeps a copy of `json` for diagnostic `index` (not kept when memory runs out). */
void lsp_rendered_set(struct lsp_rendered *rendered, uint32_t index, const char *json, size_t len,
                      uint32_t first_line);

#endif
