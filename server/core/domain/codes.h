/* codes: the diagnostic codes (enum diag_code) and their table — one row per code with
 * its name, default severity and the text of `srcls --explain`. Which fix a code has is the fix
 * module's table (assist/fix.c). */
#ifndef SRCLS_CODES_H
#define SRCLS_CODES_H

#include <stdbool.h>
#include <stdint.h>

/* From most to least severe; off (zero) is not reported at all. */
enum diag_severity {
    DIAG_OFF,
    DIAG_ERROR,
    DIAG_WARNING,
    DIAG_INFORMATION,
    DIAG_HINT,
};

/* The diagnostic codes: a stable contract (docs/rules.md is generated from them). Each has one
 * row in the table of codes.c (name, default severity, texts), in this order; code_name()
 * gives the name the doors print ("json-syntax"). */
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
    CODE_PLAINTEXT_CREDENTIAL,
    CODE_DUPLICATE_NAME,
    CODE_COUNT
};

struct code_info {
    const char *name; /* as the doors print it: "json-syntax" */
    enum diag_severity severity;
    const char *summary;     /* one line */
    const char *explanation; /* what it means and how to fix it */
    const char *example;     /* a document that shows it */
    bool unnecessary;        /* it marks text that has no effect (editors may fade it) */
    const char *group;       /* the group name that sets it with others ("security"), or NULL */
    /* In the security group: GitHub's "security-severity" in SARIF, a number 0.0-10.0 written
     * as a string (9.0 and up critical, 7.0 high, 4.0 medium, below low). */
    const char *security_severity;
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
