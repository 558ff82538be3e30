/* check_config: which srcls.json applies to each checked file — `--config FILE` for all, or the
 * nearest one upwards from each file, as ruff and eslint find theirs, so that the results never
 * depend on the order of the arguments — read once each, with --select/--ignore laid over it.
 * A configuration's mistakes are reported once on stderr, placed as any document's
 * (FILE:LINE:COLUMN), and the files it governs are not checked: it is never half applied. */
#ifndef SRCLS_CHECK_CONFIG_H
#define SRCLS_CHECK_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "project/project.h"
#include "walk/walk.h"
#include "schema/schema.h"
#include "domain/domain.h"

struct check_config; /* one srcls.json read (check_config.c) */
struct check_review;

struct check_configs {
    const struct schema_registry *registry;
    const struct settings *overlay; /* --select/--ignore (not owned; may be NULL) */
    const char *fixed_path;         /* --config FILE, or NULL */
    struct check_config *first;
    char *cwd;                   /* for files named relative to it, and standard input (owned) */
    char *last_dir, *last_found; /* nearest()'s last question and answer (owned) */
    char *last_named;            /* its directory as named (owned) */
    bool reported;               /* a configuration's mistakes or unreadability were reported */
    bool kind_dirs;              /* a configuration read names directories of kind files */
    struct check_review *base;   /* --base REF: each srcls.json read is reviewed (check_gate) */
    bool out_of_memory;          /* a configuration could not be read for want of memory */
};

void check_configs_init(struct check_configs *configs, const struct schema_registry *registry,
                        const struct settings *overlay, const char *fixed_path);
void check_configs_free(struct check_configs *configs);
/* The srcls.json that governs the file `path` (as check_configs_for takes it): its path
 * (absolute when found upwards, as named by --config), "" when none, NULL when memory ran out. */
const char *check_configs_path(struct check_configs *configs, const char *path);
/* What the report says of a file check_configs_for refused: its srcls.json has mistakes, or
 * memory ran out. */
const char *check_configs_refusal(const struct check_configs *configs);
/* Whether the --config FILE was read and has mistakes: the walk then reports them, and lists
 * the documents it governs as not checked, as under a srcls.json found upwards. */
bool check_configs_fixed_mistaken(struct check_configs *configs);
/* How a file is checked: with its srcls.json's settings and registry (the built-in kinds with
 * the project's own), or as a kind file of a project's "schemas" (linted with the project's
 * other kind files: project_kind_file_analyze). */
struct check_target {
    const struct settings *settings;
    const struct schema_registry *registry;
    const struct project_schema *schema; /* a kind file: its project (else NULL) */
    char *kind_file_name;                /* a kind file's absolute path (malloc'd: the caller
                                            frees it) */
    const char *baseline; /* its "baseline", absolute, or NULL (the configuration's) */
    /* With "ignore" entries: the file's path from the srcls.json's directory (malloc'd: the
     * caller frees it; NULL when outside it), and the configuration's record of the entries
     * that matched a finding, to which the caller adds the file's (ignore_count of them). */
    char *path;
    unsigned char *ignore_hits;
    uint32_t ignore_count;
};

/* The target for the file `path` (as named: absolute, or relative to the current directory;
 * NULL: standard input, as a file of the current directory). False when its configuration
 * cannot be read or has mistakes (said on stderr, once). */
bool check_configs_for(struct check_configs *configs, const char *path,
                       struct check_target *target);

/* After a run over `paths` (`count`): reports, as project-config warnings on the srcls.json
 * through `reporter` (counted in `summary`), the "ignore" entries that matched no finding, for
 * each srcls.json whose directory lies in a directory named (its files were all checked). */
struct reporter;
struct report_summary;
void check_configs_report_unused(struct check_configs *configs, const char *const *paths, int count,
                                 struct reporter *reporter, struct report_summary *summary);

/* The mistakes of the srcls.json that governs `path` (NULL: the one of the current
 * directory), if it has any, as a file of findings through `reporter` (counted in `summary`),
 * once per srcls.json, its path from the current directory. True when `path` is that srcls.json
 * itself (reported so: not a file left unchecked). */
bool check_configs_report_mistakes(struct check_configs *configs, const char *path,
                                   struct reporter *reporter, struct report_summary *summary);

/* What the srcls.json that governs a scan's entry says of it (walk_scan_entry). `path` is the
 * entry as the walk names it. */
enum walk_scan check_configs_scan(struct check_configs *configs, const char *path);

#endif
