/* json_parse_internal: what the files of the parser share (json_parse.c: the descent over
 * objects and arrays, and the entry point; json_parse_scan.c: strings, numbers and bare words;
 * json_parse_errors.c: errors and their messages, duplicate keys, UTF-16 and UTF-32). Not for
 * other modules.
 *
 * The character classes and node constructors are `static inline` here because they run for
 * every byte or every node: as calls between files they would cost the parser its speed. */
#ifndef SRCLS_JSON_PARSE_INTERNAL_H
#define SRCLS_JSON_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "json_doc.h"

/* The bytes of a key that a message quotes, and the buffer json_parse__describe_key fills. */
#define JSON_PARSE_KEY_IN_MESSAGE_MAX 48
#define JSON_PARSE_KEY_BUFFER_SIZE (JSON_PARSE_KEY_IN_MESSAGE_MAX + 8)

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

static inline void json_parse__skip_ws(struct json_parser *p)
{
    while (p->pos < p->len && json_parse__is_ws(p->s[p->pos]))
        p->pos++;
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

/* A new node at the end of the array; JSON_NONE (and the parse halts) when memory runs out. */
static inline uint32_t json_parse__new_node(struct json_parser *p, enum json_kind kind,
                                            uint32_t start, uint32_t parent)
{
    struct json_doc *doc = p->doc;
    if (doc->node_count == doc->node_cap) {
        uint32_t cap = doc->node_cap ? doc->node_cap * 2 : 64;
        struct json_node *grown = realloc(doc->nodes, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            p->out_of_memory = true;
            p->halted = true;
            return JSON_NONE;
        }
        doc->nodes = grown;
        doc->node_cap = cap;
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
