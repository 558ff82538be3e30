/* check_command: `srcls --check` — walk the named paths, analyse each document, hand it to the
 * reporter. */
#ifndef SRCLS_CHECK_COMMAND_H
#define SRCLS_CHECK_COMMAND_H

#include "check_review.h"
#include "check_baseline.h"
#include "check_config.h"
#include "check_env.h"
#include "report.h"
#include "schema/schema.h"

struct check_options {
    const char *const *paths;
    int path_count;
    struct reporter *reporter;
    const struct schema_registry *registry;
    struct check_configs *configs; /* the srcls.json of each file */
    const char *stdin_name;        /* --stdin-filename: standard input's name, or NULL */
    const char *const *excludes;   /* --exclude GLOB: entries of a scan not visited */
    int exclude_count;
    unsigned jobs; /* threads reading and analysing files; 0 or 1: the walk's own thread only */
    unsigned shard, shard_count; /* --shard I/N: I-1 and N (count 0: every file is checked) */
    bool fix;                    /* apply the safe fixes in place (atomically) before reporting */
    bool diff;         /* --diff: print what --fix would change instead of the diagnostics */
    bool unsafe_fixes; /* --unsafe-fixes: --fix and --diff apply the unsafe fixes too */
    bool no_gitignore; /* --no-respect-gitignore: scans enter what git ignores too */
    struct check_review *base;       /* --base REF: each document compared with its version there */
    struct check_baseline *baseline; /* --baseline, --write-baseline: NULL when neither */
    const struct check_env *env;     /* --env FILE: each document checked as rendered, or NULL */
    bool exit_zero;                  /* --exit-zero: diagnostics never make the status 1 */
    enum diag_severity fail_on; /* --fail-on: the least severe that makes it 1 (default error) */
};

/* The exit status for what was reported (no unreadable path): 1 when a diagnostic at least as
 * severe as options->fail_on was reported (and not --exit-zero), else 0. */
int check_exit_status(const struct report_summary *summary, const struct check_options *options);

/* Whether the shard `shard` (I-1 of --shard I/N) of `shard_count` (N; 0 or 1: no sharding)
 * owns the file shown as `path`: FNV-1a of the path without leading "./", mixed by MurmurHash3's
 * finalizer, modulo the shard count, is the shard's index. */
bool check_shard_owns(unsigned shard, unsigned shard_count, const char *path);

/* Returns the exit status: 0 no errors, 1 at least one error diagnostic, 2 unreadable paths,
 * files that --fix could not rewrite (after reporting everything that could be read), or a
 * report that could not be written whole (said on stderr). */
int check_run(const struct check_options *options);

#endif
