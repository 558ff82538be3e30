/* codes: the table of diagnostic codes (enum diag_code, diagnostic.h) — one row per code with
 * its name, default severity, the text of `srcls --explain` and the fix function, if any. */
#ifndef SRCLS_CODES_H
#define SRCLS_CODES_H

#include <stdbool.h>
#include <stdint.h>

#include "diagnostic.h"

struct analysis;
struct fix_list;

/* Appends the fixes of diagnostic `index` of `analysis` to `out`; returns 0 or -1 (memory). */
typedef int code_fix_function(struct analysis *analysis, uint32_t index, struct fix_list *out);

struct code_info {
    const char *name; /* as the doors print it: "json-syntax" */
    enum diag_severity severity;
    const char *summary;     /* one line */
    const char *explanation; /* what it means and how to fix it */
    const char *example;     /* a document that shows it */
    code_fix_function *fix;  /* NULL when the code has no quick fix */
    bool unnecessary;        /* it marks text that has no effect (editors may fade it) */
    const char *group;       /* the group name that sets it with others ("security"), or NULL */
};

/* The row of `code`; `code` must be below CODE_COUNT. */
const struct code_info *code_info(enum diag_code code);
/* The name of `code`, or NULL when it is not a code. */
const char *code_name(enum diag_code code);
/* The code named `name`, or -1. */
int code_parse(const char *name);
/* The group of the posture codes (risky settings): one name for all of them in srcls.json
 * "rules" and --select/--ignore. */
#define CODE_GROUP_SECURITY "security"

/* Whether `name` is a group of codes (CODE_GROUP_SECURITY). */
bool code_group_known(const char *name);
/* Whether `code` belongs to the group `name`. */
bool code_in_group(enum diag_code code, const char *name);

#endif
