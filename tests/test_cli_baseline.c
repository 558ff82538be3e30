/* test_cli_baseline: `srcls --check --write-baseline FILE` then `--baseline FILE` on a repository
 * with findings: edits above, below and beside the findings, a reformatted file and a source
 * moved within a bulk array bring nothing back; a changed value brings back exactly its finding;
 * a fixed finding and a deleted file are counted as fixed (SARIF `absent`); the exit status
 * counts new findings only; the file's bytes are the same written twice, with --jobs 1 and 2,
 * and from another directory; no secret value is in it; a broken baseline exits 2. And
 * srcls.json's "ignore": entries silence findings by file, pointer and code, an entry that
 * silenced nothing is a project-config warning when its directory was scanned whole, and an
 * entry without a reason is a mistake of the configuration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_harness.h"

/* A search-service source with three findings: an invalid enum value (`mode`), an unknown
 * field, a secret that is not encoded; `above` and `below` are members put before and after. */
static char *source(const char *name, const char *mode, const char *above, const char *below)
{
    static char buffers[8][1024];
    static unsigned next;
    char *out = buffers[next++ % 8];
    snprintf(out, sizeof buffers[0],
             "{\n  \"name\": \"%s\",\n  \"type\": \"CLOUDA_SEARCH_SERVICE\",\n  \"config\": {\n"
             "    %s\"hostname\": \"search.example.com\",\n    \"port\": \"443\",\n"
             "    \"encryptionValidationMode\": \"%s\",\n    \"colour\": 1,\n"
             "    \"authenticationType\": \"ACCESS_KEY\",\n"
             "    \"accessKey\": \"AKEXAMPLE7Q2RW4ZT9LM\",\n"
             "    \"accessSecret\": \"hunter2-%s\"%s\n  }\n}",
             name, above, mode, name, below);
    return out;
}

static void write_repository(void)
{
    char bulk[4096];
    write_file("repo/src/single.source.json", source("single", "BOGUS", "", ""));
    snprintf(bulk, sizeof bulk, "[%s,\n%s,\n%s]\n", source("one", "BOGUS", "", ""),
             source("two", "BOGUS", "", ""), source("three", "BOGUS", "", ""));
    write_file("repo/src/bulk.json", bulk);
    write_file("repo/src/other.source.json", source("other", "BOGUS", "", ""));
}

static int setup(void **state)
{
    (void)state;
    return scratch_create("baseline");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static struct run check_in(const char *subdir, const char *const *args)
{
    struct run_options options = {.subdir = subdir};
    return run_srcls_with(&options, args);
}

/* The findings a text report lists (lines "path:line:column: severity: ... [code]"). */
static unsigned findings(const char *out)
{
    unsigned n = 0;
    for (const char *line = out; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        n += len > 0 && line[len - 1] == ']' && memchr(line, '[', len) != NULL;
        line += len + (end != NULL);
    }
    return n;
}

static void write_baseline(void)
{
    write_repository();
    struct run r = check_in(
        "repo", (const char *[]){"--check", "--write-baseline", "baseline.json", "src", NULL});
    assert_exit(&r, 0); /* every finding is in the baseline now */
    assert_int_equal(findings(r.out), 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    assert_non_null(strstr(r.err, "wrote 15 findings to baseline.json"));
    run_free(&r);
}

static struct run with_baseline(const char *format)
{
    return check_in("repo", (const char *[]){"--check", "--baseline", "baseline.json", "--format",
                                             format, "src", NULL});
}

static void test_edits_beside_findings_bring_nothing_back(void **state)
{
    (void)state;
    write_baseline();
    struct run before = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&before, 1);
    assert_int_equal(findings(before.out), 15);
    run_free(&before);
    /* above and below the findings, lines added; the bulk file reformatted on one line and its
     * sources in another order */
    write_file("repo/src/single.source.json",
               source("single", "BOGUS", "\"readTimeoutMillis\": 30000,\n\n\n    ",
                      ",\n    \"regionName\": \"us-east-1\""));
    char bulk[4096];
    snprintf(bulk, sizeof bulk, "[%s, %s, %s]", source("three", "BOGUS", "", ""),
             source("one", "BOGUS", "", ""), source("two", "BOGUS", "", ""));
    for (char *c = bulk; *c != '\0'; c++)
        *c = *c == '\n' ? ' ' : *c;
    write_file("repo/src/bulk.json", bulk);
    struct run r = with_baseline("text");
    assert_exit(&r, 0);
    assert_int_equal(findings(r.out), 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
}

static void test_changed_value_comes_back_alone(void **state)
{
    (void)state;
    write_baseline();
    char bulk[4096]; /* "two" moved first and its value changed; "three" lost its finding */
    snprintf(bulk, sizeof bulk, "[%s,\n%s,\n%s]\n", source("two", "WRONG", "", ""),
             source("one", "BOGUS", "", ""),
             source("three", "CERTIFICATE_ONLY_VALIDATION", "", ""));
    write_file("repo/src/bulk.json", bulk);
    struct run r = with_baseline("text");
    assert_exit(&r, 1);
    assert_int_equal(findings(r.out), 1);
    assert_non_null(strstr(r.out, "src/bulk.json:7:33: error: "));
    assert_non_null(strstr(r.out, "(got \"WRONG\") [invalid-enum]"));
    /* two's old value, three's finding */
    assert_line(&r, "15 findings in the baseline, 2 of them fixed");
    run_free(&r);
    r = with_baseline("sarif");
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "\"baselineState\":\"new\""));
    assert_non_null(strstr(r.out, "\"element\":\"three\",\"pointer\":\"/config/"
                                  "encryptionValidationMode\"},\"baselineState\":\"absent\""));
    assert_non_null(strstr(r.out, "\"element\":\"two\",\"pointer\":\"/config/"
                                  "encryptionValidationMode\"},\"baselineState\":\"absent\""));
    run_free(&r);
    r = with_baseline("json");
    assert_non_null(strstr(r.out, "\"baselined\":false"));
    assert_non_null(strstr(r.out, "\"baseline\": {\"findings\": 15, \"unchanged\": 13, "
                                  "\"fixed\": 2, \"unchecked\": 0}"));
    assert_non_null(strstr(r.out, "\"errors\": 1, \"warnings\": 0")); /* new ones only */
    run_free(&r);
}

