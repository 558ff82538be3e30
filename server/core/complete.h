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

/* The part of a key item's text that the user will most likely type over: its value, or the
 * inside of the value's quotes or empty brackets. An editor that can may select it after the
 * insertion (LSP: a snippet's placeholder). */
struct completion_placeholder {
    uint32_t start, end;        /* bytes of the item's text; equal: a place between two bytes */
    const char *const *choices; /* the values that fit there (an enum's strings), or NULL */
    uint32_t choice_count;
};

struct completion_item {
    const char *label;
    enum completion_kind kind;
    const char *detail;        /* the type, or the kind title */
    const char *documentation; /* Markdown, or NULL */
    const char *text;          /* plain text to insert */
    uint32_t start, end;       /* bytes the insertion replaces */
    char sort[16];             /* sort key: required keys first, then in schema order */
    bool has_placeholder;      /* a key inserted with its value has one */
    struct completion_placeholder placeholder;
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
