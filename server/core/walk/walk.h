/* walk: what both doors' scans of a folder share — `srcls --check DIR` and the LSP's
 * workspace/diagnostic — so that they check the same files the same way: which entries a scan
 * skips, which files it checks, what a srcls.json's "include" and "exclude" say of an entry, the
 * set of paths git ignores (read from git's own list), the check of one file found, and the
 * srcls.json found for each directory, remembered. No I/O: each door lists directories, reads
 * files and asks git in its own way (the command line through POSIX, the server through libuv). */
#ifndef SRCLS_WALK_H
#define SRCLS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/check.h"
#include "project/project.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* Directories nested deeper than this below where a scan starts are not entered. */
#define WALK_MAX_DEPTH 64u

/* Whether a scan skips the entry `name` of a directory: hidden entries (.git, srcls's own
 * temporary files) and node_modules. */
bool walk_skips_name(const char *name);

/* Whether a scan checks the regular file `name`: a *.json file, or one a srcls.json's
 * "include" names (`included`). */
bool walk_wants_file(const char *name, bool included);

/* Whether a glob of `globs` matches a scan's entry at `path` (relative to where the globs were
 * written): a glob with '/' the path, one without its last segment, in the one glob dialect of
 * srcls (domain/glob.h). Shared by --exclude and srcls.json's "include" and "exclude". */
bool walk_glob_match(const char *const *globs, size_t count, const char *path);

/* What the srcls.json whose settings are `settings` says of a scan's entry at `relative` (its
 * path from that srcls.json's directory): its "exclude" skips it (a file or a directory), its
 * "include" names it (a file checked as a document whatever its name). */
enum walk_scan { WALK_SCAN_DEFAULT, WALK_SCAN_EXCLUDED, WALK_SCAN_INCLUDED };
enum walk_scan walk_scan_entry(const struct settings *settings, const char *relative);

/* The paths git ignores below the directories a scan starts from, as the scan names them (the
 * directory, '/', the rest; a directory without its trailing '/'), sorted for a binary search. */
struct walk_ignored {
    char **paths;
    size_t count, cap;
};
/* Adds git's answer for the directory `dir` — the NUL-separated names of `git ls-files --others
 * --ignored --exclude-standard --directory -z` run in it (`len` bytes), relative to it, a
 * directory's with a trailing '/' — as the scan names them. False when memory ran out (then
 * some are missing). */
bool walk_ignored_add(struct walk_ignored *set, const char *dir, const char *names, size_t len);
bool walk_ignored_has(const struct walk_ignored *set, const char *path);
void walk_ignored_free(struct walk_ignored *set);

/* One file a door checks: `options` (its registry and settings, "ignore" path, baseline) as the
 * door resolved them for the file's srcls.json; the rest says how the file was met. */
struct walk_file {
    const char *path; /* as the door names it: only its name's ending is read */
    bool explicit;    /* named, or included by a srcls.json: reported whatever it holds */
    const struct project_schema *kind_schema; /* a kind file of that project, else NULL */
    const char *kind_file_name;               /* its name, for project_kind_file_analyze */
};
/* Checks the text of `file` into `out` (freed with analysis_free when this returns 0): a kind
 * file with its project's other kind files, any other as a document with `options`, to which
 * this adds what the file's name and `explicit` say (an unknown or empty document reported),
 * so that a later analysis of the same file (--fix's) is given the same.
 * `*ours` says whether the door reports it: a kind file, a file named, a source or job
 * document, a file named *.source.json or *.job.json. Returns 0, or -1 when memory ran out. */
int walk_check_file(struct analysis *out, const char *text, size_t len,
                    const struct walk_file *file, struct analysis_options *options, bool *ours);

/* The srcls.json found for each directory, so that a scan searches once per directory: a
 * directory's path mapped to what the door found there (`value`, which may be NULL: none).
 * Emptied (walk_dirs_clear) when a srcls.json may have appeared, changed or gone. */
struct walk_dirs {
    struct walk_dir_entry *slots;
    size_t count, cap; /* cap: a power of two, or 0 */
};
/* Whether `dir` is known, and then what was found there into `*value`. */
bool walk_dirs_get(const struct walk_dirs *dirs, const char *dir, void **value);
/* Remembers `value` for `dir`; false when memory ran out (then it is not remembered). */
bool walk_dirs_put(struct walk_dirs *dirs, const char *dir, void *value);
void walk_dirs_clear(struct walk_dirs *dirs);

#endif
