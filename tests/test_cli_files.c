/* test_cli_files: how `srcls --check` treats the file system — symbolic links and hard links
 * (no loop, no file twice), FIFOs and devices (refused at once), the size limit (checked
 * before reading), and `--fix` (atomic, through links, keeping mode and owner, refusing what
 * it cannot do safely). The real binary runs in a scratch directory, under an alarm so that a
 * regression fails instead of hanging. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_harness.h"
#include "json/json.h"

/* The example whose two fixes encode the plaintext secret "hunter2" as "data:,hunter2" (an
 * unsafe fix: the runs below give --unsafe-fixes) and rename the misspelled "acessKey" to the
 * "accessKey" it lacks; it keeps errors that have no safe fix, so srcls exits 1 after fixing it. */
#define FIXABLE "bad-object-storage.source.json"
#define SECRET "\"hunter2\""
#define SECRET_FIXED "\"data:,hunter2\""
#define TYPO "\"acessKey\""
#define TYPO_FIXED "\"accessKey\""
#define FIXABLE_APPLIED "srcls: applied 2 fixes in 1 file\n"

/* ---- helpers ---- */

static struct stat stat_of(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        fail_msg("lstat %s: %s", path, strerror(errno));
    return st;
}

/* The number of entries of `dir` besides . and ..: a leftover temporary file shows here. */
static int entries_in(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        fail_msg("opendir %s: %s", dir, strerror(errno));
    int n = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL)
        n += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void assert_file_is(const char *path, const char *expected)
{
    char *text = read_all(path);
    if (text == NULL)
        fail_msg("cannot read %s: %s", path, strerror(errno));
    if (strcmp(text, expected) != 0)
        fail_msg("%s is\n%s\nexpected\n%s", path, text, expected);
    free(text);
}

static void assert_err_has(const struct run *r, const char *text)
{
    if (strstr(r->err, text) == NULL)
        fail_msg("no \"%s\" on stderr:\n%s", text, r->err);
}

/* `text` with its first `from` replaced by `to`, owned by the caller. */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    size_t size = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(size);
    assert_non_null(out);
    snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* The fixable example's text before and after --fix, owned by the caller. */
static void fixable_texts(char **before, char **after)
{
    *before = example(FIXABLE);
    char *secret_fixed = replaced(*before, SECRET, SECRET_FIXED);
    *after = replaced(secret_fixed, TYPO, TYPO_FIXED);
    free(secret_fixed);
}

static struct run run_fix(const char *path, bool as_nobody)
{
    struct run_options options = {.as_nobody = as_nobody, .timeout = 20};
    return run_srcls_with(&options,
                          (const char *[]){"--check", "--fix", "--unsafe-fixes", path, NULL});
}

