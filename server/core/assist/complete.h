/* complete: completion at a byte offset — keys of the object the cursor is in (those not yet
 * present, ranked by what the rule engine says of them now), values of the field the cursor is
 * on (enum values with their meaning, booleans, `type` identifiers, "data:," for secrets, the
 * default, the current time for timestamps), skeletons where a whole object goes (an empty
 * document, an element of a bulk file or of an array of objects), and one item that fills in
 * every field required now; where the project templates values, its placeholders' variables.
 * Works on half-typed documents through the recovering parser. */
#ifndef SRCLS_COMPLETE_H
#define SRCLS_COMPLETE_H

#include "check/check.h"
#include "field_text.h"
#include "schema/schema.h"
#include "domain/domain.h"

enum completion_kind {
    COMPLETION_KEY,
    COMPLETION_VALUE,
    COMPLETION_ENUM,
    COMPLETION_KIND_ID,
    COMPLETION_SNIPPET, /* several members or a whole object: a skeleton, the required fields */
    COMPLETION_HINT,    /* inserts nothing: says what to do first */
};

/* Where a key stands, from what the rule engine would report now; the list is sorted in this
 * order, then in schema order. */
enum completion_rank {
    COMPLETION_RANK_REQUIRED_BY_VALUE,   /* required by a condition on a value present */
    COMPLETION_RANK_REQUIRED,            /* required always, or by a condition on defaults */
    COMPLETION_RANK_APPLICABLE_BY_VALUE, /* applies because of a value present */
    COMPLETION_RANK_OPTIONAL,
    COMPLETION_RANK_NOT_APPLICABLE, /* would get not-applicable where it stands */
};

/* A part of an item's text that the user will most likely type over: a value, or the inside of
 * a value's quotes or empty brackets. An editor that can may select it after the insertion
 * (LSP: a snippet's tab stop, numbered in the order of the item's placeholders). */
struct completion_placeholder {
    uint32_t start, end;        /* bytes of the item's text; equal: a place between two bytes */
    const char *const *choices; /* the values that fit there (an enum's strings), or NULL */
    uint32_t choice_count;
};

struct completion_item {
    const char *label;
    enum completion_kind kind;
    enum completion_rank rank; /* keys; COMPLETION_RANK_OPTIONAL for other items */
    const char *detail;        /* the type, or the kind title */
    const char *documentation; /* in the markup asked for, or NULL */
    const char *text;          /* plain text to insert */
    uint32_t start, end;       /* bytes the item replaces: the whole token under the cursor,
                                  quotes and text after the cursor included (keeping the rest of
                                  a JSON token would leave it broken: `"NONE"NE"`) */
    char sort[16];             /* sort key: the rank, then the schema order */
    struct completion_placeholder *placeholders; /* in the order of the text */
    uint32_t placeholder_count;
};

struct completion_list {
    struct completion_item *items;
    uint32_t count, cap;
    struct arena arena;
};

struct completion_options {
    enum text_markup markup; /* of the documentation */
    /* The current time as the rule engine writes a timestamp (YYYY-MM-DDTHH:MM:SS.mmmZ), offered
     * for timestamp fields; NULL (or not a timestamp): none is offered. The door reads the
     * clock, so that tests can fix the time. */
    const char *now;
    /* The variables of placeholders the door knows the project uses (its other documents),
     * offered with those of this document in a templated value (settings' "placeholders"). */
    const char *const *variables;
    uint32_t variable_count;
};

/* Fills `out` (which the caller frees with completion_list_free). `options` may be NULL
 * (Markdown, no time). Returns 0 or -1 (memory). */
int complete_at(struct analysis *analysis, const struct schema_registry *registry,
                const struct settings *settings, uint32_t offset,
                const struct completion_options *options, struct completion_list *out);
void completion_list_free(struct completion_list *list);
/* A new item at the end of `list` (in its arena) with these fields, replacing [start, end);
 * the caller sets its sort key. NULL when memory ran out (also for a NULL label or text, or a
 * list whose arena failed: a part made for the item in it may be missing). */
struct completion_item *completion_list_item(struct completion_list *list,
                                             enum completion_kind kind, const char *label,
                                             const char *text, const char *detail, const char *doc,
                                             uint32_t start, uint32_t end);

#endif
