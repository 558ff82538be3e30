/* test_cli_reports: what `srcls` says about itself and about what it did, end to end with the
 * real binary ($SRCLS_BINARY) in a scratch directory: --explain of a misspelt code and of a
 * group, the warning when a named path holds nothing to check, and paths written the same way
 * in every format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

static int setup(void **state)
{
    (void)state;
    return scratch_create("cli-reports");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static void assert_contains(const char *text, const char *part)
{
    if (strstr(text, part) == NULL)
        fail_msg("expected \"%s\" in:\n%s", part, text);
}

/* A misspelt code or group: exit 2, the nearest named; far from everything: none named. */
static void test_explain_suggests_the_nearest_code(void **state)
{
    (void)state;
    static const struct {
        const char *asked, *meant;
    } cases[] = {{"unknwn-field", "unknown-field"},
                 {"insecure-transprot", "insecure-transport"},
                 {"securty", "security"},
                 {"json-sintax", "json-syntax"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run r = run_srcls(NULL, (const char *[]){"--explain", cases[i].asked, NULL});
        assert_exit(&r, 2);
        char expected[200];
        snprintf(expected, sizeof expected, "srcls: unknown code '%s'; did you mean '%s'?",
                 cases[i].asked, cases[i].meant);
        assert_contains(r.err, expected);
        assert_string_equal(r.out, "");
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--explain", "zzzzzzzzzz", NULL});
    assert_exit(&r, 2);
    assert_contains(r.err, "srcls: unknown code 'zzzzzzzzzz'; the codes are: json-syntax");
    assert_null(strstr(r.err, "did you mean"));
    run_free(&r);
}

/* --explain security: what the group is, and each of its codes, no other. */
static void test_explain_a_group_lists_its_codes(void **state)
{
    (void)state;
    struct run r = run_srcls(NULL, (const char *[]){"--explain", "security", NULL});
    assert_exit(&r, 0);
    assert_contains(r.out, "security (a group of codes:");
    static const char *const members[] = {"insecure-transport", "unverified-certificate",
                                          "anonymous-access", "unrestricted-scope",
                                          "inline-secret"};
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "  %s ", members[i]);
        assert_contains(r.out, line);
    }
    assert_null(strstr(r.out, "unknown-field"));
    assert_null(strstr(r.out, "json-syntax"));
    run_free(&r);
}

static const char *const formats[] = {"text", "json", "sarif", "github", "gitlab"};

/* A named directory with no document (empty, or only other JSON): in every format a warning on
 * stderr naming it, exit status 0; the text summary and the JSON summary count it. */
static void test_a_path_with_nothing_to_check_is_a_warning(void **state)
{
    (void)state;
    write_file("other/settings.json", "{\"a\": 1}\n");
    write_file("other/notes.txt", "not JSON\n");
    write_file("docs/a.source.json", "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"name\": \"s\", "
                                     "\"config\": {\"credentialType\": \"NONE\", "
                                     "\"whitelistedBuckets\": [\"b\"]}}\n");
    assert_int_equal(system("mkdir empty"), 0);
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        for (int jobs = 1; jobs <= 2; jobs++) {
            const char *n = jobs == 1 ? "1" : "2";
            struct run r =
                run_srcls(NULL, (const char *[]){"--check", "--format", formats[f], "--jobs", n,
                                                 "empty", "docs", "other", NULL});
            if (r.exit_status != 0)
                fail_msg("%s: exit %d\n%s", formats[f], r.exit_status, r.err);
            assert_string_equal(r.err, "srcls: warning: empty: nothing checked: no source or job "
                                       "document in it\n"
                                       "srcls: warning: other: nothing checked: no source or job "
                                       "document in it\n");
            if (strcmp(formats[f], "text") == 0)
                assert_contains(r.out, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 "
                                       "hints (2 paths named held nothing to check)\n");
            if (strcmp(formats[f], "json") == 0)
                assert_contains(r.out, "\"nothingChecked\": 2}");
            run_free(&r);
        }
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "docs", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.err, "");
    assert_null(strstr(r.out, "nothing"));
    run_free(&r);
}

/* A kind identifier in the wrong case: every format names the kind meant; --fix writes it. */
static void test_kind_in_the_wrong_case_names_the_kind_meant_and_fix_writes_it(void **state)
{
    (void)state;
    static const char doc[] = "{\"type\": \"clouda_object_storage\", \"name\": \"s\", \"config\": "
                              "{\"credentialType\": \"NONE\", \"whitelistedBuckets\": [\"b\"]}}\n";
    write_file("a.source.json", doc);
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        struct run r = run_srcls(
            NULL, (const char *[]){"--check", "--format", formats[f], "a.source.json", NULL});
        assert_exit(&r, 0);
        assert_contains(r.out, "the kind meant is ");
        assert_contains(r.out, "CLOUDA_OBJECT_STORAGE");
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--fix", "a.source.json", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.err, "srcls: applied 1 fix in 1 file\n");
    run_free(&r);
    char *fixed = read_all("a.source.json");
    assert_non_null(strstr(fixed, "\"type\": \"CLOUDA_OBJECT_STORAGE\""));
    free(fixed);
}

