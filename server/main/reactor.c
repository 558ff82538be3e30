/* reactor.c: the language server as a WebAssembly reactor (srcls-reactor.wasm), for the browser
 * playground (playground/), where nothing may block: no main, no stdin. The host (a Web Worker)
 * calls srcls_input(len) for a buffer, writes framed LSP bytes into it, calls srcls_feed(len),
 * and reads the framed messages the server sent in answer at srcls_output(), srcls_feed's
 * return value bytes long. The server is the one lsp_server_run runs (lsp_server_new_in_memory:
 * the same handlers), one message batch per call, with the diagnostics published at once. Files
 * (srcls.json, kind files) are read through WASI, from the directories the host preopens. */
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "lsp_server.h" /* and, through it, the loop it runs on (uv.h) */

#define EXPORT(name) __attribute__((export_name(name)))

static struct lsp_server *server;
char *srcls_input(size_t len);
int srcls_feed(size_t len);
const char *srcls_output(void);

static char *input, *output;
static size_t input_cap, output_cap, output_len;
static int output_failed;

static void collect(void *context, const char *data, size_t len)
{
    (void)context;
    char *grown = vector_grow(output, &output_cap, output_len + len, 1);
    if (grown == NULL) {
        output_failed = 1;
        return;
    }
    output = grown;
    for (size_t i = 0; i < len; i++)
        output[output_len + i] = data[i];
    output_len += len;
}

/* A buffer of at least `len` bytes for the next srcls_feed; NULL when memory ran out. */
EXPORT("srcls_input") char *srcls_input(size_t len)
{
    char *grown = vector_grow(input, &input_cap, len > 0 ? len : 1, 1);
    if (grown == NULL)
        return NULL;
    input = grown;
    return input;
}

/* Handles the `len` bytes written into srcls_input's buffer; returns how many bytes of framed
 * answers wait at srcls_output(), or -1 when the server could not start or memory ran out. */
EXPORT("srcls_feed") int srcls_feed(size_t len)
{
    if (server == NULL) {
        server = lsp_server_new_in_memory(uv_default_loop(), NULL, collect, NULL);
        if (server == NULL)
            return -1;
    }
    output_len = 0;
    output_failed = 0;
    if (len > input_cap)
        return -1;
    lsp_server_feed(server, input, len);
    /* Runs the close callbacks of closed documents; no timer is left armed (the feed published
     * what waited for its debounce), so this does not wait. */
    uv_run(uv_default_loop(), UV_RUN_NOWAIT);
    return output_failed || output_len > INT32_MAX ? -1 : (int)output_len;
}

EXPORT("srcls_output") const char *srcls_output(void)
{
    return output;
}