static void test_deleted_file_is_fixed(void **state)
{
    (void)state;
    write_baseline();
    assert_int_equal(unlink("repo/src/other.source.json"), 0);
    struct run r = with_baseline("text");
    assert_exit(&r, 0);
    assert_line(&r, "15 findings in the baseline, 3 of them fixed");
    run_free(&r);
    /* a file not checked in this run is not counted as fixed */
    r = check_in("repo",
                 (const char *[]){"--check", "--baseline", "baseline.json", "src/bulk.json", NULL});
    assert_exit(&r, 0);
    assert_line(&r, "15 findings in the baseline, 3 of them fixed");
    run_free(&r);
}

static void test_bytes_are_stable(void **state)
{
    (void)state;
    write_baseline();
    char *first = read_all("repo/baseline.json");
    assert_non_null(first);
    assert_null(strstr(first, "hunter2")); /* secrets: never written, not even hashed */
    assert_null(strstr(first, "\"line"));
    const char *jobs[] = {"1", "2"};
    for (size_t i = 0; i < 2; i++) {
        struct run r =
            check_in("repo", (const char *[]){"--check", "--jobs", jobs[i], "--write-baseline",
                                              "again.json", "src", NULL});
        assert_exit(&r, 0);
        run_free(&r);
        char *again = read_all("repo/again.json");
        assert_string_equal(first, again);
        free(again);
    }
    /* from another directory: the paths are relative to the baseline file */
    struct run r = check_in(
        "repo/src", (const char *[]){"--check", "--write-baseline", "../again.json", ".", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    char *again = read_all("repo/again.json");
    assert_string_equal(first, again);
    free(again);
    r = check_in("repo/src",
                 (const char *[]){"--check", "--baseline", "../baseline.json", "bulk.json", NULL});
    assert_exit(&r, 0);
    assert_int_equal(findings(r.out), 0);
    run_free(&r);
    free(first);
}

/* --write-baseline over a part of the tree: the entries of the files not checked are kept (but
 * those of files that no longer exist), the files checked get this run's; a file there that is
 * not a baseline is written anew. */
static void test_write_baseline_keeps_files_not_checked(void **state)
{
    (void)state;
    write_baseline();
    write_file("repo/src/single.source.json", source("single", "OTHER", "", ""));
    struct run r = check_in("repo", (const char *[]){"--check", "--write-baseline", "baseline.json",
                                                     "src/single.source.json", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.err, "wrote 15 findings to baseline.json (12 of files or codes not "
                                  "checked in this run, kept)"));
    run_free(&r);
    r = with_baseline("text"); /* the changed value is in it now, and the rest still */
    assert_exit(&r, 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
    assert_int_equal(unlink("repo/src/other.source.json"), 0);
    r = check_in("repo", (const char *[]){"--check", "--write-baseline", "baseline.json",
                                          "src/bulk.json", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.err, "wrote 12 findings to baseline.json (3 of files or codes not"));
    run_free(&r);
    char *text = read_all("repo/baseline.json");
    assert_non_null(text);
    assert_null(strstr(text, "other.source.json")); /* gone: not kept */
    free(text);
    write_file("repo/broken.json", "{\"version\": 1, \"findings\": [}");
    r = check_in("repo",
                 (const char *[]){"--check", "--write-baseline", "broken.json", "src", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.err, "written anew with this run's findings alone"));
    assert_non_null(strstr(r.err, "wrote 12 findings to broken.json\n"));
    run_free(&r);
    assert_int_equal(unlink("repo/broken.json"), 0);
    write_repository();
}

static void test_broken_baseline_exits_2(void **state)
{
    (void)state;
    write_repository();
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"not json", "not a baseline"},
        {"{\"version\": 2, \"findings\": []}", "not a baseline"},
        {"{\"version\": 1, \"findings\": [{\"file\": \"a\", \"code\": \"no-such-code\", "
         "\"pointer\": \"\", \"hash\": \"x\"}]}",
         "finding 0: \"code\" must name a code"},
        {"{\"version\": 1, \"findings\": [{\"file\": \"a\", \"code\": \"invalid-enum\", "
         "\"hash\": \"x\"}]}",
         "finding 0: \"pointer\" must be a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_file("repo/baseline.json", cases[i].text);
        struct run r = with_baseline("text");
        assert_exit(&r, 2);
        assert_non_null(strstr(r.err, cases[i].message));
        assert_string_equal(r.out, ""); /* nothing checked */
        run_free(&r);
    }
    struct run r =
        check_in("repo", (const char *[]){"--check", "--baseline", "missing.json", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "missing.json: cannot read: No such file or directory"));
    run_free(&r);
    r = check_in("repo", (const char *[]){"--baseline", "baseline.json", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--baseline is an option of --check"));
    run_free(&r);
}

static void test_srcls_json_names_the_baseline(void **state)
{
    (void)state;
    write_baseline();
    assert_int_equal(rename("repo/baseline.json", "repo/src/known.json"), 0);
    write_file("repo/srcls.json", "{\"baseline\": \"src/known.json\"}");
    /* the entries' paths are relative to the baseline file: from src/ they name files that are
     * not there (src/src/...), whose findings are taken as moved to the files without entries */
    struct run r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
    r = check_in("repo",
                 (const char *[]){"--check", "--write-baseline", "src/known.json", "src", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    r = check_in("repo/src", (const char *[]){"--check", ".", NULL});
    assert_exit(&r, 0);
    assert_int_equal(findings(r.out), 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
    write_file("repo/srcls.json", "{\"baseline\": \"nowhere.json\"}");
    r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 2); /* named but unreadable: never a silent pass */
    assert_non_null(strstr(r.err, "nowhere.json: cannot read: No such file or directory"));
    run_free(&r);
    write_file("repo/srcls.json", "{\"baseline\": 1}");
    r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls.json:1:2: must be the path of a baseline file"));
    run_free(&r);
    assert_int_equal(unlink("repo/srcls.json"), 0);
}

static void test_ignore_entries(void **state)
{
    (void)state;
    write_repository();
    write_file("repo/srcls.json",
               "{\"ignore\": [\n"
               "  {\"files\": \"src/*.source.json\", \"pointer\": \"/config/colour\", "
               "\"reason\": \"read by the old loader\"},\n"
               "  {\"files\": \"bulk.json\", \"pointer\": \"/two\", \"reason\": \"retired\"},\n"
               "  {\"codes\": [\"type-mismatch\"], \"reason\": \"silences nothing\"}\n]}\n");
    /* single and other: 2 each; bulk: one, three (3 each), two silenced */
    struct run r = check_in("repo", (const char *[]){"--check", ".", NULL});
    assert_exit(&r, 1);
    assert_int_equal(findings(r.out), 2 + 2 + 6 + 1);
    assert_null(strstr(r.out, "single.source.json:9:5: warning: unknown field"));
    assert_line(&r, "srcls.json:4:3: warning: this \"ignore\" entry silenced no finding in the "
                    "files checked: remove it (or correct its files, pointer or codes) "
                    "[project-config]");
    run_free(&r);
    /* a part of the tree checked: an entry is not known to be unused */
    r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_int_equal(findings(r.out), 2 + 2 + 6);
    run_free(&r);
    write_file("repo/srcls.json", "{\"ignore\": [{\"pointer\": \"/config\"}]}");
    r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls.json:1:13: an \"ignore\" entry needs a \"reason\""));
    run_free(&r);
    /* an empty member (the editor's quick fix writes the reason empty): the message names the
     * member, as the Problems panel shows it without the text */
    write_file("repo/srcls.json", "{\"ignore\": [{\"pointer\": \"/config\", \"reason\": \"\"}]}");
    r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls.json:1:36: \"reason\" must be a non-empty string: why "
                                  "the finding is accepted"));
    run_free(&r);
    write_file("repo/srcls.json", "{\"ignore\": [{\"files\": \"\", \"pointer\": \"\", "
                                  "\"reason\": \"\"}]}");
    r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls.json:1:14: \"files\" must be a non-empty string"));
    run_free(&r);
    assert_int_equal(unlink("repo/srcls.json"), 0);
}

