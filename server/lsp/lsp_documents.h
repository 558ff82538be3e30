/* lsp_documents: the documents the client has open — their text as edits arrive, their analysis
 * (run when something asks for it), and their diagnostics, published after a short debounce so
 * that typing is not slowed by re-checking every keystroke. Positions are counted in the
 * encoding negotiated at initialize, which the store keeps. */
#ifndef SRCLS_LSP_DOCUMENTS_H
#define SRCLS_LSP_DOCUMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "check/check.h"
#include "json/json.h"
#include "lsp_jsonrpc.h"
#include "lsp_projects.h"
#include "lsp_rendered.h"
#include "lsp_review.h"

/* srcls.maxDiagnostics when the settings do not say: the most diagnostics sent for a document
 * (0: no limit). */
#define LSP_MAX_DIAGNOSTICS_DEFAULT 1000u

struct schema_registry;
struct project_schema;
struct settings;

struct lsp_documents {
    uv_loop_t *loop;
    struct lsp_jsonrpc *rpc;                /* where diagnostics are published */
    const struct schema_registry *registry; /* what documents are analysed with */
    const struct settings *settings;        /* the editor's */
    struct lsp_projects projects;           /* each document's srcls.json */
    enum position_encoding encoding;        /* how the client counts characters */
    unsigned debounce_ms;
    uint32_t max_diagnostics; /* srcls.maxDiagnostics: the most sent per document; 0: all */
    enum lsp_baseline_mode baseline_mode; /* srcls.baselineFindings */
    uint64_t results;          /* the last result id given (a counter over all documents) */
    uint64_t settings_changes; /* how many times the settings changed: part of a file's resultId */
    bool pull;    /* the client pulls diagnostics (textDocument/diagnostic): none is pushed */
    bool refresh; /* ... and takes workspace/diagnostic/refresh */
    struct lsp_review review; /* srcls.reviewBase */
    /* A didOpen failed for memory before its document could be kept: a request on a document
     * that is not open may be on it, and is answered "out of memory" rather than "not open". */
    bool open_lost;
    struct lsp_document *first;
};

struct lsp_document {
    struct lsp_documents *store;
    struct lsp_document *next;
    char *uri;  /* owned */
    char *text; /* NUL-terminated: text_buffer_text(&buffer), again after each change */
    size_t len;
    struct text_buffer buffer; /* owns the text */
    int64_t version;
    const struct settings *settings;          /* its srcls.json's with the editor's over them */
    const struct schema_registry *registry;   /* the kinds of its project, else the built-in */
    const struct project_schema *kind_schema; /* a kind file: its project's kind files */
    struct lsp_target target;                 /* what it is checked with (its paths owned) */
    bool analyzed;                            /* `analysis` is of the current text */
    bool project_file; /* a srcls.json: analysed as a project configuration */
    /* The text is not the client's: an open or an edit could not be applied for memory. Requests
     * on it are answered "out of memory" and ranged edits ignored until it is opened again or
     * its whole text arrives (lsp_document_lose). */
    bool lost;
    bool update_failed; /* an edit's incremental update ran out of memory: analyse it now */
    bool retarget;      /* `target` could not be found for memory: found before analysing */
    /* Changes whenever the diagnostics may have changed (text, settings): the resultId of
     * textDocument/diagnostic, with the version. */
    uint64_t result;
    uint64_t cut_logged; /* the result whose cut diagnostics were logged, or 0 */
    bool published;      /* the last publish's message is in `published_text` (owned) */
    char *published_text;
    size_t published_len, published_cap;
    struct analysis analysis;
    struct lsp_rendered rendered;  /* each diagnostic of `analysis` as last written */
    struct lsp_review_base review; /* the document at srcls.reviewBase, compared in `analysis` */
    uv_timer_t debounce;
};

/* An empty store; the registry and settings must outlive it. */
void lsp_documents_init(struct lsp_documents *store, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                        const struct schema_registry *registry, const struct settings *settings,
                        unsigned debounce_ms);
/* Closes every document without publishing; the loop's close callbacks free them. */
void lsp_documents_close_all(struct lsp_documents *store);

/* Finds again what the document is checked with (its srcls.json's settings and kinds, or as a
 * kind file): on opening, and when a srcls.json or a kind file changed. -1 when memory ran out:
 * then it is found again before the document is analysed. */
int lsp_document_retarget(struct lsp_document *d);