static int setup(void **state)
{
    (void)state;
    return scratch_create("cli-files");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

/* ---- links ---- */

/* `ln -s . d/s1; ln -s . d/s2` made the scan endless and `ln -s .. d/loop` checked a file 41
 * times: a scan follows no link. */
static void test_symlink_loops_in_a_scan_end_and_each_file_is_checked_once(void **state)
{
    (void)state;
    char *bad = example(FIXABLE);
    write_file("loops/a.source.json", bad);
    write_file("loops/sub/b.source.json", bad);
    free(bad);
    assert_int_equal(symlink(".", "loops/s1"), 0);
    assert_int_equal(symlink(".", "loops/s2"), 0);
    assert_int_equal(symlink("..", "loops/loop"), 0);
    assert_int_equal(symlink("..", "loops/sub/up"), 0);
    assert_int_equal(symlink("a.source.json", "loops/link.source.json"), 0);

    struct run_options options = {.timeout = 10};
    struct run r = run_srcls_with(&options, (const char *[]){"--check", "loops", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "\nchecked 2 files: "));
    assert_int_equal(occurrences(r.out, "loops/a.source.json:4:3: error:"), 1);
    assert_int_equal(occurrences(r.out, "loops/sub/b.source.json:4:3: error:"), 1);
    static const char *const never[] = {"s1", "s2", "loop/", "up/", "link.source.json"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        if (strstr(r.out, never[i]) != NULL)
            fail_msg("%s is reported:\n%s", never[i], r.out);
    }
    run_free(&r);
}

/* A path named on the command line is followed when it is a link, to a directory or a file. */
static void test_named_links_are_followed(void **state)
{
    (void)state;
    char *bad = example(FIXABLE);
    write_file("target/a.source.json", bad);
    free(bad);
    assert_int_equal(symlink("target", "dirlink"), 0);
    assert_int_equal(symlink("target/a.source.json", "filelink.json"), 0);

    struct run r = run_srcls(NULL, (const char *[]){"--check", "dirlink", NULL});
    assert_exit(&r, 1);
    assert_int_equal(occurrences(r.out, "dirlink/a.source.json:4:3: error:"), 1);
    assert_non_null(strstr(r.out, "\nchecked 1 file: "));
    run_free(&r);

    r = run_srcls(NULL, (const char *[]){"--check", "filelink.json", NULL});
    assert_exit(&r, 1);
    assert_int_equal(occurrences(r.out, "filelink.json:4:3: error:"), 1);
    run_free(&r);
}

/* The same file (device and inode) is checked once, whatever names lead to it: under the first
 * path the walk meets, for every --jobs (the workers open the files; the walk's thread keeps
 * the set of those visited, in walk order). */
static void test_hard_links_and_repeated_paths_are_checked_once(void **state)
{
    (void)state;
    char *bad = example(FIXABLE);
    write_file("hard/a.source.json", bad);
    free(bad);
    assert_int_equal(link("hard/a.source.json", "hard/b.source.json"), 0);
    for (const char *const *jobs = (const char *const[]){"1", "2", "4", NULL}; *jobs; jobs++) {
        struct run r =
            run_srcls(NULL, (const char *[]){"--check", "--jobs", *jobs, "hard",
                                             "hard/b.source.json", "hard", "hard/", NULL});
        assert_exit(&r, 1);
        assert_non_null(strstr(r.out, "\nchecked 1 file: "));
        assert_int_equal(occurrences(r.out, "hard/a.source.json:4:3: error:"), 1);
        assert_null(strstr(r.out, "b.source.json"));
        run_free(&r);
    }
}

/* The depth limit of a scan is kept. */
static void test_scan_stops_at_the_depth_limit(void **state)
{
    (void)state;
    char path[512] = "deep";
    for (int i = 0; i < 66; i++)
        strcat(path, "/d");
    strcat(path, "/x.source.json");
    write_file(path, "{}");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "deep", NULL});
    assert_exit(&r, 2);
    assert_non_null(
        strstr(r.out, ": error: cannot read: directories nested deeper than 64 levels\n"));
    run_free(&r);
}

/* ---- special files ---- */

/* `mkfifo f.json; srcls --check f.json` blocked forever in open. */
static void test_fifo_named_explicitly_is_refused_at_once(void **state)
{
    (void)state;
    assert_int_equal(mkfifo("f.json", 0600), 0);
    struct run_options options = {.timeout = 5};
    struct run r = run_srcls_with(&options, (const char *[]){"--check", "f.json", NULL});
    assert_exit(&r, 2);
    assert_line(&r, "f.json: error: not a regular file (a FIFO)");
    if (r.seconds > 2)
        fail_msg("took %.1f s", r.seconds);
    run_free(&r);

    r = run_srcls_with(&options, (const char *[]){"--check", "/dev/null", NULL});
    assert_exit(&r, 2);
    assert_line(&r, "/dev/null: error: not a regular file (a character device)");
    run_free(&r);
}

