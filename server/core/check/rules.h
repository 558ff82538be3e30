/* rules: the generic rule engine. It walks a source or job document against the registry and
 * adds diagnostics; it never names a kind or a field — all it knows comes from the schema. */
#ifndef SRCLS_RULES_H
#define SRCLS_RULES_H

#include "schema/schema.h"
#include "domain/domain.h"

struct analysis;

/* Resolves the kind of each source (by `type`, else inferred from the `config` keys) and checks
 * the document. Sets analysis->kind. Returns 0, or -1 when memory ran out. */
int rules_check(struct analysis *analysis, const struct schema_registry *registry,
                const struct settings *settings);
/* Checks again element `index` (node `element`) of a bulk document, as rules_check checks each
 * element, appending its diagnostics. Returns 0, or -1 when memory ran out. */
int rules_check_element(struct analysis *analysis, const struct schema_registry *registry,
                        const struct settings *settings, uint32_t element, uint32_t index);

#endif
