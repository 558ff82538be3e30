/* analysed: the built-in kinds loaded once per test program, and documents analysed for the
 * feature tests (test_features, test_complete, test_fixes): an exact-size heap copy of the text (so
 * that AddressSanitizer sees a read past it), its analysis with the registry the test loaded, and
 * lookups of its diagnostics that print them all when the one asked for is not there. */
#ifndef SRCLS_TESTS_ANALYSED_H
#define SRCLS_TESTS_ANALYSED_H

#include <stddef.h>
#include <stdint.h>

#include "check/check.h"
#include "schema/schema.h"

/* The registry documents are analysed with: set it in the test program's setup. */
extern const struct schema_registry *analysed_registry;
/* The built-in kinds, loaded by analysed_setup (which points analysed_registry at them) and
 * freed by analysed_teardown: the group setup and teardown of most unit tests. */
extern struct schema_registry analysed_schema;
int analysed_setup(void **state);
int analysed_teardown(void **state);

struct analysed {
    char *text; /* exact-size heap copy, NUL-terminated */
    size_t len;
    struct analysis a;
};

void analyse_n(struct analysed *d, const char *text, size_t len);
void analyse(struct analysed *d, const char *text);
/* Analyses `marked` without its one '|', and returns the byte offset the '|' stood at. */
uint32_t analyse_at(struct analysed *d, const char *marked);
void analysed_free(struct analysed *d);

void print_diagnostics(const struct analysed *d);
/* The diagnostics of `text` (analysed with `registry`, as a file named on the command line) as
 * "code pointer" lines in the analysis's order; malloc'd, freed by the caller. */
char *diagnostic_lines(const struct schema_registry *registry, const char *text);
/* The index of the diagnostic `code` at `pointer`, or -1. */
int diagnostic_index(const struct analysed *d, const char *code, const char *pointer);
/* The same, failing the test (after printing every diagnostic) when there is none. */
uint32_t diagnostic_at(const struct analysed *d, const char *code, const char *pointer);
void assert_no_diagnostic(const struct analysed *d, const char *code, const char *pointer);
/* How many diagnostics of `d` are about validity: those outside the posture codes (the
 * "security" group, information by default), which the feature tests' minimal documents have. */
uint32_t validity_count(const struct analysed *d);

#endif
