/* test_cli_names: duplicate-name across the files of one `srcls --check` run — a warning on the
 * source of the file reported later, the earlier file's place (path, line, column) as related
 * information in text, json and sarif, the other path in the message (github, gitlab); the same
 * output for every --jobs; "rules", --select and the baseline apply to it; a file with a syntax
 * error contributes no name; under --base a duplicate between a changed and an unchanged file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

#define NAS(name, path)                                                                            \
    "{\"name\": \"" name                                                                           \
    "\", \"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"" path "\"}}"

static int setup(void **state)
{
    (void)state;
    return scratch_create("names");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static struct run check_in(const char *dir, const char *const *args)
{
    struct run_options options = {.subdir = dir};
    return run_srcls_with(&options, args);
}

/* Two files, one name but for case: the later file (in walk order) gets the warning. */
static void write_pair(const char *dir)
{
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/a.source.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    write_file(a, NAS("lake", "/a") "\n");
    write_file(b, "[" NAS("other", "/o") ",\n " NAS("Lake", "/b") "]\n");
}

static void test_text_names_the_other_file(void **state)
{
    (void)state;
    write_pair("text");
    struct run r = check_in("text", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_exit(&r, 0); /* a warning across files */
    assert_line(&r, "b.json:2:11: warning: the name \"Lake\" is taken by a source of another file "
                    "(a.source.json): the catalog and SQL know a source by its name "
                    "[duplicate-name]");
    assert_line(&r, "a.source.json:1:10: note: the source that has the name first");
    assert_line(&r, "checked 2 files: 0 errors, 1 warning, 0 information, 0 hints");
    run_free(&r);
    /* named the other way round, the other file is the later one */
    r = check_in("text",
                 (const char *[]){"--check", "--no-show-source", "b.json", "a.source.json", NULL});
    assert_line(&r, "a.source.json:1:10: warning: the name \"lake\" is taken by a source of "
                    "another file (b.json): the catalog and SQL know a source by its name "
                    "[duplicate-name]");
    assert_line(&r, "b.json:2:11: note: the source that has the name first");
    run_free(&r);
}

static void test_json_and_sarif_give_the_other_place(void **state)
{
    (void)state;
    write_pair("formats");
    struct run r = check_in("formats", (const char *[]){"--check", "--format", "json", ".", NULL});
    assert_has(&r, "\"code\":\"duplicate-name\",\"severity\":\"warning\"");
    assert_has(&r, "\"pointer\":\"/1/name\",\"range\":{\"start\":{\"line\":1,\"character\":10},"
                   "\"end\":{\"line\":1,\"character\":16}},\"related\":[{\"message\":\"the source "
                   "that has the name first\",\"path\":\"a.source.json\",\"range\":{\"start\":{"
                   "\"line\":0,\"character\":9},\"end\":{\"line\":0,\"character\":15}}}]");
    run_free(&r);
    r = check_in("formats", (const char *[]){"--check", "--format", "sarif", ".", NULL});
    assert_has(&r, "\"ruleId\":\"duplicate-name\",\"ruleIndex\":");
    assert_has(&r, "\"level\":\"warning\",\"message\":{\"text\":\"the name \\\"Lake\\\"");
    assert_has(&r, "\"relatedLocations\":[{\"id\":1,\"physicalLocation\":{\"artifactLocation\":{"
                   "\"uri\":\"a.source.json\",\"uriBaseId\":\"%SRCROOT%\"},\"region\":{"
                   "\"startLine\":1,\"startColumn\":10,\"endLine\":1,\"endColumn\":16}}");
    run_free(&r);
    r = check_in("formats", (const char *[]){"--check", "--format", "github", ".", NULL});
    assert_has(&r, "::warning file=b.json,line=2,endLine=2,col=11,endColumn=17,"
                   "title=duplicate-name::the name \"Lake\" is taken by a source of another file "
                   "(a.source.json)");
    run_free(&r);
    r = check_in("formats", (const char *[]){"--check", "--format", "gitlab", ".", NULL});
    assert_has(&r, "\"check_name\":\"duplicate-name\"");
    assert_has(&r, "(a.source.json)");
    run_free(&r);
}

/* The earlier file's place is kept in every encoding's columns: after a character outside the
 * BMP on its line (4 bytes, 2 UTF-16 units, 1 code point), text counts code points, json and
 * sarif UTF-16 units, none of them bytes. */
static void test_the_place_is_counted_per_encoding_after_a_wide_character(void **state)
{
    (void)state;
    write_file("wide/a.source.json", "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": "
                                     "{\"path\": \"/\xF0\x9F\x98\x80\"}, \"name\": "
                                     "\"\xF0\x9F\x98\x80lake\"}\n");
    write_file("wide/b.json", "[" NAS("\xF0\x9F\x98\x80Lake", "/b") "]\n");
    struct run r = check_in("wide", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_line(&r, "a.source.json:1:72: note: the source that has the name first");
    run_free(&r);
    r = check_in("wide", (const char *[]){"--check", "--format", "json", ".", NULL});
    assert_has(&r, "\"path\":\"a.source.json\",\"range\":{\"start\":{\"line\":0,\"character\":72},"
                   "\"end\":{\"line\":0,\"character\":80}}");
    run_free(&r);
    r = check_in("wide", (const char *[]){"--check", "--format", "sarif", ".", NULL});
    assert_has(&r,
               "\"region\":{\"startLine\":1,\"startColumn\":73,\"endLine\":1,\"endColumn\":81}");
    run_free(&r);
}

/* Many files, names taken across them: the same bytes whatever --jobs. */
static void test_every_jobs_count_gives_the_same_report(void **state)
{
    (void)state;
    for (int i = 0; i < 24; i++) {
        char path[64], text[512];
        snprintf(path, sizeof path, "jobs/d%02d.json", i);
        snprintf(text, sizeof text,
                 "[" NAS("n%d", "/a") ",\n " NAS("N%d", "/b") ",\n " NAS("shared", "/c") "]\n",
                 i / 3, (i + 1) / 3);
        write_file(path, text);
    }
    const char *formats[] = {"text", "json", "sarif"};
    for (size_t f = 0; f < 3; f++) {
        struct run one = check_in(
            "jobs", (const char *[]){"--check", "--format", formats[f], "--jobs", "1", ".", NULL});
        struct run two = check_in(
            "jobs", (const char *[]){"--check", "--format", formats[f], "--jobs", "2", ".", NULL});
        assert_string_equal(one.out, two.out);
        assert_non_null(strstr(one.out, "duplicate-name"));
        run_free(&one);
        run_free(&two);
    }
    struct run r = check_in("jobs", (const char *[]){"--check", "--no-show-source", ".", NULL});
    /* "shared" in 23 later files; n0..n7 and N.. across neighbours */
    assert_has(&r, "d23.json:3:11: warning: the name \"shared\" is taken by a source of another "
                   "file (d00.json)");
    run_free(&r);
}

/* "rules", "ignore" and --select apply to it: "off" silences it, "error" raises it. */
static void test_settings_apply(void **state)
{
    (void)state;
    write_pair("off");
    write_file("off/srcls.json", "{\"rules\": {\"duplicate-name\": \"off\"}}\n");
    struct run r = check_in("off", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_exit(&r, 0);
    assert_lacks(&r, "duplicate-name");
    run_free(&r);
    write_pair("raised");
    write_file("raised/srcls.json", "{\"rules\": {\"duplicate-name\": \"error\"}}\n");
    r = check_in("raised", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_exit(&r, 1);
    assert_has(&r, "b.json:2:11: error: the name \"Lake\" is taken by a source of another file");
    run_free(&r);
    write_pair("ignored"); /* an "ignore" entry silences it, and is not reported as unused */
    write_file("ignored/srcls.json",
               "{\"ignore\": [{\"files\": \"b.json\", \"codes\": [\"duplicate-name\"], "
               "\"reason\": \"the copy is retired next week\"}]}\n");
    r = check_in("ignored", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_exit(&r, 0);
    assert_lacks(&r, "duplicate-name");
    assert_lacks(&r, "project-config");
    run_free(&r);
    write_pair("select");
    r = check_in("select", (const char *[]){"--check", "--select", "unknown-field", ".", NULL});
    assert_lacks(&r, "duplicate-name");
    run_free(&r);
}

/* A file with a syntax error contributes no name, and gets no finding across files. */
static void test_a_file_with_a_syntax_error_contributes_no_name(void **state)
{
    (void)state;
    write_file("syntax/a.source.json", NAS("lake", "/a") ",\n");
    write_file("syntax/b.source.json", NAS("Lake", "/b") "\n");
    write_file("syntax/c.source.json", "{\"name\": \"LAKE\", \"name\": 1}\n");
    struct run r = check_in("syntax", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_has(&r, "a.source.json:1:");
    assert_lacks(&r, "duplicate-name");
    run_free(&r);
}

/* The baseline records it, at its pointer in the later file. */
static void test_the_baseline_records_it(void **state)
{
    (void)state;
    write_pair("baseline");
    struct run r = check_in(
        "baseline", (const char *[]){"--check", "--write-baseline", "base.json", ".", NULL});
    run_free(&r);
    char *written = read_all("baseline/base.json");
    assert_non_null(written);
    assert_non_null(strstr(written, "duplicate-name"));
    free(written);
    r = check_in("baseline", (const char *[]){"--check", "--no-show-source", "--baseline",
                                              "base.json", ".", NULL});
    assert_line(&r, "checked 2 files: 0 errors, 0 warnings, 0 information, 0 hints");
    run_free(&r);
}

/* --base: the duplicate between a file changed since REF and one unchanged is found. */
static void test_base_finds_a_duplicate_of_an_unchanged_file(void **state)
{
    (void)state;
    if (system("git --version >/dev/null 2>&1") != 0)
        skip();
    write_file("base/a.source.json", NAS("lake", "/a") "\n");
    write_file("base/b.source.json", NAS("pond", "/b") "\n");
    write_file("base/c.source.json", NAS("river", "/c") "\n");
    assert_int_equal(scratch_git_base("base"), 0);
    write_file("base/b.source.json", NAS("Lake", "/b") "\n"); /* changed: after a, unchanged */
    write_file("base/a.source.json", NAS("lake", "/a") "\n"); /* unchanged */
    write_file("base/c.source.json", NAS("POND", "/c") "\n"); /* changed; b had it at REF */
    struct run r = check_in(
        "base", (const char *[]){"--check", "--no-show-source", "--base", "HEAD", ".", NULL});
    assert_line(&r, "b.source.json:1:10: warning: the name \"Lake\" is taken by a source of "
                    "another file (a.source.json): the catalog and SQL know a source by its "
                    "name [duplicate-name]");
    assert_line(&r, "a.source.json:1:10: note: the source that has the name first");
    assert_lacks(&r, "POND\" is taken"); /* b no longer holds "pond" */
    assert_has(&r, "b.source.json:1:10: warning: \"name\" changed since HEAD");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_names_the_other_file),
        cmocka_unit_test(test_json_and_sarif_give_the_other_place),
        cmocka_unit_test(test_the_place_is_counted_per_encoding_after_a_wide_character),
        cmocka_unit_test(test_every_jobs_count_gives_the_same_report),
        cmocka_unit_test(test_settings_apply),
        cmocka_unit_test(test_a_file_with_a_syntax_error_contributes_no_name),
        cmocka_unit_test(test_the_baseline_records_it),
        cmocka_unit_test(test_base_finds_a_duplicate_of_an_unchanged_file),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
