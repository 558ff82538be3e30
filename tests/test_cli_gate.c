/* test_cli_gate: under `srcls --check --base REF`, the gate's own files are reviewed, on git
 * repositories the test builds: each change of srcls.json that weakens the gate is exactly one
 * risky-change at the member that changed (a strengthening none; a srcls.json new since REF is
 * compared with the one that governed its directory then, else the defaults, one deleted since
 * with what governs its directory now, a moved one is both); a baseline file that gained
 * entries says how many; the security group is applied at the stricter of REF's settings (the
 * srcls.json's that governed the file at REF) and the working tree's (a change that turns the
 * gate and TLS off at once still fails, deleting, moving or shadowing srcls.json included), and
 * an "ignore" entry new since REF silences no security finding; risky-change follows "rules",
 * on a deleted document too; a srcls.json is one entry of the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

#define SOURCE(secure)                                                                             \
    "{\"name\": \"s\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": " secure      \
    ", \"whitelistedBuckets\": [\"b\"], \"accessKey\": \"k\", \"accessSecret\": "                  \
    "\"$SERVICE_EXISTING_VALUE$\"}}\n"
/* A source whose accessKey is a cloud access key id in plain text (plaintext-credential). */
#define SOURCE_WITH_KEY                                                                            \
    "{\"name\": \"s\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": true, "       \
    "\"whitelistedBuckets\": [\"b\"], \"accessKey\": \"AKIAIOSFODNN7EXAMPLE\", \"accessSecret\": " \
    "\"$SERVICE_EXISTING_VALUE$\"}}\n"
#define EMPTY_BASELINE "{\"version\": 1, \"findings\": []}\n"
#define ENTRY(pointer)                                                                             \
    "{\"file\": \"a.source.json\", \"code\": \"unknown-field\", \"pointer\": \"" pointer           \
    "\", \"hash\": \"0000000000000000\"}"

static bool have_git;

static int setup(void **state)
{
    (void)state;
    have_git = system("git --version >/dev/null 2>&1") == 0;
    return scratch_create("gate");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static void skip_without_git(void)
{
    if (!have_git)
        skip(); /* no git here: nothing to review against */
}

/* Writes `text` to `dir`/`name` (NULL: removes it). */
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (text != NULL) {
        write_file(path, text);
    } else {
        char whole[1024];
        snprintf(whole, sizeof whole, "%s/%s", scratch_dir(), path);
        remove(whole);
    }
}

/* A repository `dir` whose commit REF holds a.source.json (secure) and `config` as srcls.json
 * (NULL: none), then a commit that makes srcls.json `now` (NULL: deleted) and a.source.json
 * `source_now`. */
static void repo(const char *dir, const char *config, const char *now, const char *source_now)
{
    put(dir, "a.source.json", SOURCE("true"));
    put(dir, "bl.json", EMPTY_BASELINE);
    put(dir, "srcls.json", config);
    assert_int_equal(scratch_git_base(dir), 0);
    put(dir, "srcls.json", now);
    put(dir, "a.source.json", source_now);
    assert_int_equal(scratch_git(dir, "add -A"), 0);
    assert_int_equal(scratch_git(dir, "commit -q --allow-empty -m change"), 0);
}

static struct run review(const char *dir, const char *format, const char *extra)
{
    struct run_options options = {.subdir = dir};
    const char *args[] = {"--check",
                          "--no-show-source",
                          "--format",
                          format,
                          "--base",
                          "HEAD~1",
                          extra != NULL ? extra : ".",
                          extra != NULL ? "." : NULL,
                          NULL};
    return run_srcls_with(&options, args);
}

/* The number of lines of `out` that start with `prefix` and end with `suffix`. */
static unsigned count_lines(const char *out, const char *prefix, const char *suffix)
{
    unsigned n = 0;
    for (const char *line = out; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        size_t p = strlen(prefix), s = strlen(suffix);
        if (len >= p + s && strncmp(line, prefix, p) == 0 &&
            strncmp(line + len - s, suffix, s) == 0)
            n++;
        line += len + (end != NULL);
    }
    return n;
}

/* The number of times `needle` occurs in `haystack`. */
struct weakening {
    const char *before, *after; /* srcls.json at REF (NULL: none) and now (NULL: deleted) */
    const char *expected;       /* the start of the one risky-change line */
};

