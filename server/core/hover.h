/* hover: Markdown about what is under the cursor — a field (type, when it is required,
 * default, bounds, values, description), an enum value's meaning, a kind. Never a value of
 * the document. */
#ifndef SRCLS_HOVER_H
#define SRCLS_HOVER_H

#include "analysis.h"
#include "schema.h"
#include "settings.h"

/* The Markdown for `offset` (allocated in `arena`) and the range it is about, or NULL. */
const char *hover_at(struct analysis *analysis, const struct schema_registry *registry,
                     const struct settings *settings, uint32_t offset, struct arena *arena,
                     uint32_t *start, uint32_t *end);

#endif