/* In a scan, special files are skipped silently, as before. */
static void test_fifo_in_a_scan_is_skipped(void **state)
{
    (void)state;
    char *good = example("01-search-service.source.json");
    write_file("withfifo/good.source.json", good);
    free(good);
    assert_int_equal(mkfifo("withfifo/pipe.source.json", 0600), 0);
    struct run_options options = {.timeout = 5};
    struct run r = run_srcls_with(&options, (const char *[]){"--check", "withfifo", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.out, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 hints\n");
    run_free(&r);
}

/* `-` reads standard input whatever it is: here a character device. */
static void test_dash_reads_any_standard_input(void **state)
{
    (void)state;
    struct run_options options = {.stdin_path = "/dev/null", .timeout = 5};
    struct run r = run_srcls_with(&options, (const char *[]){"--check", "-", NULL});
    assert_exit(&r, 1); /* named, and empty: an error */
    assert_non_null(strstr(r.out, "<stdin>:1:1: error: the file is empty: a source or job "
                                  "document must be a JSON object [json-syntax]"));
    assert_null(strstr(r.out, "not a regular file"));
    run_free(&r);
}

/* An empty or whitespace-only file named, or found by its name, is a json-syntax error in
 * every format (a failed export, a truncated write); an empty file of another name that a scan
 * meets is not a document and is skipped. */
static void test_an_empty_document_file_is_an_error(void **state)
{
    (void)state;
    write_file("empty/a.source.json", "");
    write_file("empty/b.job.json", " \n\t\n");
    write_file("empty/c.json", "");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "empty", NULL});
    assert_exit(&r, 1);
    assert_true(has_line(r.out, "empty/a.source.json:1:1: error: the file is empty: a source "
                                "document must be a JSON object (a bulk file, an array of "
                                "them) [json-syntax]"));
    assert_true(has_line(r.out, "empty/b.job.json:3:1: error: the file is empty: a job document "
                                "must be a JSON object [json-syntax]"));
    assert_null(strstr(r.out, "c.json"));
    assert_true(has_line(r.out, "checked 2 files: 2 errors, 0 warnings, 0 information, 0 hints"));
    run_free(&r);

    r = run_srcls(NULL, (const char *[]){"--check", "empty/c.json", NULL});
    assert_exit(&r, 1);
    assert_true(has_line(r.out, "empty/c.json:1:1: error: the file is empty: a source or job "
                                "document must be a JSON object [json-syntax]"));
    run_free(&r);

    static const char *const formats[][2] = {
        {"json", "{\"code\":\"json-syntax\",\"severity\":\"error\",\"message\":\"the file is "
                 "empty: a source document"},
        {"sarif", "\"ruleId\":\"json-syntax\",\"ruleIndex\":0,\"level\":\"error\",\"message\":"
                  "{\"text\":\"the file is empty: a source document"},
        {"github", "::error file=empty/a.source.json,line=1,endLine=1,col=1,endColumn=1,"
                   "title=json-syntax::the file is empty: a source document"},
        {"gitlab", "{\"description\":\"the file is empty: a source document must be a JSON "
                   "object (a bulk file, an array of them)\",\"check_name\":\"json-syntax\""},
    };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        r = run_srcls(NULL, (const char *[]){"--check", "--format", formats[i][0],
                                             "empty/a.source.json", NULL});
        assert_exit(&r, 1);
        if (strstr(r.out, formats[i][1]) == NULL)
            fail_msg("--format %s: no \"%s\" in\n%s", formats[i][0], formats[i][1], r.out);
        run_free(&r);
    }
}

/* ---- the size limit ---- */

static void make_sparse_file(const char *path, off_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, size), 0);
    close(fd);
}

/* A 1 GiB sparse file was read whole before "over the limit": the size is checked first. */
static void test_file_over_the_limit_is_refused_before_reading(void **state)
{
    (void)state;
    make_sparse_file("big.json", (off_t)JSON_DEFAULT_MAX_SIZE + 1);
    char line[256];
    snprintf(line, sizeof line,
             "big.json: error: file too large: %zu bytes, over the limit of %zu bytes (%zu MiB)",
             JSON_DEFAULT_MAX_SIZE + 1, JSON_DEFAULT_MAX_SIZE, JSON_DEFAULT_MAX_SIZE >> 20);
    struct run_options options = {.timeout = 10};
    struct run r = run_srcls_with(&options, (const char *[]){"--check", "big.json", NULL});
    assert_exit(&r, 2);
    assert_line(&r, line);
    if (r.seconds > 2)
        fail_msg("took %.1f s: the file was read", r.seconds);
    run_free(&r);

    /* the same file as standard input is refused by its size as well */
    options.stdin_path = "big.json";
    r = run_srcls_with(&options, (const char *[]){"--check", "-", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.out, "<stdin>: error: file too large: "));
    if (r.seconds > 2)
        fail_msg("took %.1f s: standard input was read", r.seconds);
    run_free(&r);
}

/* /dev/zero on standard input grew srcls to 2.1 GB: a stream is read up to the limit only. */
static void test_standard_input_is_read_up_to_the_limit(void **state)
{
    (void)state;
    struct run_options options = {.stdin_path = "/dev/zero", .timeout = 30};
    struct run r = run_srcls_with(&options, (const char *[]){"--check", "-", NULL});
    assert_exit(&r, 2);
    char line[256];
    snprintf(line, sizeof line,
             "<stdin>: error: input too large: more than the limit of %zu bytes (%zu MiB)",
             JSON_DEFAULT_MAX_SIZE, JSON_DEFAULT_MAX_SIZE >> 20);
    assert_line(&r, line);
    run_free(&r);
}

/* ---- --fix ---- */