/* Each kind of weakening: exactly one risky-change, at the member that changed. */
static void test_each_weakening_is_one_risky_change_at_its_member(void **state)
{
    (void)state;
    skip_without_git();
    static const struct weakening cases[] = {
        {"{\n  \"rules\": {\"unknown-field\": \"error\"}\n}\n",
         "{\n  \"rules\": {\"unknown-field\": \"hint\"}\n}\n",
         "srcls.json:2:13: warning: \"rules\" weakened since HEAD~1: unknown-field from error to "
         "hint: "},
        {"{}\n", "{\n  \"rules\": {\"security\": \"off\"}\n}\n",
         "srcls.json:2:13: warning: \"rules\" weakened since HEAD~1: "},
        {"{\n  \"rules\": {\"unknown-field\": \"error\"}\n}\n", "{\n  \"rules\": {}\n}\n",
         "srcls.json:2:3: warning: \"rules\" weakened since HEAD~1: unknown-field from error to "
         "warning"},
        {"{}\n", "{\n  \"ignore\": [{\"codes\": [\"unknown-field\"], \"reason\": \"r\"}]\n}\n",
         "srcls.json:2:14: warning: \"ignore\" entry added or widened since HEAD~1"},
        {"{\n  \"ignore\": [{\"files\": \"a.source.json\", \"codes\": [\"unknown-field\"], "
         "\"reason\": \"r\"}]\n}\n",
         "{\n  \"ignore\": [{\"files\": \"*.json\", \"codes\": [\"unknown-field\"], "
         "\"reason\": \"r\"}]\n}\n",
         "srcls.json:2:14: warning: \"ignore\" entry added or widened since HEAD~1"},
        {"{\n  \"exclude\": [\"x/**\"]\n}\n", "{\n  \"exclude\": [\"x/**\", \"y/**\"]\n}\n",
         "srcls.json:2:23: warning: \"exclude\" widened since HEAD~1: \"y/**\""},
        {"{\n  \"include\": [\"a/*.txt\", \"b/*.txt\"]\n}\n",
         "{\n  \"include\": [\"a/*.txt\"]\n}\n",
         "srcls.json:2:3: warning: \"include\" narrowed since HEAD~1: \"b/*.txt\""},
        {"{\n  \"types\": {\"A\": \"CLOUDA_OBJECT_STORAGE\"}\n}\n",
         "{\n  \"types\": {\"B\": \"CLOUDA_OBJECT_STORAGE\"}\n}\n",
         "srcls.json:2:3: warning: \"types\" changed since HEAD~1"},
        {"{\n  \"schemas\": [\"k1\"]\n}\n", "{\n  \"schemas\": [\"k2\"]\n}\n",
         "srcls.json:2:3: warning: \"schemas\" changed since HEAD~1"},
        {"{\n  \"baseline\": \"bl.json\"\n}\n", "{}\n",
         "srcls.json:1:1: warning: \"baseline\" removed since HEAD~1 (it was \"bl.json\")"},
        {"{\n  \"baseline\": \"bl.json\"\n}\n", "{\n  \"baseline\": \"bl2.json\"\n}\n",
         "srcls.json:2:3: warning: \"baseline\" points elsewhere since HEAD~1: \"bl2.json\" "
         "instead of \"bl.json\""},
        /* new since REF: compared with the defaults (its "types" weakens nothing) */
        {NULL,
         "{\n  \"types\": {\"A\": \"CLOUDA_OBJECT_STORAGE\"},\n  \"rules\": {\"security\": "
         "\"off\"}\n}\n",
         "srcls.json:3:13: warning: \"rules\" weakened since HEAD~1: "},
        /* deleted since REF: what it raised is lowered (the defaults govern the top now), on
         * the file without a place */
        {"{\n  \"rules\": {\"unknown-field\": \"error\"}\n}\n", NULL,
         "srcls.json: warning: \"rules\" weakened since HEAD~1: unknown-field from error to "
         "warning"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[32];
        snprintf(dir, sizeof dir, "weak%zu", i);
        repo(dir, cases[i].before, cases[i].after, SOURCE("true"));
        put(dir, "bl2.json", EMPTY_BASELINE);
        put(dir, "k1/README.txt", "kind files\n"); /* the "schemas" directories */
        put(dir, "k2/README.txt", "kind files\n");
        struct run r = review(dir, "text", NULL);
        if (count_lines(r.out, "srcls.json", "[risky-change]") != 1 ||
            count_lines(r.out, cases[i].expected, "[risky-change]") != 1)
            fail_msg("case %zu: expected one risky-change \"%s...\", got:\n%s%s", i,
                     cases[i].expected, r.out, r.err);
        run_free(&r);
    }
}

/* A change that makes the gate stricter is no risky-change. */
static void test_a_strengthening_is_none(void **state)
{
    (void)state;
    skip_without_git();
    repo("strong",
         "{\n  \"rules\": {\"unknown-field\": \"warning\"},\n  \"exclude\": [\"x/**\", "
         "\"y/**\"],\n  \"ignore\": [{\"files\": \"a.source.json\", \"codes\": "
         "[\"unknown-field\"], \"reason\": \"r\"}]\n}\n",
         "{\n  \"rules\": {\"unknown-field\": \"error\", \"security\": \"error\"},\n  "
         "\"exclude\": [\"x/**\"],\n  \"include\": [\"c/*.txt\"]\n}\n",
         SOURCE("true"));
    struct run r = review("strong", "text", NULL);
    assert_null(strstr(r.out, "[risky-change]"));
    assert_exit(&r, 0);
    run_free(&r);
}

/* The place is the member's in every format (JSON: its range; SARIF: its region). */
static void test_placed_in_json_and_sarif(void **state)
{
    (void)state;
    skip_without_git();
    repo("formats", "{\n  \"rules\": {\"unknown-field\": \"error\"}\n}\n",
         "{\n  \"rules\": {\"unknown-field\": \"hint\"}\n}\n", SOURCE("true"));
    struct run r = review("formats", "json", NULL);
    assert_non_null(strstr(r.out, "\"code\":\"risky-change\",\"severity\":\"warning\","
                                  "\"message\":\"\\\"rules\\\" weakened since HEAD~1: "
                                  "unknown-field from error to hint: the gate reports less\","
                                  "\"pointer\":\"/rules/unknown-field\""));
    assert_non_null(strstr(r.out, "\"range\":{\"start\":{\"line\":1,\"character\":12}"));
    run_free(&r);
    r = review("formats", "sarif", NULL);
    assert_non_null(strstr(r.out, "\"startLine\":2,\"startColumn\":13"));
    run_free(&r);
}

/* "security": "off" and TLS off in one commit: insecure-transport at REF's severity (error, the
 * run fails), and an "ignore" entry added in the same commit does not silence it. */
static void test_turning_the_gate_and_tls_off_at_once_still_fails(void **state)
{
    (void)state;
    skip_without_git();
    repo("tls", "{\n  \"rules\": {\"insecure-transport\": \"error\"}\n}\n",
         "{\n  \"rules\": {\"security\": \"off\"},\n  \"ignore\": [{\"pointer\": \"/config\", "
         "\"reason\": \"r\"}]\n}\n",
         SOURCE("false"));
    struct run r = review("tls", "text", NULL);
    assert_exit(&r, 1);
    assert_int_equal(
        count_lines(r.out, "a.source.json:1:69: error: `secure` is false", "[insecure-transport]"),
        1);
    /* risky-change is in the security group: at REF's severity too */
    assert_int_equal(count_lines(r.out,
                                 "a.source.json:1:69: warning: insecure-transport since "
                                 "HEAD~1",
                                 "[risky-change]"),
                     1);
    assert_int_equal(count_lines(r.out,
                                 "srcls.json:2:13: warning: \"rules\" weakened since "
                                 "HEAD~1: insecure-transport from error to off",
                                 "[risky-change]"),
                     1);
    run_free(&r);
}

/* "off" at REF and now silences risky-change: on a changed document, on srcls.json, on a
 * deleted document; the group does it too. */
static void test_off_silences_risky_change_deleted_document_included(void **state)
{
    (void)state;
    skip_without_git();
    static const char *const off[] = {"risky-change", "security"};
    for (int i = 0; i < 2; i++) {
        char dir[32], before[256], after[256];
        snprintf(dir, sizeof dir, "off%d", i);
        snprintf(before, sizeof before, "{\n  \"rules\": {\"%s\": \"off\"}\n}\n", off[i]);
        snprintf(after, sizeof after,
                 "{\n  \"rules\": {\"%s\": \"off\", \"unknown-field\": \"hint\"}\n}\n", off[i]);
        put(dir, "gone.source.json", SOURCE("true"));
        repo(dir, before, after, SOURCE("false"));
        assert_int_equal(scratch_git(dir, "rm -q gone.source.json"), 0); /* since HEAD~1 too */
        struct run r = review(dir, "text", NULL);
        assert_null(strstr(r.out, "[risky-change]"));
        assert_null(strstr(r.out, "gone.source.json"));
        run_free(&r);
    }
}

/* A deleted document's risky-change without "off": reported (the control of the test above,
 * with the same repository shape). */
static void test_deleted_document_reported_without_off(void **state)
{
    (void)state;
    skip_without_git();
    put("deleted", "gone.source.json", SOURCE("true"));
    repo("deleted", "{}\n", "{}\n", SOURCE("true"));
    assert_int_equal(scratch_git("deleted", "rm -q gone.source.json"), 0);
    struct run r = review("deleted", "text", NULL);
    assert_int_equal(
        count_lines(r.out, "gone.source.json: warning: the file was deleted", "[risky-change]"), 1);
    run_free(&r);
}

/* --shard I/N under --base: a weakened srcls.json and a deleted document are each reported by
 * one shard of N, not by every one (CI's shards' reports are merged). */
static void test_each_shard_reports_the_gate_files_it_owns(void **state)
{
    (void)state;
    skip_without_git();
    put("sharded", "gone.source.json", SOURCE("true"));
    repo("sharded", "{}\n", "{\n  \"rules\": {\"unknown-field\": \"hint\"}\n}\n", SOURCE("true"));
    assert_int_equal(scratch_git("sharded", "rm -q gone.source.json"), 0);
    for (unsigned n = 1; n <= 3; n++) {
        unsigned weakened = 0, deleted = 0;
        for (unsigned i = 1; i <= n; i++) {
            char shard[32];
            snprintf(shard, sizeof shard, "--shard=%u/%u", i, n);
            struct run r = review("sharded", "text", shard);
            weakened += count_lines(r.out, "srcls.json:2:", "[risky-change]");
            deleted += count_lines(r.out, "gone.source.json: warning: the file was deleted",
                                   "[risky-change]");
            run_free(&r);
        }
        assert_int_equal(weakened, 1);
        assert_int_equal(deleted, 1);
    }
}

/* A baseline file that gained 3 entries since REF says 3 (its srcls.json's "baseline", and
 * --baseline FILE); one that lost entries says nothing. */
static void test_baseline_gaining_entries_says_how_many(void **state)
{
    (void)state;
    skip_without_git();
    const char *config = "{\"baseline\": \"bl.json\"}\n";
    repo("grown", config, config, SOURCE("true"));
    put("grown", "bl.json",
        "{\"version\": 1, \"findings\": [" ENTRY("/a") ", " ENTRY("/b") ", " ENTRY("/c") "]}\n");
    assert_int_equal(scratch_git("grown", "commit -q -a -m grown"), 0);
    struct run r = review("grown", "text", NULL);
    assert_int_equal(count_lines(r.out,
                                 "bl.json:1:1: warning: 3 entries added to the baseline since "
                                 "HEAD~1: findings hidden, not fixed (a.source.json: 3 "
                                 "unknown-field)",
                                 "[risky-change]"),
                     1);
    run_free(&r);
    /* --baseline FILE, with no srcls.json naming it */
    repo("flag", NULL, NULL, SOURCE("true"));
    put("flag", "bl.json", "{\"version\": 1, \"findings\": [" ENTRY("/a") ", " ENTRY("/b") "]}\n");
    assert_int_equal(scratch_git("flag", "commit -q -a -m grown"), 0);
    r = review("flag", "text", "--baseline=bl.json");
    assert_int_equal(count_lines(r.out, "bl.json:1:1: warning: 2 entries added to the baseline",
                                 "[risky-change]"),
                     1);
    run_free(&r);
    /* entries removed since HEAD~1 (which has 3): findings fixed */
    put("grown", "bl.json", "{\"version\": 1, \"findings\": [" ENTRY("/a") "]}\n");
    assert_int_equal(scratch_git("grown", "commit -q -a -m fixed"), 0);
    r = review("grown", "text", NULL);
    assert_null(strstr(r.out, "[risky-change]"));
    run_free(&r);
}

/* srcls.json deleted since REF, where it raised plaintext-credential to error, and a plaintext
 * credential added in the same change: the file it governed keeps REF's security settings (an
 * error, exit 1), and the deletion is a risky-change on srcls.json, with no place in it. */
static void test_deleted_config_keeps_its_security_settings(void **state)
{
    (void)state;
    skip_without_git();
    repo("gone", "{\n  \"rules\": {\"plaintext-credential\": \"error\"}\n}\n", NULL,
         SOURCE_WITH_KEY);
    struct run r = review("gone", "text", NULL);
    assert_exit(&r, 1);
    assert_int_equal(count_lines(r.out, "a.source.json:1:117: error: \"accessKey\" holds a cloud",
                                 "[plaintext-credential]"),
                     1);
    assert_int_equal(count_lines(r.out,
                                 "srcls.json: warning: \"rules\" weakened since HEAD~1: "
                                 "plaintext-credential from error to warning",
                                 "[risky-change]"),
                     1);
    run_free(&r);
}

/* srcls.json moved to another directory (git mv, a rename git sees): where it was, it is a
 * deleted srcls.json (compared with what governs the top now, the defaults: reported, and the
 * files it governed there keep its security settings); where it is now, a new one (compared
 * with what governed team/ at REF: itself at the top, unchanged, so nothing). */
static void test_moved_config_is_gone_from_where_it_was(void **state)
{
    (void)state;
    skip_without_git();
    const char *config = "{\n  \"rules\": {\"plaintext-credential\": \"error\"}\n}\n";
    repo("moved", config, config, SOURCE_WITH_KEY);
    put("moved", "team/README.txt", "the team's sources\n");
    assert_int_equal(scratch_git("moved", "add -A"), 0);
    assert_int_equal(scratch_git("moved", "mv srcls.json team/srcls.json"), 0);
    struct run r = review("moved", "text", NULL);
    assert_exit(&r, 1);
    assert_int_equal(count_lines(r.out, "a.source.json:1:117: error: \"accessKey\" holds a cloud",
                                 "[plaintext-credential]"),
                     1);
    assert_int_equal(count_lines(r.out,
                                 "srcls.json: warning: \"rules\" weakened since HEAD~1: "
                                 "plaintext-credential from error to warning",
                                 "[risky-change]"),
                     1);
    assert_null(strstr(r.out, "team/srcls.json"));
    run_free(&r);
}

/* srcls.json named on the command line is checked as a file (unknown-document: not a source
 * or job) and reviewed as the gate's: one entry of the report with both. */
static void test_config_named_is_one_entry(void **state)
{
    (void)state;
    skip_without_git();
    repo("named", "{}\n", "{\n  \"rules\": {\"unknown-field\": \"hint\"}\n}\n", SOURCE("true"));
    struct run_options options = {.subdir = "named"};
    const char *args[] = {"--check", "--format",   "json",          "--base",
                          "HEAD~1",  "srcls.json", "a.source.json", NULL};
    struct run r = run_srcls_with(&options, args);
    assert_int_equal(occurrences(r.out, "\"path\":\"srcls.json\""), 1);
    assert_non_null(strstr(r.out, "\"code\":\"unknown-document\""));
    assert_non_null(strstr(r.out, "\"rules\\\" weakened since HEAD~1: unknown-field"));
    assert_non_null(strstr(r.out, "\"summary\": {\"files\": 2,"));
    run_free(&r);
}

/* A srcls.json added in a subdirectory since REF, switching the gate off there, and TLS turned
 * off below it in the same change: compared with the srcls.json that governed the directory at
 * REF (the top one, where insecure-transport was an error), not with the defaults; the source
 * keeps that severity (exit 1). */
static void test_new_nested_config_is_compared_with_the_one_it_shadows(void **state)
{
    (void)state;
    skip_without_git();
    put("nested", "srcls.json", "{\n  \"rules\": {\"insecure-transport\": \"error\"}\n}\n");
    put("nested", "sub/a.source.json", SOURCE("true"));
    assert_int_equal(scratch_git_base("nested"), 0);
    put("nested", "sub/srcls.json", "{\n  \"rules\": {\"security\": \"off\"}\n}\n");
    put("nested", "sub/a.source.json", SOURCE("false"));
    assert_int_equal(scratch_git("nested", "add -A"), 0);
    assert_int_equal(scratch_git("nested", "commit -q -m change"), 0);
    struct run r = review("nested", "text", NULL);
    assert_exit(&r, 1);
    assert_int_equal(count_lines(r.out, "sub/a.source.json:1:69: error: `secure` is false",
                                 "[insecure-transport]"),
                     1);
    assert_int_equal(count_lines(r.out,
                                 "sub/srcls.json:2:13: warning: \"rules\" weakened since HEAD~1: "
                                 "insecure-transport from error to off",
                                 "[risky-change]"),
                     1);
    run_free(&r);
}

/* sub/srcls.json moved up to the top unchanged: the files of sub/ are governed by the same
 * settings, so neither its old place (compared with what governs that directory now) nor its
 * new one (compared with what governed the top at REF: nothing, the defaults, which it raises)
 * weakens anything. */
static void test_config_moved_up_unchanged_weakens_nothing(void **state)
{
    (void)state;
    skip_without_git();
    put("up", "sub/srcls.json", "{\n  \"rules\": {\"plaintext-credential\": \"error\"}\n}\n");
    put("up", "sub/a.source.json", SOURCE_WITH_KEY);
    assert_int_equal(scratch_git_base("up"), 0);
    assert_int_equal(scratch_git("up", "mv sub/srcls.json srcls.json"), 0);
    assert_int_equal(scratch_git("up", "commit -q -m moved"), 0);
    struct run r = review("up", "text", NULL);
    assert_null(strstr(r.out, "[risky-change]"));
    assert_int_equal(
        count_lines(r.out, "sub/a.source.json:1:117: error: ", "[plaintext-credential]"), 1);
    run_free(&r);
}

/* A srcls.json reviewed (a weakening) that also has an unused "ignore" entry is one file of the
 * report in every format, its findings merged and sorted by place. */
static void test_config_with_two_kinds_of_findings_is_one_entry(void **state)
{
    (void)state;
    skip_without_git();
    repo("twice", "{}\n",
         "{\n  \"rules\": {\"unknown-field\": \"hint\"},\n  \"ignore\": [{\"files\": "
         "\"none.json\", \"codes\": [\"unknown-field\"], \"reason\": \"r\"}]\n}\n",
         SOURCE("true"));
    struct run r = review("twice", "text", NULL);
    assert_int_equal(count_lines(r.out, "srcls.json:", "[risky-change]"), 2);
    assert_int_equal(
        count_lines(r.out, "srcls.json:3:14: warning: this \"ignore\" entry", "[project-config]"),
        1);
    assert_int_equal(count_lines(r.out, "checked 2 files: ", "hints"), 1);
    run_free(&r);
    r = review("twice", "json", NULL);
    assert_int_equal(occurrences(r.out, "\"path\":\"srcls.json\""), 1);
    assert_non_null(strstr(r.out, "\"summary\": {\"files\": 2,"));
    run_free(&r);
    r = review("twice", "sarif", NULL);
    /* sorted by place: line 2's risky-change, then line 3's two (project-config first) */
    const char *rules = strstr(r.out, "\"results\":[{\"ruleId\":\"risky-change\"");
    const char *unused = rules != NULL ? strstr(rules, "\"ruleId\":\"project-config\"") : NULL;
    assert_non_null(unused);
    assert_non_null(strstr(unused, "\"ignore\\\" entry added or widened"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_weakening_is_one_risky_change_at_its_member),
        cmocka_unit_test(test_a_strengthening_is_none),
        cmocka_unit_test(test_placed_in_json_and_sarif),
        cmocka_unit_test(test_turning_the_gate_and_tls_off_at_once_still_fails),
        cmocka_unit_test(test_off_silences_risky_change_deleted_document_included),
        cmocka_unit_test(test_deleted_document_reported_without_off),
        cmocka_unit_test(test_each_shard_reports_the_gate_files_it_owns),
        cmocka_unit_test(test_baseline_gaining_entries_says_how_many),
        cmocka_unit_test(test_deleted_config_keeps_its_security_settings),
        cmocka_unit_test(test_moved_config_is_gone_from_where_it_was),
        cmocka_unit_test(test_config_with_two_kinds_of_findings_is_one_entry),
        cmocka_unit_test(test_new_nested_config_is_compared_with_the_one_it_shadows),
        cmocka_unit_test(test_config_moved_up_unchanged_weakens_nothing),
        cmocka_unit_test(test_config_named_is_one_entry),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
