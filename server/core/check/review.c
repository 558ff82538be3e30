/* review: the risky changes between two analyses of one document (see review.h). */
#include "review.h"

#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"

/* A posture finding as it is compared across versions: its code, the name of the bulk element
 * it is in (empty in a single source) and its pointer below that element. */
struct finding_key {
    enum diag_code code;
    struct json_str element; /* the element's "name" */
    const char *rest;        /* the pointer below the element (the whole pointer in a single) */
    size_t element_index;    /* the element's index, for an element without a name */
};

static bool is_bulk(const struct json_doc *doc)
{
    return doc->root != JSON_NONE && json_node_at(doc, doc->root)->kind == JSON_ARRAY;
}

/* The string member `key` of the object `object`, or an empty slice with ptr NULL. */
static struct json_str member_string(struct json_doc *doc, uint32_t object, const char *key)
{
    uint32_t node = object != JSON_NONE && json_node_at(doc, object)->kind == JSON_OBJECT
                        ? json_object_get(doc, object, key, strlen(key))
                        : JSON_NONE;
    if (node == JSON_NONE || json_node_at(doc, node)->kind != JSON_STRING)
        return (struct json_str){0};
    return json_node_string(doc, node);
}

static bool same_str(struct json_str a, struct json_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* The elements of a bulk document's array, in order (malloc'd, its count in *count; NULL when
 * the document is no bulk or memory ran out): found once, not walked again per finding. */
static uint32_t *bulk_elements(struct json_doc *doc, uint32_t *count)
{
    *count = 0;
    if (!is_bulk(doc))
        return NULL;
    uint32_t *elements = malloc(((size_t)json_child_count(doc, doc->root) + 1) * sizeof *elements);
    for (uint32_t e = doc->nodes[doc->root].first_child; elements != NULL && e != JSON_NONE;
         e = doc->nodes[e].next)
        elements[(*count)++] = e;
    return elements;
}

/* The key of `d`; `elements` (`count` of them) are the bulk array's, or NULL for a single. */
static struct finding_key finding_key(struct json_doc *doc, const uint32_t *elements,
                                      uint32_t count, const struct diagnostic *d)
{
    struct finding_key key = {.code = d->code, .rest = d->pointer != NULL ? d->pointer : ""};
    if (elements == NULL || key.rest[0] != '/')
        return key;
    char *end;
    key.element_index = strtoul(key.rest + 1, &end, 10);
    key.rest = end;
    if (key.element_index < count)
        key.element = member_string(doc, elements[key.element_index], ENVELOPE_NAME);
    return key;
}

/* Orders keys by code, then element (by name where it has one, else by index), then pointer. */
static int compare_keys(const struct finding_key *a, const struct finding_key *b)
{
    if (a->code != b->code)
        return a->code < b->code ? -1 : 1;
    bool named_a = a->element.ptr != NULL, named_b = b->element.ptr != NULL;
    if (named_a != named_b)
        return named_a ? 1 : -1;
    if (named_a && a->element.len != b->element.len)
        return a->element.len < b->element.len ? -1 : 1;
    int c = named_a ? memcmp(a->element.ptr, b->element.ptr, a->element.len) : 0;
    if (c == 0 && !named_a && a->element_index != b->element_index)
        c = a->element_index < b->element_index ? -1 : 1;
    return c != 0 ? c : strcmp(a->rest, b->rest);
}

static int compare_key_items(const void *a, const void *b)
{
    return compare_keys(a, b);
}

static bool is_posture(enum diag_code code)
{
    return code != CODE_RISKY_CHANGE && code_in_group(code, CODE_GROUP_SECURITY);
}

/* The keys of the base's posture findings, sorted (malloc'd; NULL with *count 0 when none or
 * when memory ran out: *failed says which). One pass, so that a document with n findings is
 * compared in n log n. */
static struct finding_key *base_keys(struct analysis *base, size_t *count, bool *failed)
{
    *count = 0;
    uint32_t element_count;
    uint32_t *elements = bulk_elements(&base->doc, &element_count);
    struct finding_key *keys = malloc((base->diags.count + 1) * sizeof *keys);
    *failed = keys == NULL || (elements == NULL && is_bulk(&base->doc));
    if (*failed) {
        free(keys);
        free(elements);
        return NULL;
    }
    for (uint32_t i = 0; i < base->diags.count; i++) {
        if (is_posture(base->diags.items[i].code))
            keys[(*count)++] =
                finding_key(&base->doc, elements, element_count, &base->diags.items[i]);
    }
    free(elements);
    if (*count > 0)
        qsort(keys, *count, sizeof *keys, compare_key_items);
    return keys;
}

/* Adds a risky-change diagnostic on [start, end) of `now`; `message` is in its arena. */
static int add(struct analysis *now, uint32_t start, uint32_t end, const char *pointer,
               const char *message)
{
    if (message == NULL)
        return -1;
    struct diagnostic d = {
        .code = CODE_RISKY_CHANGE,
        .severity = settings_severity(now->settings, CODE_RISKY_CHANGE,
                                      code_info(CODE_RISKY_CHANGE)->severity),
        .start = start,
        .end = end,
        .related_start = UINT32_MAX,
        .related_end = UINT32_MAX,
        .message = message,
        .pointer = pointer != NULL ? pointer : "",
        .node = JSON_NONE,
    };
    return d.severity == DIAG_OFF ? 0 : diag_list_add(&now->diags, &d);
}