static void test_fix_rewrites_the_file_and_keeps_its_mode(void **state)
{
    (void)state;
    char *before, *after;
    fixable_texts(&before, &after);
    write_file("mode/a.source.json", before);
    assert_int_equal(chmod("mode/a.source.json", 0640), 0);
    struct run r = run_fix("mode/a.source.json", false);
    assert_exit(&r, 1); /* errors without a safe fix remain */
    assert_err_has(&r, FIXABLE_APPLIED);
    assert_null(strstr(r.out, "[secret-not-encoded]")); /* the report is of the fixed text */
    assert_file_is("mode/a.source.json", after);
    struct stat st = stat_of("mode/a.source.json");
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_int_equal(entries_in("mode"), 1); /* no temporary file left */
    run_free(&r);
    free(before);
    free(after);
}

/* A second --fix finds nothing to do and does not rewrite the file. */
static void test_fix_is_idempotent(void **state)
{
    (void)state;
    char *before, *after;
    fixable_texts(&before, &after);
    write_file("twice/a.source.json", before);
    struct run r = run_fix("twice", false);
    assert_err_has(&r, FIXABLE_APPLIED);
    run_free(&r);
    struct stat first = stat_of("twice/a.source.json");
    r = run_fix("twice", false);
    assert_exit(&r, 1);
    assert_string_equal(r.err, "srcls: applied 0 fixes in 0 files\n");
    assert_file_is("twice/a.source.json", after);
    struct stat second = stat_of("twice/a.source.json");
    assert_int_equal(first.st_ino, second.st_ino);
    run_free(&r);
    free(before);
    free(after);
}

static void test_fix_never_touches_a_file_with_syntax_errors(void **state)
{
    (void)state;
    char *good = example(FIXABLE);
    char *broken = replaced(good, "\"ACCESS_KEY\",", "\"ACCESS_KEY\""); /* a missing comma */
    write_file("syntax/a.source.json", broken);
    struct stat was = stat_of("syntax/a.source.json");
    struct run r = run_fix("syntax/a.source.json", false);
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "[json-syntax]"));
    assert_string_equal(r.err, "srcls: applied 0 fixes in 0 files\n");
    assert_file_is("syntax/a.source.json", broken);
    assert_int_equal(stat_of("syntax/a.source.json").st_ino, was.st_ino);
    run_free(&r);
    free(good);
    free(broken);
}

/* --fix replaced a link with a regular file and left the target unfixed. */
static void test_fix_through_a_symlink_rewrites_the_target(void **state)
{
    (void)state;
    char *before, *after;
    fixable_texts(&before, &after);
    write_file("real/t.source.json", before);
    write_file("links/keep", "");
    assert_int_equal(symlink("../real/t.source.json", "links/l.source.json"), 0);
    assert_int_equal(symlink("l.source.json", "links/ll.source.json"), 0); /* a chain */
    struct run r = run_fix("links/ll.source.json", false);
    assert_exit(&r, 1);
    assert_err_has(&r, FIXABLE_APPLIED);
    assert_true(S_ISLNK(stat_of("links/l.source.json").st_mode));
    assert_true(S_ISLNK(stat_of("links/ll.source.json").st_mode));
    char target[256] = "";
    assert_true(readlink("links/l.source.json", target, sizeof target - 1) > 0);
    assert_string_equal(target, "../real/t.source.json");
    assert_file_is("real/t.source.json", after);
    assert_int_equal(entries_in("real"), 1); /* the temporary file went beside the target */
    assert_int_equal(entries_in("links"), 3);
    run_free(&r);
    free(before);
    free(after);
}

/* A rename would split hard links (the other names keeping the old text): refused. */
static void test_fix_refuses_a_file_with_hard_links(void **state)
{
    (void)state;
    char *before = example(FIXABLE);
    write_file("linked/a.source.json", before);
    assert_int_equal(link("linked/a.source.json", "linked/b.json"), 0);
    struct stat was = stat_of("linked/a.source.json");
    struct run r = run_fix("linked/a.source.json", false);
    assert_exit(&r, 2);
    assert_err_has(&r, "srcls: linked/a.source.json: not fixed: it has 2 hard links, which "
                       "replacing it would split; fix it by hand (the file is unchanged)\n");
    assert_err_has(&r, "srcls: applied 0 fixes in 0 files; 1 file could not be fixed\n");
    struct stat now = stat_of("linked/a.source.json");
    assert_int_equal(now.st_ino, was.st_ino);
    assert_int_equal(now.st_nlink, 2);
    assert_file_is("linked/a.source.json", before);
    assert_int_equal(entries_in("linked"), 2);
    run_free(&r);
    free(before);
}

