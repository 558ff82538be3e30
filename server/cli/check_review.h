/* check_review: `srcls --check --base REF` — each document checked is compared with its version
 * at REF, read from git's objects by ONE `git cat-file --batch` per run, started when the
 * first changed document needs it. What changed since REF is asked once (`git diff
 * --name-status -M REF`, read by the core's review_listing_next): a document git does not list
 * costs a lookup in that list and nothing more; a document git lists as moved is compared with
 * its old path's version. The comparison itself is the core's (review). */
#ifndef SRCLS_CHECK_REVIEW_H
#define SRCLS_CHECK_REVIEW_H

#include <stdbool.h>

#include "check/check.h"
#include "report.h"

struct check_review;
struct check_options;

/* Opens REF in the git work tree of the current directory, with `baseline` (--baseline FILE,
 * or NULL) to compare with its version there (check_gate). NULL after saying why on stderr:
 * git missing, not a work tree, REF unknown (and whether the clone is shallow), memory. */
struct check_review *check_review_open(const char *ref, const char *baseline);
/* Adds to `now` (the analysis of `path`) the risky changes since the base (none when `base`
 * is NULL: no --base). An error (git
 * stopped answering, memory) is said on stderr and makes check_review_failed true. */
void check_review_review(struct check_review *base, const char *path, struct analysis *now);
/* --base: reports each document deleted since REF below a path of `options` (a file that
 * held a source or a job at REF, as an entry without a place; a srcls.json, compared with what
 * governs its directory now: check_gate), then the srcls.json and baseline files reviewed
 * (check_gate_report), counted in `summary`. Nothing without --base or while --diff shows
 * fixes. */
void check_review_report_deleted(const struct check_options *options,
                                 struct report_summary *summary);
/* The version at the base of the file `path` (absolute, or relative to the current directory):
 * 1 with its text (malloc'd, in *text), 0 when it is not there (new since REF), 2 when there is
 * nothing to compare (unchanged since REF, or outside the work tree), -1 when git or memory
 * failed (said on stderr; the run fails). */
int check_review_read(struct check_review *base, const char *path, char **text, size_t *len);
/* The same for `rel`, a path from the work tree's top (a file deleted since REF), shown as
 * `shown` in a message: 1, 0 or -1. */
int check_review_read_rel(struct check_review *base, const char *rel, const char *shown,
                          char **text, size_t *len);
/* `path` (absolute, or relative to the current directory) from the work tree's top (malloc'd),
 * or NULL outside it. */
char *check_review_relative(struct check_review *base, const char *path);
/* The work tree's top directory (its real path). */
const char *check_review_top(const struct check_review *base);
/* Whether a srcls.json is gone since REF (deleted, or moved away) or new: else each file is
 * governed by the same srcls.json as at REF. */
bool check_review_configs_moved(const struct check_review *base);
/* Whether the srcls.json `rel` (from the top) was there at REF and is gone: deleted, or moved
 * away (a srcls.json moved is a deletion where it was and a new file where it is). */
bool check_review_gone(const struct check_review *base, const char *rel);
/* Whether git lists the file `rel` (from the top) as not there at REF: new, or a srcls.json
 * moved there. */
bool check_review_added(const struct check_review *base, const char *rel);
/* Says that `path` could not be compared with its version at REF: the run fails (2). */
void check_review_fail(struct check_review *base, const char *path);
/* REF as written on the command line, for messages. */
const char *check_review_name(const struct check_review *base);
/* What check_gate keeps for the run (freed with the base). */
struct check_gate;
struct check_gate **check_review_gate(struct check_review *base);
/* Whether a review could not be done: the run must not pass silently (exit 2). */
bool check_review_failed(const struct check_review *base);
/* Stops git and frees everything; NULL is fine. */
void check_review_close(struct check_review *base);

#endif
