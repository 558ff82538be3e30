/* json_parse_errors: what the parser reports and how. Errors are data (code, range, related
 * range, message) kept in the document; messages are formatted once, into its arena. A message
 * names a key only through json_parse__describe_key, which shortens it, strips control
 * characters and hides recovered keys; it never quotes a value. Duplicate keys are found per
 * object (pairwise when small, by a scratch hash table when large), and a UTF-16 or UTF-32
 * document is told apart before any parse. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_parse_internal.h"
#include "base/base.h"

#define SMALL_OBJECT 8

void json_parse__add_error(struct json_parser *p, enum json_error_code code, uint32_t start,
                           uint32_t end, uint32_t related_start, uint32_t related_end,
                           const char *format, ...)
{
    struct json_doc *doc = p->doc;
    if (doc->error_count >= p->options.max_errors) {
        doc->errors_dropped++;
        return;
    }
    if (doc->error_count == doc->error_cap) {
        size_t cap = doc->error_cap;
        struct json_error *grown =
            vector_grow(doc->errors, &cap, (size_t)doc->error_count + 1, sizeof *grown);
        if (grown == NULL) {
            p->out_of_memory = true;
            return;
        }
        doc->errors = grown;
        doc->error_cap = (uint32_t)(cap < UINT32_MAX ? cap : UINT32_MAX);
    }
    char buffer[256];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    const char *message = arena_strndup(&doc->arena, buffer, strlen(buffer));
    if (message == NULL) {
        p->out_of_memory = true;
        return;
    }
    doc->errors[doc->error_count++] = (struct json_error){
        .code = code,
        .start = start,
        .end = end,
        .related_start = related_start,
        .related_end = related_end,
        .message = message,
    };
}

void json_parse__syntax_error(struct json_parser *p, uint32_t start, uint32_t end,
                              const char *format, ...)
{
    char buffer[200];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    json_parse__add_error(p, JSON_ERROR_SYNTAX, start, end, JSON_NONE, JSON_NONE, "%s", buffer);
}

void json_parse__describe_key(struct json_parser *p, uint32_t node, char *out, size_t out_size)
{
    if (p->doc->nodes[node].flags & JSON_FLAG_KEY_RECOVERED) {
        snprintf(out, out_size, "(not shown)");
        return;
    }
    struct json_str key = json_node_key(p->doc, node);
    size_t n = 0, i = 0;
    out[n++] = '"';
    for (; i < key.len && n + 5 < out_size && i < JSON_PARSE_KEY_IN_MESSAGE_MAX; i++) {
        unsigned char c = (unsigned char)key.ptr[i];
        out[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    while (i > 0 && i < key.len && ((unsigned char)key.ptr[i] & 0xC0) == 0x80) {
        i--; /* a shortened key ends between characters, not inside one */
        n--;
    }
    if (i < key.len && n + 4 < out_size) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n++] = '"';
    out[n] = '\0';
}

static void report_duplicate(struct json_parser *p, uint32_t first, uint32_t later)
{
    char key[JSON_PARSE_KEY_BUFFER_SIZE];
    json_parse__describe_key(p, later, key, sizeof key);
    const struct json_node *a = &p->doc->nodes[first], *b = &p->doc->nodes[later];
    json_parse__add_error(
        p, JSON_ERROR_DUPLICATE_KEY, b->key_start, b->key_end, a->key_start, a->key_end,
        "duplicate key %s: it is already defined in this object, and only one of the two "
        "takes effect",
        key);
}

/* Recovered keys take no part: they are guesses, and may be a value's text. */
/* Whether two decoded keys are the same (the length, then the first byte: most keys differ in
 * one or the other). */
static inline bool same_key(struct json_str a, struct json_str b)
{
    return a.len == b.len &&
           (a.len == 0 || (a.ptr[0] == b.ptr[0] && memcmp(a.ptr, b.ptr, a.len) == 0));
}

