/* rules: the generic rule engine. It walks a source or job document against the registry and
 * adds diagnostics; it never names a kind or a field — all it knows comes from the schema. */
#ifndef SRCLS_RULES_H
#define SRCLS_RULES_H

#include "analysis.h"
#include "schema.h"
#include "settings.h"

/* Resolves the kind of each source (by `type`, else inferred from the `config` keys) and checks
 * the document. Sets analysis->kind. Returns 0, or -1 when memory ran out. */
int rules_check(struct analysis *analysis, const struct schema_registry *registry,
                const struct settings *settings);

/* The kind of the source object `source` (by its `type`, a settings mapping, or inference
 * when the inference is unique), or NULL. For editor features. */
const struct schema_kind *rules_source_kind(struct json_doc *doc, uint32_t source,
                                            const struct schema_registry *registry,
                                            const struct settings *settings);

/* Writes `condition` in words into `out` ("\"credentialType\" is ACCESS_KEY"). */
void rules_describe_condition(const struct schema_condition *condition, char *out, size_t size);

/* The default severity of a diagnostic code (codes.c). */
enum diag_severity rules_default_severity(const char *code);

#endif
