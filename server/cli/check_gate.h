/* check_gate: under `srcls --check --base REF`, the gate's own files are reviewed. Each
 * srcls.json that governs a checked file (the nearest upwards, or --config's) is compared with
 * its version at REF, read through the same `git cat-file --batch` as the documents: what
 * weakens the gate (project_review) is reported as risky-change on the srcls.json, and the
 * security group is applied at the stricter of REF's settings and the working tree's. Each
 * baseline file (a srcls.json's "baseline", --baseline FILE) is compared with its version at
 * REF: the entries it gained are one risky-change. A srcls.json deleted since REF is compared
 * with what governs its directory now; one new since REF with the one that governed its
 * directory at REF (check_gate_config_then); the settings at REF of a file are those of the
 * srcls.json that governed it then. The findings follow "rules" (risky-change, the security
 * group). */
#ifndef SRCLS_CHECK_GATE_H
#define SRCLS_CHECK_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "check_review.h"
#include "check_config.h"
#include "report.h"

struct check_options;

/* The srcls.json at `path` (absolute), read now as `text` with its own settings `own`, and
 * `applied` (own with the --select/--ignore `overlay` laid over it): its version at REF is
 * read (when it is new since REF and was found upwards from the files, `nearest`: the version
 * at REF of the srcls.json that governed its directory then, check_gate_config_then), the
 * weakenings kept to report at the end of the run, and `applied` gets the security group at
 * the stricter of REF's settings (with the overlay) and its own. Its "baseline"
 * (absolute, or NULL) is kept to review at the end. False when git or memory failed (said on
 * stderr; the run fails). */
bool check_gate_config(struct check_review *base, const char *path, const char *text, size_t len,
                       const struct settings *own, const struct settings *overlay,
                       struct settings *applied, const char *baseline, bool nearest);
/* The srcls.json (from the work tree's top, malloc'd) that governed the file `path` at REF when
 * it is not `config` (the srcls.json found upwards that governs it now, absolute; "" none):
 * the nearest upwards that was there at REF — one deleted or moved away since, or, when
 * `config` is new since REF, one above it; NULL when it is `config`, or none was. */
char *check_gate_config_then(struct check_review *base, const char *path, const char *config);
/* The settings of a file that the srcls.json `then` (check_gate_config_then) governed at REF,
 * and that `config` ("" none; its settings `applied`) governs now: `applied` with the security
 * group at the stricter of them and of `then`'s at REF (with the --select/--ignore `overlay`),
 * made once per pair and kept for the run. NULL when git or memory failed (said on stderr; the
 * run fails). */
const struct settings *check_gate_then(struct check_review *base, const char *config,
                                       const char *then, const struct settings *applied,
                                       const struct settings *overlay);
/* The analysis of the srcls.json at `path` (as check_gate_config had it) kept to report at the
 * end of the run, to which its other findings (its unused "ignore" entries) are added so that
 * it is one entry of the report; NULL when it is not kept (no --base: `base` NULL). */
struct analysis *check_gate_held(struct check_review *base, const char *path);
/* The file `path` (as named) checked as a document is a srcls.json kept to report: its findings
 * are added to `into` (its analysis as a document, of the same text; sorted in) instead, so
 * that it is one entry of the report. 0 (also when it is none), or -1 when memory ran out. */
int check_gate_take(struct check_review *base, const char *path, struct analysis *into);
/* Keeps the baseline file `path` (--baseline FILE) to review at the end of the run. */
void check_gate_baseline(struct check_review *base, const char *path);
/* The severity of risky-change for the file `path` (absolute, or relative to the current
 * directory): its srcls.json's settings (the defaults when it has none or it has mistakes). */
enum diag_severity check_gate_severity(struct check_configs *configs, const char *path);
/* Reports the srcls.json `rel` (shown as `shown`), deleted since REF (or moved away): compared
 * with what governs its directory now (the srcls.json above it, or the defaults). Counted in
 * `summary`. */
void check_gate_deleted(struct check_review *base, const struct check_options *options,
                        const char *rel, const char *shown, struct report_summary *summary);
/* Reports what was kept: the srcls.json files that weaken the gate, the baseline files that
 * gained entries. */
void check_gate_report(struct check_review *base, const struct check_options *options,
                       struct report_summary *summary);
void check_gate_free(struct check_gate *gate);

#endif
