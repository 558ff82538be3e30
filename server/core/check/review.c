/* review: the risky changes between two analyses of one document (see review.h). */
#include "review.h"

#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"
#include "kind_resolve.h"

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

/* Whether a risky-change from `first` on is at `pointer` (a removed field already reported:
 * its posture finding, new since the base for the same reason, is not reported twice). */
static bool reported_at(const struct analysis *now, uint32_t first, const char *pointer)
{
    for (uint32_t i = first; i < now->diags.count; i++) {
        const struct diagnostic *d = &now->diags.items[i];
        if (d->code == CODE_RISKY_CHANGE && strcmp(d->pointer, pointer) == 0)
            return true;
    }
    return false;
}

/* A posture finding of `now` new since the base: its key and its index in the list. */
struct new_finding {
    struct finding_key key;
    uint32_t index;
};

/* By key, then in the list's order: the first of equal keys is the one reported. */
static int compare_new(const void *a, const void *b)
{
    const struct new_finding *x = a, *y = b;
    int c = compare_keys(&x->key, &y->key);
    return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

/* The posture findings of `now` that the base did not have; of two sources of one name (a
 * duplicate-name) with the same new finding, one is reported: one change, not one per copy. */
static int new_findings(struct analysis *now, struct analysis *base, const char *base_name,
                        uint32_t first)
{
    size_t known;
    bool failed;
    struct finding_key *keys = base_keys(base, &known, &failed);
    uint32_t element_count;
    uint32_t *elements = bulk_elements(&now->doc, &element_count);
    uint32_t count = now->diags.count; /* what is added here is not compared */
    struct new_finding *fresh = malloc(((size_t)count + 1) * sizeof *fresh);
    int status = failed || fresh == NULL || (elements == NULL && is_bulk(&now->doc)) ? -1 : 0;
    size_t fresh_count = 0;
    for (uint32_t i = 0; i < count && status == 0; i++) {
        const struct diagnostic *d = &now->diags.items[i];
        if (!is_posture(d->code))
            continue;
        struct finding_key key = finding_key(&now->doc, elements, element_count, d);
        if (known == 0 || bsearch(&key, keys, known, sizeof *keys, compare_key_items) == NULL)
            fresh[fresh_count++] = (struct new_finding){key, i};
    }
    if (fresh_count > 1)
        qsort(fresh, fresh_count, sizeof *fresh, compare_new);
    for (size_t f = 0; f < fresh_count && status == 0; f++) {
        const struct diagnostic d = now->diags.items[fresh[f].index];
        if ((f > 0 && compare_keys(&fresh[f - 1].key, &fresh[f].key) == 0) ||
            (count > first && reported_at(now, first, d.pointer != NULL ? d.pointer : "")))
            continue;
        const char *message =
            arena_printf(&now->arena, "%s since %s: %s", code_name(d.code), base_name, d.message);
        status = add(now, d.start, d.end, d.pointer, message);
    }
    free(fresh);
    free(keys);
    free(elements);
    return status;
}

/* `key` escaped for a JSON pointer (~0, ~1), in `arena`. */
static const char *pointer_token(struct arena *arena, struct json_str key)
{
    size_t extra = 0;
    for (size_t i = 0; i < key.len; i++)
        extra += key.ptr[i] == '~' || key.ptr[i] == '/';
    char *out = arena_alloc(arena, key.len + extra + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < key.len; i++) {
        if (key.ptr[i] == '~' || key.ptr[i] == '/') {
            out[n++] = '~';
            out[n++] = key.ptr[i] == '~' ? '0' : '1';
        } else {
            out[n++] = key.ptr[i];
        }
    }
    out[n] = '\0';
    return out;
}

/* The fields of the base's kind marked "removalWidens" that the source `old` had in its config
 * at the base and `object` has no more: reported on the config's key (or the source's start),
 * at the pointer of the absent field, as the posture finding for it would be. */
static int removed_widening(struct analysis *now, uint32_t object, struct analysis *base,
                            uint32_t old, const char *base_name)
{
    const struct schema_kind *kind =
        base->registry != NULL
            ? kind_resolve_source(&base->doc, old, base->registry, base->settings)
            : NULL;
    uint32_t was = json_object_get(&base->doc, old, JSON_LITERAL(ENVELOPE_CONFIG));
    if (kind == NULL || was == JSON_NONE || base->doc.nodes[was].kind != JSON_OBJECT)
        return 0;
    uint32_t config = json_object_get(&now->doc, object, JSON_LITERAL(ENVELOPE_CONFIG));
    bool is_object = config != JSON_NONE && now->doc.nodes[config].kind == JSON_OBJECT;
    for (uint32_t m = base->doc.nodes[was].first_child; m != JSON_NONE;
         m = base->doc.nodes[m].next) {
        struct json_str key = json_node_key(&base->doc, m);
        const struct schema_field *field = schema_object_field(&kind->config, key.ptr, key.len);
        if (field == NULL || field->removal_widens == NULL ||
            (is_object && json_object_get(&now->doc, config, key.ptr, key.len) != JSON_NONE))
            continue;
        const struct json_node *at = json_node_at(&now->doc, config != JSON_NONE ? config : object);
        if (at == NULL)
            continue;
        bool keyed = config != JSON_NONE && at->key_start != JSON_NONE;
        uint32_t start = keyed ? at->key_start : at->start;
        uint32_t end = keyed ? at->key_end : at->start + 1;
        const char *source = json_pointer_of(&now->doc, object, &now->arena);
        const char *token = pointer_token(&now->arena, key);
        const char *pointer =
            source != NULL && token != NULL
                ? arena_printf(&now->arena, "%s/%s/%s", source, ENVELOPE_CONFIG, token)
                : NULL;
        const char *message = arena_printf(&now->arena, "\"%.*s\" removed since %s: %s",
                                           (int)key.len, key.ptr, base_name, field->removal_widens);
        if (pointer == NULL || add(now, start, end, pointer, message) != 0)
            return -1;
    }
    return 0;
}

/* `type` and `name` of the source `object` (now) against `old` (at the base), and the fields
 * whose removal widens it. */
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
    return removed_widening(now, object, base, old, base_name);
}

