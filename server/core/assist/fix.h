/* fix: quick fixes for diagnostics, as byte-range edits — rename a misspelled key, add a
 * missing field (with its default, its first allowed value, or an empty value that stays an
 * error), add every missing required field at once, encode a plaintext secret, insert the
 * inferred `type`, change an unknown `type` to the nearest kind, replace an invalid enum value,
 * clamp a number to its bound, remove a field that has no effect, remove the earlier of two
 * duplicate keys, delete a trailing comma, use the documented spelling, turn "true" into true,
 * and what a job's assertion expects. A fix is "safe" when applying it cannot change what the
 * user meant; `--fix` and the fix-all action apply only those. Every fix leaves valid JSON.
 * Files: fix.c (lists, text edits, collection), fix_secret.c (secrets), fix_required.c (missing
 * fields and the renames that supply them), fix_value.c (values: bounds, kinds, assertions). */
#ifndef SRCLS_FIX_H
#define SRCLS_FIX_H

#include <stdbool.h>

#include "check/check.h"

struct text_edit {
    uint32_t start, end; /* bytes replaced */
    const char *text;    /* the replacement */
};

struct fix {
    const char *title;
    struct text_edit edit;
    bool safe;
    /* Unsafe: right in form, but it keeps a secret in the file (encoding a bare plaintext
     * secret): --fix applies it only with --unsafe-fixes, fix-all never, and it is not
     * preferred. The fix table of codes (fix.c) says which codes' fixes are. */
    bool unsafe;
    bool preferred;
    uint32_t diagnostic; /* index into analysis->diags */
    /* A fix that adds every missing field of an object: that object node (the missing-field
     * diagnostics of it are all resolved by this one fix), else JSON_NONE. */
    uint32_t covers;
};

struct fix_list {
    struct fix *items;
    uint32_t count;
    size_t cap; /* items allocated (vector_grow) */
    struct arena arena;
};

void fix_list_init(struct fix_list *list);
void fix_list_free(struct fix_list *list);
/* A code's fix: appends the fixes of diagnostic `index` of `analysis` to `out`; 0 or -1. */
typedef int fix_function(struct analysis *analysis, uint32_t index, struct fix_list *out);
/* Appends the fixes of diagnostic `index`. Returns 0 or -1 (memory). */
int fix_collect(struct analysis *analysis, uint32_t index, struct fix_list *out);
/* Appends one safe fix per diagnostic, skipping any that would overlap an earlier one, sorted
 * by position; unsafe ones only when `unsafe`, else their number into `*hidden` (when not
 * NULL). */
int fix_collect_safe(struct analysis *analysis, struct fix_list *out, bool unsafe,
                     uint32_t *hidden);
/* The fixes of one code, for the fix module's table of codes (fix.c): each appends the fixes of
 * diagnostic `index` to `out`, or none when the diagnostic lacks what the fix needs. 0, or -1
 * (memory). */
int fix_rename_key(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_documented_spelling(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_add_member(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_add_type(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_remove_member(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_enum_value(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_value_type(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_encode_secret(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_secret_base64(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_remove_duplicate(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_syntax(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_nearest_kind(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_clamp(struct analysis *analysis, uint32_t index, struct fix_list *out);
int fix_assertion(struct analysis *analysis, uint32_t index, struct fix_list *out);

/* One more round of safe fixes on `*text` (`*len` bytes, malloc'd), whose analysis with
 * `options` is `*analysis`: fixes can uncover fixes (a misspelled key renamed, its value is then
 * checked as that field's). When the round finds some and its result analyses without syntax
 * errors, `*text` (the old one freed), `*len` and `*analysis` are replaced and the number of
 * fixes applied is returned; otherwise nothing changes and it returns 0 (nothing to fix), or
 * UINT32_MAX when memory ran out (the fixes so far are not all there are: a file must not be
 * written with them). `unsafe` and `*hidden`: as fix_collect_safe's, for this round. */
uint32_t fix_round(struct analysis *analysis, char **text, size_t *len,
                   const struct analysis_options *options, bool unsafe, uint32_t *hidden);

/* Applies the edits of `fixes` (sorted, not overlapping) to `text`; returns a malloc'd buffer
 * the caller frees, or NULL when memory ran out. */
char *fix_apply(const char *text, size_t len, const struct fix_list *fixes, size_t *out_len);

#endif
