/* duplicate_names: duplicate-name within one bulk document, and across documents (see
 * duplicate_names.h). */
#include "duplicate_names.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "domain/domain.h"
#include "json/json.h"

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

bool duplicate_names_equal(struct json_str a, struct json_str b)
{
    if (a.len != b.len)
        return false;
    for (size_t i = 0; i < a.len; i++) {
        if (lower((unsigned char)a.ptr[i]) != lower((unsigned char)b.ptr[i]))
            return false;
    }
    return true;
}

uint64_t duplicate_names_hash(struct json_str name)
{
    return hash_slot_lower(name.ptr, name.len);
}

uint32_t duplicate_names_node(struct json_doc *doc, uint32_t element)
{
    if (doc->nodes[element].kind != JSON_OBJECT)
        return JSON_NONE;
    uint32_t node = json_object_get(doc, element, JSON_LITERAL(ENVELOPE_NAME));
    return node != JSON_NONE && doc->nodes[node].kind == JSON_STRING ? node : JSON_NONE;
}

/* Reports the name `node` (of element `index`) as a duplicate of `first`. */
static int report(struct analysis *a, uint32_t node, uint32_t index, uint32_t first,
                  uint32_t first_index)
{
    struct json_doc *doc = &a->doc;
    struct json_str name = json_node_string(doc, node);
    struct diagnostic d = {
        .code = CODE_DUPLICATE_NAME,
        .severity = code_info(CODE_DUPLICATE_NAME)->severity,
        .start = doc->nodes[node].start,
        .end = doc->nodes[node].end,
        .related_start = doc->nodes[first].start,
        .related_end = doc->nodes[first].end,
        .related_message =
            arena_printf(&a->arena, "the source at index %u has the name first", first_index),
        .message = arena_printf(&a->arena,
                                "the name \"%.*s\" is taken by an earlier source of this file "
                                "(index %u): the catalog and SQL know a source by its name",
                                (int)name.len, name.ptr, first_index),
        .pointer = arena_printf(&a->arena, "/%u/" ENVELOPE_NAME, index),
        .node = node,
    };
    if (d.related_message == NULL || d.message == NULL || d.pointer == NULL)
        return -1;
    return diag_list_add(&a->diags, &d);
}

/* A table of the names of one bulk document: open addressing, sized for its elements. */
struct name_slot {
    struct json_str name;
    uint32_t node, index; /* node JSON_NONE: empty */
};

struct name_table {
    struct name_slot *slots;
    size_t size;
};

static int table_init(struct name_table *t, uint32_t count)
{
    t->size = 16;
    while (t->size < 2 * (size_t)count)
        t->size *= 2;
    t->slots = malloc(t->size * sizeof *t->slots);
    if (t->slots == NULL)
        return -1;
    for (size_t i = 0; i < t->size; i++)
        t->slots[i].node = JSON_NONE;
    return 0;
}

/* The slot of the name of `node` (element `index`, its name's hash `hash`): the earlier one of
 * a clashing name, or a new one that now holds it. */
static struct name_slot *table_take(struct name_table *t, struct json_doc *doc, uint32_t node,
                                    uint32_t index, uint64_t hash)
{
    struct json_str name = json_node_string(doc, node);
    size_t at = (size_t)hash & (t->size - 1);
    while (t->slots[at].node != JSON_NONE && !duplicate_names_equal(t->slots[at].name, name))
        at = (at + 1) & (t->size - 1);
    if (t->slots[at].node == JSON_NONE)
        t->slots[at] = (struct name_slot){name, node, index};
    return &t->slots[at];
}

/* The "name" node of element `index` of the bulk document `a` (JSON_NONE: none) and, when it
 * has one, its hash: found once by its whole analysis (a->element_names), or looked up. */
static uint32_t name_of_element(struct analysis *a, uint32_t index, uint64_t *hash)
{
    if (a->element_names != NULL) {
        *hash = a->element_hashes[index];
        return a->element_names[index];
    }
    uint32_t node = duplicate_names_node(&a->doc, a->elements[index]);
    *hash = node != JSON_NONE ? duplicate_names_hash(json_node_string(&a->doc, node)) : 0;
    return node;
}

