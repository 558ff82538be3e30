/* navigation: folds and selection ranges, from the tree and the line index. */
#include "navigation.h"

#include <stdlib.h>

#include "json/json.h"
#include "base/base.h"

static uint32_t line_of(const struct analysis *a, uint32_t offset)
{
    return line_index_position(&a->lines, offset, POSITION_UTF8).line;
}

static unsigned depth_of(const struct json_doc *doc, uint32_t node)
{
    unsigned depth = 0;
    for (uint32_t p = doc->nodes[node].parent; p != JSON_NONE; p = doc->nodes[p].parent)
        depth++;
    return depth;
}

/* The depth at which folds are kept so that at most `max` are: the smallest depth whose folds
 * and all shallower ones number more than `max`, minus one level. */
static unsigned depth_limit(const struct json_doc *doc, const uint32_t *folded, uint32_t count,
                            uint32_t max)
{
    enum { LEVELS = 64 };
    uint32_t per_depth[LEVELS] = {0};
    for (uint32_t i = 0; i < count; i++) {
        unsigned d = depth_of(doc, folded[i]);
        per_depth[d < LEVELS ? d : LEVELS - 1]++;
    }
    uint32_t total = 0;
    for (unsigned d = 0; d < LEVELS; d++) {
        if (total + per_depth[d] > max)
            return d; /* keep depths < d */
        total += per_depth[d];
    }
    return LEVELS;
}

int64_t navigation_folds(const struct analysis *a, uint32_t max, struct byte_range **out)
{
    const struct json_doc *doc = &a->doc;
    uint32_t *folded = NULL, count = 0;
    size_t cap = 0;
    *out = NULL;
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const struct json_node *n = &doc->nodes[i];
        if ((n->kind != JSON_OBJECT && n->kind != JSON_ARRAY) || n->end <= n->start + 1 ||
            line_of(a, n->start) == line_of(a, n->end - 1))
            continue;
        uint32_t *grown = vector_grow(folded, &cap, (size_t)count + 1, sizeof *grown);
        if (grown == NULL) {
            free(folded);
            return -1;
        }
        folded = grown;
        folded[count++] = i;
    }
    unsigned limit = count > max ? depth_limit(doc, folded, count, max) : UINT32_MAX;
    struct byte_range *ranges = malloc((size_t)(count ? count : 1) * sizeof *ranges);
    if (ranges == NULL) {
        free(folded);
        return -1;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count && kept < max; i++) {
        if (limit != UINT32_MAX && depth_of(doc, folded[i]) >= limit)
            continue;
        const struct json_node *n = &doc->nodes[folded[i]];
        ranges[kept++] = (struct byte_range){n->start, n->end};
    }
    free(folded);
    *out = ranges;
    return kept;
}

/* Appends [start, end) when it is larger than the last range kept. */
static void grow(struct byte_range *out, uint32_t *count, uint32_t max, uint32_t start,
                 uint32_t end)
{
    if (*count == max || end < start)
        return;
    if (*count > 0) {
        const struct byte_range *last = &out[*count - 1];
        if (start > last->start || end < last->end || (start == last->start && end == last->end))
            return;
    }
    out[(*count)++] = (struct byte_range){start, end};
}

/* The member or element `node` as ranges: its string's text when the cursor is in it, the
 * value, then key and value together. */
static void grow_node(const struct json_doc *doc, uint32_t node, uint32_t offset,
                      struct byte_range *out, uint32_t *count, uint32_t max)
{
    const struct json_node *n = &doc->nodes[node];
    if (n->kind == JSON_STRING && n->end >= n->start + 2 && offset > n->start && offset < n->end)
        grow(out, count, max, n->start + 1, n->end - 1);
    grow(out, count, max, n->start, n->end);
    if (n->key_start != JSON_NONE)
        grow(out, count, max, n->key_start, n->end);
}

uint32_t navigation_selection(const struct analysis *a, uint32_t offset, struct byte_range *out,
                              uint32_t max)
{
    const struct json_doc *doc = &a->doc;
    uint32_t count = 0;
    struct json_location at = json_locate(doc, offset);
    if (at.kind == JSON_LOCATION_NONE || at.node == JSON_NONE) {
        if (doc->root != JSON_NONE)
            grow(out, &count, max, doc->nodes[doc->root].start, doc->nodes[doc->root].end);
        return count;
    }
    uint32_t node = at.node;
    const struct json_node *n = &doc->nodes[node];
    if (at.kind == JSON_LOCATION_KEY) {
        if (n->key_end >= n->key_start + 2 && offset > n->key_start && offset < n->key_end &&
            !(n->flags & JSON_FLAG_KEY_BARE))
            grow(out, &count, max, n->key_start + 1, n->key_end - 1);
        grow(out, &count, max, n->key_start, n->key_end);
        grow(out, &count, max, n->key_start, n->end);
    } else if (at.kind == JSON_LOCATION_VALUE || at.kind == JSON_LOCATION_AFTER_KEY) {
        grow_node(doc, node, offset, out, &count, max);
    } else {
        grow(out, &count, max, n->start, n->end); /* between members or elements */
        if (n->key_start != JSON_NONE)
            grow(out, &count, max, n->key_start, n->end);
    }
    for (uint32_t p = n->parent; p != JSON_NONE; p = doc->nodes[p].parent)
        grow_node(doc, p, offset, out, &count, max);
    return count;
}
