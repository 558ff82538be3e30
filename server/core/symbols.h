/* symbols: the document's outline — members with their children, the config labelled with
 * its kind. Kinds are LSP SymbolKind numbers. */
#ifndef SRCLS_SYMBOLS_H
#define SRCLS_SYMBOLS_H

#include "analysis.h"
#include "schema.h"
#include "settings.h"

struct symbol {
    const char *name;
    const char *detail; /* NULL when none; never a value of a secret */
    int kind;
    uint32_t start, end;                     /* the whole member */
    uint32_t selection_start, selection_end; /* its key (or the value for elements) */
    struct symbol *children;
    uint32_t child_count;
};

/* The outline of the document (in `arena`); `count` receives the number of top symbols. */
struct symbol *symbols_of(struct analysis *analysis, const struct schema_registry *registry,
                          const struct settings *settings, struct arena *arena, uint32_t *count);

#endif
