/* fuzz_parse: the document model on arbitrary bytes — the recovering parser (with the default
 * limits and with tight ones), the accessors, RFC 6901 pointers, json_locate and the line index.
 * Beyond "no crash, no leak", it checks what the rest of srcls relies on: every range lies
 * inside the text, the tree is a tree (no node reached twice, children inside their parent and
 * in order, members keyed and elements not), limits hold, a node's pointer leads back to it,
 * json_locate names a node that covers the cursor, and offset -> position ->
 * offset conversions are consistent and monotonic in every encoding. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "json/json.h"

/* Cursor offsets probed per input: all of them for small inputs, an even sample otherwise. */
#define MAX_PROBES 256u
/* Nodes looked up by key, index and pointer: each lookup costs O(siblings) or O(depth). */
#define MAX_LOOKUPS 64u

/* The `i`th of `count` offsets spread evenly over [0, len], both ends included. */
static uint32_t probe_offset(uint32_t len, uint32_t count, uint32_t i)
{
    if (count <= 1)
        return 0;
    return (uint32_t)((uint64_t)i * len / (count - 1));
}

static uint32_t probe_count(uint32_t len)
{
    return len + 1 <= MAX_PROBES ? len + 1 : MAX_PROBES;
}

static bool range_inside(uint32_t start, uint32_t end, uint32_t len)
{
    return start <= end && end <= len;
}

static bool is_container(const struct json_node *n)
{
    return n->kind == JSON_OBJECT || n->kind == JSON_ARRAY;
}

/* Where a member or element begins: its key, or its value when it has none. */
static uint32_t node_first_byte(const struct json_node *n)
{
    return n->key_start != JSON_NONE ? n->key_start : n->start;
}

static void check_errors(const struct json_doc *doc, const struct json_parse_options *options)
{
    FUZZ_CHECK(doc->error_count <= options->max_errors);
    for (uint32_t i = 0; i < doc->error_count; i++) {
        const struct json_error *e = &doc->errors[i];
        FUZZ_CHECK(range_inside(e->start, e->end, doc->len));
        FUZZ_CHECK((e->related_start == JSON_NONE) == (e->related_end == JSON_NONE));
        if (e->related_start != JSON_NONE)
            FUZZ_CHECK(range_inside(e->related_start, e->related_end, doc->len));
        FUZZ_CHECK(e->message != NULL && e->message[0] != '\0');
        FUZZ_CHECK(e->code == JSON_ERROR_SYNTAX || e->code == JSON_ERROR_DUPLICATE_KEY ||
                   e->code == JSON_ERROR_LIMIT);
    }
}

/* Each node on its own: ranges, links, and the accessors. A node that is not `reachable` from
 * the root was parsed only for recovery (a value where a key should be) and never linked: it
 * keeps a valid parent but is not one of its members. */
static void check_node(struct json_doc *doc, uint32_t index, bool reachable)
{
    const struct json_node *n = &doc->nodes[index];
    FUZZ_CHECK(n->kind <= JSON_OBJECT);
    FUZZ_CHECK(range_inside(n->start, n->end, doc->len));
    FUZZ_CHECK((n->key_start == JSON_NONE) == (n->key_end == JSON_NONE));
    if (n->key_start != JSON_NONE) {
        FUZZ_CHECK(range_inside(n->key_start, n->key_end, doc->len));
        FUZZ_CHECK(n->key_end <= n->start);
    }
    FUZZ_CHECK(n->first_child == JSON_NONE || n->first_child < doc->node_count);
    FUZZ_CHECK(n->next == JSON_NONE || n->next < doc->node_count);
    if (!is_container(n))
        FUZZ_CHECK(n->first_child == JSON_NONE);
    if (n->parent == JSON_NONE) {
        FUZZ_CHECK(index == doc->root);
    } else {
        FUZZ_CHECK(n->parent < doc->node_count);
        const struct json_node *parent = &doc->nodes[n->parent];
        FUZZ_CHECK(is_container(parent));
        FUZZ_CHECK(parent->start <= node_first_byte(n) && n->end <= parent->end);
        /* Members have keys, elements do not. */
        if (reachable)
            FUZZ_CHECK((parent->kind == JSON_OBJECT) == (n->key_start != JSON_NONE));
    }

    if (n->key_start != JSON_NONE) {
        struct json_str key = json_node_key(doc, index);
        FUZZ_CHECK(key.len <= n->key_end - n->key_start);
        FUZZ_CHECK(json_node_key_equals(doc, index, key.ptr, key.len));
    }
    if (n->kind == JSON_STRING) {
        struct json_str text = json_node_string(doc, index);
        FUZZ_CHECK(text.len <= n->end - n->start);
        FUZZ_CHECK(json_node_string_equals(doc, index, text.ptr, text.len));
    } else {
        FUZZ_CHECK(json_node_string(doc, index).len == 0);
    }
    int64_t integer;
    double number;
    if (json_node_int64(doc, index, &integer))
        FUZZ_CHECK(n->kind == JSON_NUMBER && (n->flags & JSON_FLAG_INTEGER));
    if (json_node_double(doc, index, &number))
        FUZZ_CHECK(n->kind == JSON_NUMBER);
}

