/* project: the project configuration, srcls.json, as a document — its settings, and its own
 * mistakes as diagnostics with ranges (syntax errors, and `project-config` at the member or
 * value concerned), so that an editor shows them where they are written. */
#ifndef SRCLS_PROJECT_H
#define SRCLS_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
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

#endif