/* How each format writes the path of a file with findings: text's line start, json's and
 * gitlab's "path", github's file=, sarif's artifact URI. */
static void assert_path_in_every_format(const char *subdir, const char *named, const char *shown,
                                        const char *uri)
{
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        struct run_options options = {.subdir = subdir};
        struct run r = run_srcls_with(
            &options, (const char *[]){"--check", "--format", formats[f], named, NULL});
        assert_exit(&r, 1);
        char expected[512];
        const char *format = formats[f];
        if (strcmp(format, "text") == 0)
            snprintf(expected, sizeof expected, "%s:4:3: error:", shown);
        else if (strcmp(format, "json") == 0)
            snprintf(expected, sizeof expected, "\"path\":\"%s\"", shown);
        else if (strcmp(format, "gitlab") == 0)
            snprintf(expected, sizeof expected, "\"path\":\"%s\"", shown);
        else if (strcmp(format, "github") == 0)
            snprintf(expected, sizeof expected, "::error file=%s,line=4,", shown);
        else
            snprintf(expected, sizeof expected, "\"artifactLocation\":{\"uri\":\"%s\"", uri);
        if (strstr(r.out, expected) == NULL)
            fail_msg("%s, --check %s from %s: no %s in:\n%.2000s", format, named, subdir, expected,
                     r.out);
        assert_null(strstr(r.out, "./x/"));
        run_free(&r);
    }
}

/* One rule for paths in every format: below the current directory relative to it without
 * "./", however named (".", "./x", "x", absolute, "../proj/x"); outside it as named with its
 * "." and ".." steps applied (SARIF: a file:// URI, absolute). */
static void test_paths_are_written_the_same_way_in_every_format(void **state)
{
    (void)state;
    char *bad = example("bad-object-storage.source.json");
    write_file("proj/x/a.source.json", bad);
    free(bad);
    assert_int_equal(system("mkdir other"), 0);
    char absolute[4096], uri[4200];
    snprintf(absolute, sizeof absolute, "%s/proj/x", scratch_dir());
    static const char *const below[] = {".", "./x", "x", "x/", "../proj/x", "./x/../x/."};
    for (size_t i = 0; i < sizeof below / sizeof below[0]; i++)
        assert_path_in_every_format("proj", below[i], "x/a.source.json", "x/a.source.json");
    assert_path_in_every_format("proj", absolute, "x/a.source.json", "x/a.source.json");
    snprintf(uri, sizeof uri, "file://%s/proj/x/a.source.json", scratch_dir());
    assert_path_in_every_format("other", "../proj/x", "../proj/x/a.source.json", uri);
    assert_path_in_every_format("other", "./../proj/./x", "../proj/x/a.source.json", uri);
    snprintf(absolute, sizeof absolute, "%s/proj/x/a.source.json", scratch_dir());
    assert_path_in_every_format("other", absolute, absolute, uri);
}

/* A srcls.json with a mistake: the mistake is a project-config finding at its line in every
 * format, its path from the current directory; the srcls.json is not also listed "not
 * checked"; the exit status stays 2 (the files it governs are not checked). */
static void test_config_mistakes_are_findings_in_every_format(void **state)
{
    (void)state;
    write_file("proj/srcls.json", "{\"rules\": {\n  \"unknown-field\": \"fatal\"\n}}\n");
    write_file("proj/sub/a.source.json",
               "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"name\": \"n\", "
               "\"config\": {\"path\": \"/a\"}}\n");
    static const char *const expected[] = {
        "../srcls.json:2:3: error: the severity of \"unknown-field\" must be error, warning, "
        "information, hint or off [project-config]",
        "{\"path\":\"../srcls.json\",\"document\":\"unknown\",\"kind\":null,\"diagnostics\":[{"
        "\"code\":\"project-config\",\"severity\":\"error\"",
        "\"ruleId\":\"project-config\"",
        "::error file=../srcls.json,line=2,endLine=2,col=3,",
        "\"check_name\":\"project-config\"",
    };
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        struct run_options options = {.subdir = "proj/sub"};
        struct run r = run_srcls_with(
            &options, (const char *[]){"--check", "--format", formats[f], ".", NULL});
        assert_exit(&r, 2);
        if (strstr(r.out, expected[f]) == NULL)
            fail_msg("%s: no %s in:\n%s", formats[f], expected[f], r.out);
        assert_contains(r.out, "not checked: its srcls.json has mistakes");
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "proj", NULL});
    assert_exit(&r, 2);
    assert_contains(r.out, "proj/srcls.json:2:3: error: the severity of \"unknown-field\"");
    assert_contains(r.out, "proj/sub/a.source.json: error: not checked: its srcls.json has "
                           "mistakes\n");
    assert_null(strstr(r.out, "proj/srcls.json: error: not checked"));
    run_free(&r);
}