/* Paths with "..": the srcls.json that governs a file is the one above the file, not above the
 * current directory, and the "files" globs see the path from it ("src/x", not "../src/x"). */
static void test_ignore_from_another_directory(void **state)
{
    (void)state;
    write_repository();
    write_file("repo/srcls.json",
               "{\"ignore\": [{\"files\": \"src/*.source.json\", \"pointer\": "
               "\"/config/colour\", \"reason\": \"read by the old loader\"}]}\n");
    write_file("repo/tools/srcls.json", "{\"rules\": {\"invalid-enum\": \"off\"}}\n");
    const char *const paths[] = {"../src", "../tools/../src/./single.source.json"};
    const int counts[] = {2 + 2 + 9, 2};
    for (size_t i = 0; i < 2; i++) {
        struct run r = check_in("repo/tools", (const char *[]){"--check", paths[i], NULL});
        assert_exit(&r, 1);
        assert_int_equal(findings(r.out), counts[i]);
        assert_null(strstr(r.out, "single.source.json:9:5: warning: unknown field"));
        assert_non_null(strstr(r.out, "[invalid-enum]"));
        run_free(&r);
    }
    /* the whole project named as "..": its unused entry is reported, from here */
    write_file("repo/srcls.json", "{\"ignore\": [{\"codes\": [\"type-mismatch\"], \"reason\": "
                                  "\"silences nothing\"}]}\n");
    struct run r = check_in("repo/tools", (const char *[]){"--check", "..", NULL});
    assert_line(&r, "../srcls.json:1:13: warning: this \"ignore\" entry silenced no finding in the "
                    "files checked: remove it (or correct its files, pointer or codes) "
                    "[project-config]");
    run_free(&r);
    assert_int_equal(unlink("repo/tools/srcls.json"), 0);
    assert_int_equal(unlink("repo/srcls.json"), 0);
}

