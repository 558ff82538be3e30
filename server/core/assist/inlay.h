/* inlay: hints an editor shows inside the text — the kind of each source of a bulk file, the
 * kind inferred for a source without `type`, and, at the end of a config, the defaults of the
 * absent fields that other fields depend on (`isCachingEnabled: true (default)`), so that what
 * the rules assume is visible. */
#ifndef SRCLS_INLAY_H
#define SRCLS_INLAY_H

#include <stdint.h>

#include "check/check.h"
#include "schema/schema.h"
#include "domain/domain.h"

enum inlay_kind {
    INLAY_KIND,    /* what a source is: after its opening brace */
    INLAY_DEFAULT, /* an absent field's default: before the config's closing brace */
};

struct inlay_hint {
    uint32_t offset; /* where it is shown (between bytes) */
    enum inlay_kind kind;
    const char *label;   /* in the list's arena; never a document value */
    const char *tooltip; /* in the list's arena, or NULL */
};

struct inlay_list {
    struct inlay_hint *items;
    uint32_t count;
    size_t cap;
    struct arena arena;
};

/* The hints whose offset is in [from, to], in document order, into `out` (which the caller
 * frees with inlay_list_free). Returns 0, or -1 when memory ran out. */
int inlay_hints(struct analysis *analysis, const struct schema_registry *registry,
                const struct settings *settings, uint32_t from, uint32_t to,
                struct inlay_list *out);
void inlay_list_free(struct inlay_list *list);

#endif