struct lsp_document *lsp_documents_find(struct lsp_documents *store, struct json_str uri);
/* Opens `uri` with the text `body` (copied; decoded first when `escaped`: the body of a JSON
 * string as written, json_node_string_body), or replaces the text of the document already open
 * there. NULL when memory ran out before a document could be kept (then the store's open_lost is
 * set); a document that is `lost` when its text could not be kept. */
struct lsp_document *lsp_documents_open(struct lsp_documents *store, struct json_str uri,
                                        struct json_str body, bool escaped, int64_t version);
/* Clears the document's diagnostics and closes it. */
void lsp_documents_close(struct lsp_documents *store, struct lsp_document *d);
/* Re-analyses and publishes every document now (the settings changed). */
void lsp_documents_republish_all(struct lsp_documents *store);
/* A srcls.json changed on disk: each document's is found and read again, and every document is
 * analysed and published again. */
void lsp_documents_projects_changed(struct lsp_documents *store);
/* Publishes now what is waiting for its debounce. */
void lsp_documents_publish_pending(struct lsp_documents *store);

/* The document named by the params' textDocument.uri, or NULL; then, when `reply`, the request
 * has been answered with InvalidParams. */
struct lsp_document *lsp_documents_target(struct lsp_documents *store,
                                          const struct lsp_request *req, bool reply);
/* The same, analysed: for the features, which read its tree; NULL also when it cannot be
 * analysed, after answering with InternalError. */
struct lsp_document *lsp_documents_target_analyzed(struct lsp_documents *store,
                                                   const struct lsp_request *req);
/* The same for the diagnostics, which do not read the tree (lsp_document_diagnose). */
struct lsp_document *lsp_documents_target_diagnosed(struct lsp_documents *store,
                                                    const struct lsp_request *req);
/* The analysed document and the byte offset of the params' position; false after answering. */
bool lsp_documents_target_offset(struct lsp_documents *store, const struct lsp_request *req,
                                 struct lsp_document **d, uint32_t *offset);
/* The same for the params' range: the byte offsets [*start, *end); false after answering. */
bool lsp_documents_target_range(struct lsp_documents *store, const struct lsp_request *req,
                                struct lsp_document **d, uint32_t *start, uint32_t *end);

/* The text of `d` could not be kept up to date for memory: it is marked lost, its diagnostics
 * are cleared and the client is told (`what` failed). */
void lsp_document_lose(struct lsp_document *d, const char *what);
/* Replaces the whole text with `body` (copied; decoded first when `escaped`, as for
 * lsp_documents_open); 0 or -1 when memory ran out. */
int lsp_document_set_text(struct lsp_document *d, struct json_str body, bool escaped);
/* Replaces the text between two positions of the current text; 0 or -1 (memory). */
int lsp_document_replace(struct lsp_document *d, struct text_position start,
                         struct text_position end, const char *text, size_t len);
/* The text changed: publishes its diagnostics now, or after the debounce. */
void lsp_document_changed(struct lsp_document *d, bool now);
/* The document was opened: its diagnostics are published on the next turn of the loop, once
 * the message that opened it (which may be as large as the document) is freed. */
void lsp_document_opened(struct lsp_document *d);
/* Analyses the current text, unless that is done already. Returns 0, or -1 when memory ran out;
 * then the analysis is empty and must not be read. */
int lsp_document_analyze(struct lsp_document *d);
/* The same for a reader of the diagnostics and the line index only: the move of the tree's
 * nodes an edit left pending (analysis_settle_moves) stays pending; lsp_document_analyze
 * applies it, for the features, which read the tree. */
int lsp_document_diagnose(struct lsp_document *d);

/* In the analysed text: the byte offset of a position, and the Range of bytes [start, end). */
uint32_t lsp_document_offset(const struct lsp_document *d, struct text_position position);
void lsp_document_write_range(struct json_writer *w, const struct lsp_document *d, uint32_t start,
                              uint32_t end);
/* The document's resultId, "VERSION-RESULT", in `buf`. */
void lsp_document_result_id(const struct lsp_document *d, char *buf, size_t size);
/* Diagnostic `index` of the analysis, and all of them, as LSP Diagnostics (lsp_rendered.h's
 * lsp_diagnostic_write): all of them up to the store's max_diagnostics, in document order; what
 * is left out is logged once a result. */
void lsp_document_write_diagnostic(struct json_writer *w, const struct lsp_document *d,
                                   uint32_t index);
void lsp_document_write_diagnostics(struct json_writer *w, struct lsp_document *d);

#endif
