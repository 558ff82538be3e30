/* schema_credential: the well-known credential shapes of credentials.json, and the matcher
 * that finds one in a string. Nothing here names a shape: they are whatever the data says. */
#include <string.h>

#include "schema_internal.h"

/* A body longer than this is no credential shape the data can declare. */
#define CREDENTIAL_MAX_LENGTH 1024

static bool in_charset(const uint8_t charset[32], unsigned char c)
{
    return (charset[c >> 3] >> (c & 7)) & 1;
}

static void charset_add(uint8_t charset[32], unsigned char from, unsigned char to)
{
    for (unsigned c = from; c <= to; c++)
        charset[c >> 3] |= (uint8_t)(1u << (c & 7));
}

/* "A-Za-z0-9_-": ranges and single bytes; a '-' first or last is itself. */
static bool read_charset(struct json_str s, uint8_t charset[32])
{
    memset(charset, 0, 32);
    for (size_t i = 0; i < s.len; i++) {
        unsigned char from = (unsigned char)s.ptr[i];
        if (i + 2 < s.len && s.ptr[i + 1] == '-') {
            unsigned char to = (unsigned char)s.ptr[i + 2];
            if (to < from)
                return false;
            charset_add(charset, from, to);
            i += 2;
        } else {
            charset_add(charset, from, from);
        }
    }
    return s.len > 0;
}

static bool read_length(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        const char *what, uint32_t *out)
{
    int64_t value;
    if (doc->nodes[node].kind != JSON_NUMBER || !json_node_int64(doc, node, &value) || value < 0 ||
        value > CREDENTIAL_MAX_LENGTH) {
        schema__fail(l, doc, node, "%s must be an integer from 0 to %d", what,
                     CREDENTIAL_MAX_LENGTH);
        return false;
    }
    *out = (uint32_t)value;
    return true;
}

static bool read_prefixes(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                          struct schema_credential *c)
{
    if (node == JSON_NONE) {
        schema__fail_file(l, "a credential shape needs \"prefixes\"");
        return false;
    }
    if (!schema__array(l, doc, node, "\"prefixes\""))
        return false;
    c->prefix_count = json_child_count(doc, node);
    c->prefixes = arena_alloc(l->arena, (c->prefix_count + 1) * sizeof *c->prefixes);
    if (c->prefixes == NULL || c->prefix_count == 0) {
        schema__fail(l, doc, node, "\"prefixes\" must hold at least one string");
        return false;
    }
    uint32_t i = 0;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        c->prefixes[i] = schema__string(l, doc, e, "a prefix");
        if (c->prefixes[i] == NULL || c->prefixes[i][0] == '\0')
            return (schema__fail(l, doc, e, "a prefix must not be empty"), false);
        i++;
    }
    return true;
}

/* The lengths: "length", or "minLength" and "maxLength". */
static bool read_lengths(struct schema_loader *l, struct json_doc *doc, uint32_t entry,
                         struct schema_credential *c)
{
    uint32_t length = json_object_get(doc, entry, JSON_LITERAL("length"));
    uint32_t min = json_object_get(doc, entry, JSON_LITERAL("minLength"));
    uint32_t max = json_object_get(doc, entry, JSON_LITERAL("maxLength"));
    if (length != JSON_NONE) {
        if (!read_length(l, doc, length, "\"length\"", &c->min_length))
            return false;
        c->max_length = c->min_length;
    } else if (min == JSON_NONE || max == JSON_NONE) {
        schema__fail(l, doc, entry, "a shape needs \"length\", or \"minLength\" and \"maxLength\"");
        return false;
    } else if (!read_length(l, doc, min, "\"minLength\"", &c->min_length) ||
               !read_length(l, doc, max, "\"maxLength\"", &c->max_length)) {
        return false;
    }
    if (c->min_length > c->max_length) {
        schema__fail(l, doc, entry, "\"minLength\" is above \"maxLength\"");
        return false;
    }
    return true;
}

