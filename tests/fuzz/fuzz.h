/* fuzz: what the fuzz targets share — the libFuzzer entry point they define and a check that,
 * unlike assert, stays on in every build type: a broken invariant must crash the fuzzer (and
 * fail the replay test) whether or not NDEBUG is set. */
#ifndef SRCLS_FUZZ_H
#define SRCLS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "schema/schema.h"

/* Defined by each target; called by libFuzzer or by replay_main.c, once per input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline _Noreturn void fuzz_fail(const char *condition, const char *file, int line)
{
    fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, condition);
    abort();
}

/* Checks an invariant; prints it and aborts when it does not hold. A macro only to name the
 * condition and the line. */
#define FUZZ_CHECK(condition) ((condition) ? (void)0 : fuzz_fail(#condition, __FILE__, __LINE__))

/* The built-in schema, loaded on the first call of each process (libFuzzer runs many inputs in
 * one process; loading it per input would be most of the work). */
static inline const struct schema_registry *fuzz_registry(void)
{
    static struct schema_registry registry;
    static int loaded;
    if (!loaded) {
        char error[512];
        if (schema_registry_load_embedded(&registry, error, sizeof error) != 0) {
            fprintf(stderr, "schema: %s\n", error);
            abort();
        }
        loaded = 1;
    }
    return &registry;
}

#endif