/* The lines of the baseline text `text` that name `code`, each with its indentation. */
static unsigned count_code(const char *text, const char *code)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\"code\":\"%s\"", code);
    unsigned n = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at++)
        n++;
    return n;
}

/* Whether every entry line of `before` not of `code` is in `after`, byte for byte. */
static bool others_kept(const char *before, const char *after, const char *code)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\"code\":\"%s\"", code);
    for (const char *line = strstr(before, "\n    {"); line != NULL;
         line = strstr(line + 1, "\n    {")) {
        const char *end = strchr(line + 1, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        char entry[512];
        snprintf(entry, sizeof entry, "%.*s", (int)len, line);
        char *comma = strrchr(entry, ',');
        if (comma != NULL && comma[1] == '\0')
            *comma = '\0'; /* the last entry has none */
        if (strstr(entry, needle) == NULL && strstr(after, entry) == NULL)
            return false;
    }
    return true;
}

/* --write-baseline checking only some codes (--select, --ignore, "off" in srcls.json, an
 * "ignore" entry) keeps the entries of the others byte for byte: nothing leaves a baseline but
 * an entry whose finding was looked for and is gone. */
static void test_write_keeps_codes_not_checked(void **state)
{
    (void)state;
    write_baseline();
    char *first = read_all("repo/baseline.json");
    assert_non_null(first);
    write_file("repo/src/single.source.json", source("single", "OTHER", "", ""));
    static const struct {
        const char *config, *option, *value;
    } ways[] = {
        {NULL, "--select", "invalid-enum"},
        {NULL, "--ignore", "unknown-field,secret-not-encoded"},
        {"{\"rules\": {\"unknown-field\": \"off\", \"secret-not-encoded\": \"off\"}}", NULL, NULL},
        {"{\"ignore\": [{\"codes\": [\"unknown-field\", \"secret-not-encoded\"], \"reason\": "
         "\"later\"}]}",
         NULL, NULL},
    };
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        write_file("repo/baseline.json", first);
        if (ways[i].config != NULL)
            write_file("repo/srcls.json", ways[i].config);
        struct run r = ways[i].option != NULL
                           ? check_in("repo", (const char *[]){"--check", ways[i].option,
                                                               ways[i].value, "--write-baseline",
                                                               "baseline.json", "src", NULL})
                           : check_in("repo", (const char *[]){"--check", "--write-baseline",
                                                               "baseline.json", "src", NULL});
        assert_exit(&r, 0);
        assert_non_null(strstr(r.err, "wrote 15 findings to baseline.json (10 of files or codes "
                                      "not checked in this run, kept)"));
        run_free(&r);
        char *after = read_all("repo/baseline.json");
        assert_non_null(after);
        assert_true(others_kept(first, after, "invalid-enum"));
        assert_int_equal(count_code(after, "unknown-field"), 5);
        assert_int_equal(count_code(after, "secret-not-encoded"), 5);
        assert_int_equal(count_code(after, "invalid-enum"), 5); /* single's anew */
        assert_string_not_equal(first, after);
        free(after);
        unlink("repo/srcls.json");
    }
    free(first);
    write_repository();
}

