/* reference: srcls as a reference — `--list-kinds`, `--explain CODE`, the generated
 * docs/kinds.md and docs/rules.md (`--generate-docs kinds|rules`) and the code list of the man
 * page (`--generate-docs man-codes`), all from the registry and the code table so they never
 * drift from what the linter does. */
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
/* The code list of docs/man/srcls.1 (a roff paragraph per code: name, severity, group, summary),
 * the text between its "BEGIN srcls --generate-docs man-codes" and "END" lines. (The code lists
 * of the bash completion: options_docs_completion.) */
void reference_docs_man_codes(FILE *out);
/* The formats --list-kinds takes (the completion offers them after --list-kinds). */
#define REFERENCE_LIST_KINDS_FORMATS "text json"

#endif
