/* reference: srcls as a reference — `--list-kinds`, `--explain CODE`, and the generated
 * docs/kinds.md and docs/rules.md (`--generate-docs kinds|rules`), all from the registry and
 * the code table so they never drift from what the linter does. */
#ifndef SRCLS_REFERENCE_H
#define SRCLS_REFERENCE_H

#include <stdio.h>

#include "schema/schema.h"

void reference_list_kinds(const struct schema_registry *registry, FILE *out);
/* The same as JSON, for scripts and editor extensions: {"kinds": [{"number", "types", "title",
 * "description"}], "job": {"title"}}. Returns 0, or 2 when memory ran out. */
int reference_list_kinds_json(const struct schema_registry *registry, FILE *out);
/* Returns 0, or 2 when the code is unknown (with the known codes on stderr). */
int reference_explain(const char *name, FILE *out);
void reference_docs_kinds(const struct schema_registry *registry, FILE *out);
void reference_docs_rules(FILE *out);

#endif