/* A container's children: linked back to it, in text order, as many as json_child_count says. */
static void check_children(struct json_doc *doc, uint32_t node)
{
    uint32_t count = 0, previous_end = 0;
    for (uint32_t child = doc->nodes[node].first_child; child != JSON_NONE;
         child = doc->nodes[child].next) {
        const struct json_node *c = &doc->nodes[child];
        FUZZ_CHECK(c->parent == node);
        FUZZ_CHECK(count == 0 || node_first_byte(c) >= previous_end);
        FUZZ_CHECK(++count <= doc->node_count); /* no cycle among siblings */
        previous_end = c->end;
    }
    FUZZ_CHECK(json_child_count(doc, node) == count);
}

/* The tree from the root: no node is reached twice, nesting stays within the depth limit.
 * Marks in `seen` (node_count bytes, zeroed) the nodes reached. Iterative, with a cursor per
 * level: the walk itself must not be what overflows. */
static void check_tree(struct json_doc *doc, const struct json_parse_options *options,
                       unsigned char *seen)
{
    if (doc->root == JSON_NONE) {
        FUZZ_CHECK(doc->node_count == 0);
        return;
    }
    FUZZ_CHECK(doc->root < doc->node_count);
    FUZZ_CHECK(doc->nodes[doc->root].parent == JSON_NONE);
    size_t levels = (size_t)options->max_depth + 1;
    uint32_t *cursor = malloc(levels * sizeof *cursor); /* next child to visit per level */
    FUZZ_CHECK(cursor != NULL);
    uint32_t visited = 1, depth = 0;
    seen[doc->root] = 1;
    if (is_container(&doc->nodes[doc->root])) {
        check_children(doc, doc->root);
        cursor[depth++] = doc->nodes[doc->root].first_child;
    }
    while (depth > 0) {
        uint32_t child = cursor[depth - 1];
        if (child == JSON_NONE) {
            depth--;
            continue;
        }
        cursor[depth - 1] = doc->nodes[child].next;
        FUZZ_CHECK(!seen[child]);
        seen[child] = 1;
        visited++;
        if (is_container(&doc->nodes[child])) {
            /* The container that hits the depth limit is kept, empty. */
            FUZZ_CHECK(depth < options->max_depth ||
                       (depth == options->max_depth && doc->nodes[child].first_child == JSON_NONE));
            check_children(doc, child);
            cursor[depth++] = doc->nodes[child].first_child;
        }
    }
    FUZZ_CHECK(visited <= doc->node_count);
    free(cursor);
}

/* Whether `node` is what its pointer names: every member on the path from the root is the last
 * of its key (a pointer to a duplicated key names the last one), and no key holds a NUL byte,
 * which a NUL-terminated pointer cannot carry. */