/* Calls `visit` for each named element of a bulk document (its elements listed: -1 when they
 * could not be), in order, with the slot of the element that took its name first (itself when
 * it is the first). */
static int walk_bulk(struct analysis *a,
                     int (*visit)(void *context, struct analysis *a, uint32_t node, uint32_t index,
                                  uint64_t hash, const struct name_slot *first),
                     void *context)
{
    if (a->element_count > 0 && a->elements == NULL)
        return -1; /* memory ran out listing them */
    struct name_table table;
    if (table_init(&table, a->element_count) != 0)
        return -1;
    int status = 0;
    for (uint32_t index = 0; index < a->element_count && status == 0; index++) {
        uint64_t hash;
        uint32_t node = name_of_element(a, index, &hash);
        if (node != JSON_NONE)
            status = visit(context, a, node, index, hash,
                           table_take(&table, &a->doc, node, index, hash));
    }
    free(table.slots);
    return status;
}

/* duplicate_names_check's visit: a name taken before is reported. */
static int report_later(void *context, struct analysis *a, uint32_t node, uint32_t index,
                        uint64_t hash, const struct name_slot *first)
{
    (void)hash;
    if (first->node == node)
        return 0;
    *(bool *)context = true;
    return report(a, node, index, first->node, first->index);
}

int duplicate_names_check(struct analysis *a, bool *found)
{
    *found = false;
    return a->document == DOCUMENT_BULK ? walk_bulk(a, report_later, found) : 0;
}

bool duplicate_names_shared(struct json_doc *doc, const uint32_t *elements, uint32_t count,
                            uint32_t index)
{
    uint32_t mine = index < count ? duplicate_names_node(doc, elements[index]) : JSON_NONE;
    if (mine == JSON_NONE)
        return false;
    struct json_str name = json_node_string(doc, mine);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t other = i != index ? duplicate_names_node(doc, elements[i]) : JSON_NONE;
        if (other != JSON_NONE && duplicate_names_equal(json_node_string(doc, other), name))
            return true;
    }
    return false;
}

struct name_count {
    uint64_t hash;
    uint32_t count;
};

/* The hash of the name of element `index`, never 0; 0 when it has no name. */
static uint64_t name_hash_of(struct analysis *a, uint32_t index)
{
    uint64_t hash;
    return name_of_element(a, index, &hash) != JSON_NONE ? hash | 1 : 0;
}

/* The slot of `hash` (an empty one when it was never counted). */
static struct name_count *count_slot(struct name_counts *counts, uint64_t hash)
{
    size_t at = (size_t)hash & (counts->size - 1);
    while (counts->slots[at].hash != 0 && counts->slots[at].hash != hash)
        at = (at + 1) & (counts->size - 1);
    return &counts->slots[at];
}

void duplicate_names_counts_free(struct name_counts *counts)
{
    free(counts->hashes);
    free(counts->slots);
    *counts = (struct name_counts){NULL, NULL, 0, 0};
}

/* Adds one to the count of `hash`. */
static void count_add(struct name_counts *counts, uint64_t hash, uint32_t *count)
{
    struct name_count *slot = count_slot(counts, hash);
    counts->used += slot->hash == 0;
    slot->hash = hash;
    *count = ++slot->count;
}

/* A table of counts->size slots for the hashes of `hashes` (`count` elements). */
static int count_all(struct name_counts *counts, uint32_t count)
{
    counts->slots = calloc(counts->size, sizeof *counts->slots);
    if (counts->slots == NULL)
        return -1;
    counts->used = 0;
    uint32_t ignored;
    for (uint32_t i = 0; i < count; i++) {
        if (counts->hashes[i] != 0)
            count_add(counts, counts->hashes[i], &ignored);
    }
    return 0;
}