static void read_credential(struct schema_loader *l, struct json_doc *doc, uint32_t entry,
                            struct schema_credential *c)
{
    memset(c, 0, sizeof *c);
    if (doc->nodes[entry].kind != JSON_OBJECT) {
        schema__fail(l, doc, entry, "a credential shape is an object");
        return;
    }
    uint32_t name = json_object_get(doc, entry, JSON_LITERAL("name"));
    uint32_t charset = json_object_get(doc, entry, JSON_LITERAL("charset"));
    uint32_t suffix = json_object_get(doc, entry, JSON_LITERAL("suffix"));
    if (name == JSON_NONE || charset == JSON_NONE) {
        schema__fail(l, doc, entry, "a credential shape needs \"name\" and \"charset\"");
        return;
    }
    c->name = schema__string(l, doc, name, "\"name\"");
    if (c->name == NULL ||
        !read_prefixes(l, doc, json_object_get(doc, entry, JSON_LITERAL("prefixes")), c))
        return;
    if (doc->nodes[charset].kind != JSON_STRING ||
        !read_charset(json_node_string(doc, charset), c->charset)) {
        schema__fail(l, doc, charset, "\"charset\" must be a string of bytes and ranges (A-Z0-9_)");
        return;
    }
    if (suffix != JSON_NONE) {
        c->suffix = schema__string(l, doc, suffix, "\"suffix\"");
        c->suffix_len = c->suffix != NULL ? (uint32_t)strlen(c->suffix) : 0;
    }
    if (read_lengths(l, doc, entry, c) && c->max_length == 0 && c->suffix == NULL)
        schema__fail(l, doc, entry, "a shape without \"suffix\" needs a body (maxLength above 0)");
}

/* credential_prefixes grouped by first byte (a counting sort, stable: shape order kept). */
static void index_prefixes(struct schema_loader *l, struct schema_registry *registry)
{
    uint32_t total = 0;
    uint32_t *by = registry->credential_by_byte;
    memset(by, 0, sizeof registry->credential_by_byte);
    for (uint32_t s = 0; s < registry->credential_count; s++) {
        for (uint32_t p = 0; p < registry->credentials[s].prefix_count; p++, total++)
            by[(unsigned char)registry->credentials[s].prefixes[p][0] + 1]++;
    }
    registry->credential_prefixes =
        arena_alloc(l->arena, (total + 1) * sizeof(struct schema_credential_prefix));
    if (registry->credential_prefixes == NULL) {
        schema__fail_file(l, "out of memory");
        registry->credential_count = 0;
        return;
    }
    for (unsigned b = 0; b < 256; b++)
        by[b + 1] += by[b];
    uint32_t next[256];
    memcpy(next, by, sizeof next);
    for (uint32_t s = 0; s < registry->credential_count; s++) {
        const struct schema_credential *c = &registry->credentials[s];
        for (uint32_t p = 0; p < c->prefix_count; p++) {
            struct schema_credential_prefix *e =
                &registry->credential_prefixes[next[(unsigned char)c->prefixes[p][0]]++];
            *e = (struct schema_credential_prefix){c->prefixes[p], (uint32_t)strlen(c->prefixes[p]),
                                                   s};
        }
    }
}

void schema__build_credentials(struct schema_loader *l, struct schema_loaded_file *f)
{
    struct json_doc *doc = &f->doc;
    uint32_t list = json_object_get(doc, doc->root, JSON_LITERAL("credentials"));
    if (list == JSON_NONE) {
        schema__fail_file(l, "\"credentials\" is missing");
        return;
    }
    if (!schema__array(l, doc, list, "\"credentials\""))
        return;
    uint32_t count = json_child_count(doc, list);
    struct schema_credential *shapes = arena_alloc(l->arena, (count + 1) * sizeof *shapes);
    if (shapes == NULL) {
        schema__fail_file(l, "out of memory");
        return;
    }
    uint32_t i = 0;
    for (uint32_t e = doc->nodes[list].first_child; e != JSON_NONE && !l->failed;
         e = doc->nodes[e].next)
        read_credential(l, doc, e, &shapes[i++]);
    l->registry->credentials = shapes;
    l->registry->credential_count = l->failed ? 0 : count;
    if (!l->failed)
        index_prefixes(l, l->registry);
}