/* Under a srcls.json with a mistake, a file found in a directory is listed "not checked" only
 * when it is a document (or named like one): other JSON files were never going to be checked,
 * whatever the threads. A file named explicitly is always listed. */
static void test_config_mistakes_list_only_documents_not_checked(void **state)
{
    (void)state;
    write_file("proj/srcls.json", "{\"rules\": {\"unknown-field\": \"fatal\"}}\n");
    write_file("proj/package.json", "{\"name\": \"x\", \"version\": \"1.0.0\"}\n");
    write_file("proj/plain.json", "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {}}\n");
    write_file("proj/b.source.json", "{}\n");
    for (const char *jobs = "1"; jobs != NULL; jobs = jobs[0] == '1' ? "2" : NULL) {
        struct run r = run_srcls(NULL, (const char *[]){"--check", "--jobs", jobs, "proj", NULL});
        assert_exit(&r, 2);
        assert_contains(r.out, "proj/plain.json: error: not checked: its srcls.json has mistakes");
        assert_contains(r.out, "proj/b.source.json: error: not checked: its srcls.json has");
        assert_null(strstr(r.out, "package.json"));
        assert_contains(r.out, "(2 paths could not be read)");
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "proj/package.json", NULL});
    assert_contains(r.out, "proj/package.json: error: not checked: its srcls.json has mistakes");
    run_free(&r);
    /* --config FILE with a mistake: the same report, not only a line on stderr */
    write_file("team.json", "{\"rules\": {\"unknown-fieldd\": \"error\"}}\n");
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        r = run_srcls(NULL, (const char *[]){"--check", "--config", "team.json", "--format",
                                             formats[f], "proj", NULL});
        assert_exit(&r, 2);
        assert_contains(r.out, "team.json");
        assert_contains(r.out, "unknown code");
        assert_contains(r.out, "plain.json");
        assert_null(strstr(r.out, "package.json"));
        run_free(&r);
    }
}

/* GitLab tracks a finding across pipelines by its fingerprint (the path, the code, the pointer
 * and how many times that pair came before, hashed): the ones an earlier release wrote, these
 * bytes, must not change, or every finding shows as fixed and new again. */
static void test_gitlab_fingerprints_are_the_ones_already_tracked(void **state)
{
    (void)state;
    write_file(
        "src/single.source.json",
        "{\"name\": \"single\", \"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\n"
        "  \"hostname\": \"search.example.com\", \"port\": \"443\",\n"
        "  \"encryptionValidationMode\": \"BOGUS\", \"colour\": 1,\n"
        "  \"authenticationType\": \"ACCESS_KEY\", \"accessKey\": \"AKEXAMPLE7Q2RW4ZT9LM\",\n"
        "  \"accessSecret\": \"hunter2\"}}\n");
    struct run r = run_srcls(
        NULL, (const char *[]){"--check", "--format", "gitlab", "src/single.source.json", NULL});
    assert_exit(&r, 1);
    assert_contains(r.out, "\"check_name\":\"invalid-enum\",\"fingerprint\":\"aba858e7a194ebef\"");
    assert_contains(r.out, "\"check_name\":\"unknown-field\",\"fingerprint\":\"c3635a34a3c28568\"");
    assert_contains(r.out,
                    "\"check_name\":\"secret-not-encoded\",\"fingerprint\":\"1311b6a30264e072\"");
    run_free(&r);
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_explain_suggests_the_nearest_code),
        TEST(test_config_mistakes_list_only_documents_not_checked),
        TEST(test_explain_a_group_lists_its_codes),
        TEST(test_a_path_with_nothing_to_check_is_a_warning),
        TEST(test_kind_in_the_wrong_case_names_the_kind_meant_and_fix_writes_it),
        TEST(test_paths_are_written_the_same_way_in_every_format),
        TEST(test_config_mistakes_are_findings_in_every_format),
        TEST(test_gitlab_fingerprints_are_the_ones_already_tracked),
    };
#undef TEST
    return harness_status(cmocka_run_group_tests(tests, NULL, NULL));
}