/* Root writes anywhere, so as root srcls runs as nobody for the refusals below. */
static bool is_root(void)
{
    return geteuid() == 0;
}

static void give_to_nobody(const char *path)
{
    if (is_root() && lchown(path, NOBODY_ID, NOBODY_ID) != 0)
        fail_msg("chown %s: %s", path, strerror(errno));
}

static void test_fix_in_a_read_only_directory_leaves_the_file_unchanged(void **state)
{
    (void)state;
    char *before = example(FIXABLE);
    write_file("ro/a.source.json", before);
    give_to_nobody("ro/a.source.json"); /* writable by srcls, in a directory that is not */
    assert_int_equal(chmod("ro", 0555), 0);
    struct run r = run_fix("ro/a.source.json", true);
    assert_exit(&r, 2);
    char expected[256];
    snprintf(expected, sizeof expected,
             "srcls: ro/a.source.json: not fixed: cannot create a temporary file beside it: %s "
             "(the file is unchanged)\n",
             strerror(EACCES));
    assert_err_has(&r, expected);
    assert_file_is("ro/a.source.json", before);
    assert_int_equal(entries_in("ro"), 1);
    run_free(&r);
    free(before);
}

static void test_fix_refuses_a_read_only_file(void **state)
{
    (void)state;
    char *before = example(FIXABLE);
    write_file("rofile/a.source.json", before);
    give_to_nobody("rofile");
    give_to_nobody("rofile/a.source.json");
    assert_int_equal(chmod("rofile/a.source.json", 0444), 0);
    struct run r = run_fix("rofile/a.source.json", true);
    assert_exit(&r, 2);
    assert_err_has(&r, "srcls: rofile/a.source.json: not fixed: the file is not writable: ");
    assert_file_is("rofile/a.source.json", before);
    run_free(&r);
    free(before);
}

/* --fix made a file owned by another user owned by whoever ran srcls. */
static void test_fix_keeps_owner_and_group(void **state)
{
    (void)state;
    if (!is_root()) {
        print_message("needs root to give a file to another user: skipped\n");
        skip();
    }
    char *before, *after;
    fixable_texts(&before, &after);
    write_file("owned/a.source.json", before);
    assert_int_equal(chown("owned/a.source.json", 1, 1), 0); /* daemon */
    assert_int_equal(chmod("owned/a.source.json", 0604), 0);
    struct run r = run_fix("owned/a.source.json", false);
    assert_exit(&r, 1);
    assert_err_has(&r, FIXABLE_APPLIED);
    struct stat st = stat_of("owned/a.source.json");
    assert_int_equal(st.st_uid, 1);
    assert_int_equal(st.st_gid, 1);
    assert_int_equal(st.st_mode & 07777, 0604);
    assert_file_is("owned/a.source.json", after);
    run_free(&r);
    free(before);
    free(after);
}

/* When the owner cannot be kept, the file is not rewritten at all. */
static void test_fix_refuses_when_the_owner_cannot_be_kept(void **state)
{
    (void)state;
    if (!is_root()) {
        print_message("needs root to make a file of another user writable: skipped\n");
        skip();
    }
    char *before = example(FIXABLE);
    write_file("shared/a.source.json", before);
    assert_int_equal(chmod("shared", 0777), 0);
    assert_int_equal(chmod("shared/a.source.json", 0666), 0);
    struct run r = run_fix("shared/a.source.json", true);
    assert_exit(&r, 2);
    char expected[256];
    snprintf(expected, sizeof expected,
             "srcls: shared/a.source.json: not fixed: it belongs to user 0, group 0, and srcls, "
             "running as user %d, cannot keep that owner; run srcls as the owner (the file is "
             "unchanged)\n",
             NOBODY_ID);
    assert_err_has(&r, expected);
    struct stat st = stat_of("shared/a.source.json");
    assert_int_equal(st.st_uid, 0);
    assert_file_is("shared/a.source.json", before);
    assert_int_equal(entries_in("shared"), 1);
    run_free(&r);
    free(before);
}

/* Replaces `path` with `text` the way srcls should: a new file, then a rename. */
static void replace_atomically(const char *path, const char *text)
{
    write_file("atomic/.restore", text);
    assert_int_equal(rename("atomic/.restore", path), 0);
}

