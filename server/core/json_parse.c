/* json_parse: a single-pass, recovering, strict RFC 8259 parser.
 *
 * Editors send half-typed documents, so an error never ends the parse: the parser reports it
 * with a range and a message, makes the smallest repair that keeps the rest of the tree useful
 * (a missing comma or colon, a missing value, an unquoted key, an unclosed bracket), and goes
 * on. Nodes are written into one growing array; nothing is allocated per character. Messages
 * never quote document values (they may be secrets), only keys, and not the keys that recovery
 * took from text that may belong to a value (JSON_FLAG_KEY_RECOVERED).
 *
 * A document in UTF-16 or UTF-32 gets one error that names its encoding, and no tree. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_doc.h"
#include "json_string.h"

#define KEY_IN_MESSAGE_MAX 48
#define SMALL_OBJECT 8

struct parser {
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

/* Character classes: whitespace, and bytes that end a bare word. */
static bool is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_delimiter(unsigned char c)
{
    return is_ws(c) || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' ||
           c == '"';
}

static bool is_value_start(unsigned char c)
{
    return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' ||
           c == 'f' || c == 'n';
}

static void skip_ws(struct parser *p)
{
    while (p->pos < p->len && is_ws(p->s[p->pos]))
        p->pos++;
}

static bool at_end(const struct parser *p)
{
    return p->pos >= p->len;
}

static uint32_t skip_word(struct parser *p)
{
    uint32_t start = p->pos;
    while (p->pos < p->len && !is_delimiter(p->s[p->pos]))
        p->pos++;
    if (p->pos == start && p->pos < p->len)
        p->pos++; /* a lone delimiter we do not expect: consume it */
    return start;
}

/* ---- errors ---- */

static void add_error(struct parser *p, enum json_error_code code, uint32_t start, uint32_t end,
                      uint32_t related_start, uint32_t related_end, const char *format, ...)
    __attribute__((format(printf, 7, 8)));

