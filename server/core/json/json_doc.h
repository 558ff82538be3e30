/* json_doc: the JSON document model built for editors.
 *
 * A document is a flat array of fixed-size nodes (value range, key range for members, links)
 * plus the errors found while parsing, all owned by the document. Nodes refer to each other by
 * index; JSON_NONE means "no node". The text itself is NOT owned: the caller keeps it alive for
 * as long as the document is used. Numbers keep their text; strings are decoded on demand. */
#ifndef SRCLS_JSON_DOC_H
#define SRCLS_JSON_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

#define JSON_NONE UINT32_MAX

enum json_kind {
    JSON_INVALID = 0, /* a missing or malformed value; its range may be empty */
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT,
};

enum json_node_flag {
    JSON_FLAG_ESCAPED = 1u << 0,          /* string value holds a backslash escape */
    JSON_FLAG_KEY_ESCAPED = 1u << 1,      /* member key holds a backslash escape */
    JSON_FLAG_UNTERMINATED = 1u << 2,     /* string value runs to the end of its line */
    JSON_FLAG_KEY_UNTERMINATED = 1u << 3, /* key string runs to the end of its line */
    JSON_FLAG_KEY_BARE = 1u << 4,         /* key written without quotes (an error) */
    JSON_FLAG_UNCLOSED = 1u << 5,         /* object or array without its closing bracket */
    JSON_FLAG_INTEGER = 1u << 6,          /* number without fraction or exponent */
    /* Member whose key the parser took, while recovering, from text that may be part of a value:
     * a key right after a string value with no ',' between (`"pw": "data:,a" "b"`, or
     * `"pw": "data:,a"b"`), or a string value followed by ':' (`"pw": "data:,a": 1`). The value
     * may be a secret and the key its continuation, so no output quotes such a key: messages,
     * pointers and the outline leave it out, and the rules do not report it as unknown. */
    JSON_FLAG_KEY_RECOVERED = 1u << 7,
};

struct json_node {
    uint32_t start, end;         /* bytes of the value: [start, end) */
    uint32_t key_start, key_end; /* bytes of the member's key, quotes included; JSON_NONE if none */
    uint32_t parent;
    uint32_t first_child; /* for arrays and objects */
    uint32_t next;        /* next sibling */
    uint8_t kind;         /* enum json_kind */
    uint8_t flags;        /* enum json_node_flag */
    uint16_t reserved;
};

enum json_error_code {
    JSON_ERROR_SYNTAX,        /* not RFC 8259 JSON */
    JSON_ERROR_DUPLICATE_KEY, /* the related range is the first definition */
    JSON_ERROR_LIMIT,         /* nesting depth or document size over the limit */
};

struct json_error {
    enum json_error_code code;
    uint32_t start, end;                 /* bytes the error is about */
    uint32_t related_start, related_end; /* JSON_NONE when there is no related place */
    const char *message;                 /* owned by the document */
};

struct json_parse_options {
    size_t max_size;     /* bytes; larger documents get one JSON_ERROR_LIMIT and no tree */
    unsigned max_depth;  /* nesting levels of arrays and objects */
    unsigned max_errors; /* errors kept; the rest are only counted */
};

#define JSON_DEFAULT_MAX_SIZE ((size_t)256 << 20)
#define JSON_DEFAULT_MAX_DEPTH 512u
#define JSON_DEFAULT_MAX_ERRORS 200u

struct json_doc {
    const char *text; /* not owned */
    uint32_t len;
    struct json_node *nodes;
    uint32_t node_count, node_cap;
    uint32_t root; /* JSON_NONE when the document holds no value */
    struct json_error *errors;
    uint32_t error_count, error_cap;
    uint32_t errors_dropped;
    struct arena arena; /* decoded strings, messages */
    /* Set by the owner: json_splice may leave the move of the nodes after the edited top-level
     * value pending, for an owner that settles (json_doc_settle) before it reads them. */
    bool defer_moves;
    /* That pending move: the bytes of the nodes from `moved_from` on (their value's and, for a
     * member, its key's) are `moved` further on than they say (modulo 2^32; 0: nothing pending,
     * whatever `moved_from`). Their links are right. json_moved reads through it. */
    uint32_t moved_from, moved;
};

/* A slice of bytes: into the document text, or into the document's arena. Not NUL-terminated
 * when it points into the text. */
struct json_str {
    const char *ptr;
    size_t len;
};

/* Parses `text` into `doc` (which the caller owns and frees with json_doc_free). Syntax errors
 * do not stop the parse: the tree holds everything that could be recovered. Returns 0, or -1
 * when memory ran out (the document then holds what was parsed before). `options` may be NULL
 * for the defaults. */
int json_parse(struct json_doc *doc, const char *text, size_t len,
               const struct json_parse_options *options);
