/* lsp_framing: Content-Length framing over a byte stream. */
#include "lsp_framing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/base.h"

/* A Content-Length over this is refused before its digits could overflow a long long; it is far
 * over any max_body anyway. */
#define CONTENT_LENGTH_MAX (1LL << 40)

void lsp_framing_init(struct lsp_framing *framing, size_t max_body)
{
    memset(framing, 0, sizeof *framing);
    framing->max_body = max_body ? max_body : LSP_FRAMING_DEFAULT_MAX_BODY;
}

void lsp_framing_free(struct lsp_framing *framing)
{
    free(framing->buf);
    memset(framing, 0, sizeof *framing);
}

static int append(struct lsp_framing *f, const char *data, size_t len)
{
    char *grown = len <= SIZE_MAX - f->len ? vector_grow(f->buf, &f->cap, f->len + len, 1) : NULL;
    if (grown == NULL)
        return -1;
    f->buf = grown;
    memcpy(f->buf + f->len, data, len);
    f->len += len;
    return 0;
}

/* A buffer larger than this is given back once empty: a 50 MB didOpen must not keep 50 MB. */
#define KEEP_EMPTY_BUFFER ((size_t)1 << 20)

static void consume(struct lsp_framing *f, size_t n)
{
    memmove(f->buf, f->buf + n, f->len - n);
    f->len -= n;
    if (f->len == 0 && f->cap > KEEP_EMPTY_BUFFER) {
        free(f->buf);
        f->buf = NULL;
        f->cap = 0;
    }
}

static const char *find_header_end(const char *buf, size_t len)
{
    for (size_t i = 0; i + 3 < len; i++) {
        if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n')
            return buf + i;
    }
    return NULL;
}

static const char content_length[] = "Content-Length";

/* A character of a header field name (RFC 9110 tchar). */
static bool token_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Whether the bytes can begin a header: a field name and its ':' (true while undecided). */
static bool header_start(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && token_char(buf[i]))
        i++;
    return i == len || (i > 0 && buf[i] == ':');
}

/* Where the first "Content-Length" starts, or the start of a tail that may be its beginning, or
 * `len`. */
static size_t find_content_length(const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        size_t n = len - i < sizeof content_length - 1 ? len - i : sizeof content_length - 1;
        if (strncasecmp(buf + i, content_length, n) == 0)
            return i;
    }
    return len;
}

/* Parses the header block [start, end); returns the Content-Length, or -1 with `why` set. */
static long long parse_headers(const char *start, const char *end, const char **why)
{
    long long length = -1;
    const char *line = start;
    while (line < end) {
        const char *eol = line;
        while (eol < end && !(eol[0] == '\r' && eol + 1 <= end && eol[1] == '\n'))
            eol++;
        const char *colon = memchr(line, ':', (size_t)(eol - line));
        if (colon == NULL) {
            *why = "a header line without ':'";
            return -1;
        }
        size_t name_len = (size_t)(colon - line);
        if (name_len == sizeof content_length - 1 &&
            strncasecmp(line, content_length, name_len) == 0) {
            const char *v = colon + 1;
            while (v < eol && *v == ' ')
                v++;
            if (v == eol) {
                *why = "an empty Content-Length";
                return -1;
            }
            long long value = 0;
            for (; v < eol; v++) {
                if (*v < '0' || *v > '9' || value > CONTENT_LENGTH_MAX) {
                    *why = "a Content-Length that is not a number of bytes";
                    return -1;
                }
                value = value * 10 + (*v - '0');
            }
            length = value;
        }
        line = eol + 2;
    }
    if (length < 0)
        *why = "a header without Content-Length";
    return length;
}

/* Consumes the header that ends at `end`: its body comes next, or is skipped when it is too
 * long, or the header is reported when it is malformed. */
static void read_header(struct lsp_framing *f, const char *end, const struct lsp_framing_sink *sink)
{
    const char *why = NULL;
    long long length = parse_headers(f->buf, end, &why);
    consume(f, (size_t)(end - f->buf) + 4);
    char message[160];
    if (length < 0) {
        snprintf(message, sizeof message, "malformed message header (%s): dropped", why);
        sink->error(sink->context, message);
        return;
    }
    if ((unsigned long long)length > f->max_body) {
        snprintf(message, sizeof message,
                 "a message of %lld bytes is over the limit of %zu bytes: dropped", length,
                 f->max_body);
        sink->error(sink->context, message);
        f->skip = (size_t)length;
        return;
    }
    f->body_len = (size_t)length;
    f->in_body = true;
}

int lsp_framing_feed(struct lsp_framing *f, const char *data, size_t len,
                     const struct lsp_framing_sink *sink)
{
    if (f->skip > 0) {
        size_t n = len < f->skip ? len : f->skip;
        f->skip -= n;
        data += n;
        len -= n;
    }
    if (len > 0 && append(f, data, len) != 0 && append(f, data, len) != 0) { /* once more */
        /* The bytes are lost, and with them the message they belong to: drop what is buffered
         * and resume at the next Content-Length, as after junk. */
        f->len = 0;
        f->in_body = false;
        f->resync = true;
        return -1;
    }
    bool dropped = false; /* bytes outside a message are reported once per feed */
    for (;;) {
        if (f->skip > 0) {
            size_t n = f->len < f->skip ? f->len : f->skip;
            consume(f, n);
            f->skip -= n;
            if (f->skip > 0)
                return 0;
        }
        if (f->in_body) {
            if (f->len < f->body_len)
                return 0;
            sink->message(sink->context, f->buf, f->body_len);
            consume(f, f->body_len);
            f->in_body = false;
            continue;
        }
        if (f->resync) {
            /* The state survives feeds so that where the stream resumes does not depend on how
             * it was split: a tail that may begin "Content-Length" waits for more bytes. */
            consume(f, find_content_length(f->buf, f->len));
            if (f->len < sizeof content_length - 1)
                return 0;
            f->resync = false;
        }
        if (!header_start(f->buf, f->len)) {
            /* The body of a message whose header was dropped, or stray bytes: its length is
             * unknown, so resume at the next Content-Length rather than read it as a header. */
            if (!dropped)
                sink->error(sink->context, "bytes outside a message: dropped");
            dropped = true;
            consume(f, 1);
            f->resync = true;
            continue;
        }
        const char *end = find_header_end(f->buf, f->len);
        /* Too long when no terminator starts within the first 8 KiB, which is known once 8 KiB
         * and 3 bytes are buffered: the same verdict however the bytes arrived. */
        if (end != NULL ? (size_t)(end - f->buf) >= LSP_FRAMING_MAX_HEADER
                        : f->len >= LSP_FRAMING_MAX_HEADER + 3) {
            sink->error(sink->context, "a message header longer than 8 KiB: dropped");
            consume(f, 1);
            f->resync = true;
            continue;
        }
        if (end == NULL)
            return 0;
        read_header(f, end, sink);
    }
}