/* A fix can uncover another (a misspelled secret field renamed holds plaintext that the secret
 * field's rule then reports): --fix applies both, so that a second run has nothing to do. */
static void test_fix_applies_what_a_fix_uncovers(void **state)
{
    (void)state;
    static const char before[] = "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostType\": "
                                 "\"DIRECT\", \"hostname\": \"h\", \"port\": 31010, "
                                 "\"username\": \"u\", \"pasword\": \"hunter2\"}}\n";
    static const char after[] = "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostType\": "
                                "\"DIRECT\", \"hostname\": \"h\", \"port\": 31010, "
                                "\"username\": \"u\", \"password\": \"data:,hunter2\"}}\n";
    write_file("cascade/a.source.json", before);
    struct run r = run_fix("cascade/a.source.json", false);
    assert_exit(&r, 0);
    assert_err_has(&r, "srcls: applied 2 fixes in 1 file\n");
    assert_file_is("cascade/a.source.json", after);
    run_free(&r);
    r = run_fix("cascade/a.source.json", false);
    assert_exit(&r, 0);
    assert_string_equal(r.err, "srcls: applied 0 fixes in 0 files\n");
    run_free(&r);
}

/* --fix on standard input prints the fixed document on standard output and the report on
 * standard error, as editors' format-on-save and pipes need; a document it cannot fix (a
 * syntax error) comes out as it went in. */
static void test_fix_on_standard_input_prints_the_fixed_document(void **state)
{
    (void)state;
    char *before, *after;
    fixable_texts(&before, &after);
    struct run r =
        run_srcls(before, (const char *[]){"--check", "--fix", "--unsafe-fixes", "--stdin-filename",
                                           "sources/x.source.json", "-", NULL});
    assert_exit(&r, 1); /* errors without a safe fix are left */
    assert_string_equal(r.out, after);
    assert_err_has(&r, "sources/x.source.json:");
    assert_err_has(&r, FIXABLE_APPLIED);
    if (strstr(r.err, "hunter2") != NULL)
        fail_msg("the secret is in the report:\n%s", r.err);
    run_free(&r);

    /* the report can still go to a file */
    r = run_srcls(before, (const char *[]){"--check", "--fix", "--unsafe-fixes", "--output-file",
                                           "fix-report.txt", "-", NULL});
    assert_string_equal(r.out, after);
    assert_string_equal(r.err, FIXABLE_APPLIED);
    run_free(&r);
    free(before);
    free(after);

    static const char broken[] = "{\"type\": \"OBJECT_STORAGE\", \"config\": {\"secret\": \"x\"\n";
    r = run_srcls(broken, (const char *[]){"--check", "--fix", "--unsafe-fixes", "-", NULL});
    assert_exit(&r, 1);
    assert_string_equal(r.out, broken);
    assert_err_has(&r, "[json-syntax]");
    assert_err_has(&r, "srcls: applied 0 fixes in 0 files\n");
    run_free(&r);
}

/* The "@@" lines of `text`, joined. */
static char *hunk_headers(const char *text)
{
    size_t n = 0;
    char *out = calloc(strlen(text) + 1, 1);
    assert_non_null(out);
    for (const char *line = text; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, "@@ ", 3) == 0) {
            memcpy(out + n, line, len);
            n += len;
        }
        line += len;
    }
    return out;
}

/* --diff prints what --fix would change and writes nothing (exit 1), with the hunks GNU diff
 * gives for the same change; values that could be secrets are masked in it. */
