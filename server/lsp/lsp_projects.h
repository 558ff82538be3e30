/* lsp_projects: the srcls.json that applies to each document — the nearest one upwards from the
 * document's file, as `srcls --check` finds it — read from disk once and kept until a watched
 * file changes, with the editor's settings laid over it. */
#ifndef SRCLS_LSP_PROJECTS_H
#define SRCLS_LSP_PROJECTS_H

#include <stdbool.h>
#include <uv.h>

#include "check/check.h"
#include "lsp_jsonrpc.h"
#include "project/project.h"
#include "schema/schema.h"
#include "domain/domain.h"
#include "walk/walk.h"

struct lsp_project {
    char *path;                     /* DIR/srcls.json (owned) */
    bool usable;                    /* read, and without a mistake */
    struct settings merged;         /* its settings with the editor's over them */
    struct settings own;            /* its settings alone */
    struct project_schema schema;   /* its own kinds ("schemas"), when usable */
    struct baseline_index baseline; /* the entries of its "baseline" (empty: none, unreadable) */
    char *baseline_dir;             /* that file's directory (owned), or NULL */
    char *baseline_file;            /* that file (owned), or NULL */
    struct lsp_project *next;
};

struct lsp_projects {
    uv_loop_t *loop;
    struct lsp_jsonrpc *rpc; /* where a baseline that cannot be read is said (NULL: nowhere) */
    const struct schema_registry *registry;
    const struct settings *editor; /* the editor's settings (not owned) */
    struct lsp_project *first;
    bool out_of_memory;    /* a srcls.json could not be read for memory (lsp_projects_target) */
    struct walk_dirs dirs; /* each directory's project (or none), searched once until forgotten */
};

void lsp_projects_init(struct lsp_projects *projects, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                       const struct schema_registry *registry, const struct settings *editor);
void lsp_projects_free(struct lsp_projects *projects);
/* What a document is checked with: its nearest srcls.json's settings with the editor's over
 * them, or the editor's alone (no file URI, no srcls.json, or one with a mistake); the registry
 * of that project's kinds, or the built-in one; and, when the document is a kind file of a
 * project's "schemas", that project's kind files (it is linted as one of them). */
struct lsp_target {
    const struct settings *settings;
    const struct schema_registry *registry;
    const struct project_schema *kind_schema;
    /* When its srcls.json has "ignore" entries: the document's path from that srcls.json's
     * directory, for their "files" globs (malloc'd: the caller frees it), else NULL. */
    char *relative;
    /* The entries of the baseline its srcls.json names (NULL: none), and the document's path
     * from that file's directory (malloc'd: the caller frees it). */
    struct baseline_index *baseline;
    char *baseline_path;
    /* The document is the baseline file a srcls.json read names: no source or job document,
     * and under srcls.reviewBase the entries it gained are reviewed. */
    bool baseline_file;
};
/* Returns 0, or -1 when memory ran out (then `out` may lack its project: it must not be used;
 * a srcls.json read without memory is not kept, but read again next time). */
int lsp_projects_target(struct lsp_projects *projects, const char *uri, struct lsp_target *out);
/* What the srcls.json that governs the entry at `path` (a file or a directory) says of it in a
 * scan of a folder: its "exclude" or "include" (walk_scan_entry), as `srcls --check` reads them. */
enum walk_scan lsp_projects_scan(struct lsp_projects *projects, const char *path);
/* Frees the paths of `target`. */
void lsp_projects_target_free(struct lsp_target *target);

/* What the editor does with a finding the baseline holds (srcls.baselineFindings). */
enum lsp_baseline_mode { LSP_BASELINE_HINT, LSP_BASELINE_HIDE, LSP_BASELINE_SHOW };
/* The analysis options of a document checked with `target` (its registry, settings, path for
 * "ignore", and baseline as `mode` says). */
struct analysis_options lsp_projects_options(const struct lsp_target *target,
                                             enum lsp_baseline_mode mode);
/* Whether a change of the file `uri` changes what documents are checked with: a srcls.json, or
 * a file of a directory of kind files of a project read. */
bool lsp_projects_watches(struct lsp_projects *projects, const char *uri, size_t len);
/* The srcls.json that applies to the document `uri` — its path in `*config_path` and its text
 * in `*text` (both malloc'd), returning 1 — or, when there is none, the path of one to create
 * beside the document (`*text` NULL), returning 0; -1 when neither can be had. */
int lsp_projects_config_text(struct lsp_projects *projects, const char *uri, char **config_path,
                             char **text, size_t *len);
/* Forgets every srcls.json read (one changed on disk); the next lookups read them again. */
void lsp_projects_forget(struct lsp_projects *projects);
/* The editor's settings changed: lays them over each srcls.json again. */
/* -1 when memory ran out: then the projects must be forgotten (lsp_projects_forget) and read
 * again. */
int lsp_projects_editor_changed(struct lsp_projects *projects);

/* Analyses a srcls.json (`kind_schema` NULL) as a project configuration, or a kind file of the
 * project whose kind files are `kind_schema` as one of them, into `out`. 0, or -1 (memory). */
int lsp_projects_analyze(struct lsp_projects *projects, const char *uri, const char *text,
                         size_t len, const struct project_schema *kind_schema,
                         struct analysis *out);

#endif
