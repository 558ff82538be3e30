/* suggest: Damerau-Levenshtein distance (optimal string alignment) over known field names. */
#include "suggest.h"

#include <string.h>

#include "schema_at.h"

unsigned suggest_distance(const char *a, size_t la, const char *b, size_t lb)
{
    if (la > SUGGEST_MAX_LENGTH || lb > SUGGEST_MAX_LENGTH)
        return SUGGEST_TOO_FAR;
    unsigned d[SUGGEST_MAX_LENGTH + 1][SUGGEST_MAX_LENGTH + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            char x = a[i - 1], y = b[j - 1];
            unsigned cost = x == y ? 0 : 1;
            unsigned best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && x == b[j - 2] && a[i - 2] == y && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

/* Short names allow fewer edits, or every short key would look like a typo of another. */
static unsigned edits_allowed(size_t len)
{
    return len >= 10 ? 3 : len >= 4 ? 2 : 1;
}

const struct schema_field *suggest_field(struct json_doc *doc, const struct schema_object *schema,
                                         uint32_t object, struct json_str key, bool only_missing)
{
    const struct schema_field *best = NULL;
    unsigned best_distance = edits_allowed(key.len) + 1;
    for (uint32_t i = 0; i < schema->field_count; i++) {
        const struct schema_field *f = &schema->fields[i];
        if (only_missing && schema_at_field_member(doc, object, f) != JSON_NONE)
            continue;
        unsigned d = suggest_distance(key.ptr, key.len, f->name, strlen(f->name));
        if (d < best_distance) {
            best_distance = d;
            best = f;
        }
    }
    return best;
}
