/* lsp_position: LSP positions and ranges <-> the core's byte offsets, counted in the position
 * encoding negotiated at initialize (line_index does the counting). */
#ifndef SRCLS_LSP_POSITION_H
#define SRCLS_LSP_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "json/json.h"

/* The encoding for a client that offers `encodings` (its general.positionEncodings, JSON_NONE
 * when absent): utf-8 when offered, else utf-16, which every client supports. */
enum position_encoding lsp_position_negotiate(struct json_doc *doc, uint32_t encodings);
/* The encoding's PositionEncodingKind: "utf-8" or "utf-16". */
const char *lsp_position_encoding_name(enum position_encoding encoding);

/* Reads a Position {line, character}; false when `node` is not one. */
bool lsp_position_read(struct json_doc *doc, uint32_t node, struct text_position *out);
/* Reads a Range {start, end}; false when `node` is not one. */
bool lsp_position_read_range(struct json_doc *doc, uint32_t node, struct text_position *start,
                             struct text_position *end);
/* Writing a Position or a Range is the core's line_index_write_position / _range (the JSON
 * report writes the same objects). */

#endif
