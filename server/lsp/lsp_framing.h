/* lsp_framing: the base protocol's Content-Length framing, as a byte-stream parser that knows
 * nothing of I/O. Bytes go in as they arrive (split or joined anyhow); whole message bodies
 * come out. Broken headers and oversized bodies are reported and skipped, so one bad message
 * does not end the session. */
#ifndef SRCLS_LSP_FRAMING_H
#define SRCLS_LSP_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

/* A header block longer than this (8 KiB) is dropped: real ones are one or two short lines. */
#define LSP_FRAMING_MAX_HEADER 8192
/* A body longer than this (64 MiB) is skipped unread, unless lsp_framing_init is given another
 * limit. */
#define LSP_FRAMING_DEFAULT_MAX_BODY ((size_t)64 << 20)

struct lsp_framing_sink {
    void (*message)(void *context, const char *body, size_t len);
    void (*error)(void *context, const char *message);
    void *context;
};

struct lsp_framing {
    char *buf;       /* owned: bytes not consumed yet */
    size_t len, cap; /* cap: bytes allocated (vector_grow) */
    size_t body_len; /* when in_body: the body's length */
    bool in_body;
    size_t skip; /* bytes of an oversized body still to drop */
    size_t max_body;
    bool resync; /* after bytes that are no header: dropping up to the next Content-Length */
};

void lsp_framing_init(struct lsp_framing *framing, size_t max_body);
void lsp_framing_free(struct lsp_framing *framing);
/* Feeds bytes; calls sink->message for each complete body and sink->error for each broken
 * frame. Returns 0, or -1 when memory ran out: then the bytes and the message they belonged to
 * are dropped, reading resumes at the next Content-Length, and the caller reports it. */
int lsp_framing_feed(struct lsp_framing *framing, const char *data, size_t len,
                     const struct lsp_framing_sink *sink);

#endif
