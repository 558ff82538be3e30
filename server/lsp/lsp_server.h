/* lsp_server: the language server — what the rest of srcls needs of the LSP door: running it on
 * stdin/stdout, and a server in memory for tests and fuzzing. The server itself is opaque. */
#ifndef SRCLS_LSP_SERVER_H
#define SRCLS_LSP_SERVER_H

#include <stddef.h>
#include <uv.h>

struct lsp_server;
struct schema_registry;

/* Runs the server on stdin/stdout until `exit` or the end of input; returns the exit code. */
int lsp_server_run(void);

/* A server without stdio, for tests and fuzzing: bytes go in through lsp_server_feed, and each
 * framed message it sends goes to `write`. It uses `loop` (which must have no other handles) and
 * borrows `registry` (NULL: loads the embedded one), which must outlive it. NULL when memory ran
 * out or the schema does not load. */
struct lsp_server *
lsp_server_new_in_memory(uv_loop_t *loop, const struct schema_registry *registry,
                         void (*write)(void *context, const char *data, size_t len), void *context);
/* Feeds bytes as if read from stdin, handles the messages they complete as one batch (as one
 * loop turn would), then publishes the diagnostics still waiting for their debounce. */
void lsp_server_feed(struct lsp_server *s, const char *data, size_t len);
/* Ends the input as EOF does, closes and frees everything; returns the exit code. */
int lsp_server_free_in_memory(struct lsp_server *s);

#endif
