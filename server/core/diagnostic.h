/* diagnostic: what srcls reports about a document, in byte offsets; the doors (CLI, LSP)
 * turn offsets into positions and render them. */
#ifndef SRCLS_DIAGNOSTIC_H
#define SRCLS_DIAGNOSTIC_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

struct schema_field;

/* From most to least severe; off (zero) is not reported at all. */
enum diag_severity {
    DIAG_OFF,
    DIAG_ERROR,
    DIAG_WARNING,
    DIAG_INFORMATION,
    DIAG_HINT,
};

/* The diagnostic codes: the stable contract of PRODUCT.md. Each has one row in the table of
 * codes.c (name, default severity, texts, fix), in this order; code_name() gives the name the
 * doors print ("json-syntax"). */
enum diag_code {
    CODE_JSON_SYNTAX,
    CODE_DUPLICATE_KEY,
    CODE_UNKNOWN_DOCUMENT,
    CODE_UNKNOWN_KIND,
    CODE_KIND_INFERRED,
    CODE_UNKNOWN_FIELD,
    CODE_ALTERNATE_SPELLING,
    CODE_TYPE_MISMATCH,
    CODE_MISSING_REQUIRED,
    CODE_CONDITIONAL_REQUIRED,
    CODE_NOT_APPLICABLE,
    CODE_INVALID_ENUM,
    CODE_OUT_OF_RANGE,
    CODE_INVALID_FORMAT,
    CODE_SECRET_NOT_ENCODED,
    CODE_SECRET_NEEDS_BASE64,
    CODE_INVALID_BASE64,
    CODE_JOB_INCONSISTENT,
    CODE_PROJECT_CONFIG,
    CODE_INSECURE_TRANSPORT,
    CODE_UNVERIFIED_CERTIFICATE,
    CODE_ANONYMOUS_ACCESS,
    CODE_UNRESTRICTED_SCOPE,
    CODE_INLINE_SECRET,
    CODE_RISKY_CHANGE,
    CODE_UNSET_VARIABLE,
    CODE_COUNT
};

struct diagnostic {
    enum diag_code code;
    enum diag_severity severity;
    uint32_t start, end;                 /* bytes */
    uint32_t related_start, related_end; /* UINT32_MAX when none */
    const char *related_message;         /* NULL when none */
    const char *message;
    const char *pointer; /* RFC 6901 */
    /* What the fixes need (set by the rule engine; JSON_NONE / NULL when not applicable): */
    uint32_t node;                    /* the member, element or object concerned */
    const struct schema_field *field; /* its schema field */
    const char *suggestion;           /* a name or identifier the fix would write */
};

struct diag_list {
    struct diagnostic *items;
    uint32_t count;
    size_t cap; /* items allocated (vector_grow) */
};

/* Appends a copy of `diag` (its strings must live as long as the list's owner); returns 0 or
 * -1 when out of memory. */
int diag_list_add(struct diag_list *list, const struct diagnostic *diag);
void diag_list_free(struct diag_list *list);
/* Sorts by start offset, then end offset, code name, message and pointer: a total order, so
 * that output order never depends on the order the rules reported in. */
void diag_list_sort(struct diag_list *list);
/* The same for the items from `first` on. */
void diag_list_sort_from(struct diag_list *list, uint32_t first);

const char *diag_severity_name(enum diag_severity severity);
/* Parses "error", "warning", "information" (or "info"), "hint", "off"; -1 when unknown. */
int diag_severity_parse(const char *name);

#endif