/* An entry whose code was not checked in a run is neither matched nor fixed: the text summary
 * says how many, JSON counts them apart, SARIF has no "absent" result for them. */
static void test_unchecked_is_not_fixed(void **state)
{
    (void)state;
    write_baseline();
    struct run r = check_in("repo", (const char *[]){"--check", "--baseline", "baseline.json",
                                                     "--select", "invalid-enum", "src", NULL});
    assert_exit(&r, 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed, 10 not checked in this run");
    run_free(&r);
    static const struct {
        const char *config, *line, *json;
    } ways[] = {
        {"{\"rules\": {\"unknown-field\": \"off\"}}",
         "15 findings in the baseline, 0 of them fixed, 5 not checked in this run",
         "\"unchanged\": 10, \"fixed\": 0, \"unchecked\": 5}"},
        /* the single sources' (a bulk file's are below "/0", "/1"...) */
        {"{\"ignore\": [{\"pointer\": \"/config/colour\", \"reason\": \"old loader\"}]}",
         "15 findings in the baseline, 0 of them fixed, 2 not checked in this run",
         "\"unchanged\": 13, \"fixed\": 0, \"unchecked\": 2}"},
        {"{\"ignore\": [{\"files\": \"src/bulk.json\", \"pointer\": \"/two\", \"reason\": "
         "\"retired\"}]}",
         "15 findings in the baseline, 0 of them fixed, 3 not checked in this run",
         "\"unchanged\": 12, \"fixed\": 0, \"unchecked\": 3}"},
    };
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        write_file("repo/srcls.json", ways[i].config);
        r = with_baseline("text");
        assert_exit(&r, 0);
        assert_line(&r, ways[i].line);
        run_free(&r);
        r = with_baseline("json");
        assert_non_null(strstr(r.out, ways[i].json));
        run_free(&r);
        r = with_baseline("sarif");
        assert_exit(&r, 0);
        assert_null(strstr(r.out, "\"absent\""));
        run_free(&r);
    }
    /* a deleted file's entries of a code "off" where it was: not fixed either */
    write_file("repo/srcls.json", "{\"rules\": {\"unknown-field\": \"off\"}}");
    assert_int_equal(unlink("repo/src/other.source.json"), 0);
    r = with_baseline("text");
    assert_line(&r, "15 findings in the baseline, 2 of them fixed, 5 not checked in this run");
    run_free(&r);
    assert_int_equal(unlink("repo/srcls.json"), 0);
    write_repository();
}

/* An "ignore" entry whose codes were not checked silenced nothing because nothing was looked
 * for: it is not reported unused. */
static void test_unused_ignore_of_codes_not_checked(void **state)
{
    (void)state;
    write_repository();
    write_file("repo/srcls.json", "{\"ignore\": [{\"codes\": [\"type-mismatch\"], \"reason\": "
                                  "\"silences nothing\"}]}\n");
    struct run r = check_in("repo", (const char *[]){"--check", ".", NULL});
    assert_non_null(strstr(r.out, "silenced no finding"));
    run_free(&r);
    r = check_in("repo", (const char *[]){"--check", "--select", "invalid-enum", ".", NULL});
    assert_exit(&r, 1);
    assert_null(strstr(r.out, "silenced no finding"));
    run_free(&r);
    r = check_in("repo", (const char *[]){"--check", "--ignore", "type-mismatch", ".", NULL});
    assert_null(strstr(r.out, "silenced no finding"));
    run_free(&r);
    assert_int_equal(unlink("repo/srcls.json"), 0);
}

