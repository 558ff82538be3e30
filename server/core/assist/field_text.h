/* field_text: what a field of the schema is, in words — its type, when it is required, default,
 * bounds, format, values and description — as Markdown or as plain text, for completion
 * documentation and hover. */
#ifndef SRCLS_FIELD_TEXT_H
#define SRCLS_FIELD_TEXT_H

#include "base/base.h"
#include "schema/schema.h"

/* How a text is marked up: Markdown, or plain text with no Markdown syntax (no `**`, backticks,
 * tables or headings), for editors that show text as it is. */
enum text_markup {
    TEXT_MARKDOWN,
    TEXT_PLAIN,
};

/* The description of `field`, allocated in `arena`; NULL when out of memory. */
const char *field_text_describe(const struct schema_field *field, enum text_markup markup,
                                struct arena *arena);

/* What marks code and strong text in `markup`: "`" and "**", or "" in plain text. */
const char *field_text_code(enum text_markup markup);
const char *field_text_strong(enum text_markup markup);

#endif
