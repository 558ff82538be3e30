/* format: re-indents a document — stable (keys keep their order, numbers and strings keep
 * their exact text) and idempotent. A document with syntax errors is not formatted. */
#ifndef SRCLS_FORMAT_H
#define SRCLS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "json_doc.h"

/* The formatted text (malloc'd, NUL-terminated, the caller frees it), or NULL when the
 * document has errors or memory ran out. `indent` spaces per level, or one tab when `tabs`. */
char *format_document(const struct json_doc *doc, unsigned indent, bool tabs, size_t *len);

#endif
