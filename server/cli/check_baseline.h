/* check_baseline: `srcls --check --baseline FILE` and `--write-baseline FILE`. A baseline is a
 * JSON file of findings recorded once (the core's baseline entries, one a line, sorted); a run
 * with it reports only the findings it does not hold (each entry matches one finding), and
 * counts the entries whose finding is gone. Paths in the file are relative to the file's
 * directory, so that it is read the same from any directory. */
#ifndef SRCLS_CHECK_BASELINE_H
#define SRCLS_CHECK_BASELINE_H

#include <stdbool.h>

#include "check_config.h"
#include "report.h"
#include "check/check.h"

struct check_baseline;

/* The baseline of a run into `*out`: `read_path` (--baseline; NULL: none) read, `write_path`
 * (--write-baseline; NULL: none) prepared (the file there read). Without either, a file is
 * matched against the baseline its srcls.json names (unless `no_config`: --no-baseline), read
 * on first use; with --write-baseline alone, against what is written (every finding is in it).
 * `configs` (kept) tells a deleted file's settings. With `diff` (--diff) there is none. 0, or 2
 * after saying why on stderr: --diff with either option, the file cannot be read, is not a
 * baseline (which entry, what is wrong), memory. */
int check_baseline_open(const char *read_path, const char *write_path, bool diff, bool no_config,
                        struct check_configs *configs, struct check_baseline **out);
/* The findings of the file `path` (its reported analysis `a`, checked as `target` says: its
 * settings, and the baseline its srcls.json names): returns a malloc'd array of a->diags.count
 * flags (1: in the baseline), or NULL when no baseline applies, or when memory ran out or the
 * srcls.json's baseline cannot be read (then every finding counts as new, and the run fails:
 * check_baseline_failed). The file's entries of codes the target's settings leave out (or its
 * "ignore" entries silence) are neither matched nor fixed, and --write-baseline keeps them;
 * findings that mean a document was not checked (baseline_recorded) are never in the baseline.
 * A finding in a file without entries takes the entry of a deleted file with the same code,
 * pointer and value: the file moved. */
unsigned char *check_baseline_match(struct check_baseline *baseline, const char *path,
                                    struct analysis *a, const struct check_target *target);
/* After the walk: the entries whose finding is gone (their file checked, or deleted), and
 * those whose finding was not looked for, into `summary` for the reporters' end. */
void check_baseline_finish(struct check_baseline *baseline, struct report_summary *summary);
/* After the run, whose exit status is `status`: --write-baseline's file written (atomically: a
 * temporary file renamed), unless the run could not check every path (2: said on stderr).
 * Returns the run's status, or 2 when the file could not be written (said on stderr). */
int check_baseline_end(struct check_baseline *baseline, int status);
/* Whether memory ran out: the run must not pass. */
bool check_baseline_failed(const struct check_baseline *baseline);
/* --shard I/N (`shard` is I-1, `shard_count` N): the entries of gone files that another shard
 * owns (by their path as the walk would show it) are not said fixed by this one. */
void check_baseline_shard(struct check_baseline *b, unsigned shard, unsigned shard_count);
/* Frees everything (the summary's absent entries too); NULL is fine. */
void check_baseline_close(struct check_baseline *baseline);

#endif
