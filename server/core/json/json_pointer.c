/* json_pointer: building and resolving RFC 6901 pointers; locating a cursor in the tree. */
#include "json_pointer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *json_pointer_append(struct arena *arena, const char *base, const char *segment,
                          size_t segment_len)
{
    size_t base_len = strlen(base), extra = 0;
    for (size_t i = 0; i < segment_len; i++)
        extra += (segment[i] == '~' || segment[i] == '/');
    char *out = arena_alloc(arena, base_len + 1 + segment_len + extra + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, base, base_len);
    size_t n = base_len;
    out[n++] = '/';
    for (size_t i = 0; i < segment_len; i++) {
        if (segment[i] == '~' || segment[i] == '/') {
            out[n++] = '~';
            out[n++] = segment[i] == '~' ? '0' : '1';
        } else {
            out[n++] = segment[i];
        }
    }
    out[n] = '\0';
    return out;
}

char *json_pointer_of(struct json_doc *doc, uint32_t node, struct arena *arena)
{
    if (node == JSON_NONE || doc->nodes[node].parent == JSON_NONE)
        return arena_strndup(arena, "", 0);
    char *base = json_pointer_of(doc, doc->nodes[node].parent, arena);
    if (base == NULL)
        return NULL;
    const struct json_node *parent = &doc->nodes[doc->nodes[node].parent];
    if (parent->kind == JSON_OBJECT) {
        struct json_str key = json_node_key(doc, node);
        return json_pointer_append(arena, base, key.ptr, key.len);
    }
    char digits[16];
    int len = snprintf(digits, sizeof digits, "%u", json_node_index(doc, node));
    return json_pointer_append(arena, base, digits, (size_t)len);
}

/* Compares one pointer segment (escaped) with a decoded key. */
static bool segment_equals(const char *segment, size_t len, struct json_str key)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++, k++) {
        char c = segment[i];
        if (c == '~') {
            if (i + 1 == len || (segment[i + 1] != '0' && segment[i + 1] != '1'))
                return false; /* not a pointer: RFC 6901 writes '~' only as ~0 or ~1 */
            c = segment[i + 1] == '0' ? '~' : '/';
            i++;
        }
        if (k >= key.len || key.ptr[k] != c)
            return false;
    }
    return k == key.len;
}

bool json_pointer_index(const char *segment, size_t len, uint32_t *index)
{
    if (len == 0 || len > 9 || (len > 1 && segment[0] == '0'))
        return false;
    uint32_t value = 0;
    for (size_t k = 0; k < len; k++) {
        if (segment[k] < '0' || segment[k] > '9')
            return false;
        value = value * 10 + (uint32_t)(segment[k] - '0');
    }
    *index = value;
    return true;
}

uint32_t json_pointer_find(struct json_doc *doc, const char *pointer, size_t len)
{
    return json_pointer_find_from(doc, doc->root, pointer, len);
}

uint32_t json_pointer_find_from(struct json_doc *doc, uint32_t node, const char *pointer,
                                size_t len)
{
    size_t i = 0;
    if (len > 0 && pointer[0] != '/')
        return JSON_NONE;
    while (i < len && node != JSON_NONE) {
        size_t start = ++i;
        while (i < len && pointer[i] != '/')
            i++;
        const char *segment = pointer + start;
        size_t seg_len = i - start;
        const struct json_node *n = &doc->nodes[node];
        if (n->kind == JSON_OBJECT) {
            uint32_t found = JSON_NONE;
            for (uint32_t m = n->first_child; m != JSON_NONE; m = doc->nodes[m].next) {
                if (segment_equals(segment, seg_len, json_node_key(doc, m)))
                    found = m;
            }
            node = found;
        } else if (n->kind == JSON_ARRAY) {
            uint32_t index;
            if (!json_pointer_index(segment, seg_len, &index))
                return JSON_NONE;
            node = json_array_get(doc, node, index);
        } else {
            return JSON_NONE;
        }
    }
    return node;
}

/* Whether the cursor `offset` is inside the token [start, end): strictly after its first byte,
 * and before its last one (or at its end, when the token is not closed). */
static bool inside_token(uint32_t start, uint32_t end, uint32_t offset, bool open_ended)
{
    return offset > start && (offset < end || (open_ended && offset == end));
}

struct json_location json_locate(const struct json_doc *doc, uint32_t offset)
{
    struct json_location loc = {JSON_LOCATION_NONE, JSON_NONE};
    uint32_t node = doc->root;
    if (node == JSON_NONE)
        return loc;
    const struct json_node *n = &doc->nodes[node];
    if (offset < n->start || offset > n->end)
        return loc;
    for (;;) {
        n = &doc->nodes[node];
        bool container = n->kind == JSON_OBJECT || n->kind == JSON_ARRAY;
        bool closed = !(n->flags & JSON_FLAG_UNCLOSED);
        if (!container || offset <= n->start || (closed && offset >= n->end)) {
            loc.kind = JSON_LOCATION_VALUE;
            loc.node = node;
            return loc;
        }
        /* Inside the container: find the child the cursor is on. */
        uint32_t next_node = JSON_NONE;
        for (uint32_t c = n->first_child; c != JSON_NONE; c = doc->nodes[c].next) {
            const struct json_node *child = &doc->nodes[c];
            if (child->key_start != JSON_NONE) {
                bool bare = (child->flags & JSON_FLAG_KEY_BARE) != 0;
                bool open = bare || (child->flags & JSON_FLAG_KEY_UNTERMINATED);
                if (inside_token(child->key_start, child->key_end, offset, open) ||
                    (bare && offset == child->key_start)) {
                    loc.kind = JSON_LOCATION_KEY;
                    loc.node = c;
                    return loc;
                }
                if (offset >= child->key_end && offset <= child->start &&
                    child->start > child->key_end) {
                    /* between the key and the value: after the ':'? */
                    bool colon = false;
                    for (uint32_t i = child->key_end; i < offset; i++)
                        colon |= doc->text[i] == ':';
                    if (colon) {
                        loc.kind = JSON_LOCATION_AFTER_KEY;
                        loc.node = c;
                        return loc;
                    }
                }
                if (child->start == child->end && child->kind == JSON_INVALID &&
                    offset == child->start) {
                    loc.kind = JSON_LOCATION_AFTER_KEY;
                    loc.node = c;
                    return loc;
                }
            }
            bool open_value = (child->flags & (JSON_FLAG_UNTERMINATED | JSON_FLAG_UNCLOSED)) ||
                              child->kind == JSON_INVALID || child->kind == JSON_NUMBER ||
                              child->kind == JSON_TRUE || child->kind == JSON_FALSE ||
                              child->kind == JSON_NULL;
            if (child->end > child->start &&
                (inside_token(child->start, child->end, offset, open_value) ||
                 ((child->kind == JSON_OBJECT || child->kind == JSON_ARRAY) &&
                  offset > child->start && offset < child->end))) {
                next_node = c;
                break;
            }
        }
        if (next_node == JSON_NONE) {
            loc.kind = n->kind == JSON_OBJECT ? JSON_LOCATION_OBJECT : JSON_LOCATION_ARRAY;
            loc.node = node;
            return loc;
        }
        const struct json_node *child = &doc->nodes[next_node];
        if (child->kind != JSON_OBJECT && child->kind != JSON_ARRAY) {
            loc.kind = JSON_LOCATION_VALUE;
            loc.node = next_node;
            return loc;
        }
        node = next_node;
    }
}
