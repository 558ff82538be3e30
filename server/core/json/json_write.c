/* json_write: JSON text into a growable buffer. */
#include "json_write.h"

#include "json_string.h"
#include "base/base.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void json_writer_init(struct json_writer *w, int indent)
{
    memset(w, 0, sizeof *w);
    w->indent = indent;
}

void json_writer_free(struct json_writer *w)
{
    free(w->buf);
    json_writer_init(w, w->indent);
}

void json_writer_reserve(struct json_writer *w, size_t bytes)
{
    if (w->failed || bytes >= SIZE_MAX - w->len || w->len + bytes + 1 <= w->cap)
        return;
    char *grown = vector_grow(w->buf, &w->cap, w->len + bytes + 1, 1);
    if (grown != NULL)
        w->buf = grown;
}

void json_write_bytes(struct json_writer *w, const char *bytes, size_t len)
{
    if (w->failed)
        return;
    if (len >= SIZE_MAX - w->len) { /* no room for the bytes and the NUL in any size_t */
        w->failed = true;
        return;
    }
    if (w->len + len + 1 > w->cap) { /* checked here too: this runs once a token */
        char *grown = vector_grow(w->buf, &w->cap, w->len + len + 1, 1);
        if (grown == NULL) {
            w->failed = true;
            return;
        }
        w->buf = grown;
    }
    memcpy(w->buf + w->len, bytes, len);
    w->len += len;
    w->buf[w->len] = '\0';
}

static void newline(struct json_writer *w)
{
    static const char spaces[] = "                                ";
    if (w->indent == 0)
        return;
    json_write_bytes(w, "\n", 1);
    size_t n = (size_t)w->indent * w->depth;
    while (n > 0) {
        size_t chunk = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        json_write_bytes(w, spaces, chunk);
        n -= chunk;
    }
}

/* Separator before a value or a key at the current level. */
static void before_item(struct json_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (!w->first[w->depth])
        json_write_bytes(w, ",", 1);
    w->first[w->depth] = false;
    newline(w);
}

static void open_level(struct json_writer *w, char bracket)
{
    before_item(w);
    json_write_bytes(w, &bracket, 1);
    if (w->depth + 1 < JSON_WRITE_MAX_DEPTH)
        w->depth++;
    else
        w->failed = true;
    w->first[w->depth] = true;
}

static void close_level(struct json_writer *w, char bracket)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (!empty)
        newline(w);
    json_write_bytes(w, &bracket, 1);
}

void json_write_object_begin(struct json_writer *w)
{
    open_level(w, '{');
}

void json_write_object_end(struct json_writer *w)
{
    close_level(w, '}');
}

void json_write_array_begin(struct json_writer *w)
{
    open_level(w, '[');
}

void json_write_array_end(struct json_writer *w)
{
    close_level(w, ']');
}

/* Whether the 8 bytes at `p` are all written as they are: ASCII from ' ' to '~' but '"' and
 * '\\' (each test is exact for "any byte of the word": the word-at-a-time tests of a zero byte
 * and of a byte below n <= 128). */
static bool plain_word(const char *p)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t x;
    memcpy(&x, p, sizeof x);
    uint64_t quote = x ^ (ones * '"'), backslash = x ^ (ones * '\\'), del = x ^ (ones * 0x7f);
    uint64_t found = ((x - ones * 0x20) & ~x) | ((quote - ones) & ~quote) |
                     ((backslash - ones) & ~backslash) | ((del - ones) & ~del) | x;
    return (found & highs) == 0;
}

void json_write_escaped(struct json_writer *w, const char *text, size_t len, bool replace_invalid)
{
    static const char hex[] = "0123456789abcdef";
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        while (len - i >= 8 && plain_word(text + i)) /* a report is mostly plain text */
            i += 8;
        if (i == len)
            break;
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x80) {
            uint32_t width = json_utf8_sequence_length((const unsigned char *)text + i, len - i);
            if (width > 0 || !replace_invalid) {
                i += width > 0 ? width - 1 : 0;
                continue;
            }
            /* Not UTF-8: U+FFFD keeps the output valid JSON. */
            json_write_bytes(w, text + run, i - run);
            json_write_bytes(w, "\\ufffd", 6);
            run = i + 1;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
            continue;
        json_write_bytes(w, text + run, i - run);
        run = i + 1;
        char escape[7] = {'\\', 0, 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '"': escape[1] = '"'; break;
        case '\\': escape[1] = '\\'; break;
        case '\n': escape[1] = 'n'; break;
        case '\r': escape[1] = 'r'; break;
        case '\t': escape[1] = 't'; break;
        case '\b': escape[1] = 'b'; break;
        case '\f': escape[1] = 'f'; break;
        default:
            escape[1] = 'u';
            escape[2] = '0';
            escape[3] = '0';
            escape[4] = hex[c >> 4];
            escape[5] = hex[c & 15];
            n = 6;
        }
        json_write_bytes(w, escape, n);
    }
    json_write_bytes(w, text + run, len - run);
}

static void write_escaped(struct json_writer *w, const char *text, size_t len)
{
    json_write_bytes(w, "\"", 1);
    json_write_escaped(w, text, len, true);
    json_write_bytes(w, "\"", 1);
}

void json_write_key(struct json_writer *w, const char *key)
{
    before_item(w);
    write_escaped(w, key, strlen(key));
    json_write_bytes(w, w->indent ? ": " : ":", w->indent ? 2 : 1);
    w->after_key = true;
}

void json_write_string(struct json_writer *w, const char *text)
{
    json_write_string_n(w, text, strlen(text));
}

void json_write_string_n(struct json_writer *w, const char *text, size_t len)
{
    before_item(w);
    write_escaped(w, text, len);
}

void json_write_int(struct json_writer *w, int64_t value)
{
    char digits[24];
    size_t n = sizeof digits;
    uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    do { /* right to left: a number is written on every line of a report */
        digits[--n] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (value < 0)
        digits[--n] = '-';
    before_item(w);
    json_write_bytes(w, digits + n, sizeof digits - n);
}

void json_write_bool(struct json_writer *w, bool value)
{
    before_item(w);
    json_write_bytes(w, value ? "true" : "false", value ? 4 : 5);
}

void json_write_null(struct json_writer *w)
{
    before_item(w);
    json_write_bytes(w, "null", 4);
}

void json_write_raw(struct json_writer *w, const char *json, size_t len)
{
    before_item(w);
    json_write_bytes(w, json, len);
}
