/* json_parse_scan: the parser's scalars. Strings (values and keys) are scanned, not decoded:
 * the node keeps the range and whether it holds an escape, and json_string decodes on demand.
 * Numbers follow the RFC 8259 grammar exactly; anything else that is not a string, number or
 * literal is one invalid value up to the next delimiter, so the descent resumes there. */
#include <string.h>

#include "json_parse_internal.h"
#include "json_string.h"

/* The escape whose backslash is at `at`: reports a bad one and returns where the string goes
 * on. A line break after the backslash is left to the caller, which reports the unterminated
 * string. */
static uint32_t scan_escape(struct json_parser *p, uint32_t at)
{
    const unsigned char *s = p->s;
    uint32_t i = at + 1;
    if (i >= p->len)
        return i;
    unsigned char e = s[i];
    if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
        e == 't')
        return i + 1;
    if (e == 'u') {
        uint32_t k = 0;
        while (k < 4 && i + 1 + k < p->len && json_hex_value(s[i + 1 + k]) >= 0)
            k++;
        if (k < 4)
            json_parse__syntax_error(p, at, i + 1 + k,
                                     "invalid escape: '\\u' must be followed by four hex digits");
        return i + 1 + k;
    }
    if (e == '\n' || e == '\r')
        return i;
    json_parse__syntax_error(p, at, i + 1,
                             "invalid escape: only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and "
                             "\\uXXXX are allowed in JSON strings");
    return i + 1;
}

/* The first byte at or after `i` that a string body cannot simply pass: '"', '\\', a control
 * character or a non-ASCII byte; `len` when there is none. Sixteen bytes are tested at once
 * with SSE2 on x86-64 (a signed compare below 0x20 takes the control characters and the bytes
 * from 0x80 together), then eight at once in a uint64_t (every target); a load never reaches
 * past `len`, so the last few bytes are read one by one. */
static inline uint32_t skip_plain(const unsigned char *s, uint32_t i, uint32_t len)
{
#if JSON_PARSE__SSE2
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                  space = _mm_set1_epi8(0x20);
    for (; len - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i special =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                         _mm_cmplt_epi8(v, space));
        unsigned mask = (unsigned)_mm_movemask_epi8(special);
        if (mask != 0)
            return i + (uint32_t)__builtin_ctz(mask);
    }
#endif
    for (; len - i >= 8; i += 8) {
        uint64_t mask = json_parse__swar_string_special(json_parse__swar_load(s + i));
        if (mask != 0)
            return i + json_parse__swar_first(mask);
    }
    while (i < len && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
        i++;
    return i;
}

uint32_t json_parse__scan_string(struct json_parser *p, uint8_t *escaped, bool *unterminated)
{
    const unsigned char *s = p->s;
    uint32_t start = p->pos;
    uint32_t i = start + 1;
    bool reported_utf8 = false;
    *escaped = 0;
    *unterminated = false;
    for (;;) {
        i = skip_plain(s, i, p->len);
        if (i >= p->len) {
            json_parse__syntax_error(p, start, i,
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
            i = scan_escape(p, i);
            continue;
        }
        if (c == '\n' || c == '\r') {
            json_parse__syntax_error(p, start, i,
                                     "unterminated string: expected '\"' before the end of "
                                     "the line");
            *unterminated = true;
            break;
        }
        if (c < 0x20) {
            json_parse__syntax_error(p, i, i + 1,
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
                json_parse__syntax_error(p, i, i + 1, "invalid UTF-8 byte in a string");
            reported_utf8 = true;
            i++;
        } else {
            i += width;
        }
    }
    p->pos = i;
    return i;
}

uint32_t json_parse__string(struct json_parser *p, uint32_t parent, uint32_t reuse)
{
    uint32_t node = json_parse__value_node(p, JSON_STRING, p->pos, parent, reuse);
    uint8_t escaped;
    bool unterminated;
    uint32_t end = json_parse__scan_string(p, &escaped, &unterminated);
    if (node == JSON_NONE)
        return JSON_NONE;
    struct json_node *n = &p->doc->nodes[node];
    n->end = end;
    n->flags |=
        (uint8_t)((escaped ? JSON_FLAG_ESCAPED : 0) | (unterminated ? JSON_FLAG_UNTERMINATED : 0));
    return node;
}

/* Number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? followed by a delimiter. */
uint32_t json_parse__number(struct json_parser *p, uint32_t parent, uint32_t reuse)
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
    if (i < p->len && !json_parse__is_delimiter(s[i]))
        ok = false;
    p->pos = i;
    if (!ok) {
        p->pos = start;
        json_parse__skip_word(p);
        json_parse__syntax_error(
            p, start, p->pos,
            "invalid number: JSON numbers are like 12, -3, 0.5 or 1e9 (no leading zeros, "
            "'+', hex, or trailing '.')");
    }
    uint32_t node =
        json_parse__value_node(p, ok ? JSON_NUMBER : JSON_INVALID, start, parent, reuse);
    if (node != JSON_NONE) {
        p->doc->nodes[node].end = p->pos;
        if (ok && integer)
            p->doc->nodes[node].flags |= JSON_FLAG_INTEGER;
    }
    return node;
}

uint32_t json_parse__word(struct json_parser *p, uint32_t parent, uint32_t reuse)
{
    static const struct {
        const char *text;
        uint32_t len;
        enum json_kind kind;
    } literals[] = {{"true", 4, JSON_TRUE}, {"false", 5, JSON_FALSE}, {"null", 4, JSON_NULL}};
    uint32_t start = p->pos;
    json_parse__skip_word(p);
    uint32_t len = p->pos - start;
    enum json_kind kind = JSON_INVALID;
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        if (len == literals[i].len && memcmp(p->s + start, literals[i].text, len) == 0)
            kind = literals[i].kind;
    }
    if (kind == JSON_INVALID) {
        unsigned char c = p->s[start];
        if (c >= 0x80 || c < 0x20)
            json_parse__syntax_error(p, start, p->pos,
                                     "unexpected character: expected a JSON value");
        else
            json_parse__syntax_error(
                p, start, p->pos,
                "invalid value: expected a string (in double quotes), a number, an "
                "object, an array, true, false or null");
    }
    uint32_t node = json_parse__value_node(p, kind, start, parent, reuse);
    if (node != JSON_NONE)
        p->doc->nodes[node].end = p->pos;
    return node;
}
