/* diagnostic: what srcls reports about a document, in byte offsets; the doors (CLI, LSP)
 * turn offsets into positions and render them. */
#ifndef SRCLS_DIAGNOSTIC_H
#define SRCLS_DIAGNOSTIC_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "codes.h"
#include "json/json.h"

struct schema_field;

/* A related place in another document, placed when that document was read (its text may be
 * gone when the finding is written): the path a door shows that document by, and the range's
 * start and end in each position encoding (indexed by enum position_encoding). */
struct diag_elsewhere {
    const char *path;
    struct text_position start[3], end[3];
};

struct diagnostic {
    enum diag_code code;
    enum diag_severity severity;
    uint32_t start, end;                 /* bytes */
    uint32_t related_start, related_end; /* UINT32_MAX when none */
    const char *related_message;         /* NULL when none */
    /* The related place is in another document (related_start and related_end UINT32_MAX);
     * NULL when it is in this one or there is none. Owned by whoever made the finding. */
    const struct diag_elsewhere *related_elsewhere;
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
