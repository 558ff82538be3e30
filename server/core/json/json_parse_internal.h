/* json_parse_internal: what the files of the parser share (json_parse.c: the descent over objects
 * and arrays, and the entry point; json_parse_scan.c: strings, numbers and bare words;
 * json_parse_errors.c: errors and their messages, duplicate keys, UTF-16 and UTF-32). One module
 * split for size: its files call each other through this header, the one kind of include circle
 * allowed (docs/architecture.md), and only files of json/ include it.
 *
 * The character classes and node constructors are `static inline` here because they run for every
 * byte or every node: as calls between files they would cost the parser its speed. */
#ifndef SRCLS_JSON_PARSE_INTERNAL_H
#define SRCLS_JSON_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_doc.h"
#include "base/base.h"

/* SSE2 (every x86-64) for the string scan; other targets take the eight-byte path. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define JSON_PARSE__SSE2 1
#else
#define JSON_PARSE__SSE2 0
#endif

/* The bytes of a key that a message quotes, and the buffer json_parse__describe_key fills. */
#define JSON_PARSE_KEY_IN_MESSAGE_MAX 48
#define JSON_PARSE_KEY_BUFFER_SIZE (JSON_PARSE_KEY_IN_MESSAGE_MAX + 8)
/* The most nodes the first allocation of the node array holds (32 MB of nodes). */
#define JSON_PARSE_FIRST_NODES_MAX (1u << 20)

/* One parse of one document. */
struct json_parser {
    const unsigned char *s;
    uint32_t len;
    uint32_t pos;
    struct json_doc *doc;
    struct json_parse_options options;
    unsigned depth;
    char *closers; /* expected closing bracket per open container, for mismatch recovery */
    bool halted;   /* a limit was hit: stop building */
    /* A partial parse (json_parse_value_at) gives up once past this byte; UINT32_MAX else. */
    uint32_t give_up_after;
    bool out_of_memory;
    uint32_t *dup_table; /* scratch hash table for duplicate keys of large objects */
    uint32_t dup_cap;
};

/* ---- character classes: whitespace, the bytes that end a bare word, a value's first byte ---- */

static inline bool json_parse__is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline bool json_parse__is_delimiter(unsigned char c)
{
    return json_parse__is_ws(c) || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' ||
           c == '}' || c == '"';
}

static inline bool json_parse__is_value_start(unsigned char c)
{
    return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' ||
           c == 'f' || c == 'n';
}

/* ---- eight bytes at a time (SWAR) in a uint64_t: a helper sets the high bit of the bytes it
 * looks for; json_parse__swar_first finds the first of them in memory order ---- */

#define JSON_PARSE__ONES 0x0101010101010101ull
#define JSON_PARSE__LOW7 0x7F7F7F7F7F7F7F7Full
#define JSON_PARSE__HIGH 0x8080808080808080ull

static inline uint64_t json_parse__swar_load(const unsigned char *s)
{
    uint64_t v;
    memcpy(&v, s, sizeof v);
    return v;
}

/* The bytes of `v` that are 0, exactly (no borrow between bytes). */
static inline uint64_t json_parse__swar_zero(uint64_t v)
{
    return ~(((v & JSON_PARSE__LOW7) + JSON_PARSE__LOW7) | v) & JSON_PARSE__HIGH;
}

/* The bytes a string body cannot simply pass: '"', '\\', below 0x20, or 0x80 and above. */
static inline uint64_t json_parse__swar_string_special(uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Cheaper, and exact up to the first byte found: a borrow only flags bytes after it. */
    uint64_t q = v ^ (JSON_PARSE__ONES * '"'), b = v ^ (JSON_PARSE__ONES * '\\');
    return (((q - JSON_PARSE__ONES) & ~q) | ((b - JSON_PARSE__ONES) & ~b) |
            ((v - JSON_PARSE__ONES * 0x20) & ~v) | v) &
           JSON_PARSE__HIGH;
#else
    uint64_t below_space = ~(((v & JSON_PARSE__LOW7) + JSON_PARSE__ONES * (0x80 - 0x20)) | v);
    return (json_parse__swar_zero(v ^ (JSON_PARSE__ONES * '"')) |
            json_parse__swar_zero(v ^ (JSON_PARSE__ONES * '\\')) | below_space | v) &
           JSON_PARSE__HIGH;
#endif
}

/* The index, in memory order, of the first byte of `v` with a bit set (`v` is not 0). */
static inline uint32_t json_parse__swar_first(uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint32_t)__builtin_clzll(v) >> 3;
#else
    return (uint32_t)__builtin_ctzll(v) >> 3;
#endif
}

/* Whitespace; after each whitespace byte, a run of spaces (indentation) is passed 8 bytes at a
 * time while 8 bytes remain. */
static inline void json_parse__skip_ws(struct json_parser *p)
{
    const unsigned char *s = p->s;
    uint32_t i = p->pos, len = p->len;
    while (i < len && json_parse__is_ws(s[i])) {
        i++;
        while (len - i >= 8) {
            uint64_t other = json_parse__swar_load(s + i) ^ (JSON_PARSE__ONES * ' ');
            if (other != 0) {
                i += json_parse__swar_first(other);
                break;
            }
            i += 8;
        }
    }
    p->pos = i;
}

static inline bool json_parse__at_end(const struct json_parser *p)
{
    return p->pos >= p->len;
}