static void test_diff_shows_what_fix_would_change(void **state)
{
    (void)state;
    char *before, *after;
    fixable_texts(&before, &after);
    size_t size = 6 * (strlen(before) + 4) + 8;
    char *bulk = calloc(size, 1), *fixed_bulk = calloc(6 * (strlen(after) + 4) + 8, 1);
    assert_true(bulk != NULL && fixed_bulk != NULL);
    strcpy(bulk, "[\n");
    strcpy(fixed_bulk, "[\n");
    for (int i = 0; i < 6; i++) {
        strcat(bulk, before);
        strcat(fixed_bulk, after);
        strcat(bulk, i < 5 ? ",\n" : "]\n");
        strcat(fixed_bulk, i < 5 ? ",\n" : "]\n");
    }
    write_file("diff/bulk.json", bulk);
    write_file("diff/fixed.json", fixed_bulk);
    struct run r = run_srcls(
        NULL, (const char *[]){"--check", "--diff", "--unsafe-fixes", "diff/bulk.json", NULL});
    assert_exit(&r, 1);
    assert_file_is("diff/bulk.json", bulk);
    assert_true(strncmp(r.out, "--- diff/bulk.json\n+++ diff/bulk.json\n@@ ", 41) == 0);
    assert_true(has_line(r.out, "-    \"acessKey\": \"***\","));
    assert_true(has_line(r.out, "+    \"accessKey\": \"AKIAEXAMPLE\","));
    /* the secret's fix shows (its encoding), the secret does not */
    assert_true(has_line(r.out, "-    \"accessSecret\": \"***\","));
    assert_true(has_line(r.out, "+    \"accessSecret\": \"data:,***\","));
    if (strstr(r.out, "hunter2") != NULL)
        fail_msg("a secret is in the diff:\n%s", r.out);
    assert_string_equal(r.err, "srcls: --fix would apply 12 fixes in 1 file\n");

    FILE *gnu = popen("diff -u diff/bulk.json diff/fixed.json", "r");
    assert_non_null(gnu);
    char expected[8192];
    size_t got = fread(expected, 1, sizeof expected - 1, gnu);
    expected[got] = '\0';
    pclose(gnu);
    char *ours = hunk_headers(r.out), *theirs = hunk_headers(expected);
    assert_int_equal(occurrences(ours, "@@ -"), 6);
    assert_string_equal(ours, theirs);
    free(ours);
    free(theirs);
    run_free(&r);

    /* nothing to fix: no output, exit 0 */
    r = run_srcls(NULL,
                  (const char *[]){"--check", "--diff", "--unsafe-fixes", "diff/fixed.json", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "srcls: --fix would apply 0 fixes in 0 files\n");
    run_free(&r);
    free(bulk);
    free(fixed_bulk);
    free(before);
    free(after);
}

/* A secret with a colon is encoded in base64 by the fix: the diff shows that, and neither the
 * secret nor its base64 (which is the secret too) in any output; a value already encoded, or
 * the placeholder, shows its prefix (or itself) and nothing of the secret. */
static void test_diff_shows_a_secret_fix_but_never_the_secret(void **state)
{
    (void)state;
    write_file("diffsecret/a.source.json",
               "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\n"
               "  \"credentialType\": \"ACCESS_KEY\", \"accessKey\": \"AKIAEXAMPLE\",\n"
               "  \"accessSecret\": \"s3cr:et\"\n}}\n");
    write_file("diffsecret/b.source.json",
               "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\n"
               "  \"credentialType\": \"ACCESS_KEY\", \"acessKey\": \"AKIAEXAMPLE\",\n"
               "  \"accessSecret\": \"data:;base64,czNjcjpldA==\"\n}}\n");
    write_file("diffsecret/c.source.json",
               "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\n"
               "  \"credentialType\": \"ACCESS_KEY\", \"acessKey\": \"AKIAEXAMPLE\",\n"
               "  \"accessSecret\": \"$SERVICE_EXISTING_VALUE$\"\n}}\n");
    struct run r = run_srcls(
        NULL, (const char *[]){"--check", "--diff", "--unsafe-fixes", "diffsecret/a.source.json",
                               "diffsecret/b.source.json", "diffsecret/c.source.json", NULL});
    assert_exit(&r, 1);
    assert_true(has_line(r.out, "-  \"accessSecret\": \"***\""));
    assert_true(has_line(r.out, "+  \"accessSecret\": \"data:;base64,***\""));
    assert_true(has_line(r.out, "   \"accessSecret\": \"data:;base64,***\""));
    assert_true(has_line(r.out, "   \"accessSecret\": \"$SERVICE_EXISTING_VALUE$\""));
    const char *secrets[] = {"s3cr", "czNj", "ldA=="};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
        if (strstr(r.out, secrets[i]) != NULL || strstr(r.err, secrets[i]) != NULL)
            fail_msg("%s is in the output:\n%s%s", secrets[i], r.out, r.err);
    }
    run_free(&r);
    /* nor in any report of the same files */
    const char *formats[] = {"text", "json", "sarif", "github", "gitlab"};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        r = run_srcls(NULL, (const char *[]){"--check", "--format", formats[f],
                                             "diffsecret/a.source.json", "diffsecret/b.source.json",
                                             NULL});
        for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
            if (strstr(r.out, secrets[i]) != NULL || strstr(r.err, secrets[i]) != NULL)
                fail_msg("%s is in the %s output:\n%s%s", secrets[i], formats[f], r.out, r.err);
        }
        run_free(&r);
    }
}

