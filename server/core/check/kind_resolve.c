/* kind_resolve: lookup by identifier and inference from the config keys. */
#include "kind_resolve.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "domain/domain.h"

const struct schema_kind *kind_resolve_id(const struct schema_registry *registry,
                                          const struct settings *settings, struct json_str id)
{
    const struct schema_kind *kind = schema_find_kind(registry, id.ptr, id.len);
    const char *mapped = kind ? NULL : settings_type(settings, id.ptr, id.len);
    if (mapped != NULL)
        kind = schema_find_kind(registry, mapped, strlen(mapped));
    return kind;
}

/* The best score wins whatever its sign, so keys no kind defines (which cost every kind the
 * same) do not stop a kind from being recognised. A recovered key (JSON_FLAG_KEY_RECOVERED)
 * counts only when the kind defines it, as the rule engine checks it only then. */
static bool score_kind(struct json_doc *doc, const struct schema_kind *kind, uint32_t config,
                       int *score)
{
    bool defines_one = false;
    *score = 0;
    for (uint32_t m = doc->nodes[config].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        bool known = schema_object_field(&kind->config, key.ptr, key.len) ||
                     schema_object_alias(&kind->config, key.ptr, key.len);
        if (!known && (doc->nodes[m].flags & JSON_FLAG_KEY_RECOVERED))
            continue;
        *score += known ? 1 : -1;
        defines_one |= known;
    }
    return defines_one;
}

uint32_t kind_resolve_infer(struct json_doc *doc, const struct schema_registry *registry,
                            uint32_t config, const struct schema_kind **best, uint32_t capacity)
{
    int best_score = INT_MIN;
    uint32_t count = 0;
    if (config == JSON_NONE || doc->nodes[config].kind != JSON_OBJECT)
        return 0;
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        int score;
        if (!score_kind(doc, kind, config, &score) || score < best_score)
            continue;
        if (score > best_score) {
            best_score = score;
            count = 0;
        }
        if (count < capacity)
            best[count] = kind;
        count++;
    }
    return count;
}

const struct schema_kind *kind_resolve_source(struct json_doc *doc, uint32_t source,
                                              const struct schema_registry *registry,
                                              const struct settings *settings)
{
    uint32_t type = envelope_type(doc, source);
    if (type != JSON_NONE && doc->nodes[type].kind == JSON_STRING) {
        const struct schema_kind *kind =
            kind_resolve_id(registry, settings, json_node_string(doc, type));
        if (kind != NULL)
            return kind;
    }
    /* Two are enough to tell a unique inference from a tie. */
    const struct schema_kind *best[2];
    uint32_t count = kind_resolve_infer(doc, registry, envelope_config(doc, source), best, 2);
    return count == 1 ? best[0] : NULL;
}
