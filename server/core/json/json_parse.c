/* json_parse: a single-pass, recovering, strict RFC 8259 parser.
 *
 * Editors send half-typed documents, so an error never ends the parse: the parser reports it
 * with a range and a message, makes the smallest repair that keeps the rest of the tree useful
 * (a missing comma or colon, a missing value, an unquoted key, an unclosed bracket), and goes
 * on. Nodes are written into one growing array; nothing is allocated per character. Messages
 * never quote document values (they may be secrets), only keys, and not the keys that recovery
 * took from text that may belong to a value (JSON_FLAG_KEY_RECOVERED).
 *
 * A document in UTF-16 or UTF-32 gets one error that names its encoding, and no tree.
 *
 * This file is the descent over objects and arrays and the entry point; the scalars are in
 * json_parse_scan.c, the errors and their messages in json_parse_errors.c. */
#include <stdlib.h>
#include <string.h>

#include "json_parse_internal.h"

static uint32_t parse_value(struct json_parser *p, uint32_t parent, uint32_t reuse);

static void append_child(struct json_parser *p, uint32_t parent, uint32_t *last, uint32_t child)
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
static bool closes_outer(const struct json_parser *p, unsigned char c)
{
    for (unsigned level = p->depth - 1; level-- > 0;) {
        if (p->closers[level] == (char)c)
            return true;
    }
    return false;
}

static bool enter(struct json_parser *p, uint32_t at, char closer)
{
    if (p->depth >= p->options.max_depth) {
        json_parse__add_error(p, JSON_ERROR_LIMIT, at, at + 1, JSON_NONE, JSON_NONE,
                              "nesting deeper than %u levels: srcls stops reading here",
                              p->options.max_depth);
        p->halted = true;
        p->pos = p->len;
        return false;
    }
    p->closers[p->depth++] = closer;
    return true;
}

/* Reads a member key at p->pos into `member` (a fresh node): a string, or a bare word. */
static void parse_key(struct json_parser *p, uint32_t member)
{
    struct json_node *n;
    uint32_t start = p->pos;
    if (p->s[p->pos] == '"') {
        uint8_t escaped;
        bool unterminated;
        uint32_t end = json_parse__scan_string(p, &escaped, &unterminated);
        n = &p->doc->nodes[member];
        n->key_start = start;
        n->key_end = end;
        n->flags |= (uint8_t)((escaped ? JSON_FLAG_KEY_ESCAPED : 0) |
                              (unterminated ? JSON_FLAG_KEY_UNTERMINATED : 0));
        return;
    }
    json_parse__skip_word(p);
    json_parse__syntax_error(p, start, p->pos, "property names must be strings in double quotes");
    n = &p->doc->nodes[member];
    n->key_start = start;
    n->key_end = p->pos;
    n->flags |= JSON_FLAG_KEY_BARE;
}

/* The node of a member whose value is missing: an empty JSON_INVALID at `at`. */
static void make_missing_value(struct json_parser *p, uint32_t member, uint32_t at)
{
    struct json_node *n = &p->doc->nodes[member];
    n->kind = JSON_INVALID;
    n->start = n->end = at;
    n->first_child = JSON_NONE;
}

/* Parses the value of `member` (whose key is read) into the same node. */
static void parse_member_value(struct json_parser *p, uint32_t member, uint32_t object)
{
    char key[JSON_PARSE_KEY_BUFFER_SIZE];
    json_parse__skip_ws(p);
    if (json_parse__at_end(p) || p->s[p->pos] != ':') {
        json_parse__describe_key(p, member, key, sizeof key);
        const struct json_node *n = &p->doc->nodes[member];
        uint32_t key_end = n->key_end;
        if (!json_parse__at_end(p) && json_parse__is_value_start(p->s[p->pos])) {
            json_parse__syntax_error(p, key_end, p->pos, "expected ':' after the key %s", key);
        } else {
            /* A recovered string with nothing after it is stray text, most likely the rest of
             * the value before: the missing ',' reported there says all. */
            if (!(n->flags & JSON_FLAG_KEY_RECOVERED))
                json_parse__syntax_error(p, key_end, key_end,
                                         "expected ':' and a value after the key %s", key);
            make_missing_value(p, member, key_end);
            return;
        }
    } else {
        p->pos++;
        json_parse__skip_ws(p);
    }
    uint32_t colon_end = p->pos;
    if (json_parse__at_end(p) || p->s[p->pos] == ',' || p->s[p->pos] == '}' ||
        p->s[p->pos] == ']') {
        json_parse__describe_key(p, member, key, sizeof key);
        json_parse__syntax_error(p, colon_end, colon_end, "expected a value for the key %s", key);
        make_missing_value(p, member, colon_end);
        return;
    }
    parse_value(p, object, member);
}

/* After the value of `last`, neither ',' nor '}' but `c`: reports the missing ',' and returns
 * whether a member may start here; otherwise drops the stray character or word. */
