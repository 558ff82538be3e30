/* hover: what is under the cursor, in words — a field (type, when it is required, default,
 * bounds, values, description), an enum value's meaning, a kind — as Markdown or plain text.
 * Never a value of the document. */
#ifndef SRCLS_HOVER_H
#define SRCLS_HOVER_H

#include "check/check.h"
#include "field_text.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* The text for `offset` in `markup` (allocated in `arena`) and the range it is about, or NULL. */
const char *hover_at(struct analysis *analysis, const struct schema_registry *registry,
                     const struct settings *settings, uint32_t offset, enum text_markup markup,
                     struct arena *arena, uint32_t *start, uint32_t *end);

#endif
