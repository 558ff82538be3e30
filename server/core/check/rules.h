/* rules: the generic rule engine. It walks a source or job document against the registry and
 * adds diagnostics; it never names a kind or a field — all it knows comes from the schema. */
#ifndef SRCLS_RULES_H
#define SRCLS_RULES_H

#include "schema/schema.h"
#include "domain/domain.h"

/* What the rules check and where they write: the analysis's document, what it is, and its list
 * of diagnostics (the analysis runs the rules; the rules know nothing of the analysis). */
struct rules_target {
    struct json_doc *doc;
    enum document_kind document;
    struct diag_list *diags; /* the diagnostics are appended here */
    struct arena *arena;     /* their messages and pointers */
    const char *kind;        /* the kind's identifier for output, or NULL */
    bool values_unquoted;    /* the analysis's: messages quote no value (rendered templates) */
};

/* Resolves the kind of each source (by `type`, else inferred from the `config` keys) and checks
 * the document. Sets target->kind. Returns 0, or -1 when memory ran out. */
int rules_check(struct rules_target *target, const struct schema_registry *registry,
                const struct settings *settings);
/* Checks again element `index` (node `element`) of a bulk document, as rules_check checks each
 * element, appending its diagnostics. Returns 0, or -1 when memory ran out. */
int rules_check_element(struct rules_target *target, const struct schema_registry *registry,
                        const struct settings *settings, uint32_t element, uint32_t index);

#endif
