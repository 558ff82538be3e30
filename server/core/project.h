/* project: the project configuration, srcls.json, as a document — its settings, and its own
 * mistakes as diagnostics with ranges (syntax errors, and `project-config` at the member or
 * value concerned), so that an editor shows them where they are written. */
#ifndef SRCLS_PROJECT_H
#define SRCLS_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "complete.h"
#include "field_text.h"
#include "schema.h"
#include "settings.h"

/* The file name of a project configuration. */
#define PROJECT_FILE_NAME "srcls.json"

/* Whether `path` (or a URI) names a project configuration: its last segment is srcls.json. */
bool project_is_config(const char *path, size_t len);

/* Analyses `text` (which must outlive `out`) as a project configuration into `out` (freed with
 * analysis_free), and, when it has no mistake, reads its settings into `settings` (replacing
 * them); with a mistake `settings` is left as it was: a configuration is never half applied.
 * Returns 1 when the settings were read, 0 when the configuration has mistakes, -1 when memory
 * ran out. */
int project_analyze(struct analysis *out, const char *text, size_t len,
                    const struct schema_registry *registry, struct settings *settings);

/* The edit of a srcls.json's `text` (`len` bytes; none: a file to create) that maps the type
 * identifier `id` onto the kind type `kind_type` in its "types": bytes [*start, *end) become the
 * returned text (in `arena`). NULL when the text is not a JSON object without syntax errors,
 * when `id` is mapped already, or when memory ran out. */
const char *project_map_type(const char *text, size_t len, const char *id, const char *kind_type,
                             struct arena *arena, uint32_t *start, uint32_t *end);

/* Completion in a srcls.json analysed by project_analyze: its keys ("rules", "types"), the
 * diagnostic codes in "rules" and their severities, the kinds' types as the values of "types".
 * Fills `out` (freed with completion_list_free); 0, or -1 when memory ran out. */
int project_complete(struct analysis *analysis, const struct schema_registry *registry,
                     uint32_t offset, enum text_markup markup, struct completion_list *out);
/* Hover in a srcls.json: what "rules" and "types" hold, a code's meaning, a kind's; in `arena`,
 * with the range it is about; NULL when there is nothing to say. */
const char *project_hover(struct analysis *analysis, const struct schema_registry *registry,
                          uint32_t offset, enum text_markup markup, struct arena *arena,
                          uint32_t *start, uint32_t *end);

#endif
