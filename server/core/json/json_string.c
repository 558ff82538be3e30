/* json_string: UTF-8 validation and JSON string decoding. */
#include "json_string.h"

int json_hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

uint32_t json_utf8_sequence_length(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        return (avail >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (avail < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if (c == 0xE0 && s[1] < 0xA0)
            return 0; /* overlong */
        if (c == 0xED && s[1] >= 0xA0)
            return 0; /* UTF-16 surrogate */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (avail < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && s[1] < 0x90)
            return 0; /* overlong */
        if (c == 0xF4 && s[1] >= 0x90)
            return 0; /* above U+10FFFF */
        return 4;
    }
    return 0;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads \uXXXX at body[i] (the backslash); returns the code unit or -1. */
static int32_t read_u_escape(const char *body, size_t len, size_t i)
{
    if (i + 6 > len || body[i] != '\\' || body[i + 1] != 'u')
        return -1;
    int32_t value = 0;
    for (size_t k = 2; k < 6; k++) {
        int digit = json_hex_value((unsigned char)body[i + k]);
        if (digit < 0)
            return -1;
        value = value * 16 + digit;
    }
    return value;
}

size_t json_string_decode(const char *body, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        char c = body[i];
        if (c != '\\' || i + 1 >= len) {
            out[n++] = c;
            i++;
            continue;
        }
        char e = body[i + 1];
        switch (e) {
        case 'b':
            out[n++] = '\b';
            i += 2;
            continue;
        case 'f':
            out[n++] = '\f';
            i += 2;
            continue;
        case 'n':
            out[n++] = '\n';
            i += 2;
            continue;
        case 'r':
            out[n++] = '\r';
            i += 2;
            continue;
        case 't':
            out[n++] = '\t';
            i += 2;
            continue;
        case 'u': break;
        default:
            out[n++] = e;
            i += 2;
            continue;
        }
        int32_t unit = read_u_escape(body, len, i);
        if (unit < 0) { /* malformed: reported by the parser; keep the text */
            out[n++] = c;
            i++;
            continue;
        }
        i += 6;
        uint32_t cp = (uint32_t)unit;
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            int32_t low = read_u_escape(body, len, i);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                cp = 0x10000 + (((uint32_t)unit - 0xD800) << 10) + ((uint32_t)low - 0xDC00);
                i += 6;
            } else {
                cp = 0xFFFD;
            }
        } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
            cp = 0xFFFD;
        }
        /* A 6-byte escape decodes to at most 3 bytes, a 12-byte pair to 4: never longer. */
        n += put_utf8(out + n, cp);
    }
    return n;
}