/* Skips a bare word (up to a delimiter), or one unexpected delimiter; returns where it began. */
static inline uint32_t json_parse__skip_word(struct json_parser *p)
{
    uint32_t start = p->pos;
    while (p->pos < p->len && !json_parse__is_delimiter(p->s[p->pos]))
        p->pos++;
    if (p->pos == start && p->pos < p->len)
        p->pos++; /* a lone delimiter we do not expect: consume it */
    return start;
}

/* ---- nodes ---- */

/* The first capacity of the node array, from the document's size: one node per 24 bytes (a
 * minified document has about one per 25, a pretty-printed one one per 35), so that most
 * documents need one allocation and no copy; dense ones grow by doubling from there. */
static inline uint32_t json_parse__first_node_cap(uint32_t len)
{
    uint32_t cap = len / 24 + 16;
    return cap < JSON_PARSE_FIRST_NODES_MAX ? cap : JSON_PARSE_FIRST_NODES_MAX;
}

/* A new node at the end of the array; JSON_NONE (and the parse halts) when memory runs out. */
static inline uint32_t json_parse__new_node(struct json_parser *p, enum json_kind kind,
                                            uint32_t start, uint32_t parent)
{
    struct json_doc *doc = p->doc;
    if (doc->node_count == doc->node_cap) {
        size_t cap = doc->node_cap;
        /* the first node is the root: a partial parse is sized by the value it expects */
        uint32_t span = p->give_up_after != UINT32_MAX && p->give_up_after >= start
                            ? p->give_up_after - start + 1
                            : p->len;
        size_t needed = cap ? cap + 1 : json_parse__first_node_cap(span);
        struct json_node *grown = doc->node_count < JSON_NONE - 1
                                      ? vector_grow(doc->nodes, &cap, needed, sizeof *grown)
                                      : NULL;
        if (grown == NULL) {
            p->out_of_memory = true;
            p->halted = true;
            return JSON_NONE;
        }
        doc->nodes = grown;
        doc->node_cap = (uint32_t)(cap < JSON_NONE ? cap : JSON_NONE - 1);
    }
    uint32_t index = doc->node_count++;
    doc->nodes[index] = (struct json_node){
        .start = start,
        .end = start,
        .key_start = JSON_NONE,
        .key_end = JSON_NONE,
        .parent = parent,
        .first_child = JSON_NONE,
        .next = JSON_NONE,
        .kind = (uint8_t)kind,
    };
    return index;
}

/* The node a value is written to: `reuse` (a member whose key is already read), or a new one. */
static inline uint32_t json_parse__value_node(struct json_parser *p, enum json_kind kind,
                                              uint32_t start, uint32_t parent, uint32_t reuse)
{
    if (reuse == JSON_NONE)
        return json_parse__new_node(p, kind, start, parent);
    struct json_node *n = &p->doc->nodes[reuse];
    n->kind = (uint8_t)kind;
    n->start = n->end = start;
    return reuse;
}

/* ---- scalars (json_parse_scan.c): each reads the token at p->pos, reports what is wrong with
 * it, and leaves p->pos after it. `parent` is the node's parent; `reuse` is the member node to
 * write the value into, or JSON_NONE for a new node. They return the node, or JSON_NONE when
 * memory ran out. ---- */

/* Scans a string token at p->pos (which is '"'); returns its end and flags. Reports control
 * characters, bad escapes and invalid UTF-8; a string not closed on its line ends there. */
uint32_t json_parse__scan_string(struct json_parser *p, uint8_t *escaped, bool *unterminated);
uint32_t json_parse__string(struct json_parser *p, uint32_t parent, uint32_t reuse);
/* A number, or an invalid value covering the bare word that starts like one. */
uint32_t json_parse__number(struct json_parser *p, uint32_t parent, uint32_t reuse);
/* true, false, null, or an invalid value covering the bare word. */
uint32_t json_parse__word(struct json_parser *p, uint32_t parent, uint32_t reuse);

/* ---- errors (json_parse_errors.c) ---- */

/* Records an error with its range, its related range (JSON_NONE when none) and its message,
 * formatted into the document's arena; past options.max_errors it is only counted. */
void json_parse__add_error(struct json_parser *p, enum json_error_code code, uint32_t start,
                           uint32_t end, uint32_t related_start, uint32_t related_end,
                           const char *format, ...) __attribute__((format(printf, 7, 8)));
/* A JSON_ERROR_SYNTAX error without a related range. */
void json_parse__syntax_error(struct json_parser *p, uint32_t start, uint32_t end,
                              const char *format, ...) __attribute__((format(printf, 4, 5)));
/* Writes the member key of `node` for a message: `"port"`, shortened and without controls; a
 * recovered key, which may be a secret's continuation, is not shown. JSON_PARSE_KEY_BUFFER_SIZE
 * bytes hold the longest. */
void json_parse__describe_key(struct json_parser *p, uint32_t node, char *out, size_t out_size);
/* Reports the repeated keys among the `members` members of `object`. */
void json_parse__check_duplicate_keys(struct json_parser *p, uint32_t object, uint32_t members);
/* When the document is UTF-16 or UTF-32, reports it (one error that names the encoding) and
 * returns true. */
bool json_parse__reject_wide_encoding(struct json_parser *p);

#endif