static bool missing_comma(struct json_parser *p, uint32_t last, unsigned char c)
{
    char key[JSON_PARSE_KEY_BUFFER_SIZE];
    json_parse__describe_key(p, last, key, sizeof key);
    uint32_t after = p->doc->nodes[last].end;
    json_parse__syntax_error(p, after, after, "expected ',' or '}' after the value of %s", key);
    bool starts_member = c == '"' || json_parse__is_value_start(c) || (c >= 'A' && c <= 'Z') ||
                         (c >= 'a' && c <= 'z') || c == '_' || c == '$';
    if (!starts_member)
        json_parse__skip_word(p); /* a stray ':' or bracket: drop it */
    return starts_member;
}

/* Something that cannot start a key where a member should be: reported and skipped. A '{' or
 * '[' is parsed, for recovery, and not linked; returns whether a value was consumed so. */
static bool skip_non_key(struct json_parser *p, uint32_t object, unsigned char c)
{
    json_parse__syntax_error(p, p->pos, p->pos + 1, "expected a key (a string in double quotes)");
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
static uint32_t split_value_turned_key(struct json_parser *p, uint32_t object, uint32_t member)
{
    struct json_node *m = &p->doc->nodes[member];
    json_parse__skip_ws(p);
    if (json_parse__at_end(p) || p->s[p->pos] != ':' || m->kind != JSON_STRING ||
        (m->flags & JSON_FLAG_UNTERMINATED) || p->halted)
        return JSON_NONE;
    char key[JSON_PARSE_KEY_BUFFER_SIZE];
    uint32_t key_start = m->start, key_end = m->end;
    uint8_t escaped = (m->flags & JSON_FLAG_ESCAPED) ? JSON_FLAG_KEY_ESCAPED : 0;
    json_parse__describe_key(p, member, key, sizeof key);
    json_parse__syntax_error(p, key_start, key_start, "expected a value for the key %s", key);
    m->flags &= (uint8_t) ~(JSON_FLAG_ESCAPED);
    make_missing_value(p, member, key_start);
    uint32_t split = json_parse__new_node(p, JSON_INVALID, key_start, object);
    if (split == JSON_NONE)
        return JSON_NONE;
    struct json_node *n = &p->doc->nodes[split];
    n->key_start = key_start;
    n->key_end = key_end;
    n->flags |= (uint8_t)(escaped | JSON_FLAG_KEY_RECOVERED);
    parse_member_value(p, split, object);
    return split;
}

/* The member at p->pos, and the one split from its value if any, appended to `object` after
 * `*last`; returns how many were appended (none when memory ran out, which halts the parse). */
static uint32_t parse_member(struct json_parser *p, uint32_t object, uint32_t *last, bool recovered)
{
    uint32_t member = json_parse__new_node(p, JSON_INVALID, p->pos, object);
    if (member == JSON_NONE)
        return 0;
    parse_key(p, member);
    if (recovered)
        p->doc->nodes[member].flags |= JSON_FLAG_KEY_RECOVERED;
    parse_member_value(p, member, object);
    append_child(p, object, last, member);
    uint32_t split = split_value_turned_key(p, object, member);
    if (split == JSON_NONE)
        return 1;
    append_child(p, object, last, split);
    return 2;
}

static uint32_t parse_object(struct json_parser *p, uint32_t parent, uint32_t reuse)
{
    uint32_t open = p->pos;
    uint32_t object = json_parse__value_node(p, JSON_OBJECT, open, parent, reuse);
    p->pos++;
    if (object == JSON_NONE || !enter(p, open, '}'))
        return object;
    uint32_t last = JSON_NONE, members = 0;
    uint32_t pending_comma = JSON_NONE; /* position of a comma that still wants a member */
    bool want_member = true;
    while (!p->halted) {
        bool recovered = false; /* the next key follows a string value without a ',' */
        json_parse__skip_ws(p);
        if (p->pos > p->give_up_after) {
            p->halted = true;
            break;
        }
        if (json_parse__at_end(p)) {
            json_parse__add_error(
                p, JSON_ERROR_SYNTAX, p->pos, p->pos, open, open + 1,
                "expected '}' to close the object before the end of the document");
            p->doc->nodes[object].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        unsigned char c = p->s[p->pos];
        if (c == '}') {
            if (pending_comma != JSON_NONE)
                json_parse__syntax_error(p, pending_comma, pending_comma + 1,
                                         "trailing comma: JSON does not allow ',' before '}'");
            p->pos++;
            break;
        }
        if (c == ']' && closes_outer(p, c)) {
            json_parse__add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos + 1, open, open + 1,
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
            json_parse__syntax_error(p, p->pos, p->pos + 1, "expected a key before ','");
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
        members += parse_member(p, object, &last, recovered);
        pending_comma = JSON_NONE;
        want_member = false;
    }
    p->depth--;
    p->doc->nodes[object].end = p->pos;
    json_parse__check_duplicate_keys(p, object, members);
    return object;
}

static uint32_t parse_array(struct json_parser *p, uint32_t parent, uint32_t reuse)
{
    uint32_t open = p->pos;
    uint32_t array = json_parse__value_node(p, JSON_ARRAY, open, parent, reuse);
    p->pos++;
    if (array == JSON_NONE || !enter(p, open, ']'))
        return array;
    uint32_t last = JSON_NONE;
    uint32_t pending_comma = JSON_NONE;
    bool want_element = true;
    while (!p->halted) {
        json_parse__skip_ws(p);
        if (p->pos > p->give_up_after) {
            p->halted = true;
            break;
        }
        if (json_parse__at_end(p)) {
            json_parse__add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos, open, open + 1,
                                  "expected ']' to close the array before the end of the document");
            p->doc->nodes[array].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        unsigned char c = p->s[p->pos];
        if (c == ']') {
            if (pending_comma != JSON_NONE)
                json_parse__syntax_error(p, pending_comma, pending_comma + 1,
                                         "trailing comma: JSON does not allow ',' before ']'");
            p->pos++;
            break;
        }
        if (c == '}' && closes_outer(p, c)) {
            json_parse__add_error(p, JSON_ERROR_SYNTAX, p->pos, p->pos + 1, open, open + 1,
                                  "expected ']' to close the array before '}'");
            p->doc->nodes[array].flags |= JSON_FLAG_UNCLOSED;
            break;
        }
        if (c == ',') {
            if (want_element)
                json_parse__syntax_error(p, p->pos, p->pos + 1, "expected a value before ','");
            pending_comma = p->pos++;
            want_element = true;
            continue;
        }
        if (!want_element) {
            uint32_t after = p->doc->nodes[last].end;
            json_parse__syntax_error(p, after, after,
                                     "expected ',' or ']' after an element of the array");
        }
        if (c == '}' || c == ':') {
            json_parse__syntax_error(p, p->pos, p->pos + 1, "expected a value");
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

static uint32_t parse_value(struct json_parser *p, uint32_t parent, uint32_t reuse)
{
    unsigned char c = p->s[p->pos];
    switch (c) {
    case '{': return parse_object(p, parent, reuse);
    case '[': return parse_array(p, parent, reuse);
    case '"': return json_parse__string(p, parent, reuse);
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
    case '9': return json_parse__number(p, parent, reuse);
    default: return json_parse__word(p, parent, reuse);
    }
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

    struct json_parser p = {
        .s = (const unsigned char *)text,
        .doc = doc,
        .options = options ? *options : defaults,
        .give_up_after = UINT32_MAX,
    };
    if (p.options.max_depth == 0)
        p.options.max_depth = 1;
    if (len > p.options.max_size || len >= UINT32_MAX) {
        doc->len = 0;
        json_parse__add_error(&p, JSON_ERROR_LIMIT, 0, 0, JSON_NONE, JSON_NONE,
                              "the document is %zu bytes, over the limit of %zu bytes", len,
                              p.options.max_size < UINT32_MAX - 1 ? p.options.max_size
                                                                  : UINT32_MAX - 1);
        return p.out_of_memory ? -1 : 0;
    }
    p.len = doc->len = (uint32_t)len;
    if (json_parse__reject_wide_encoding(&p))
        return p.out_of_memory ? -1 : 0;
    p.closers = malloc(p.options.max_depth);
    if (p.closers == NULL)
        return -1;

    /* A UTF-8 byte order mark may be ignored (RFC 8259, section 8.1). */
    if (p.len >= 3 && memcmp(p.s, "\xEF\xBB\xBF", 3) == 0)
        p.pos = 3;
    json_parse__skip_ws(&p);
    if (json_parse__at_end(&p)) {
        json_parse__syntax_error(&p, p.pos, p.pos, "the document is empty: expected a JSON value");
    } else {
        doc->root = parse_value(&p, JSON_NONE, JSON_NONE);
        json_parse__skip_ws(&p);
        if (!json_parse__at_end(&p) && !p.halted) {
            json_parse__syntax_error(
                &p, p.pos, p.len,
                "unexpected content after the end of the JSON value (a document holds "
                "one value)");
        }
    }
    free(p.closers);
    free(p.dup_table);
    return p.out_of_memory ? -1 : 0;
}

int json_parse_value_at(struct json_doc *doc, const char *text, size_t len, uint32_t start,
                        const char *closers, unsigned depth, uint32_t give_up_after,
                        const struct json_parse_options *options, uint32_t *end)
{
    memset(doc, 0, sizeof *doc);
    arena_init(&doc->arena);
    doc->text = text;
    doc->root = JSON_NONE;
    *end = start;
    if (len >= UINT32_MAX || len > options->max_size || start > len || depth >= options->max_depth)
        return 0;
    doc->len = (uint32_t)len;
    struct json_parser p = {
        .s = (const unsigned char *)text,
        .len = (uint32_t)len,
        .pos = start,
        .doc = doc,
        .options = *options,
        .depth = depth,
        .give_up_after = give_up_after,
    };
    p.closers = malloc(p.options.max_depth);
    if (p.closers == NULL)
        return -1;
    memcpy(p.closers, closers, depth);
    json_parse__skip_ws(&p);
    if (!json_parse__at_end(&p) && json_parse__is_value_start(p.s[p.pos]))
        doc->root = parse_value(&p, JSON_NONE, JSON_NONE);
    *end = p.halted ? UINT32_MAX : p.pos;
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
