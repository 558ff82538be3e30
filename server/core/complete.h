/* complete: completion at a byte offset — keys of the object the cursor is in (those not yet
 * present, required first), values of the field the cursor is on (enum values with their
 * meaning, booleans, `type` identifiers, "data:," for secrets, the default). Works on
 * half-typed documents through the recovering parser. */
#ifndef SRCLS_COMPLETE_H
#define SRCLS_COMPLETE_H

#include "analysis.h"
#include "schema.h"
#include "settings.h"

enum completion_kind {
    COMPLETION_KEY,
    COMPLETION_VALUE,
    COMPLETION_ENUM,
    COMPLETION_KIND_ID,
};

struct completion_item {
    const char *label;
    enum completion_kind kind;
    const char *detail;        /* the type, or the kind title */
    const char *documentation; /* Markdown, or NULL */
    const char *text;          /* plain text to insert */
    const char *snippet;       /* the same with tab stops (${1:default}), or NULL */
    uint32_t start, end;       /* bytes the insertion replaces */
    char sort[16];             /* sort key: required keys first, then in schema order */
};

struct completion_list {
    struct completion_item *items;
    uint32_t count, cap;
    struct arena arena;
};

/* Fills `out` (which the caller frees with completion_list_free). Returns 0 or -1 (memory). */
int complete_at(struct analysis *analysis, const struct schema_registry *registry,
                const struct settings *settings, uint32_t offset, struct completion_list *out);
void completion_list_free(struct completion_list *list);

/* Markdown that describes a field: type, when it is required, default, bounds, values,
 * description. Shared with hover. Allocated in `arena`. */
const char *complete_field_markdown(const struct schema_field *field, struct arena *arena);

#endif
