/* reference: srcls as a reference — `--list-kinds`, `--explain CODE`, the generated
 * docs/kinds.md and docs/rules.md (`--generate-docs kinds|rules`) and the code lists of the man
 * page and the bash completion (`--generate-docs man-codes|completion-codes`), all from the
 * registry and the code table so they never drift from what the linter does. */
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
/* The code lists of docs/man/srcls.1 (a roff paragraph per code: name, severity, group, summary)
 * and editors/shell/srcls.bash (the lines that set `codes` for --explain, --select and --ignore),
 * each the text between the file's "BEGIN srcls --generate-docs WHAT" and "END" lines. */
void reference_docs_man_codes(FILE *out);
void reference_docs_completion_codes(FILE *out);
/* The bash completion's --format values: the formats of --check, those of --list-kinds
 * (REFERENCE_LIST_KINDS_FORMATS) after --list-kinds. */
void reference_docs_completion_formats(FILE *out);
/* The formats --list-kinds takes. */
#define REFERENCE_LIST_KINDS_FORMATS "text json"

#endif
