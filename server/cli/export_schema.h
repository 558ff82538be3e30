/* export_schema: `srcls --export-json-schema DIR`, the registry written as JSON Schema (draft
 * 2020-12) files for other tools: one per type identifier, one for any source (and bulk
 * arrays), one for bulk files, one for jobs, and an index (docs/json-schema.md). A pure function
 * of the registry it is given, so a registry with more kinds exports them too. */
#ifndef SRCLS_EXPORT_SCHEMA_H
#define SRCLS_EXPORT_SCHEMA_H

#include <stdio.h>

#include "placeholder.h"
#include "schema.h"

/* Writes the schema files of `registry` into `dir` (created, with its parents, when missing).
 * Returns 0, or 2 after saying on `err` which file could not be written and why (files written
 * before it stay). */
int export_json_schema(const struct schema_registry *registry, const char *dir, FILE *err);
/* The same for a project that templates values (srcls.json "placeholders"): a string holding one
 * of `placeholders` is accepted wherever a field takes a string, and every file's "$comment"
 * says so. */
int export_json_schema_templated(const struct schema_registry *registry,
                                 const struct placeholder_pattern *placeholders,
                                 uint32_t placeholder_count, const char *dir, FILE *err);

#endif
