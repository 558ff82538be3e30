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

/* One change of formatting: the whitespace between two tokens, bytes [start, end) of the
 * document, becomes `text` (`len` bytes, pointing into the formatted text). */
struct format_edit {
    uint32_t start, end;
    const char *text;
    size_t len;
};

/* The edits that turn `text` (the document's own, `doc->len` bytes) into `formatted`, whitespace
 * run by whitespace run (formatting changes nothing else), keeping those that touch bytes
 * [from, to]: what range formatting sends, and whole-document formatting with the least churn.
 * malloc'd into `*out` (the caller frees it); returns how many, or -1 when memory ran out or
 * the two texts differ in more than whitespace (which formatting never does). */
int64_t format_edits(const char *text, size_t len, const char *formatted, size_t formatted_len,
                     uint32_t from, uint32_t to, struct format_edit **out);

#endif
