/* json_doc: accessors over a parsed document: keys, strings, numbers, members, elements. */
#include "json_doc.h"

#include <stdlib.h>
#include <string.h>

#include "json_string.h"

/* The body of a string token [start, end): without the quotes, when they are there. */
static struct json_str token_body(const struct json_doc *doc, uint32_t start, uint32_t end,
                                  bool unterminated)
{
    struct json_str body = {doc->text + start, end - start};
    if (body.len > 0 && body.ptr[0] == '"') {
        body.ptr++;
        body.len--;
        if (!unterminated && body.len > 0)
            body.len--;
    }
    return body;
}

static struct json_str decode(struct json_doc *doc, struct json_str body, bool escaped)
{
    if (!escaped)
        return body;
    char *out = arena_alloc(&doc->arena, body.len + 1);
    if (out == NULL)
        return (struct json_str){"", 0};
    size_t n = json_string_decode(body.ptr, body.len, out);
    out[n] = '\0';
    return (struct json_str){out, n};
}

struct json_str json_node__key_decoded(struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->key_start == JSON_NONE)
        return (struct json_str){"", 0};
    if (n->flags & JSON_FLAG_KEY_BARE)
        return (struct json_str){doc->text + n->key_start, n->key_end - n->key_start};
    struct json_str body =
        token_body(doc, n->key_start, n->key_end, (n->flags & JSON_FLAG_KEY_UNTERMINATED) != 0);
    return decode(doc, body, (n->flags & JSON_FLAG_KEY_ESCAPED) != 0);
}

/* Whether `body`, decoded, is `text`: the raw bytes when it holds no escape; else decoded on the
 * stack when short (decoding never lengthens), so that comparing allocates nothing. */
static bool body_equals(struct json_doc *doc, struct json_str body, bool escaped, const char *text,
                        size_t len)
{
    if (!escaped)
        return body.len == len && memcmp(body.ptr, text, len) == 0;
    if (body.len < len)
        return false;
    char buffer[256];
    if (body.len > sizeof buffer) {
        struct json_str decoded = decode(doc, body, true);
        return decoded.len == len && memcmp(decoded.ptr, text, len) == 0;
    }
    size_t n = json_string_decode(body.ptr, body.len, buffer);
    return n == len && memcmp(buffer, text, len) == 0;
}

bool json_node_key_equals(struct json_doc *doc, uint32_t node, const char *key, size_t key_len)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->key_start == JSON_NONE)
        return key_len == 0;
    if (!(n->flags & (JSON_FLAG_KEY_ESCAPED | JSON_FLAG_KEY_UNTERMINATED | JSON_FLAG_KEY_BARE)))
        return n->key_end - n->key_start == key_len + 2 && /* the quotes */
               memcmp(doc->text + n->key_start + 1, key, key_len) == 0;
    if (n->flags & JSON_FLAG_KEY_BARE)
        return n->key_end - n->key_start == key_len &&
               memcmp(doc->text + n->key_start, key, key_len) == 0;
    struct json_str body =
        token_body(doc, n->key_start, n->key_end, (n->flags & JSON_FLAG_KEY_UNTERMINATED) != 0);
    return body_equals(doc, body, (n->flags & JSON_FLAG_KEY_ESCAPED) != 0, key, key_len);
}

struct json_str json_node__string_decoded(struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_STRING)
        return (struct json_str){"", 0};
    struct json_str body =
        token_body(doc, n->start, n->end, (n->flags & JSON_FLAG_UNTERMINATED) != 0);
    return decode(doc, body, (n->flags & JSON_FLAG_ESCAPED) != 0);
}

struct json_str json_node_string_body(const struct json_doc *doc, uint32_t node, bool *escaped)
{
    const struct json_node *n = json_node_at(doc, node);
    *escaped = false;
    if (n == NULL || n->kind != JSON_STRING)
        return (struct json_str){"", 0};
    *escaped = (n->flags & JSON_FLAG_ESCAPED) != 0;
    return token_body(doc, n->start, n->end, (n->flags & JSON_FLAG_UNTERMINATED) != 0);
}

