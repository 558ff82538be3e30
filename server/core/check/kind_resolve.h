/* kind_resolve: which kind a source object is — by its `type` identifier (the kinds' own, then a
 * project's mappings), or inferred from its `config` keys. The rule engine reports what it
 * finds; editor features ask for the kind of the source under the cursor. */
#ifndef SRCLS_KIND_RESOLVE_H
#define SRCLS_KIND_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* The kind with identifier `id`: a kind's own identifier, else a settings mapping; or NULL. */
const struct schema_kind *kind_resolve_id(const struct schema_registry *registry,
                                          const struct settings *settings, struct json_str id);

/* The kinds whose fields fit the keys of the object `config` best (docs/readings.md, "Kind
 * inference": a kind scores +1 for each key it defines, -1 for each it does not). Returns how
 * many tie for the best score, writing the first `capacity` of them to `best`; 0 when no kind
 * defines any key. */
uint32_t kind_resolve_infer(struct json_doc *doc, const struct schema_registry *registry,
                            uint32_t config, const struct schema_kind **best, uint32_t capacity);

/* The kind of the source object `source` (by its `type`, a settings mapping, or inference when
 * the inference is unique), or NULL. */
const struct schema_kind *kind_resolve_source(struct json_doc *doc, uint32_t source,
                                              const struct schema_registry *registry,
                                              const struct settings *settings);

#endif
