/* suggest: Damerau-Levenshtein distance (optimal string alignment) over known field names. */
#include "suggest.h"

#include <ctype.h>
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

unsigned suggest_edits_allowed(size_t len)
{
    return len >= 10 ? 3 : len >= 4 ? 2 : 1;
}

const struct schema_field *suggest_field(struct json_doc *doc, const struct schema_object *schema,
                                         uint32_t object, struct json_str key, bool only_missing)
{
    const struct schema_field *best = NULL;
    unsigned best_distance = suggest_edits_allowed(key.len) + 1;
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

/* `text` in upper case into `out` (SUGGEST_MAX_LENGTH + 1 bytes); false when it is longer. */
static bool upper(const char *text, size_t len, char *out)
{
    if (len > SUGGEST_MAX_LENGTH)
        return false;
    for (size_t i = 0; i < len; i++)
        out[i] = (char)toupper((unsigned char)text[i]);
    return true;
}

bool suggest_same_but_case(struct json_str id, const char *name)
{
    size_t len = strlen(name);
    if (id.len != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (tolower((unsigned char)id.ptr[i]) != tolower((unsigned char)name[i]))
            return false;
    }
    return true;
}

const char *suggest_kind(const struct schema_registry *registry, struct json_str id, uint32_t *ties)
{
    char key[SUGGEST_MAX_LENGTH + 1], name[SUGGEST_MAX_LENGTH + 1];
    const char *best = NULL;
    const struct schema_kind *best_kind = NULL;
    unsigned best_distance = suggest_edits_allowed(id.len) + 1;
    *ties = 0;
    if (!upper(id.ptr, id.len, key))
        return NULL;
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        for (uint32_t t = 0; t < kind->type_count; t++) {
            size_t len = strlen(kind->types[t]);
            if (!upper(kind->types[t], len, name))
                continue;
            unsigned d = suggest_distance(key, id.len, name, len);
            if (d < best_distance) {
                best_distance = d;
                best = kind->types[t];
                best_kind = kind;
                *ties = 0;
            } else if (best != NULL && d == best_distance && best_kind != kind) {
                (*ties)++;
            }
        }
    }
    return best;
}
