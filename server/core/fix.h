/* fix: quick fixes for diagnostics, as byte-range edits — rename a misspelled key, add a
 * missing field with its default, encode a plaintext secret, insert the inferred `type`,
 * replace an invalid enum value, remove a field that has no effect, use the documented
 * spelling, turn "true" into true. A fix is "safe" when applying it cannot change what the
 * user meant; `--fix` and the fix-all action apply only those. */
#ifndef SRCLS_FIX_H
#define SRCLS_FIX_H

#include <stdbool.h>

#include "analysis.h"

struct text_edit {
    uint32_t start, end; /* bytes replaced */
    const char *text;    /* the replacement */
};

struct fix {
    const char *title;
    struct text_edit edit;
    bool safe;
    bool preferred;
    uint32_t diagnostic; /* index into analysis->diags */
};

struct fix_list {
    struct fix *items;
    uint32_t count;
    size_t cap; /* items allocated (vector_grow) */
    struct arena arena;
};

void fix_list_init(struct fix_list *list);
void fix_list_free(struct fix_list *list);
/* Appends the fixes of diagnostic `index`. Returns 0 or -1 (memory). */
int fix_collect(struct analysis *analysis, uint32_t index, struct fix_list *out);
/* Appends one safe fix per diagnostic, skipping any that would overlap an earlier one, sorted
 * by position. */
int fix_collect_safe(struct analysis *analysis, struct fix_list *out);
/* The fixes of one code, for the code table (codes.c): each appends the fixes of diagnostic
 * `index` to `out`, or none when the diagnostic lacks what the fix needs. 0, or -1 (memory). */
int fix_rename_key(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_documented_spelling(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_add_member(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_add_type(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_remove_member(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_enum_value(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_value_type(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_encode_secret(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_secret_base64(struct analysis *analysis, uint32_t index, struct fix_list *out);

/* Applies the edits of `fixes` (sorted, not overlapping) to `text`; returns a malloc'd buffer
 * the caller frees, or NULL when memory ran out. */
char *fix_apply(const char *text, size_t len, const struct fix_list *fixes, size_t *out_len);

#endif
