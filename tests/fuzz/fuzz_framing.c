/* fuzz_framing: the Content-Length framer alone. The same byte stream is fed once whole and
 * once in chunks whose sizes come from the input; the messages delivered must be the same, in
 * the same order, since a pipe may split or join reads anyhow. (Error reports may differ: bytes
 * outside a message are reported once per feed, by design.) Each body must also respect the
 * size limit.
 *
 * Input: byte 0 picks the body limit, byte 1 how many chunk sizes follow (1 to 8), then those
 * sizes (bytes, used in turn; 0 is an empty feed followed by a 1-byte one), then the stream. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "lsp_framing.h"

/* Messages as delivered, each stored as its length then its bytes, so that two recordings are
 * equal exactly when they delivered the same messages. */
struct recording {
    char *bytes;
    size_t len, cap;
    size_t messages, errors;
    size_t max_body;
};

static void append(struct recording *r, const void *data, size_t len)
{
    if (r->len + len > r->cap) {
        size_t cap = r->cap ? r->cap : 256;
        while (cap < r->len + len)
            cap *= 2;
        r->bytes = realloc(r->bytes, cap);
        FUZZ_CHECK(r->bytes != NULL);
        r->cap = cap;
    }
    memcpy(r->bytes + r->len, data, len);
    r->len += len;
}

static void on_message(void *context, const char *body, size_t len)
{
    struct recording *r = context;
    FUZZ_CHECK(len <= r->max_body);
    append(r, &len, sizeof len);
    append(r, body, len);
    r->messages++;
}

static void on_error(void *context, const char *message)
{
    struct recording *r = context;
    FUZZ_CHECK(message != NULL && message[0] != '\0');
    r->errors++;
}

/* Feeds through an exact-size copy, so AddressSanitizer sees a read past the chunk. */
static void feed(struct lsp_framing *framing, const uint8_t *data, size_t len,
                 const struct lsp_framing_sink *sink)
{
    char *copy = malloc(len > 0 ? len : 1);
    FUZZ_CHECK(copy != NULL);
    if (len > 0)
        memcpy(copy, data, len);
    FUZZ_CHECK(lsp_framing_feed(framing, copy, len, sink) == 0);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t limits[] = {0, 8, 64, 1024}; /* 0: the default */
    if (size < 2)
        return 0;
    size_t max_body = limits[data[0] % 4];
    size_t sizes = (size_t)data[1] % 8 + 1;
    if (size < 2 + sizes)
        return 0;
    const uint8_t *chunk_sizes = data + 2;
    const uint8_t *stream = data + 2 + sizes;
    size_t stream_len = size - 2 - sizes;

    struct recording whole = {.max_body = max_body ? max_body : LSP_FRAMING_DEFAULT_MAX_BODY};
    struct recording chunked = whole;
    struct lsp_framing framing;
    struct lsp_framing_sink sink = {on_message, on_error, &whole};
    lsp_framing_init(&framing, max_body);
    feed(&framing, stream, stream_len, &sink);
    lsp_framing_free(&framing);

    sink.context = &chunked;
    lsp_framing_init(&framing, max_body);
    size_t at = 0;
    for (size_t turn = 0; at < stream_len; turn++) {
        size_t n = chunk_sizes[turn % sizes];
        if (n == 0) {
            feed(&framing, stream + at, 0, &sink);
            n = 1;
        }
        if (n > stream_len - at)
            n = stream_len - at;
        feed(&framing, stream + at, n, &sink);
        at += n;
    }
    lsp_framing_free(&framing);

    FUZZ_CHECK(whole.messages == chunked.messages);
    FUZZ_CHECK(whole.len == chunked.len);
    FUZZ_CHECK(whole.len == 0 || memcmp(whole.bytes, chunked.bytes, whole.len) == 0);
    /* Bodies are carved out of the stream: never more bytes than it had. */
    FUZZ_CHECK(whole.len - whole.messages * sizeof(size_t) <= stream_len);
    free(whole.bytes);
    free(chunked.bytes);
    return 0;
}