/* A bulk element of `now` and its "name". */
struct named_element {
    struct json_str name;
    uint32_t element;
};

/* By name, then (for two elements of one name) in document order; an element JSON_NONE (a
 * name looked for) equals every element of its name. */
static int compare_names(const void *a, const void *b)
{
    const struct named_element *p = a, *q = b;
    const struct json_str *x = &p->name, *y = &q->name;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    int c = x->len == 0 ? 0 : memcmp(x->ptr, y->ptr, x->len);
    if (c != 0 || p->element == JSON_NONE || q->element == JSON_NONE || p->element == q->element)
        return c;
    return p->element < q->element ? -1 : 1;
}

/* The first element (in document order) of `named` (sorted) called `name`, or NULL. */
static const struct named_element *first_named(const struct named_element *named, size_t count,
                                               struct json_str name)
{
    struct named_element wanted = {name, JSON_NONE};
    const struct named_element *found =
        count > 0 ? bsearch(&wanted, named, count, sizeof *named, compare_names) : NULL;
    while (found != NULL && found > named && compare_names(found - 1, &wanted) == 0)
        found--;
    return found;
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

/* The sources of one name in `now` against those of that name at the base, in document order
 * (the first with the first, ...; a copy the base had not is new, not changed): the first that
 * changed is reported, and no other of that name, since the catalog knows one source by it. */
static int changed_copies(struct analysis *now, const struct named_element *copies, size_t count,
                          struct analysis *base, const struct named_element *at_base,
                          size_t base_count, const char *base_name)
{
    for (size_t i = 0; i < count && i < base_count; i++) {
        uint32_t before = now->diags.count;
        if (changed_identity(now, copies[i].element, base, at_base[i].element, base_name) != 0)
            return -1;
        if (now->diags.count > before)
            break;
    }
    return 0;
}

/* How many elements from `named` on (sorted) share its first one's name. */
static size_t same_name(const struct named_element *named, size_t count)
{
    size_t n = count > 0 ? 1 : 0;
    while (n < count && same_str(named[n].name, named[0].name))
        n++;
    return n;
}

/* A bulk array: each source known by name, its type compared; a source of the base that is
 * gone is reported on the array's opening bracket. */
static int changed_bulk(struct analysis *now, struct analysis *base, const char *base_name)
{
    const struct json_node *array = json_node_at(&now->doc, now->doc.root);
    if (array == NULL)
        return 0;
    size_t named_count, base_count;
    struct named_element *named = elements_by_name(now, &named_count);
    struct named_element *at_base = named != NULL ? elements_by_name(base, &base_count) : NULL;
    if (at_base == NULL) {
        free(named);
        return -1;
    }
    int status = 0;
    for (size_t b = 0; b < base_count && status == 0;) {
        size_t copies = same_name(at_base + b, base_count - b);
        struct json_str name = at_base[b].name;
        const struct named_element *found = first_named(named, named_count, name);
        if (found != NULL) {
            size_t now_copies = same_name(found, named_count - (size_t)(found - named));
            status = changed_copies(now, found, now_copies, base, at_base + b, copies, base_name);
        } else {
            const char *message =
                arena_printf(&now->arena,
                             "the source \"%.*s\" was removed since %s: this file no longer "
                             "holds it",
                             (int)name.len, name.ptr, base_name);
            status = add(now, array->start, array->start + 1, "", message);
        }
        b += copies;
    }
    free(named);
    free(at_base);
    return status != 0 ? -1 : 0;
}

int review_compare(struct analysis *now, struct analysis *base, const char *base_name)
{
    uint32_t first = now->diags.count;
    int status = 0;
    if (now->doc.root != JSON_NONE && base->doc.root != JSON_NONE && is_bulk(&now->doc) &&
        is_bulk(&base->doc))
        status = changed_bulk(now, base, base_name);
    else if (now->doc.root != JSON_NONE && base->doc.root != JSON_NONE && !is_bulk(&now->doc))
        status = changed_identity(now, now->doc.root, base, base->doc.root, base_name);
    if (status == 0 && new_findings(now, base, base_name, first) != 0)
        status = -1;
    if (now->diags.count > first)
        diag_list_sort(&now->diags);
    return status;
}

/* The NUL-terminated field at `*at` of `listing`, or NULL when it runs past `len`. */
static const char *listing_field(const char *listing, size_t len, size_t *at)
{
    const char *field = listing + *at;
    const char *end = *at < len ? memchr(field, '\0', len - *at) : NULL;
    if (end == NULL)
        return NULL;
    *at = (size_t)(end - listing) + 1;
    return field;
}

bool review_listing_next(const char *listing, size_t len, size_t *at, struct review_change *change)
{
    size_t next = *at;
    const char *status = listing != NULL ? listing_field(listing, len, &next) : NULL;
    const char *first = status != NULL ? listing_field(listing, len, &next) : NULL;
    if (first == NULL || status[0] == '\0')
        return false;
    *change = (struct review_change){.status = status[0], .path = first};
    if (status[0] == 'R' || status[0] == 'C') { /* the path at the base, then the path now */
        const char *now = listing_field(listing, len, &next);
        if (now == NULL)
            return false;
        change->old_path = status[0] == 'R' ? first : NULL;
        change->path = now;
    }
    *at = next;
    return true;
}

/* The field [*at, next space or end) of [line, line + len) copied into `out` (`size` bytes with
 * its NUL); false when it is empty or too long. */
static bool header_field(const char *line, size_t len, size_t *at, char *out, size_t size)
{
    size_t start = *at;
    while (*at < len && line[*at] != ' ')
        (*at)++;
    size_t n = *at - start;
    if (n == 0 || n >= size)
        return false;
    memcpy(out, line + start, n);
    out[n] = '\0';
    if (*at < len)
        (*at)++; /* the space */
    return true;
}

int review_batch_header(const char *line, size_t len, size_t max_size, struct review_object *object)
{
    static const char missing[] = " missing";
    if (len >= sizeof missing - 1 &&
        memcmp(line + len - (sizeof missing - 1), missing, sizeof missing - 1) == 0)
        return 0;
    size_t at = 0;
    char size[24];
    if (!header_field(line, len, &at, object->oid, sizeof object->oid) ||
        !header_field(line, len, &at, object->type, sizeof object->type) ||
        !header_field(line, len, &at, size, sizeof size) || at != len)
        return -1;
    object->size = 0;
    for (const char *c = size; *c != '\0'; c++) {
        if (*c < '0' || *c > '9' || object->size > (max_size - (size_t)(*c - '0')) / 10)
            return -1;
        object->size = object->size * 10 + (size_t)(*c - '0');
    }
    return 1;
}
