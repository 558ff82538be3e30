/* lsp_state: the server's state as the parts of the LSP door share it, and the two functions
 * a method brings to the method table of lsp_server.c: its handler and its part of initialize.
 * Only the door includes this; lsp_server.h shows the rest of srcls an opaque server. */
#ifndef SRCLS_LSP_STATE_H
#define SRCLS_LSP_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "assist/assist.h"
#include "json/json.h"
#include "lsp_documents.h"
#include "lsp_jsonrpc.h"
#include "lsp_transport.h"
#include "schema/schema.h"
#include "domain/domain.h"

enum lsp_state {
    LSP_STATE_NEW,         /* before initialize */
    LSP_STATE_INITIALIZED, /* after the initialize response */
    LSP_STATE_SHUT_DOWN,   /* after shutdown: only exit is accepted */
};

struct ws_pull; /* lsp_workspace_internal.h */
struct ws_pool;

struct lsp_message {
    char *body; /* owned, NUL-terminated */
    size_t len;
};

struct lsp_server {
    uv_loop_t *loop;
    struct lsp_transport transport;
    struct lsp_jsonrpc rpc;         /* messages out */
    struct lsp_documents documents; /* open documents; the position encoding */
    struct schema_registry registry;
    struct settings settings;
    /* What the client takes (lsp_completion, lsp_hover): snippet completions, the Deprecated
     * tag on items; Markdown or plain text in documentation and hovers. */
    bool snippets;
    bool deprecated_tag;
    enum text_markup completion_markup;
    enum text_markup hover_markup;
    uint32_t fold_limit; /* the most folding ranges the client takes (lsp_navigation) */
    bool watch_projects; /* the client registers file watchers on request (lsp_configuration) */
    bool create_files;   /* the client's workspace edits can create a file (lsp_code_action) */
    bool snippet_edits;  /* ... and hold snippets (snippetEditSupport, LSP 3.18) */
    char **folders;      /* the workspace folders' paths (lsp_workspace; owned) */
    uint32_t folder_count;
    size_t folder_capacity;
    bool folders_lost;     /* a workspace folder was not kept for memory (workspace/diagnostic) */
    struct ws_pull *pulls; /* workspace/diagnostic requests, the first being answered (owned) */
    /* exit, or the end of the input, while pulls run: the exit code + 1; the server stops once
     * they are answered (lsp_workspace calls pulls_over then), as it always answered every
     * request read before it */
    int stop_when_pulled;
    void (*pulls_over)(struct lsp_server *s);
    struct ws_pool *pool; /* the pulls' workers, made by the first pull (lsp_workspace) */

    /* Lifecycle and dispatch, lsp_server.c's alone. */
    enum lsp_state state;
    struct lsp_message *queue; /* messages read, not handled yet */
    size_t queue_len, queue_cap;
    uv_idle_t idle;
    bool exiting;
    int exit_code;
    bool registry_borrowed; /* `registry` is a copy of the caller's: not freed here */
};

/* Handles a request (which it answers, result or error) or a notification (req->id_text NULL). */
typedef void lsp_handler(struct lsp_server *s, struct lsp_request *req);

/* A method's part of initialize, called while the response is written: it reads what it needs
 * of the client in `initialize`'s params (capabilities, initializationOptions) and writes its
 * members of the server's capabilities object ("hoverProvider": true), if any. */
typedef void lsp_initializer(struct lsp_server *s, struct lsp_request *initialize,
                             struct json_writer *capabilities);

#endif