/* A finding that means a document was not checked (a syntax error) is never baselined: left
 * out of what --write-baseline writes (said on stderr), reported under --baseline, even when an
 * old baseline lists it (which is said too). */
static void test_syntax_errors_never_baselined(void **state)
{
    (void)state;
    write_repository();
    write_file(
        "repo/src/broken.source.json",
        "{\"name\": \"b\", \"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\"port\": 1,,}}");
    struct run r = check_in(
        "repo", (const char *[]){"--check", "--write-baseline", "baseline.json", "src", NULL});
    assert_exit(&r, 1); /* always reported */
    assert_non_null(strstr(r.out, "[json-syntax]"));
    /* nor its other findings (of the document as read: a guess at what was meant) */
    assert_non_null(strstr(r.err, "wrote 15 findings to baseline.json"));
    assert_non_null(strstr(r.err, "--write-baseline baseline.json: left out 4 findings of what "
                                  "was not checked (json-syntax, unknown-document, "
                                  "unknown-kind, and the other findings"));
    run_free(&r);
    char *text = read_all("repo/baseline.json");
    assert_non_null(text);
    assert_null(strstr(text, "broken.source.json"));
    r = with_baseline("text");
    assert_exit(&r, 1);
    assert_int_equal(findings(r.out), 4);
    assert_non_null(strstr(r.out, "broken.source.json:1:68: error: trailing comma"));
    run_free(&r);
    /* an old baseline that holds one: it matches nothing */
    char *end = strstr(text, "\n  ]");
    assert_non_null(end);
    char old[8192];
    snprintf(old, sizeof old,
             "%.*s,\n    {\"file\":\"src/broken.source.json\",\"code\":\"json-syntax\","
             "\"pointer\":\"\",\"hash\":\"0000000000000000\"}%s",
             (int)(end - text), text, end);
    free(text);
    write_file("repo/baseline.json", old);
    r = with_baseline("text");
    assert_exit(&r, 1);
    assert_int_equal(findings(r.out), 4);
    assert_non_null(strstr(r.err, "baseline baseline.json: 1 entry of findings that mean a "
                                  "document was not checked (json-syntax, "
                                  "unknown-document, unknown-kind) match nothing"));
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
    assert_int_equal(unlink("repo/src/broken.source.json"), 0);
    /* a file that had entries, broken since: they are neither fixed nor lost */
    char *before = read_all("repo/baseline.json");
    char broken[1024];
    snprintf(broken, sizeof broken, "%s,", source("single", "OTHER", "", ""));
    write_file("repo/src/single.source.json", broken);
    r = with_baseline("text");
    assert_exit(&r, 1);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed, 1 not checked in this run");
    run_free(&r);
    r = check_in("repo",
                 (const char *[]){"--check", "--write-baseline", "baseline.json", "src", NULL});
    assert_exit(&r, 1);
    run_free(&r);
    char *after = read_all("repo/baseline.json");
    assert_true(others_kept(before, after, "json-syntax"));
    free(before);
    free(after);
    write_repository();
}

/* --no-baseline: the baseline a srcls.json names is not read; with --baseline FILE, a usage
 * error. */
