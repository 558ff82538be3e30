/* analysis: one document from bytes to diagnostics — parse, line index, what kind of document
 * it is (envelope_classify), and the checks. This is the core's entry point for both doors (CLI
 * and LSP). */
#ifndef SRCLS_ANALYSIS_H
#define SRCLS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "domain/domain.h"
#include "json/json.h"

struct baseline_index;
struct schema_registry;
struct settings;

struct analysis_options {
    /* Report `unknown-document` for a document that is neither a source nor a job (files named
     * on the command line, documents opened in an editor). */
    bool report_unknown_document;
    /* A document of nothing but whitespace is a hint by default: an editor's new file, before
     * anything is typed. For a file that must hold a document (one --check was given or found
     * by its name: a failed export, a truncated write) it is an error, whose message names what
     * the file should hold: `empty_expected` DOCUMENT_SOURCE or DOCUMENT_JOB, or
     * DOCUMENT_UNKNOWN for either. */
    bool empty_is_error;
    enum document_kind empty_expected;
    const struct json_parse_options *parse; /* NULL: the defaults */
    const struct schema_registry *registry; /* NULL: syntax checks only */
    const struct settings *settings;        /* NULL: the defaults */
    /* The document's path from its srcls.json's directory, for the "files" globs of the
     * settings' "ignore" entries (NULL: only entries without "files" apply). */
    const char *path;
    /* The editor: the entries of the baseline the document's srcls.json names, and the
     * document's path from that file's directory; a finding the baseline holds is a hint, or
     * left out with `baseline_hide` (NULL: no baseline). Its entries' marks of use change:
     * one entry holds one finding, as in --check. */
    struct baseline_index *baseline;
    const char *baseline_path;
    bool baseline_hide;
    /* Messages quote no value of the document, not even an enum value or a type identifier
     * (`***` where one would be): a rendering whose values come from an --env file. */
    bool values_unquoted;
    /* An update may leave the move of the nodes after the edited source pending (json_doc's
     * `moved`): the caller reads the tree only after analysis_settle_moves. The diagnostics and
     * the line index are up to date either way. */
    bool defer_moves;
};

struct name_counts; /* duplicate_names.h */

struct analysis {
    struct json_doc doc;
    struct line_index lines;
    struct diag_list diags;
    enum document_kind document;
    const char *kind; /* the kind's identifier for output, or NULL */
    /* The options' registry and settings (NULL when none), for the fixes, which ask the schema
     * about a place; both must outlive the analysis. */
    const struct schema_registry *registry;
    const struct settings *settings;
    bool values_unquoted; /* the options' */
    struct arena arena;   /* messages and pointers of the diagnostics */
    /* Per "ignore" entry of the settings, 1 when it silenced a finding of the last whole
     * analysis (in `arena`; NULL when there are none): what --check reports as unused. */
    unsigned char *ignore_hits;
    /* A bulk document: the node of each element, in order (owned), for updates. */
    uint32_t *elements;
    uint32_t element_count;
    /* A bulk document, from its whole analysis until its first update: the "name" string node of
     * each element (JSON_NONE: none) and its duplicate_names_hash, found once for every pass
     * over the names (duplicate-name within it, the names counted, a door's names across
     * documents: each would otherwise read every name again, out of cache in a large file);
     * NULL otherwise, and the passes look each name up. Owned. */
    uint32_t *element_names;
    uint64_t *element_hashes;
    /* Two of its sources share a name (duplicate-name): an update takes a whole analysis. */
    bool duplicate_names;
    /* The move of the diagnostics an update with `defer_moves` left pending: those from
     * `diags_moved_from` on are `diags_moved` bytes further on than they say (modulo 2^32),
     * their related place too; 0: nothing pending. Read through analysis_diagnostic. */
    uint32_t diags_moved_from, diags_moved;
    /* A bulk document: its sources' names counted by hash (owned; NULL when memory ran out). */
    struct name_counts *names;
    /* The arenas' sizes after the last whole analysis: what updates add beyond them is mostly
     * garbage (messages of diagnostics since replaced), so past a bound an update gives way to
     * a whole analysis, which starts them afresh. */
    size_t settled_arena, settled_doc_arena;
};

/* Analyses `text` (which must outlive `out`). Returns 0, or -1 when memory ran out (then `out`
 * holds nothing: freeing it again does no harm). */
int analysis_run(struct analysis *out, const char *text, size_t len,
                 const struct analysis_options *options);
void analysis_free(struct analysis *analysis);
/* A door added diagnostics to the analysis from `first` on, findings across documents
 * (duplicate_names_report_elsewhere): the settings of `options` are applied to them as
 * analysis_run applies them ("rules", "ignore"; "off" removes one), and the list is sorted
 * again. */
void analysis_settle(struct analysis *analysis, const struct analysis_options *options,
                     uint32_t first);
/* Which diagnostics an update replaced, for a door that keeps what it made of each (their
 * rendering): those before `first` are as they were; `removed` from `first` on were replaced by
 * `added` new ones; the ones after moved with the text (same message, bytes shifted). */
struct analysis_delta {
    uint32_t first, removed, added;
};

/* The text changed by `edit` and is now `text` (`len` bytes; it must outlive the analysis, and
 * the old text is no longer read). Brings the analysis up to date doing only what the edit
 * touched: the smallest value holding it parsed again (json_splice), and the source holding that
 * checked again (in a bulk file, one element; its diagnostics replace that element's only).
 * The result is the analysis analysis_run would give for `text`. Returns 1 when done that way;
 * 0 when the change needs a whole analysis (a syntax error, a change of structure) and -1 when
 * memory ran out: in both cases the analysis is stale and must be freed and run again.
 * `delta` (may be NULL) says, after a 1, which diagnostics are new. */
int analysis_update(struct analysis *analysis, const char *text, size_t len, struct json_edit edit,
                    const struct analysis_options *options, struct analysis_delta *delta);

/* Applies the move an update with `defer_moves` left pending to the tree and the diagnostics:
 * every node and diagnostic then says its bytes. Costs a pass over what follows the last edit,
 * nothing when no move is pending. */
void analysis_settle_moves(struct analysis *analysis);
/* Diagnostic `index` with the bytes it has now (through a pending move): for a door that reads
 * the diagnostics without settling. */
struct diagnostic analysis_diagnostic(const struct analysis *analysis, uint32_t index);

/* The source object that holds byte `offset`: the document's own, or the element of a bulk file
 * (by binary search); JSON_NONE when there is none. */
uint32_t analysis_source_at(const struct analysis *analysis, uint32_t offset);

#endif