static bool pointer_names_node(struct json_doc *doc, uint32_t node)
{
    for (; doc->nodes[node].parent != JSON_NONE; node = doc->nodes[node].parent) {
        uint32_t parent = doc->nodes[node].parent;
        if (doc->nodes[parent].kind != JSON_OBJECT)
            continue;
        struct json_str key = json_node_key(doc, node);
        if (memchr(key.ptr, '\0', key.len) != NULL ||
            json_object_get(doc, parent, key.ptr, key.len) != node)
            return false;
    }
    return true;
}

/* Lookups that cost O(siblings) or O(depth), on a sample of the nodes: a member is found by its
 * key (itself or a later duplicate), an element by its index, and pointer_of then pointer_find
 * gives the node back when its pointer names it. */
static void check_lookups(struct json_doc *doc, const unsigned char *reachable)
{
    uint32_t checks = doc->node_count < MAX_LOOKUPS ? doc->node_count : MAX_LOOKUPS;
    for (uint32_t i = 0; i < checks; i++) {
        uint32_t node =
            checks == doc->node_count ? i : probe_offset(doc->node_count - 1, checks, i);
        const struct json_node *n = &doc->nodes[node];
        if (!reachable[node] || n->parent == JSON_NONE)
            continue;
        if (doc->nodes[n->parent].kind == JSON_OBJECT) {
            struct json_str key = json_node_key(doc, node);
            uint32_t found = json_object_get(doc, n->parent, key.ptr, key.len);
            FUZZ_CHECK(found != JSON_NONE && found >= node);
            FUZZ_CHECK(json_node_key_equals(doc, found, key.ptr, key.len));
        } else {
            FUZZ_CHECK(json_array_get(doc, n->parent, json_node_index(doc, node)) == node);
        }
        if (!pointer_names_node(doc, node))
            continue;
        struct arena arena;
        arena_init(&arena);
        char *pointer = json_pointer_of(doc, node, &arena);
        FUZZ_CHECK(pointer != NULL);
        FUZZ_CHECK(json_pointer_find(doc, pointer, strlen(pointer)) == node);
        arena_free(&arena);
    }
}

static void check_locate(const struct json_doc *doc)
{
    uint32_t count = probe_count(doc->len);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t offset = probe_offset(doc->len, count, i);
        struct json_location loc = json_locate(doc, offset);
        FUZZ_CHECK(loc.kind <= JSON_LOCATION_AFTER_KEY);
        FUZZ_CHECK((loc.kind == JSON_LOCATION_NONE) == (loc.node == JSON_NONE));
        if (loc.node == JSON_NONE)
            continue;
        FUZZ_CHECK(loc.node < doc->node_count);
        const struct json_node *n = &doc->nodes[loc.node];
        switch (loc.kind) {
        case JSON_LOCATION_KEY:
            FUZZ_CHECK(n->key_start != JSON_NONE);
            FUZZ_CHECK(n->key_start <= offset && offset <= n->key_end);
            break;
        case JSON_LOCATION_AFTER_KEY: FUZZ_CHECK(n->key_start != JSON_NONE); break;
        case JSON_LOCATION_VALUE: FUZZ_CHECK(n->start <= offset && offset <= n->end); break;
        case JSON_LOCATION_OBJECT: FUZZ_CHECK(n->kind == JSON_OBJECT); break;
        case JSON_LOCATION_ARRAY: FUZZ_CHECK(n->kind == JSON_ARRAY); break;
        case JSON_LOCATION_NONE: break;
        }
    }
}

static bool position_before(struct text_position a, struct text_position b)
{
    return a.line < b.line || (a.line == b.line && a.character < b.character);
}

static bool position_equal(struct text_position a, struct text_position b)
{
    return a.line == b.line && a.character == b.character;
}