static void test_no_baseline(void **state)
{
    (void)state;
    write_baseline();
    write_file("repo/srcls.json", "{\"baseline\": \"baseline.json\"}");
    struct run r = check_in("repo", (const char *[]){"--check", "src", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    r = check_in("repo", (const char *[]){"--check", "--no-baseline", "src", NULL});
    assert_exit(&r, 1);
    assert_int_equal(findings(r.out), 15);
    assert_null(strstr(r.out, "in the baseline"));
    run_free(&r);
    r = check_in("repo", (const char *[]){"--check", "--no-baseline", "--baseline", "baseline.json",
                                          "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--no-baseline"));
    assert_string_equal(r.out, "");
    run_free(&r);
    r = check_in("repo", (const char *[]){"--no-baseline", "src", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--no-baseline is an option of --check"));
    run_free(&r);
    assert_int_equal(unlink("repo/srcls.json"), 0);
}

/* A file renamed on disk (no git): its findings take the entries of its old path, which is
 * gone; --write-baseline then writes them under the new path. One entry holds one finding: a
 * copy's findings are new. */
static void test_moved_file_keeps_its_entries(void **state)
{
    (void)state;
    write_baseline();
    assert_int_equal(rename("repo/src/other.source.json", "repo/src/moved.source.json"), 0);
    struct run r = with_baseline("text");
    assert_exit(&r, 0);
    assert_int_equal(findings(r.out), 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
    r = with_baseline("sarif");
    assert_null(strstr(r.out, "\"absent\""));
    run_free(&r);
    write_file("repo/src/copy.source.json", source("other", "BOGUS", "", ""));
    r = with_baseline("text");
    assert_exit(&r, 1);
    /* the copy's 3 findings, and the name both hold: duplicate-name across files, on the one
     * reported later */
    assert_int_equal(findings(r.out), 4);
    assert_non_null(strstr(r.out, "src/moved.source.json:2:11: warning: the name \"other\" is "
                                  "taken by a source of another file (src/copy.source.json)"));
    run_free(&r);
    assert_int_equal(unlink("repo/src/copy.source.json"), 0);
    r = check_in("repo", (const char *[]){"--check", "--baseline", "baseline.json",
                                          "--write-baseline", "baseline.json", "src", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    char *text = read_all("repo/baseline.json");
    assert_non_null(text);
    assert_null(strstr(text, "other.source.json"));
    assert_non_null(strstr(text, "\"file\":\"src/moved.source.json\",\"code\":\"invalid-enum\""));
    free(text);
    assert_int_equal(unlink("repo/src/moved.source.json"), 0);
    write_repository();
}

/* A baseline an earlier release wrote (these bytes, before the hash had a module of its own):
 * users commit theirs, so it still matches every finding, and writing it again gives the same
 * bytes. */
static void test_a_committed_baseline_still_matches(void **state)
{
    (void)state;
    write_repository();
    /* one entry a line, as in the file */
    // clang-format off
#define AT(file) "    {\"file\":\"src/" file "\",\"code\":\""
#define ENUM "\"pointer\":\"/config/encryptionValidationMode\",\"hash\":\"91191397d3697496\"}"
#define SECRET "\"pointer\":\"/config/accessSecret\",\"hash\":\"secret\"}"
#define FIELD "\"pointer\":\"/config/colour\",\"hash\":\"08cf0b07b5709128\"}"
    static const char committed[] =
        "{\n  \"version\": 1,\n  \"findings\": [\n"
        AT("bulk.json") "invalid-enum\",\"element\":\"one\"," ENUM ",\n"
        AT("bulk.json") "invalid-enum\",\"element\":\"three\"," ENUM ",\n"
        AT("bulk.json") "invalid-enum\",\"element\":\"two\"," ENUM ",\n"
        AT("bulk.json") "secret-not-encoded\",\"element\":\"one\"," SECRET ",\n"
        AT("bulk.json") "secret-not-encoded\",\"element\":\"three\"," SECRET ",\n"
        AT("bulk.json") "secret-not-encoded\",\"element\":\"two\"," SECRET ",\n"
        AT("bulk.json") "unknown-field\",\"element\":\"one\"," FIELD ",\n"
        AT("bulk.json") "unknown-field\",\"element\":\"three\"," FIELD ",\n"
        AT("bulk.json") "unknown-field\",\"element\":\"two\"," FIELD ",\n"
        AT("other.source.json") "invalid-enum\"," ENUM ",\n"
        AT("other.source.json") "secret-not-encoded\"," SECRET ",\n"
        AT("other.source.json") "unknown-field\"," FIELD ",\n"
        AT("single.source.json") "invalid-enum\"," ENUM ",\n"
        AT("single.source.json") "secret-not-encoded\"," SECRET ",\n"
        AT("single.source.json") "unknown-field\"," FIELD "\n"
        "  ]\n}\n";
    // clang-format on
#undef AT
#undef ENUM
#undef SECRET
#undef FIELD
    write_file("repo/committed.json", committed);
    struct run r =
        check_in("repo", (const char *[]){"--check", "--baseline", "committed.json",
                                          "--write-baseline", "again.json", "src", NULL});
    assert_exit(&r, 0);
    assert_int_equal(findings(r.out), 0);
    assert_line(&r, "15 findings in the baseline, 0 of them fixed");
    run_free(&r);
    char *again = read_all("repo/again.json");
    assert_string_equal(again, committed);
    free(again);
}

/* An entry's pointer is matched as written, never read as a number: in a bulk file whose sources
 * have no name, "/01/..." and "/+1/..." (array indexes RFC 6901 does not write) take no finding,
 * so the finding at "/1/..." is new and those entries count as fixed, and are dropped when the
 * file is written again. */
static void test_entries_with_unwritten_indexes_take_nothing(void **state)
{
    (void)state;
    write_file(
        "idx/anon.json",
        "[{\"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\"hostname\": \"a.example.com\", "
        "\"port\": \"443\", \"encryptionValidationMode\": \"BOGUS\"}},\n"
        " {\"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\"hostname\": \"b.example.com\", "
        "\"port\": \"443\", \"encryptionValidationMode\": \"BOGUS\"}}]\n");
    struct run r = check_in(
        "idx", (const char *[]){"--check", "--write-baseline", "b.json", "anon.json", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    char *text = read_all("idx/b.json");
    assert_non_null(text);
    const char *second = strstr(text, "\"pointer\":\"/1/config/encryptionValidationMode\"");
    assert_non_null(second);
    const char *line = second;
    while (line > text && line[-1] != '\n')
        line--;
    const char *end = strchr(second, '\n');
    char entry[512], odd[2][600], file[2048];
    snprintf(entry, sizeof entry, "%.*s", (int)(end - line), line);
    const char *prefixes[] = {"/01/", "/+1/"};
    for (size_t i = 0; i < 2; i++) { /* the entry of "/1/..." written with these instead */
        const char *at = strstr(entry, "/1/");
        snprintf(odd[i], sizeof odd[i], "%.*s%s%s", (int)(at - entry), entry, prefixes[i], at + 3);
    }
    if (odd[0][strlen(odd[0]) - 1] != ',')
        strcat(odd[0], ",");
    snprintf(file, sizeof file, "%.*s%s\n%s%s", (int)(line - text), text, odd[0], odd[1], end);
    free(text);
    write_file("idx/b.json", file);
    r = check_in("idx", (const char *[]){"--check", "--baseline", "b.json", "--write-baseline",
                                         "again.json", "anon.json", NULL});
    assert_exit(&r, 1);
    assert_int_equal(findings(r.out), 1);
    assert_has(&r, "anon.json:2:");
    assert_line(&r, "5 findings in the baseline, 2 of them fixed");
    run_free(&r);
    text = read_all("idx/again.json");
    assert_non_null(text);
    assert_null(strstr(text, "/01/"));
    assert_null(strstr(text, "/+1/"));
    assert_non_null(strstr(text, "\"pointer\":\"/1/config/encryptionValidationMode\""));
    free(text);
}

/* A finding under a key longer than 255 bytes: its entry hashes the value there (an earlier
 * release hashed it as absent), so a changed value comes back. */
static void test_value_under_a_long_key_is_hashed(void **state)
{
    (void)state;
    char key[301], doc[1024];
    memset(key, 'k', 300);
    key[300] = '\0';
    const char *values[] = {"1", "2"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(doc, sizeof doc,
                 "{\"name\": \"x\", \"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\n"
                 "  \"hostname\": \"h.example.com\", \"port\": \"443\",\n  \"%s\": %s}}\n",
                 key, values[i]);
        write_file("long/a.source.json", doc);
        if (i == 0) {
            struct run r = check_in("long", (const char *[]){"--check", "--write-baseline",
                                                             "b.json", "a.source.json", NULL});
            assert_exit(&r, 0);
            run_free(&r);
        }
    }
    struct run r = check_in(
        "long", (const char *[]){"--check", "--baseline", "b.json", "a.source.json", NULL});
    assert_int_equal(findings(r.out), 1);
    assert_has(&r, "a.source.json:3:3: warning: unknown field");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edits_beside_findings_bring_nothing_back),
        cmocka_unit_test(test_changed_value_comes_back_alone),
        cmocka_unit_test(test_deleted_file_is_fixed),
        cmocka_unit_test(test_bytes_are_stable),
        cmocka_unit_test(test_write_baseline_keeps_files_not_checked),
        cmocka_unit_test(test_broken_baseline_exits_2),
        cmocka_unit_test(test_srcls_json_names_the_baseline),
        cmocka_unit_test(test_ignore_entries),
        cmocka_unit_test(test_ignore_from_another_directory),
        cmocka_unit_test(test_write_keeps_codes_not_checked),
        cmocka_unit_test(test_unchecked_is_not_fixed),
        cmocka_unit_test(test_unused_ignore_of_codes_not_checked),
        cmocka_unit_test(test_syntax_errors_never_baselined),
        cmocka_unit_test(test_no_baseline),
        cmocka_unit_test(test_moved_file_keeps_its_entries),
        cmocka_unit_test(test_a_committed_baseline_still_matches),
        cmocka_unit_test(test_entries_with_unwritten_indexes_take_nothing),
        cmocka_unit_test(test_value_under_a_long_key_is_hashed),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
