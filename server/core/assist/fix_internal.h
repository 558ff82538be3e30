/* fix_internal: what the files of the fixes share (fix.c: lists and text edits; fix_required.c:
 * missing fields; fix_value.c: values; fix_secret.c: secrets). One module split for size: its
 * files call each other through this header, the one kind of include circle allowed
 * (docs/architecture.md), and only files of assist/ include it. */
#ifndef SRCLS_FIX_INTERNAL_H
#define SRCLS_FIX_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fix.h"
#include "schema/schema.h"

/* Appends a fix of diagnostic `diagnostic`; `title` and `text` must live as long as `out`.
 * Returns 0, or -1 (memory). */
int fix__add(struct fix_list *out, uint32_t diagnostic, const char *title, uint32_t start,
             uint32_t end, const char *text, bool safe, bool preferred);

/* How members are inserted into an object: before its first member or after its last (on lines
 * of their own when that member starts one), or into its empty braces on lines of their own. */
struct fix_layout {
    uint32_t object;
    bool own_line;              /* each member on its own line */
    const char *indent;         /* the members' indent */
    uint32_t start, end;        /* the bytes replaced */
    const char *before, *after; /* around the members */
};

/* The layout of object node `object` (`at_end`: after its last member); false when it is not an
 * object. Strings in `arena`. */
bool fix__layout(struct analysis *a, uint32_t object, bool at_end, struct arena *arena,
                 struct fix_layout *layout);
/* `parts` joined by `separator`, between `before` and `after`, in `arena`; NULL when memory ran
 * out (or any of them is NULL, an earlier allocation having failed). */
char *fix__join(struct arena *arena, const char *const *parts, uint32_t count,
                const char *separator, const char *before, const char *after);
/* A fix that inserts `members` ("\"name\": value" each) as laid out. 0, or -1 (memory). */
int fix__insert(struct fix_list *out, uint32_t diagnostic, const struct fix_layout *layout,
                const char *const *members, uint32_t count, const char *title, bool safe,
                bool preferred);
/* A fix that renames the key of `member` to `name`. 0, or -1 (memory). */
int fix__rename(struct analysis *a, struct fix_list *out, uint32_t diagnostic, uint32_t member,
                const char *name, bool safe, bool preferred);
/* The range that removes member `m` with its comma and the space after it. */
void fix__member_removal(struct analysis *a, uint32_t m, uint32_t *start, uint32_t *end);
/* The node of diagnostic `d`: the one the rule engine recorded, else the node its pointer
 * names when the diagnostic covers that node's value exactly; JSON_NONE when neither. */
uint32_t fix__node(struct analysis *a, const struct diagnostic *d);
/* The JSON an added field gets: its default, its first allowed value, "data:," for a secret,
 * else the empty value of its type (which a required field still reports). */
const char *fix__value_json(const struct schema_field *field, struct arena *arena);
/* Whether `a` is `b` but for the case of ASCII letters. */
bool fix__equals_ignoring_case(struct json_str a, const char *b);
/* A schema value as JSON text (strings quoted and escaped), in `arena`. */
const char *fix__schema_value_json(const struct schema_value *value, struct arena *arena);

#endif
