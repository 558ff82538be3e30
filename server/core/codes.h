/* codes: the diagnostic codes of srcls — the stable contract of PRODUCT.md — with their
 * default severity and the text of `srcls --explain`. */
#ifndef SRCLS_CODES_H
#define SRCLS_CODES_H

#include "diagnostic.h"

struct code_info {
    const char *code;
    enum diag_severity severity;
    const char *summary;     /* one line */
    const char *explanation; /* what it means and how to fix it */
    const char *example;     /* a document that shows it */
};

extern const struct code_info code_table[];
extern const unsigned code_count;

/* The code's entry, or NULL. */
const struct code_info *code_find(const char *code);

#endif
