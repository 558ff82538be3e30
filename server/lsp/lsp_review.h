/* lsp_review: srcls.reviewBase, the review of a change in the editor. With the setting on (a
 * git revision, "HEAD" or "origin/main"), each open document on disk is compared with its version
 * at that revision and the risky-change diagnostics of `srcls --check --base` are added to its
 * own. Git runs as a child process through libuv (uv_spawn; its output read on the loop, which
 * never waits for it): `git rev-parse` finds the repository, `git diff -M` whether the document
 * was moved since the revision (git's rename detection; its listing read by the core's
 * review_listing_next, as the CLI's), `git cat-file --batch` reads the revision's commit and the
 * document's blob (at its old path for a move) in one process. The base text is kept per document
 * with its blob id, and analysed again only when the blob or the settings changed. When HEAD
 * moves (a commit, a checkout, a reset), every document is read again: the server watches the
 * git directory (HEAD, packed-refs) and the directory of the ref HEAD points to with
 * uv_fs_event, which works whatever the client (a client's file watchers usually leave .git
 * out). A revision that names no commit, a document outside any work tree, git missing: one
 * window/logMessage per problem, window/showMessage once per setting, no diagnostics. The
 * WebAssembly server cannot start processes: it logs once that the setting is ignored. */
#ifndef SRCLS_LSP_REVIEW_H
#define SRCLS_LSP_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "check/check.h"

struct lsp_jsonrpc;
struct lsp_review_watch;
struct lsp_review_run;

/* The longest git object id written (SHA-256), and the longest revision taken. */
#define LSP_REVIEW_OID_MAX REVIEW_OID_MAX
#define LSP_REVIEW_REF_MAX 200

/* A document at the base revision. */
struct lsp_review_base {
    char *text; /* owned; NULL: nothing to compare with (off, or no such file at the base) */
    size_t len;
    char blob[LSP_REVIEW_OID_MAX + 1]; /* its blob id: the same blob is not analysed again */
    struct analysis analysis;          /* of `text`, with the document's registry and settings */
    bool analyzed;
    bool project; /* a srcls.json's */
};

/* What the review asks of the open documents (lsp_documents answers; the review knows only
 * URIs and the bases it fills). */
struct lsp_review_hooks {
    void *context;
    /* The base of the open document `uri`, or NULL once it is closed. */
    struct lsp_review_base *(*base_of)(void *context, const char *uri);
    /* The base of `uri` changed: analysed and published again. */
    void (*changed)(void *context, const char *uri);
    /* Every open document's base is read again (lsp_review_fetch), after being dropped first
     * when `drop` (the revision changed or the review is off). */
    void (*refetch)(void *context, bool drop);
};

struct lsp_review {
    uv_loop_t *loop;
    struct lsp_jsonrpc *rpc;
    struct lsp_review_hooks hooks;
    char *base;          /* srcls.reviewBase (owned), or NULL: off */
    uint64_t generation; /* changes with the setting and when HEAD moves: older answers dropped */
    bool shown;          /* a problem was shown (window/showMessage) since the setting changed */
    char logged[320];    /* the last problem logged, not logged again */
    struct lsp_review_watch *watches;
    struct lsp_review_run *runs; /* git processes running */
    uv_timer_t settle;           /* HEAD moved: the documents are read again after it */
    bool started;                /* `settle` initialised */
    bool closing;
};

void lsp_review_init(struct lsp_review *review, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                     struct lsp_review_hooks hooks);
/* Stops watching and the git processes; the loop's close callbacks free them. */
void lsp_review_close(struct lsp_review *review);
/* srcls.reviewBase: `ref` (`len` bytes; NULL or empty: off). A change reads every open
 * document's base again (or drops them all). A revision with a newline, a leading '-' or longer
 * than LSP_REVIEW_REF_MAX is refused with a warning. */
void lsp_review_set(struct lsp_review *review, const char *ref, size_t len);
/* Reads the base of the document `uri` (a file: URI) when the setting is on; what is found goes
 * to the hooks. */
void lsp_review_fetch(struct lsp_review *review, const char *uri);
void lsp_review_base_free(struct lsp_review_base *base);
/* Adds to `now` (the document's analysis) the risky-change diagnostics of the change from
 * `base`, analysed first when it is not (with `options`, the document's). 0, or -1 (memory).
 * A srcls.json's base (`project`; `now` analysed by project_analyze): what its change does to
 * the gate (project_review), both settings read by the one reader, the base analysed again
 * each time (a small file), at the severity of risky-change in the stricter of the base's
 * settings and the working tree's (each with the editor's over it), as --base reports it. The
 * `baseline_file` a srcls.json names: the entries it gained since the base
 * (project_review_baseline), at the document's severity of risky-change. */
int lsp_review_compare(const struct lsp_review *review, struct lsp_review_base *base,
                       struct analysis *now, const struct analysis_options *options,
                       bool baseline_file);

#endif
