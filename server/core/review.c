/* review: the risky changes between two analyses of one document (see review.h). */
#include "review.h"

#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "envelope.h"
#include "json_pointer.h"
#include "settings.h"

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

static struct finding_key finding_key(struct json_doc *doc, const struct diagnostic *d)
{
    struct finding_key key = {.code = d->code, .rest = d->pointer != NULL ? d->pointer : ""};
    if (!is_bulk(doc) || key.rest[0] != '/')
        return key;
    char *end;
    key.element_index = strtoul(key.rest + 1, &end, 10);
    key.rest = end;
    key.element = member_string(doc, json_array_get(doc, doc->root, (uint32_t)key.element_index),
                                ENVELOPE_NAME);
    return key;
}

static bool same_key(const struct finding_key *a, const struct finding_key *b)
{
    if (a->code != b->code || strcmp(a->rest, b->rest) != 0)
        return false;
    if (a->element.ptr != NULL || b->element.ptr != NULL)
        return same_str(a->element, b->element);
    return a->element_index == b->element_index;
}

static bool is_posture(enum diag_code code)
{
    return code != CODE_RISKY_CHANGE && code_in_group(code, CODE_GROUP_SECURITY);
}

static bool base_has(struct analysis *base, const struct finding_key *key)
{
    for (uint32_t i = 0; i < base->diags.count; i++) {
        struct finding_key other = finding_key(&base->doc, &base->diags.items[i]);
        if (is_posture(base->diags.items[i].code) && same_key(key, &other))
            return true;
    }
    return false;
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
    uint32_t count = now->diags.count; /* what is added here is not compared */
    for (uint32_t i = 0; i < count; i++) {
        const struct diagnostic d = now->diags.items[i];
        if (!is_posture(d.code))
            continue;
        struct finding_key key = finding_key(&now->doc, &d);
        if (base_has(base, &key))
            continue;
        const char *message =
            arena_printf(&now->arena, "%s since %s: %s", code_name(d.code), base_name, d.message);
        if (add(now, d.start, d.end, d.pointer, message) != 0)
            return -1;
    }
    return 0;
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

/* The element of the bulk array of `a` whose "name" is `name`, or JSON_NONE. */
static uint32_t element_named(struct analysis *a, struct json_str name)
{
    for (uint32_t i = 0, count = json_child_count(&a->doc, a->doc.root); i < count; i++) {
        uint32_t element = json_array_get(&a->doc, a->doc.root, i);
        if (same_str(member_string(&a->doc, element, ENVELOPE_NAME), name))
            return element;
    }
    return JSON_NONE;
}

/* A bulk array: each source known by name, its type compared; a source of the base that is
 * gone is reported on the array's opening bracket. */
static int changed_bulk(struct analysis *now, struct analysis *base, const char *base_name)
{
    const struct json_node *array = json_node_at(&now->doc, now->doc.root);
    if (array == NULL)
        return 0;
    for (uint32_t i = 0, count = json_child_count(&base->doc, base->doc.root); i < count; i++) {
        uint32_t old = json_array_get(&base->doc, base->doc.root, i);
        struct json_str name = member_string(&base->doc, old, ENVELOPE_NAME);
        if (name.ptr == NULL)
            continue;
        uint32_t element = element_named(now, name);
        int status = 0;
        if (element != JSON_NONE) {
            status = changed_identity(now, element, base, old, base_name);
        } else {
            const char *message =
                arena_printf(&now->arena,
                             "the source \"%.*s\" was removed since %s: this file no longer "
                             "holds it",
                             (int)name.len, name.ptr, base_name);
            status = add(now, array->start, array->start + 1, "", message);
        }
        if (status != 0)
            return -1;
    }
    return 0;
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