static void add_error(struct parser *p, enum json_error_code code, uint32_t start, uint32_t end,
                      uint32_t related_start, uint32_t related_end, const char *format, ...)
{
    struct json_doc *doc = p->doc;
    if (doc->error_count >= p->options.max_errors) {
        doc->errors_dropped++;
        return;
    }
    if (doc->error_count == doc->error_cap) {
        uint32_t cap = doc->error_cap ? doc->error_cap * 2 : 8;
        struct json_error *grown = realloc(doc->errors, cap * sizeof *grown);
        if (grown == NULL) {
            p->out_of_memory = true;
            return;
        }
        doc->errors = grown;
        doc->error_cap = cap;
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

static void syntax_error(struct parser *p, uint32_t start, uint32_t end, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static void syntax_error(struct parser *p, uint32_t start, uint32_t end, const char *format, ...)
{
    char buffer[200];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    add_error(p, JSON_ERROR_SYNTAX, start, end, JSON_NONE, JSON_NONE, "%s", buffer);
}

/* Writes the member key of `node` for a message: `"port"`, shortened and without controls; a
 * recovered key, which may be a secret's continuation, is not shown. */
static void describe_key(struct parser *p, uint32_t node, char *out, size_t out_size)
{
    if (p->doc->nodes[node].flags & JSON_FLAG_KEY_RECOVERED) {
        snprintf(out, out_size, "(not shown)");
        return;
    }
    struct json_str key = json_node_key(p->doc, node);
    size_t n = 0, i = 0;
    out[n++] = '"';
    for (; i < key.len && n + 5 < out_size && i < KEY_IN_MESSAGE_MAX; i++) {
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

/* ---- nodes ---- */

static uint32_t new_node(struct parser *p, enum json_kind kind, uint32_t start, uint32_t parent)
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
static uint32_t value_node(struct parser *p, enum json_kind kind, uint32_t start, uint32_t parent,
                           uint32_t reuse)
{
    if (reuse == JSON_NONE)
        return new_node(p, kind, start, parent);
    struct json_node *n = &p->doc->nodes[reuse];
    n->kind = (uint8_t)kind;
    n->start = n->end = start;
    return reuse;
}

/* ---- scalars ---- */

/* Scans a string token at p->pos (which is '"'); returns its end and flags. Reports control
 * characters, bad escapes and invalid UTF-8; a string not closed on its line ends there. */
static uint32_t scan_string(struct parser *p, uint8_t *escaped, bool *unterminated)
{
    const unsigned char *s = p->s;
    uint32_t start = p->pos;
    uint32_t i = start + 1;
    bool reported_utf8 = false;
    *escaped = 0;
    *unterminated = false;
    for (;;) {
        while (i < p->len && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
            i++;
        if (i >= p->len) {
            syntax_error(p, start, i,
                         "unterminated string: expected '\"' before the end of the "
                         "document");
            *unterminated = true;
            break;
        }
        unsigned char c = s[i];
        if (c == '"') {
            i++;
            break;
        }
        if (c == '\\') {
            *escaped = 1;
            uint32_t escape_at = i;
            i++;
            if (i >= p->len)
                continue;
            unsigned char e = s[i];
            if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                e == 't') {
                i++;
            } else if (e == 'u') {
                uint32_t k = 0;
                while (k < 4 && i + 1 + k < p->len && json_hex_value(s[i + 1 + k]) >= 0)
                    k++;
                if (k < 4)
                    syntax_error(p, escape_at, i + 1 + k,
                                 "invalid escape: '\\u' must be followed by four hex digits");
                i += 1 + k;
            } else if (e == '\n' || e == '\r') {
                continue; /* the unterminated-string branch reports it */
            } else {
                syntax_error(p, escape_at, i + 1,
                             "invalid escape: only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX "
                             "are allowed in JSON strings");
                i++;
            }
            continue;
        }
        if (c == '\n' || c == '\r') {
            syntax_error(p, start, i,
                         "unterminated string: expected '\"' before the end of "
                         "the line");
            *unterminated = true;
            break;
        }
        if (c < 0x20) {
            syntax_error(p, i, i + 1,
                         "control character U+%04X in a string: write it as an escape "
                         "(\\u%04X)",
                         c, c);
            i++;
            continue;
        }
        /* c >= 0x80 */
        uint32_t width = json_utf8_sequence_length(s + i, p->len - i);
        if (width == 0) {
            if (!reported_utf8)
                syntax_error(p, i, i + 1, "invalid UTF-8 byte in a string");
            reported_utf8 = true;
            i++;
        } else {
            i += width;
        }
    }
    p->pos = i;
    return i;
}

static uint32_t parse_string_value(struct parser *p, uint32_t parent, uint32_t reuse)
{
    uint32_t node = value_node(p, JSON_STRING, p->pos, parent, reuse);
    uint8_t escaped;
    bool unterminated;
    uint32_t end = scan_string(p, &escaped, &unterminated);
    if (node == JSON_NONE)
        return JSON_NONE;
    struct json_node *n = &p->doc->nodes[node];
    n->end = end;
    n->flags |=
        (uint8_t)((escaped ? JSON_FLAG_ESCAPED : 0) | (unterminated ? JSON_FLAG_UNTERMINATED : 0));
    return node;
}

/* Number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? followed by a delimiter. */
static uint32_t parse_number(struct parser *p, uint32_t parent, uint32_t reuse)
{
    const unsigned char *s = p->s;
    uint32_t start = p->pos, i = p->pos;
    bool ok = true, integer = true;
    if (i < p->len && s[i] == '-')
        i++;
    if (i < p->len && s[i] == '0') {
        i++;
    } else if (i < p->len && s[i] >= '1' && s[i] <= '9') {
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    } else {
        ok = false;
    }
    if (ok && i < p->len && s[i] == '.') {
        integer = false;
        i++;
        uint32_t digits = i;
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
        ok = i > digits;
    }
    if (ok && i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        integer = false;
        i++;
        if (i < p->len && (s[i] == '+' || s[i] == '-'))
            i++;
        uint32_t digits = i;
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
        ok = i > digits;
    }
    if (i < p->len && !is_delimiter(s[i]))
        ok = false;
    p->pos = i;
    if (!ok) {
        p->pos = start;
        skip_word(p);
        syntax_error(p, start, p->pos,
                     "invalid number: JSON numbers are like 12, -3, 0.5 or 1e9 (no leading zeros, "
                     "'+', hex, or trailing '.')");
    }
    uint32_t node = value_node(p, ok ? JSON_NUMBER : JSON_INVALID, start, parent, reuse);
    if (node != JSON_NONE) {
        p->doc->nodes[node].end = p->pos;
        if (ok && integer)
            p->doc->nodes[node].flags |= JSON_FLAG_INTEGER;
    }
    return node;
}

static uint32_t parse_word(struct parser *p, uint32_t parent, uint32_t reuse)
{
    static const struct {
        const char *text;
        uint32_t len;
        enum json_kind kind;
    } literals[] = {{"true", 4, JSON_TRUE}, {"false", 5, JSON_FALSE}, {"null", 4, JSON_NULL}};
    uint32_t start = p->pos;
    skip_word(p);
    uint32_t len = p->pos - start;
    enum json_kind kind = JSON_INVALID;
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        if (len == literals[i].len && memcmp(p->s + start, literals[i].text, len) == 0)
            kind = literals[i].kind;
    }
    if (kind == JSON_INVALID) {
        unsigned char c = p->s[start];
        if (c >= 0x80 || c < 0x20)
            syntax_error(p, start, p->pos, "unexpected character: expected a JSON value");
        else
            syntax_error(p, start, p->pos,
                         "invalid value: expected a string (in double quotes), a number, an "
                         "object, an array, true, false or null");
    }
    uint32_t node = value_node(p, kind, start, parent, reuse);
    if (node != JSON_NONE)
        p->doc->nodes[node].end = p->pos;
    return node;
}

/* ---- containers ---- */

static uint32_t parse_value(struct parser *p, uint32_t parent, uint32_t reuse);

static void append_child(struct parser *p, uint32_t parent, uint32_t *last, uint32_t child)
{
    if (child == JSON_NONE)
        return;
    if (*last == JSON_NONE)
        p->doc->nodes[parent].first_child = child;
    else
        p->doc->nodes[*last].next = child;
    *last = child;
}

/* Whether `c` closes a container that is open further out than the current one. */
static bool closes_outer(const struct parser *p, unsigned char c)
{
    for (unsigned level = p->depth - 1; level-- > 0;) {
        if (p->closers[level] == (char)c)
            return true;
    }
    return false;
}

static bool enter(struct parser *p, uint32_t at, char closer)
{
    if (p->depth >= p->options.max_depth) {
        add_error(p, JSON_ERROR_LIMIT, at, at + 1, JSON_NONE, JSON_NONE,
                  "nesting deeper than %u levels: srcls stops reading here", p->options.max_depth);
        p->halted = true;
        p->pos = p->len;
        return false;
    }
    p->closers[p->depth++] = closer;
    return true;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void report_duplicate(struct parser *p, uint32_t first, uint32_t later)
{
    char key[KEY_IN_MESSAGE_MAX + 8];
    describe_key(p, later, key, sizeof key);
    const struct json_node *a = &p->doc->nodes[first], *b = &p->doc->nodes[later];
    add_error(p, JSON_ERROR_DUPLICATE_KEY, b->key_start, b->key_end, a->key_start, a->key_end,
              "duplicate key %s: it is already defined in this object, and only one of the two "
              "takes effect",
              key);
}

/* Duplicates among the members of `object`. Recovered keys take no part: they are guesses, and
 * may be a value's text. */
static void check_duplicate_keys(struct parser *p, uint32_t object, uint32_t members)
{
    struct json_doc *doc = p->doc;
    if (members < 2)
        return;
    if (members <= SMALL_OBJECT) {
        /* Each later member against the earlier ones, so that a repeat points at the first
         * definition, as with the hash table below. */
        uint32_t first = doc->nodes[object].first_child;
        for (uint32_t b = doc->nodes[first].next; b != JSON_NONE; b = doc->nodes[b].next) {
            if (doc->nodes[b].flags & JSON_FLAG_KEY_RECOVERED)
                continue;
            struct json_str kb = json_node_key(doc, b);
            for (uint32_t a = first; a != b; a = doc->nodes[a].next) {
                if (doc->nodes[a].flags & JSON_FLAG_KEY_RECOVERED)
                    continue;
                struct json_str ka = json_node_key(doc, a);
                if (ka.len == kb.len && memcmp(ka.ptr, kb.ptr, ka.len) == 0) {
                    report_duplicate(p, a, b);
                    break;
                }
            }
        }
        return;
    }
    uint32_t cap = 16;
    while (cap < members * 2)
        cap *= 2;
    if (cap > p->dup_cap) {
        uint32_t *grown = realloc(p->dup_table, cap * sizeof *grown);
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
        uint32_t slot = hash_bytes(key.ptr, key.len) & (cap - 1);
        for (;;) {
            uint32_t other = p->dup_table[slot];
            if (other == JSON_NONE) {
                p->dup_table[slot] = m;
                break;
            }
            struct json_str ko = json_node_key(doc, other);
            if (ko.len == key.len && memcmp(ko.ptr, key.ptr, key.len) == 0) {
                report_duplicate(p, other, m);
                break;
            }
            slot = (slot + 1) & (cap - 1);
        }
    }
}

/* Reads a member key at p->pos into `member` (a fresh node): a string, or a bare word. */
static void parse_key(struct parser *p, uint32_t member)
{
    struct json_node *n;
    uint32_t start = p->pos;
    if (p->s[p->pos] == '"') {
        uint8_t escaped;
        bool unterminated;
        uint32_t end = scan_string(p, &escaped, &unterminated);
        n = &p->doc->nodes[member];
        n->key_start = start;
        n->key_end = end;
        n->flags |= (uint8_t)((escaped ? JSON_FLAG_KEY_ESCAPED : 0) |
                              (unterminated ? JSON_FLAG_KEY_UNTERMINATED : 0));
        return;
    }
    skip_word(p);
    syntax_error(p, start, p->pos, "property names must be strings in double quotes");
    n = &p->doc->nodes[member];
    n->key_start = start;
    n->key_end = p->pos;
    n->flags |= JSON_FLAG_KEY_BARE;
}

/* The node of a member whose value is missing: an empty JSON_INVALID at `at`. */
static void make_missing_value(struct parser *p, uint32_t member, uint32_t at)
{
    struct json_node *n = &p->doc->nodes[member];
    n->kind = JSON_INVALID;
    n->start = n->end = at;
    n->first_child = JSON_NONE;
}

/* Parses the value of `member` (whose key is read) into the same node. */
static void parse_member_value(struct parser *p, uint32_t member, uint32_t object)
{
    char key[KEY_IN_MESSAGE_MAX + 8];
    skip_ws(p);
    if (at_end(p) || p->s[p->pos] != ':') {
        describe_key(p, member, key, sizeof key);
        const struct json_node *n = &p->doc->nodes[member];
        uint32_t key_end = n->key_end;
        if (!at_end(p) && is_value_start(p->s[p->pos])) {
            syntax_error(p, key_end, p->pos, "expected ':' after the key %s", key);
        } else {
            /* A recovered string with nothing after it is stray text, most likely the rest of
             * the value before: the missing ',' reported there says all. */
            if (!(n->flags & JSON_FLAG_KEY_RECOVERED))
                syntax_error(p, key_end, key_end, "expected ':' and a value after the key %s", key);
            make_missing_value(p, member, key_end);
            return;
        }
    } else {
        p->pos++;
        skip_ws(p);
    }
    uint32_t colon_end = p->pos;
    if (at_end(p) || p->s[p->pos] == ',' || p->s[p->pos] == '}' || p->s[p->pos] == ']') {
        describe_key(p, member, key, sizeof key);
        syntax_error(p, colon_end, colon_end, "expected a value for the key %s", key);
        make_missing_value(p, member, colon_end);
        return;
    }
    parse_value(p, object, member);
}

/* After the value of `last`, neither ',' nor '}' but `c`: reports the missing ',' and returns
 * whether a member may start here; otherwise drops the stray character or word. */
static bool missing_comma(struct parser *p, uint32_t last, unsigned char c)
{
    char key[KEY_IN_MESSAGE_MAX + 8];
    describe_key(p, last, key, sizeof key);
    uint32_t after = p->doc->nodes[last].end;
    syntax_error(p, after, after, "expected ',' or '}' after the value of %s", key);
    bool starts_member = c == '"' || is_value_start(c) || (c >= 'A' && c <= 'Z') ||
                         (c >= 'a' && c <= 'z') || c == '_' || c == '$';
    if (!starts_member)
        skip_word(p); /* a stray ':' or bracket: drop it */
    return starts_member;
}

/* Something that cannot start a key where a member should be: reported and skipped. A '{' or
 * '[' is parsed, for recovery, and not linked; returns whether a value was consumed so. */
static bool skip_non_key(struct parser *p, uint32_t object, unsigned char c)
{
    syntax_error(p, p->pos, p->pos + 1, "expected a key (a string in double quotes)");
    if (c == ':' || c == ']') {
        p->pos++;
        return false;
    }
    parse_value(p, object, JSON_NONE);
    return true;
}

/* `"a": "b": 1` is a value still being typed for "a" and a member "b": when `member`'s string
 * value is followed by ':', gives it a missing value and returns a new member "b" (its key
 * recovered: it may be a secret's text) with the value after the ':'; JSON_NONE otherwise. */
static uint32_t split_value_turned_key(struct parser *p, uint32_t object, uint32_t member)
{
    struct json_node *m = &p->doc->nodes[member];
    skip_ws(p);
    if (at_end(p) || p->s[p->pos] != ':' || m->kind != JSON_STRING ||
        (m->flags & JSON_FLAG_UNTERMINATED) || p->halted)
        return JSON_NONE;
    char key[KEY_IN_MESSAGE_MAX + 8];
    uint32_t key_start = m->start, key_end = m->end;
    uint8_t escaped = (m->flags & JSON_FLAG_ESCAPED) ? JSON_FLAG_KEY_ESCAPED : 0;
    describe_key(p, member, key, sizeof key);
    syntax_error(p, key_start, key_start, "expected a value for the key %s", key);
    m->flags &= (uint8_t) ~(JSON_FLAG_ESCAPED);
    make_missing_value(p, member, key_start);
    uint32_t split = new_node(p, JSON_INVALID, key_start, object);
    if (split == JSON_NONE)
        return JSON_NONE;
    struct json_node *n = &p->doc->nodes[split];
    n->key_start = key_start;
    n->key_end = key_end;
    n->flags |= (uint8_t)(escaped | JSON_FLAG_KEY_RECOVERED);
    parse_member_value(p, split, object);
    return split;
}

static uint32_t parse_object(struct parser *p, uint32_t parent, uint32_t reuse)
{
    uint32_t open = p->pos;
    uint32_t object = value_node(p, JSON_OBJECT, open, parent, reuse);
    p->pos++;
    if (object == JSON_NONE || !enter(p, open, '}'))
        return object;
    uint32_t last = JSON_NONE, members = 0;
    uint32_t pending_comma = JSON_NONE; /* position of a comma that still wants a member */
    bool want_member = true;
    while (!p->halted) {
        bool recovered = false; /* the next key follows a string value without a ',' */
        skip_ws(p);
        if (at_end(p)) {
            add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos, open, open + 1,
                      "expected '}' to close the object before the end of the document");
            p->doc->nodes[object].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        unsigned char c = p->s[p->pos];
        if (c == '}') {
            if (pending_comma != JSON_NONE)
                syntax_error(p, pending_comma, pending_comma + 1,
                             "trailing comma: JSON does not allow ',' before '}'");
            p->pos++;
            break;
        }
        if (c == ']' && closes_outer(p, c)) {
            add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos + 1, open, open + 1,
                      "expected '}' to close the object before ']'");
            p->doc->nodes[object].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        if (!want_member) {
            if (c == ',') {
                pending_comma = p->pos++;
                want_member = true;
                continue;
            }
            if (!missing_comma(p, last, c))
                continue;
            /* Text right after a string value may be the rest of that value (a secret typed
             * in two pieces, or with a '"' inside): its key is marked, and never quoted. */
            recovered = p->doc->nodes[last].kind == JSON_STRING;
            want_member = true;
        }
        if (c == ',') {
            syntax_error(p, p->pos, p->pos + 1, "expected a key before ','");
            p->pos++;
            continue;
        }
        if (c == '{' || c == '[' || c == ']' || c == ':') {
            if (skip_non_key(p, object, c)) {
                pending_comma = JSON_NONE;
                want_member = last == JSON_NONE;
            }
            continue;
        }
        uint32_t member = new_node(p, JSON_INVALID, p->pos, object);
        if (member == JSON_NONE)
            break;
        parse_key(p, member);
        if (recovered)
            p->doc->nodes[member].flags |= JSON_FLAG_KEY_RECOVERED;
        parse_member_value(p, member, object);
        append_child(p, object, &last, member);
        members++;
        pending_comma = JSON_NONE;
        want_member = false;
        uint32_t split = split_value_turned_key(p, object, member);
        if (split != JSON_NONE) {
            append_child(p, object, &last, split);
            members++;
        }
    }
    p->depth--;
    p->doc->nodes[object].end = p->pos;
    check_duplicate_keys(p, object, members);
    return object;
}

static uint32_t parse_array(struct parser *p, uint32_t parent, uint32_t reuse)
{
    uint32_t open = p->pos;
    uint32_t array = value_node(p, JSON_ARRAY, open, parent, reuse);
    p->pos++;
    if (array == JSON_NONE || !enter(p, open, ']'))
        return array;
    uint32_t last = JSON_NONE;
    uint32_t pending_comma = JSON_NONE;
    bool want_element = true;
    while (!p->halted) {
        skip_ws(p);
        if (at_end(p)) {
            add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos, open, open + 1,
                      "expected ']' to close the array before the end of the document");
            p->doc->nodes[array].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        unsigned char c = p->s[p->pos];
        if (c == ']') {
            if (pending_comma != JSON_NONE)
                syntax_error(p, pending_comma, pending_comma + 1,
                             "trailing comma: JSON does not allow ',' before ']'");
            p->pos++;
            break;
        }
        if (c == '}' && closes_outer(p, c)) {
            add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos + 1, open, open + 1,
                      "expected ']' to close the array before '}'");
            p->doc->nodes[array].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        if (c == ',') {
            if (want_element)
                syntax_error(p, p->pos, p->pos + 1, "expected a value before ','");
            pending_comma = p->pos++;
            want_element = true;
            continue;
        }
        if (!want_element) {
            uint32_t after = p->doc->nodes[last].end;
            syntax_error(p, after, after, "expected ',' or ']' after an element of the array");
        }
        if (c == '}' || c == ':') {
            syntax_error(p, p->pos, p->pos + 1, "expected a value");
            p->pos++;
            continue;
        }
        uint32_t element = parse_value(p, array, JSON_NONE);
        append_child(p, array, &last, element);
        pending_comma = JSON_NONE;
        want_element = false;
    }
    p->depth--;
    p->doc->nodes[array].end = p->pos;
    return array;
}

static uint32_t parse_value(struct parser *p, uint32_t parent, uint32_t reuse)
{
    unsigned char c = p->s[p->pos];
    switch (c) {
    case '{': return parse_object(p, parent, reuse);
    case '[': return parse_array(p, parent, reuse);
    case '"': return parse_string_value(p, parent, reuse);
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': return parse_number(p, parent, reuse);
    default: return parse_word(p, parent, reuse);
    }
}

/* ---- the document ---- */

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

static void report_wide_encoding(struct parser *p, const struct wide_encoding *e)
{
    uint32_t unit = e->name[4] == '3' ? 4 : 2;
    uint32_t end = e->bom ? e->bom : (unit < p->len ? unit : p->len);
    syntax_error(p, 0, end,
                 "the document is %s (judging by its %s), but JSON must be UTF-8 (RFC 8259, "
                 "section 8.1): convert it, for example with iconv -f %s -t UTF-8",
                 e->name, e->bom ? "byte order mark" : "zero bytes", e->name);
}

int json_parse(struct json_doc *doc, const char *text, size_t len,
               const struct json_parse_options *options)
{
    static const struct json_parse_options defaults = {
        .max_size = JSON_DEFAULT_MAX_SIZE,
        .max_depth = JSON_DEFAULT_MAX_DEPTH,
        .max_errors = JSON_DEFAULT_MAX_ERRORS,
    };
    memset(doc, 0, sizeof *doc);
    arena_init(&doc->arena);
    doc->text = text;
    doc->root = JSON_NONE;

    struct parser p = {
        .s = (const unsigned char *)text,
        .doc = doc,
        .options = options ? *options : defaults,
    };
    if (p.options.max_depth == 0)
        p.options.max_depth = 1;
    if (len > p.options.max_size || len >= UINT32_MAX) {
        doc->len = 0;
        add_error(&p, JSON_ERROR_LIMIT, 0, 0, JSON_NONE, JSON_NONE,
                  "the document is %zu bytes, over the limit of %zu bytes", len,
                  p.options.max_size < UINT32_MAX - 1 ? p.options.max_size : UINT32_MAX - 1);
        return p.out_of_memory ? -1 : 0;
    }
    p.len = doc->len = (uint32_t)len;
    struct wide_encoding wide;
    if (detect_wide_encoding(p.s, p.len, &wide)) {
        report_wide_encoding(&p, &wide);
        return p.out_of_memory ? -1 : 0;
    }
    p.closers = malloc(p.options.max_depth);
    if (p.closers == NULL)
        return -1;

    /* A UTF-8 byte order mark may be ignored (RFC 8259, section 8.1). */
    if (p.len >= 3 && memcmp(p.s, "\xEF\xBB\xBF", 3) == 0)
        p.pos = 3;
    skip_ws(&p);
    if (at_end(&p)) {
        syntax_error(&p, p.pos, p.pos, "the document is empty: expected a JSON value");
    } else {
        doc->root = parse_value(&p, JSON_NONE, JSON_NONE);
        skip_ws(&p);
        if (!at_end(&p) && !p.halted) {
            syntax_error(&p, p.pos, p.len,
                         "unexpected content after the end of the JSON value (a document holds "
                         "one value)");
        }
    }
    free(p.closers);
    free(p.dup_table);
    return p.out_of_memory ? -1 : 0;
}

void json_doc_free(struct json_doc *doc)
{
    free(doc->nodes);
    free(doc->errors);
    arena_free(&doc->arena);
    memset(doc, 0, sizeof *doc);
    doc->root = JSON_NONE;
}
