/* lsp_workspace_internal: what the files of workspace/diagnostic share (lsp_workspace.c: the
 * workspace folders, the pulls, their walk, batches and answers; lsp_workspace_file.c: one file's
 * report, made on a worker; lsp_workspace_posix.c / _wasi.c: what differs by platform, the
 * workers, the cores and what git ignores). One module split for size: only its files include
 * this. */
#ifndef SRCLS_LSP_WORKSPACE_INTERNAL_H
#define SRCLS_LSP_WORKSPACE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "lsp_state.h"
#include "walk/walk.h"

/* One file of a pull, in walk order. */
struct ws_item {
    char *path, *uri; /* owned */
    bool explicit;    /* a srcls.json's "include" names it */
    bool on_loop;     /* reported on the loop: an open document, or one with a baseline */
    struct lsp_target target;
    struct analysis_options options;
    uint64_t settings_changes; /* part of its resultId */
    size_t start, end;         /* its report in its batch's `out` (start == end: none) */
    bool out_of_memory;
};

/* Files handed to the workers together; its reports are sent once every batch before it is. */
struct ws_batch {
    struct ws_pull *pull;
    struct ws_item *items;
    uint32_t count;
    struct json_writer out; /* the items' reports, one after the other */
    bool done;              /* the worker's part is over (its after-work callback ran) */
    struct ws_batch *next;
    /* the pool's: its queues (native), its request and pool (WebAssembly) */
    struct ws_batch *pool_next;
    struct ws_pool *pool;
    uv_work_t work;
};

/* A workspace/diagnostic being answered. */
struct ws_pull {
    struct lsp_server *s;
    char *body; /* the request's message (owned), `doc` parsed from it, `req` pointing into it */
    struct json_doc doc;
    struct lsp_request req;
    uint32_t previous; /* params.previousResultIds */
    uint32_t token;    /* params.partialResultToken (a string or a number), or JSON_NONE */
    struct walk_ignored ignored;
    uint32_t git_folder; /* the folder git is asked about next (or being asked about) */
    bool git_running;    /* git is being asked: its answer ends or goes on with the pull */
    char **open_paths;   /* the files of the documents open when the walk began, sorted */
    size_t open_count, open_cap;
    struct ws_found *files; /* the walk's files, in walk order */
    size_t file_count, file_cap, next_file;
    struct ws_batch *first, *last; /* handed to the pool, in walk order */
    unsigned in_flight;            /* batches whose after-work callback has not run */
    atomic_uint working;           /* batches whose worker's part is not over */
    struct json_writer w;          /* the answer */
    struct json_writer part;       /* the $/progress being written, when in_part != 0 */
    uint32_t in_part;              /* reports in it */
    bool out_of_memory;            /* a file may be missing: the request is answered so */
    bool cancelled;                /* answered already ($/cancelRequest, exit): nothing more sent */
    struct ws_pull *next;          /* the next pull, waiting for this one */
};

struct ws_found {
    char *path;
    bool explicit;
};

/* The worker's part for `item`: its file read and checked, its report written into `out`
 * (thread pool). */
void lsp_workspace_file_work(struct ws_pull *pull, struct ws_item *item, struct json_writer *out);
/* The loop's part for an open document (or `on_loop` item): its report written into `out`. */
void lsp_workspace_file_on_loop(struct ws_pull *pull, struct ws_item *item,
                                struct json_writer *out);
/* Writes the report of one document into `w`: unchanged when the client has `id`, else full. */
void lsp_workspace_write_report(const struct ws_pull *pull, struct json_writer *w, const char *uri,
                                const char *id, int64_t version, const struct analysis *a);

/* The cores a pull's batches may use (the native build's; 1 in the WebAssembly build). */
unsigned lsp_workspace_cores(void);

/* The workers of the pulls (one set for the server, made by the first pull): `work` runs on a
 * worker (or on the loop, where no thread could start), `after` on the loop, a batch at a time,
 * in the order they are done. NULL when memory ran out. */
typedef void ws_batch_fn(struct ws_batch *b);
struct ws_pool *lsp_workspace_pool_new(uv_loop_t *loop, unsigned threads, ws_batch_fn *work,
                                       ws_batch_fn *after);
void lsp_workspace_pool_submit(struct ws_pool *pool, struct ws_batch *b);
/* Waits for the workers to end the batches they work on and stops them; the batches not
 * handed back are the caller's to free. Freed once the loop has closed its handle. */
void lsp_workspace_pool_close(struct ws_pool *pool);
/* What git ignores below `dir`: `done(context, names, len)` once, on the loop, with git's
 * NUL-separated answer, or NULL when nothing is known (no git, not a work tree, an error).
 * Returns 0, or non-zero when nothing was started (then `done` is never called). */
typedef void lsp_workspace_git_done(void *context, const char *names, size_t len);
int lsp_workspace_git_ignored(uv_loop_t *loop, const char *dir, lsp_workspace_git_done *done,
                              void *context);

#endif