/* A reader that runs while srcls fixes the file sees the old text or the new, never a mix
 * nor a short file. The document is padded so that a write in place would be caught. */
static void test_fix_is_atomic_for_a_concurrent_reader(void **state)
{
    (void)state;
    char *small_before, *small_after;
    fixable_texts(&small_before, &small_after);
    size_t pad = 256 * 1024;
    char *padding = malloc(pad + 3);
    assert_non_null(padding);
    padding[0] = '{';
    memset(padding + 1, ' ', pad);
    strcpy(padding + 1 + pad, "\n");
    char *before = replaced(small_before, "{", padding);
    char *after = replaced(small_after, "{", padding);
    free(padding);
    free(small_before);
    free(small_after);
    const char *path = "atomic/a.source.json";
    write_file(path, before);

    fflush(stdout);
    fflush(stderr);
    pid_t reader = fork();
    assert_true(reader >= 0);
    if (reader == 0) {
        alarm(60);
        unsigned reads = 0, torn = 0;
        while (access("atomic/.stop", F_OK) != 0) {
            char *text = read_all(path);
            if (text != NULL) {
                torn += strcmp(text, before) != 0 && strcmp(text, after) != 0;
                reads++;
            }
            free(text);
        }
        _exit(torn > 0 ? 1 : reads == 0 ? 2 : 0);
    }
    for (int i = 0; i < 8; i++) {
        replace_atomically(path, before);
        struct run r = run_fix(path, false);
        assert_err_has(&r, FIXABLE_APPLIED);
        run_free(&r);
        assert_file_is(path, after);
    }
    write_file("atomic/.stop", "");
    int status = 0;
    assert_int_equal(waitpid(reader, &status, 0), reader);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 1)
        fail_msg("the reader saw a file that was neither the old nor the new text");
    assert_int_equal(WEXITSTATUS(status), 0);
    free(before);
    free(after);
}

/* A temporary file left by `kill -9` is hidden and not *.json: never checked in a scan. */
static void test_leftover_temporary_files_are_never_checked(void **state)
{
    (void)state;
    char *good = example("01-search-service.source.json");
    write_file("left/good.source.json", good);
    free(good);
    write_file("left/.good.source.json.srcls-Ab12Cd.tmp", "{\"type\": ");
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--fix", "--unsafe-fixes", "left", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.out, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 hints\n");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symlink_loops_in_a_scan_end_and_each_file_is_checked_once),
        cmocka_unit_test(test_named_links_are_followed),
        cmocka_unit_test(test_hard_links_and_repeated_paths_are_checked_once),
        cmocka_unit_test(test_scan_stops_at_the_depth_limit),
        cmocka_unit_test(test_fifo_named_explicitly_is_refused_at_once),
        cmocka_unit_test(test_fifo_in_a_scan_is_skipped),
        cmocka_unit_test(test_dash_reads_any_standard_input),
        cmocka_unit_test(test_an_empty_document_file_is_an_error),
        cmocka_unit_test(test_file_over_the_limit_is_refused_before_reading),
        cmocka_unit_test(test_standard_input_is_read_up_to_the_limit),
        cmocka_unit_test(test_fix_rewrites_the_file_and_keeps_its_mode),
        cmocka_unit_test(test_fix_is_idempotent),
        cmocka_unit_test(test_fix_applies_what_a_fix_uncovers),
        cmocka_unit_test(test_fix_never_touches_a_file_with_syntax_errors),
        cmocka_unit_test(test_fix_through_a_symlink_rewrites_the_target),
        cmocka_unit_test(test_fix_refuses_a_file_with_hard_links),
        cmocka_unit_test(test_fix_in_a_read_only_directory_leaves_the_file_unchanged),
        cmocka_unit_test(test_fix_refuses_a_read_only_file),
        cmocka_unit_test(test_fix_keeps_owner_and_group),
        cmocka_unit_test(test_fix_refuses_when_the_owner_cannot_be_kept),
        cmocka_unit_test(test_fix_on_standard_input_prints_the_fixed_document),
        cmocka_unit_test(test_diff_shows_what_fix_would_change),
        cmocka_unit_test(test_diff_shows_a_secret_fix_but_never_the_secret),
        cmocka_unit_test(test_fix_is_atomic_for_a_concurrent_reader),
        cmocka_unit_test(test_leftover_temporary_files_are_never_checked),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