/* Whether the body of `c` starts at `text + at` and ends as the shape says. */
static bool body_matches(const struct schema_credential *c, const char *text, size_t len, size_t at)
{
    size_t suffix_len = c->suffix_len;
    size_t n = 0;
    for (;; n++) {
        if (c->suffix != NULL && n >= c->min_length && len - at - n >= suffix_len &&
            memcmp(text + at + n, c->suffix, suffix_len) == 0)
            return true;
        if (n == c->max_length || at + n == len ||
            !in_charset(c->charset, (unsigned char)text[at + n]))
            break;
    }
    if (c->suffix != NULL)
        return false;
    /* no suffix: the run of the charset ends within the lengths */
    bool run_ends = at + n == len || !in_charset(c->charset, (unsigned char)text[at + n]);
    return n >= c->min_length && run_ends;
}

static bool letter_or_digit(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The bytes of the eight in `w` that are not ASCII letters or digits, as the high bit of each
 * byte: a byte's low seven bits are tested against the ranges by adding to them what carries a
 * range's bound into the high bit (no carry crosses a byte); a byte from 0x80 is neither. */
static uint64_t not_letter_or_digit(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
    uint64_t low7 = w & ~high, folded = low7 | (ones * 0x20); /* 'A'-'Z' to 'a'-'z' */
    uint64_t letter = (folded + ones * (0x80 - 'a')) & ~(folded + ones * (0x80 - 'z' - 1));
    uint64_t digit = (low7 + ones * (0x80 - '0')) & ~(low7 + ones * (0x80 - '9' - 1));
    return ~((letter | digit) & ~w) & high;
}

/* Tries the prefixes that start with the byte at `i` (the first shape in data order wins):
 * returns the best shape so far. */
static inline uint32_t try_prefixes(const struct schema_registry *registry, const char *text,
                                    size_t len, size_t i, uint32_t best)
{
    const uint32_t *by = registry->credential_by_byte;
    unsigned char b = (unsigned char)text[i];
    for (uint32_t e = by[b]; e < by[b + 1]; e++) {
        const struct schema_credential_prefix *p = &registry->credential_prefixes[e];
        if (p->shape >= best)
            break; /* shape order: the rest come later */
        if (len - i >= p->len && memcmp(text + i, p->text, p->len) == 0 &&
            body_matches(&registry->credentials[p->shape], text, len, i + p->len))
            best = p->shape;
    }
    return best;
}

const struct schema_credential *schema_credential_find(const struct schema_registry *registry,
                                                       const char *text, size_t len)
{
    if (registry == NULL || text == NULL || registry->credential_count == 0)
        return NULL;
    uint32_t best = registry->credential_count;
    /* A prefix is tried only where no letter or digit comes before: at the start, and after
     * each byte that is neither, found eight bytes at a time. */
    if (len > 0)
        best = try_prefixes(registry, text, len, 0, best);
    size_t i = 0;
    for (; len - i > 8 && best > 0; i += 8) {
        uint64_t w;
        memcpy(&w, text + i, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w); /* the first byte lowest */
#endif
        for (uint64_t ends = not_letter_or_digit(w); ends != 0 && best > 0; ends &= ends - 1)
            best = try_prefixes(registry, text, len, i + (size_t)(__builtin_ctzll(ends) >> 3) + 1,
                                best);
    }
    for (; i + 1 < len && best > 0; i++) {
        if (!letter_or_digit((unsigned char)text[i]))
            best = try_prefixes(registry, text, len, i + 1, best);
    }
    return best < registry->credential_count ? &registry->credentials[best] : NULL;
}