int duplicate_names_count(struct analysis *a, struct name_counts *counts)
{
    duplicate_names_counts_free(counts);
    if (a->element_count == 0)
        return 0;
    /* Four slots a source: a hash an edit left behind keeps its slot, and the table is counted
     * again (from `hashes`) when three quarters are taken: after edits of as many names as a
     * quarter of the sources, so each edit costs a constant on average. */
    size_t size = 16;
    while (size < 4 * (size_t)a->element_count)
        size *= 2;
    counts->size = size;
    counts->hashes = malloc((size_t)a->element_count * sizeof *counts->hashes);
    if (counts->hashes == NULL)
        return -1;
    for (uint32_t i = 0; i < a->element_count; i++)
        counts->hashes[i] = name_hash_of(a, i);
    if (count_all(counts, a->element_count) != 0) {
        duplicate_names_counts_free(counts);
        return -1;
    }
    return 0;
}

bool duplicate_names_recount(struct analysis *a, struct name_counts *counts, uint32_t index)
{
    if (counts->slots == NULL || index >= a->element_count)
        return true;
    uint64_t hash = name_hash_of(a, index), old = counts->hashes[index];
    if (hash == old)
        return hash != 0 && count_slot(counts, hash)->count > 1;
    if (old != 0)
        count_slot(counts, old)->count--;
    counts->hashes[index] = hash;
    if (hash == 0)
        return false;
    if (4 * (counts->used + 1) > 3 * counts->size) {
        free(counts->slots);
        /* counted again from `hashes`, which holds `hash` already; when memory runs out,
         * "maybe" for every name until the next whole analysis */
        if (count_all(counts, a->element_count) != 0) {
            duplicate_names_counts_free(counts);
            return true;
        }
        return count_slot(counts, hash)->count > 1;
    }
    uint32_t count;
    count_add(counts, hash, &count);
    return count > 1;
}

/* duplicate_names_each's visit: only the first element of each name. */
struct each {
    int (*visit)(void *context, struct analysis *a, uint32_t node, uint32_t index, uint64_t hash);
    void *context;
};

static int visit_first(void *context, struct analysis *a, uint32_t node, uint32_t index,
                       uint64_t hash, const struct name_slot *first)
{
    const struct each *each = context;
    return first->node == node ? each->visit(each->context, a, node, index, hash) : 0;
}

int duplicate_names_each(struct analysis *a,
                         int (*visit)(void *context, struct analysis *a, uint32_t node,
                                      uint32_t index, uint64_t hash),
                         void *context)
{
    struct json_doc *doc = &a->doc;
    if (a->document == DOCUMENT_SOURCE) {
        uint32_t node = duplicate_names_node(doc, doc->root);
        return node != JSON_NONE ? visit(context, a, node, UINT32_MAX,
                                         duplicate_names_hash(json_node_string(doc, node)))
                                 : 0;
    }
    if (a->document != DOCUMENT_BULK)
        return 0;
    struct each each = {visit, context}; /* a name taken before: reported within the document */
    return walk_bulk(a, visit_first, &each);
}

int duplicate_names_report_elsewhere(struct analysis *a, uint32_t node, uint32_t index,
                                     const struct diag_elsewhere *first)
{
    struct json_doc *doc = &a->doc;
    struct json_str name = json_node_string(doc, node);
    struct diagnostic d = {
        .code = CODE_DUPLICATE_NAME,
        .severity = DIAG_WARNING, /* across documents; within one, the code's error */
        .start = doc->nodes[node].start,
        .end = doc->nodes[node].end,
        .related_start = UINT32_MAX,
        .related_end = UINT32_MAX,
        .related_elsewhere = first,
        .related_message = "the source that has the name first",
        .message = arena_printf(&a->arena,
                                "the name \"%.*s\" is taken by a source of another file (%s): "
                                "the catalog and SQL know a source by its name",
                                (int)name.len, name.ptr, first->path),
        .pointer = index == UINT32_MAX ? "/" ENVELOPE_NAME
                                       : arena_printf(&a->arena, "/%u/" ENVELOPE_NAME, index),
        .node = node,
    };
    if (d.message == NULL || d.pointer == NULL)
        return -1;
    return diag_list_add(&a->diags, &d);
}
