/* review: what a change does that a reviewer must see. The analysis of a document is compared
 * with the analysis of the same document at a base version (`srcls --check --base REF`), and
 * what the change does is added to the new analysis as risky-change diagnostics on the new
 * text: a posture finding that fires now and did not at the base (same code at the same
 * pointer; a bulk element is known by its "name", not its index), a source's "type" or "name"
 * changed, a source removed from a bulk array. Sources of one name in a bulk array (a
 * duplicate-name) are one source: their copies are compared in order with the base's copies of
 * that name, and a change is reported once, not once per copy. Messages never quote a value that
 * may be a secret (only names and type identifiers, and the posture messages, which quote none). */
#ifndef SRCLS_REVIEW_H
#define SRCLS_REVIEW_H

#include "analysis.h"

/* Adds to `now` the risky-change diagnostics of the change from `base` (the same document at
 * the version called `base_name`, analysed with the same registry and settings), sorted in.
 * Returns 0, or -1 when memory ran out. */
int review_compare(struct analysis *now, struct analysis *base, const char *base_name);

/* One entry of what changed since the base, as `git diff --name-status -z -M BASE` lists it:
 * its status letter ('M', 'A', 'D', 'T', 'R' for a move git's rename detection found, ...),
 * the path now, and for a move the path at the base (else NULL). Pointers into the listing. */
struct review_change {
    char status;
    const char *path;
    const char *old_path;
};

/* Reads the entry at `*at` of `listing` (`len` bytes: "STATUS\0PATH\0", a move
 * "RSCORE\0OLD\0NEW\0") into `change` and moves `*at` past it; false at the end, or at a
 * truncated entry. The one reader of git's listing, for the CLI and the editor alike. */
bool review_listing_next(const char *listing, size_t len, size_t *at, struct review_change *change);

/* The longest object id git writes (a SHA-256 id in hexadecimal). */
#define REVIEW_OID_MAX 64

/* An object `git cat-file --batch` answers with: its id, its type ("blob", "commit", ...) and
 * its size in bytes (the bytes follow the header, then a '\n'). */
struct review_object {
    char oid[REVIEW_OID_MAX + 1];
    char type[16];
    size_t size;
};

/* Reads the header line of `git cat-file --batch`'s answer for one object: [line, line + len)
 * without its '\n', "OID TYPE SIZE" for an object there (`object` set), "NAME missing" for one
 * that is not. Returns 1, 0 when missing, -1 when the line is neither (or the size is over
 * `max_size`). The one reader of that header, for the CLI and the editor alike. */
int review_batch_header(const char *line, size_t len, size_t max_size,
                        struct review_object *object);

#endif