void json_doc_free(struct json_doc *doc);
/* Parses the one value at `start` of `text` (after whitespace) as json_parse parses it in that
 * place: inside `depth` open containers whose closing brackets are `closers` (outermost first),
 * with the same recovery. Offsets are of the whole text; the value is the root (no parent).
 * `*end`: where the parse stopped after it, or UINT32_MAX when it ran past `give_up_after` or
 * hit a limit. No root when no value starts there. For updates (json_splice). Returns 0, or -1
 * when memory ran out. */
int json_parse_value_at(struct json_doc *doc, const char *text, size_t len, uint32_t start,
                        const char *closers, unsigned depth, uint32_t give_up_after,
                        const struct json_parse_options *options, uint32_t *end);

/* Applies the pending move (defer_moves) to the nodes before `upto` (JSON_NONE: all of them):
 * from then on they say their bytes. O(nodes settled). */
void json_doc_settle(struct json_doc *doc, uint32_t upto);
/* The same for the nodes up to the end of the top-level value (the root's child) that holds byte
 * `offset`, or of all when none does: what an edit there reads. */
void json_doc_settle_at(struct json_doc *doc, uint32_t offset);

/* Byte `offset` of node `index` (its start or end, or its key's when it has a key) where it is
 * now, through a pending move. */
static inline uint32_t json_moved(const struct json_doc *doc, uint32_t index, uint32_t offset)
{
    return index >= doc->moved_from ? offset + doc->moved : offset;
}

static inline const struct json_node *json_node_at(const struct json_doc *doc, uint32_t index)
{
    return index == JSON_NONE ? NULL : &doc->nodes[index];
}

/* json_node_key's path for a key with an escape, one written without quotes or not closed, and
 * a node that is not a member. */
struct json_str json_node__key_decoded(struct json_doc *doc, uint32_t node);

/* The member's key, decoded (escapes resolved into the document's arena). Empty for a node that
 * is not a member. Inline: the rules and the duplicate-key check ask for every member's key, and
 * a key without escapes (nearly all) is its bytes between the quotes. */
static inline struct json_str json_node_key(struct json_doc *doc, uint32_t node)
{
    if (node != JSON_NONE) {
        const struct json_node *n = &doc->nodes[node];
        if (n->key_start != JSON_NONE &&
            !(n->flags & (JSON_FLAG_KEY_ESCAPED | JSON_FLAG_KEY_UNTERMINATED | JSON_FLAG_KEY_BARE)))
            return (struct json_str){doc->text + n->key_start + 1, n->key_end - n->key_start - 2};
    }
    return json_node__key_decoded(doc, node);
}
bool json_node_key_equals(struct json_doc *doc, uint32_t node, const char *key, size_t key_len);
/* json_node_string's path for a string with an escape, one not closed, and a node that is not a
 * string. */
struct json_str json_node__string_decoded(struct json_doc *doc, uint32_t node);

/* A string node's value, decoded. Empty for a node that is not a string. Inline, as
 * json_node_key: a string without escapes is its bytes between the quotes. */
static inline struct json_str json_node_string(struct json_doc *doc, uint32_t node)
{
    if (node != JSON_NONE) {
        const struct json_node *n = &doc->nodes[node];
        if (n->kind == JSON_STRING && !(n->flags & (JSON_FLAG_ESCAPED | JSON_FLAG_UNTERMINATED)))
            return (struct json_str){doc->text + n->start + 1, n->end - n->start - 2};
    }
    return json_node__string_decoded(doc, node);
}
bool json_node_string_equals(struct json_doc *doc, uint32_t node, const char *text, size_t len);
/* A string node's body as written (between the quotes, escapes not resolved) and whether it
 * holds escapes: for a caller that decodes a long string into its own buffer
 * (json_string_decode) rather than into the document's arena. Empty for a node that is not a
 * string. */
struct json_str json_node_string_body(const struct json_doc *doc, uint32_t node, bool *escaped);
/* An integer number's value; false when the node is not an integer or does not fit 64 bits. */
bool json_node_int64(const struct json_doc *doc, uint32_t node, int64_t *out);
/* A number's value as a double (false when the node is not a number). */
bool json_node_double(const struct json_doc *doc, uint32_t node, double *out);

/* A string literal and its length, for the (text, length) parameters below:
 * json_object_get(doc, object, JSON_LITERAL("name")). Only a literal compiles. */
#define JSON_LITERAL(literal) ("" literal ""), (sizeof(literal) - 1)

/* The last member of `object` named `key`, or JSON_NONE. */
uint32_t json_object_get(struct json_doc *doc, uint32_t object, const char *key, size_t key_len);
uint32_t json_child_count(const struct json_doc *doc, uint32_t container);
/* The element of `array` at `index`, or JSON_NONE. */
uint32_t json_array_get(const struct json_doc *doc, uint32_t array, uint32_t index);
/* The position of `node` among its parent's children. */
uint32_t json_node_index(const struct json_doc *doc, uint32_t node);

const char *json_kind_name(enum json_kind kind);

#endif
