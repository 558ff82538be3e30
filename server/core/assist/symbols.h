/* symbols: the document's outline — members with their children, the config labelled with
 * its kind. */
#ifndef SRCLS_SYMBOLS_H
#define SRCLS_SYMBOLS_H

#include "check/check.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* What a symbol is: the JSON type of its value, or a source's config of a known kind. */
enum symbol_kind {
    SYMBOL_KIND_OBJECT,
    SYMBOL_KIND_ARRAY,
    SYMBOL_KIND_STRING,
    SYMBOL_KIND_NUMBER,
    SYMBOL_KIND_BOOLEAN,
    SYMBOL_KIND_NULL,
    SYMBOL_KIND_INVALID, /* a missing or malformed value */
    SYMBOL_KIND_CONFIG,  /* the config object of a source whose kind is known (in `detail`) */
};

struct symbol {
    const char *name;
    const char *detail; /* NULL when none; never a value of a secret */
    enum symbol_kind kind;
    uint32_t start, end;                     /* the whole member */
    uint32_t selection_start, selection_end; /* its key (or the value for elements) */
    struct symbol *children;
    uint32_t child_count;
};

/* The outline of the document (in `arena`); `count` receives the number of top symbols. */
struct symbol *symbols_of(struct analysis *analysis, const struct schema_registry *registry,
                          const struct settings *settings, struct arena *arena, uint32_t *count);

#endif
