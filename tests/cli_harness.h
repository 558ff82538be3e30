/* cli_harness: what the command-line tests share — a scratch directory, files in it, and the
 * real binary ($SRCLS_BINARY) run there with its exit status and output captured. For cmocka
 * tests: failures are reported with fail_msg. */
#ifndef SRCLS_CLI_HARNESS_H
#define SRCLS_CLI_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

/* Creates the scratch directory `$TMPDIR/srcls-test-NAME-XXXXXX` and makes it the current
 * directory of the tests (and of srcls). Returns 0, or -1 when it cannot be made. */
int scratch_create(const char *name);
/* Leaves the scratch directory and removes it with everything in it. */
void scratch_remove(void);
/* The scratch directory's absolute path. */
const char *scratch_dir(void);
/* Runs `git ARGS` (a shell command line's words) in the scratch directory's `dir`, with an
 * author and the branch main set, quietly; 0 when git succeeded. */
int scratch_git(const char *dir, const char *args);
/* A git repository made of the scratch directory's `dir` as it is: init, add all, and commit
 * "base"; 0 when git succeeded. */
int scratch_git_base(const char *dir);

/* Writes `ascii` in UTF-16 or UTF-32 (`unit` 2 or 4 bytes, `big_endian` or not), after a byte
 * order mark when `bom`, into `out` (room for (strlen(ascii) + 1) * unit bytes); returns the
 * number of bytes written. For the tests of documents that are not UTF-8. */
size_t encode_wide(const char *ascii, size_t unit, bool big_endian, bool bom, char *out);

/* Writes `content` to the scratch file `relative`, making its parent directories. */
void write_file(const char *relative, const char *content);
/* The whole file, NUL-terminated, owned by the caller; NULL when it cannot be read. */
char *read_all(const char *path);
/* The same, with its length in `length` (the file may hold NUL bytes). */
char *read_all_len(const char *path, size_t *length);
/* The text of a documented example (docs/examples/NAME), owned by the caller. */
char *example(const char *name);
/* Removes `path`, and everything in it if it is a directory; never follows a link. */
void remove_tree(const char *path);

struct run {
    int exit_status; /* srcls's exit status; a crash or a timeout fails the test */
    char *out, *err;
    double seconds; /* wall-clock time srcls took */
};

struct run_options {
    const char *input;       /* standard input's text (NULL: empty) */
    const char *stdin_path;  /* or this file as standard input (e.g. "/dev/zero") */
    const char *stdout_path; /* standard output to this file (e.g. "/dev/full"); out is then "" */
    bool as_nobody;          /* when the tests run as root: run srcls as user and group 65534 */
    unsigned timeout;        /* seconds before srcls is killed by SIGALRM (0: 60) */
    const char *subdir;      /* run in this directory of the scratch directory (NULL: itself) */
};

#define NOBODY_ID 65534

/* How many tests skipped a part they could not run here (user nobody unable to reach the
 * scratch directory); a program's main returns harness_status() so that meson shows SKIP
 * rather than OK when any part was skipped. */
extern unsigned harness_skipped;
/* cmocka's result (failed tests) when non-zero, else 77 when something was skipped, else 0. */
int harness_status(int failed);

/* Runs `srcls args...` (args ends with NULL) in the scratch directory. */
struct run run_srcls_with(const struct run_options *options, const char *const *args);
/* The same with `input` (NULL: nothing) on its standard input. */
struct run run_srcls(const char *input, const char *const *args);
void run_free(struct run *r);

/* Whether `output` has `line` as a whole line. */
bool has_line(const char *output, const char *line);
/* How many times `needle` stands in `haystack`, not overlapping. */
unsigned occurrences(const char *haystack, const char *needle);
void assert_line(const struct run *r, const char *line);
void assert_exit(const struct run *r, int expected);
/* Fails unless `part` is in the run's standard output. */
void assert_has(const struct run *r, const char *part);
/* Fails if `part` is in the run's standard output or error (a secret, say). */
void assert_lacks(const struct run *r, const char *part);

#endif