bool json_node_string_equals(struct json_doc *doc, uint32_t node, const char *text, size_t len)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_STRING)
        return false;
    struct json_str body =
        token_body(doc, n->start, n->end, (n->flags & JSON_FLAG_UNTERMINATED) != 0);
    return body_equals(doc, body, (n->flags & JSON_FLAG_ESCAPED) != 0, text, len);
}

bool json_node_int64(const struct json_doc *doc, uint32_t node, int64_t *out)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_NUMBER || !(n->flags & JSON_FLAG_INTEGER))
        return false;
    const char *s = doc->text + n->start;
    size_t len = n->end - n->start;
    bool negative = len > 0 && s[0] == '-';
    uint64_t value = 0;
    for (size_t i = negative ? 1 : 0; i < len; i++) {
        unsigned digit = (unsigned)(s[i] - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    if (negative) {
        if (value > (uint64_t)INT64_MAX + 1)
            return false;
        *out = value == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)value;
    } else {
        if (value > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)value;
    }
    return true;
}

bool json_node_double(const struct json_doc *doc, uint32_t node, double *out)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_NUMBER)
        return false;
    char buffer[64];
    size_t len = n->end - n->start;
    if (len >= sizeof buffer) {
        /* Long numbers: strtod needs a terminated copy. */
        char *copy = malloc(len + 1);
        if (copy == NULL)
            return false;
        memcpy(copy, doc->text + n->start, len);
        copy[len] = '\0';
        *out = strtod(copy, NULL);
        free(copy);
        return true;
    }
    memcpy(buffer, doc->text + n->start, len);
    buffer[len] = '\0';
    *out = strtod(buffer, NULL);
    return true;
}

uint32_t json_object_get(struct json_doc *doc, uint32_t object, const char *key, size_t key_len)
{
    const struct json_node *o = json_node_at(doc, object);
    if (o == NULL || o->kind != JSON_OBJECT)
        return JSON_NONE;
    uint32_t found = JSON_NONE;
    for (uint32_t m = o->first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        const struct json_node *n = &doc->nodes[m];
        /* a key without escapes, quotes or a missing closing quote: compared here, the length
         * first (most keys differ in it) */
        if (n->key_start != JSON_NONE &&
                    !(n->flags &
                      (JSON_FLAG_KEY_ESCAPED | JSON_FLAG_KEY_UNTERMINATED | JSON_FLAG_KEY_BARE))
                ? n->key_end - n->key_start == key_len + 2 &&
                      memcmp(doc->text + n->key_start + 1, key, key_len) == 0
                : json_node_key_equals(doc, m, key, key_len))
            found = m;
    }
    return found;
}

uint32_t json_child_count(const struct json_doc *doc, uint32_t container)
{
    const struct json_node *c = json_node_at(doc, container);
    uint32_t count = 0;
    if (c == NULL)
        return 0;
    for (uint32_t m = c->first_child; m != JSON_NONE; m = doc->nodes[m].next)
        count++;
    return count;
}

uint32_t json_array_get(const struct json_doc *doc, uint32_t array, uint32_t index)
{
    const struct json_node *a = json_node_at(doc, array);
    if (a == NULL || a->kind != JSON_ARRAY)
        return JSON_NONE;
    uint32_t e = a->first_child;
    while (e != JSON_NONE && index-- > 0)
        e = doc->nodes[e].next;
    return e;
}

uint32_t json_node_index(const struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->parent == JSON_NONE)
        return 0;
    uint32_t index = 0;
    for (uint32_t c = doc->nodes[n->parent].first_child; c != JSON_NONE && c != node;
         c = doc->nodes[c].next)
        index++;
    return index;
}

const char *json_kind_name(enum json_kind kind)
{
    switch (kind) {
    case JSON_NULL: return "null";
    case JSON_FALSE:
    case JSON_TRUE: return "boolean";
    case JSON_NUMBER: return "number";
    case JSON_STRING: return "string";
    case JSON_ARRAY: return "array";
    case JSON_OBJECT: return "object";
    case JSON_INVALID: break;
    }
    return "invalid value";
}