static int new_findings(struct analysis *now, struct analysis *base, const char *base_name)
{
    size_t known;
    bool failed;
    struct finding_key *keys = base_keys(base, &known, &failed);
    uint32_t element_count;
    uint32_t *elements = bulk_elements(&now->doc, &element_count);
    int status = failed || (elements == NULL && is_bulk(&now->doc)) ? -1 : 0;
    uint32_t count = now->diags.count; /* what is added here is not compared */
    for (uint32_t i = 0; i < count && status == 0; i++) {
        const struct diagnostic d = now->diags.items[i];
        if (!is_posture(d.code))
            continue;
        struct finding_key key = finding_key(&now->doc, elements, element_count, &d);
        if (known > 0 && bsearch(&key, keys, known, sizeof *keys, compare_key_items) != NULL)
            continue;
        const char *message =
            arena_printf(&now->arena, "%s since %s: %s", code_name(d.code), base_name, d.message);
        status = add(now, d.start, d.end, d.pointer, message);
    }
    free(keys);
    free(elements);
    return status;
}

/* `type` and `name` of the source `object` (now) against `old` (at the base). */
static int changed_identity(struct analysis *now, uint32_t object, struct analysis *base,
                            uint32_t old, const char *base_name)
{
    static const char *const keys[] = {ENVELOPE_TYPE, ENVELOPE_NAME};
    static const char *const what[] = {
        "a different kind of source",
        "the service creates a new source under the new name and keeps the old one: not a rename",
    };
    for (size_t k = 0; k < 2; k++) {
        struct json_str was = member_string(&base->doc, old, keys[k]);
        struct json_str is = member_string(&now->doc, object, keys[k]);
        if (was.ptr == NULL || is.ptr == NULL || same_str(was, is))
            continue;
        uint32_t node = json_object_get(&now->doc, object, keys[k], strlen(keys[k]));
        const struct json_node *n = json_node_at(&now->doc, node);
        if (n == NULL)
            continue;
        const char *message =
            arena_printf(&now->arena, "\"%s\" changed since %s from \"%.*s\" to \"%.*s\": %s",
                         keys[k], base_name, (int)was.len, was.ptr, (int)is.len, is.ptr, what[k]);
        if (add(now, n->start, n->end, json_pointer_of(&now->doc, node, &now->arena), message))
            return -1;
    }
    return 0;
}

/* A bulk element of `now` and its "name". */
struct named_element {
    struct json_str name;
    uint32_t element;
};

static int compare_names(const void *a, const void *b)
{
    const struct json_str *x = &((const struct named_element *)a)->name;
    const struct json_str *y = &((const struct named_element *)b)->name;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->len == 0 ? 0 : memcmp(x->ptr, y->ptr, x->len);
}

/* The named elements of the bulk array of `a`, sorted by name (malloc'd; NULL when memory ran
 * out), so that each source of the base is found in log n. */
static struct named_element *elements_by_name(struct analysis *a, size_t *count)
{
    uint32_t children = json_child_count(&a->doc, a->doc.root);
    struct named_element *named = malloc(((size_t)children + 1) * sizeof *named);
    *count = 0;
    if (named == NULL)
        return NULL;
    for (uint32_t element = a->doc.nodes[a->doc.root].first_child;
         element != JSON_NONE && *count < children; element = a->doc.nodes[element].next) {
        struct json_str name = member_string(&a->doc, element, ENVELOPE_NAME);
        if (name.ptr != NULL)
            named[(*count)++] = (struct named_element){name, element};
    }
    if (*count > 0)
        qsort(named, *count, sizeof *named, compare_names);
    return named;
}

/* A bulk array: each source known by name, its type compared; a source of the base that is
 * gone is reported on the array's opening bracket. */
static int changed_bulk(struct analysis *now, struct analysis *base, const char *base_name)
{
    const struct json_node *array = json_node_at(&now->doc, now->doc.root);
    if (array == NULL)
        return 0;
    size_t named_count;
    struct named_element *named = elements_by_name(now, &named_count);
    if (named == NULL)
        return -1;
    int status = 0;
    for (uint32_t old = base->doc.nodes[base->doc.root].first_child;
         old != JSON_NONE && status == 0; old = base->doc.nodes[old].next) {
        struct named_element wanted = {member_string(&base->doc, old, ENVELOPE_NAME), JSON_NONE};
        if (wanted.name.ptr == NULL)
            continue;
        const struct named_element *found =
            named_count > 0 ? bsearch(&wanted, named, named_count, sizeof *named, compare_names)
                            : NULL;
        struct json_str name = wanted.name;
        if (found != NULL) {
            status = changed_identity(now, found->element, base, old, base_name);
        } else {
            const char *message =
                arena_printf(&now->arena,
                             "the source \"%.*s\" was removed since %s: this file no longer "
                             "holds it",
                             (int)name.len, name.ptr, base_name);
            status = add(now, array->start, array->start + 1, "", message);
        }
    }
    free(named);
    return status != 0 ? -1 : 0;
}

int review_compare(struct analysis *now, struct analysis *base, const char *base_name)
{
    uint32_t first = now->diags.count;
    if (new_findings(now, base, base_name) != 0)
        return -1;
    int status = 0;
    if (now->doc.root != JSON_NONE && base->doc.root != JSON_NONE && is_bulk(&now->doc) &&
        is_bulk(&base->doc))
        status = changed_bulk(now, base, base_name);
    else if (now->doc.root != JSON_NONE && base->doc.root != JSON_NONE && !is_bulk(&now->doc))
        status = changed_identity(now, now->doc.root, base, base->doc.root, base_name);
    if (now->diags.count > first)
        diag_list_sort(&now->diags);
    return status;
}