static void check_offset_round_trip(const struct line_index *index, uint32_t offset,
                                    enum position_encoding encoding, struct text_position *last)
{
    struct text_position p = line_index_position(index, offset, encoding);
    FUZZ_CHECK(p.line < index->count);
    uint32_t back = line_index_offset(index, p, encoding);
    FUZZ_CHECK(back <= offset && back <= index->len);
    FUZZ_CHECK(back >= line_index_start(index, p.line));
    /* The offset of a position is where that position starts: converting it again is stable. */
    FUZZ_CHECK(position_equal(line_index_position(index, back, encoding), p));
    FUZZ_CHECK(!position_before(p, *last));
    *last = p;
}

static void check_line_index(const char *text, uint32_t len)
{
    struct line_index index;
    FUZZ_CHECK(line_index_build(&index, text, len) == 0);
    FUZZ_CHECK(index.count >= 1 && line_index_start(&index, 0) == 0);
    for (uint32_t line = 1; line < index.count; line++)
        FUZZ_CHECK(line_index_start(&index, line) > line_index_start(&index, line - 1) &&
                   line_index_start(&index, line) <= len);

    static const enum position_encoding encodings[] = {POSITION_UTF16, POSITION_UTF8,
                                                       POSITION_UTF32};
    for (size_t e = 0; e < sizeof encodings / sizeof encodings[0]; e++) {
        struct text_position last = {0, 0};
        uint32_t count = probe_count(len);
        for (uint32_t i = 0; i < count; i++)
            check_offset_round_trip(&index, probe_offset(len, count, i), encodings[e], &last);
        /* Past the end: clamped. */
        struct text_position end = line_index_position(&index, len, encodings[e]);
        FUZZ_CHECK(position_equal(line_index_position(&index, len + 7, encodings[e]), end));

        uint32_t lines = index.count < MAX_PROBES ? index.count : MAX_PROBES;
        for (uint32_t k = 0; k < lines; k++) {
            uint32_t line = probe_offset(index.count - 1, lines, k);
            uint32_t start =
                line_index_offset(&index, (struct text_position){line, 0}, encodings[e]);
            FUZZ_CHECK(start == line_index_start(&index, line));
            uint32_t far =
                line_index_offset(&index, (struct text_position){line, UINT32_MAX}, encodings[e]);
            uint32_t next = line + 1 < index.count ? line_index_start(&index, line + 1) : len;
            FUZZ_CHECK(far >= start && far <= next);
        }
        struct text_position beyond = {index.count + 3, 0};
        FUZZ_CHECK(line_index_offset(&index, beyond, encodings[e]) == len);
    }
    line_index_free(&index);
}

static void check_document(const char *text, uint32_t len, const struct json_parse_options *options)
{
    struct json_doc doc;
    FUZZ_CHECK(json_parse(&doc, text, len, options) == 0);
    FUZZ_CHECK(doc.text == text);
    check_errors(&doc, options);
    if (len > options->max_size) {
        FUZZ_CHECK(doc.root == JSON_NONE && doc.error_count == 1);
        FUZZ_CHECK(doc.errors[0].code == JSON_ERROR_LIMIT);
        json_doc_free(&doc);
        return;
    }
    FUZZ_CHECK(doc.len == len);
    unsigned char *reachable = calloc(doc.node_count + 1, 1);
    FUZZ_CHECK(reachable != NULL);
    check_tree(&doc, options, reachable);
    for (uint32_t i = 0; i < doc.node_count; i++)
        check_node(&doc, i, reachable[i]);
    check_lookups(&doc, reachable);
    check_locate(&doc);
    free(reachable);
    json_doc_free(&doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > UINT32_MAX / 2)
        return 0;
    const char *text = (const char *)data;
    uint32_t len = (uint32_t)size;
    const struct json_parse_options defaults = {
        .max_size = JSON_DEFAULT_MAX_SIZE,
        .max_depth = JSON_DEFAULT_MAX_DEPTH,
        .max_errors = JSON_DEFAULT_MAX_ERRORS,
    };
    /* Tight limits reach the limit paths with small inputs. */
    const struct json_parse_options tight = {.max_size = 2048, .max_depth = 6, .max_errors = 3};
    check_document(text, len, &defaults);
    check_document(text, len, &tight);
    check_line_index(text, len);
    return 0;
}