void json_parse__check_duplicate_keys(struct json_parser *p, uint32_t object, uint32_t members)
{
    struct json_doc *doc = p->doc;
    if (members < 2)
        return;
    if (members <= SMALL_OBJECT) {
        /* Each member against the first holders of the earlier keys, so that a repeat points
         * at the first definition, as with the hash table below; each key read once. */
        struct json_str keys[SMALL_OBJECT];
        uint32_t holders[SMALL_OBJECT], held = 0;
        for (uint32_t m = doc->nodes[object].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            if (doc->nodes[m].flags & JSON_FLAG_KEY_RECOVERED)
                continue;
            struct json_str key = json_node_key(doc, m);
            uint32_t a = 0;
            while (a < held && !same_key(keys[a], key))
                a++;
            if (a < held)
                report_duplicate(p, holders[a], m);
            else if (held < SMALL_OBJECT) {
                keys[held] = key;
                holders[held++] = m;
            }
        }
        return;
    }
    uint32_t cap = 16;
    while (cap < members * 2)
        cap *= 2;
    if (cap > p->dup_cap) { /* powers of two: vector_grow gives `cap` exactly */
        size_t room = p->dup_cap;
        uint32_t *grown = vector_grow(p->dup_table, &room, cap, sizeof *grown);
        if (grown == NULL) {
            p->out_of_memory = true;
            return;
        }
        p->dup_table = grown;
        p->dup_cap = cap;
    }
    memset(p->dup_table, 0xff, cap * sizeof *p->dup_table);
    for (uint32_t m = doc->nodes[object].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        if (doc->nodes[m].flags & JSON_FLAG_KEY_RECOVERED)
            continue;
        struct json_str key = json_node_key(doc, m);
        uint32_t slot = hash_slot(key.ptr, key.len) & (cap - 1);
        for (;;) {
            uint32_t other = p->dup_table[slot];
            if (other == JSON_NONE) {
                p->dup_table[slot] = m;
                break;
            }
            if (same_key(json_node_key(doc, other), key)) {
                report_duplicate(p, other, m);
                break;
            }
            slot = (slot + 1) & (cap - 1);
        }
    }
}

/* An encoding JSON must not use (RFC 8259, section 8.1: UTF-8 only), told from its byte order
 * mark or, without one, from the zero bytes of ASCII characters (RFC 4627, section 3). */
struct wide_encoding {
    const char *name;
    uint32_t bom; /* length of the byte order mark; 0 when there is none */
};

static bool detect_wide_encoding(const unsigned char *s, uint32_t len, struct wide_encoding *out)
{
    static const struct {
        const char *bytes;
        uint32_t len;
        const char *name;
    } marks[] = {
        /* UTF-32LE before UTF-16LE: their marks start alike. */
        {"\x00\x00\xFE\xFF", 4, "UTF-32BE"},
        {"\xFF\xFE\x00\x00", 4, "UTF-32LE"},
        {"\xFE\xFF", 2, "UTF-16BE"},
        {"\xFF\xFE", 2, "UTF-16LE"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        if (len >= marks[i].len && memcmp(s, marks[i].bytes, marks[i].len) == 0) {
            *out = (struct wide_encoding){marks[i].name, marks[i].len};
            return true;
        }
    }
    /* JSON text starts with an ASCII character, and UTF-8 JSON holds no zero byte at all. */
    const char *name = NULL;
    if (len >= 4 && !s[0] && !s[1] && !s[2] && s[3])
        name = "UTF-32BE";
    else if (len >= 4 && s[0] && !s[1] && !s[2] && !s[3])
        name = "UTF-32LE";
    else if (len >= 2 && !s[0] && s[1])
        name = "UTF-16BE";
    else if (len >= 2 && s[0] && !s[1])
        name = "UTF-16LE";
    if (name == NULL)
        return false;
    *out = (struct wide_encoding){name, 0};
    return true;
}

static void report_wide_encoding(struct json_parser *p, const struct wide_encoding *e)
{
    uint32_t unit = e->name[4] == '3' ? 4 : 2;
    uint32_t end = e->bom ? e->bom : (unit < p->len ? unit : p->len);
    json_parse__syntax_error(
        p, 0, end,
        "the document is %s (judging by its %s), but JSON must be UTF-8 (RFC 8259, "
        "section 8.1): convert it, for example with iconv -f %s -t UTF-8",
        e->name, e->bom ? "byte order mark" : "zero bytes", e->name);
}

bool json_parse__reject_wide_encoding(struct json_parser *p)
{
    struct wide_encoding wide;
    if (!detect_wide_encoding(p->s, p->len, &wide))
        return false;
    report_wide_encoding(p, &wide);
    return true;
}
