/* test_cli_review: `srcls --check --base REF` on real git repositories the test builds: a
 * posture finding new since REF, "name" and "type" changed, a source removed from a bulk file
 * (a bulk source known by its name, not its index), unchanged files reporting nothing new, in
 * every output format, secrets old and new never printed; a bad REF, a directory outside any
 * work tree and a shallow clone without REF exit 2 with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_harness.h"

#define SOURCE(name, type, secure, secret)                                                         \
    "{\"name\": \"" name "\", \"type\": \"" type "\", \"config\": {\"secure\": " secure            \
    ", \"whitelistedBuckets\": [\"b\"], \"accessKey\": \"k\", \"accessSecret\": \"" secret "\"}}"
#define STORAGE "CLOUDA_OBJECT_STORAGE"
#define KEEP "$SERVICE_EXISTING_VALUE$"

static int setup(void **state)
{
    (void)state;
    if (scratch_create("review") != 0)
        return -1;
    if (system("git --version >/dev/null 2>&1") != 0)
        return 0; /* each test skips */
    write_file("repo/a.source.json", SOURCE("s1", STORAGE, "true", KEEP) "\n");
    write_file("repo/bulk.json", "[" SOURCE("one", STORAGE, "true", KEEP) ",\n " SOURCE(
                                     "two", STORAGE, "false", KEEP) "]\n");
    write_file("repo/same.source.json", SOURCE("same", STORAGE, "false", KEEP) "\n");
    write_file("repo/kept.source.json", SOURCE("kept", STORAGE, "true", "data:,0ldS3cret") "\n");
    write_file("repo/gone.source.json", SOURCE("gone", STORAGE, "true", "data:,g0neS3cret") "\n");
    write_file("repo/package.json", "{\"private\": true}\n"); /* no document: not reported */
    if (scratch_git_base("repo") != 0)
        return -1;
    /* the change under review, committed so that a clone has it */
    write_file("repo/a.source.json", SOURCE("s2", STORAGE, "false", "data:,n0wInl1ne") "\n");
    write_file("repo/bulk.json", "[" SOURCE("two", STORAGE, "false", KEEP) "]\n");
    write_file("repo/kept.source.json", SOURCE("kept", STORAGE, "true", "data:,n3wS3cret") "\n");
    if (scratch_git("repo", "rm -q gone.source.json package.json") != 0)
        return -1;
    return scratch_git("repo", "commit -q -a -m change") == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static struct run review(const char *dir, const char *format, const char *ref)
{
    struct run_options options = {.subdir = dir};
    return run_srcls_with(&options, (const char *[]){"--check", "--no-show-source", "--format",
                                                     format, "--base", ref, ".", NULL});
}

static void skip_without_git(void)
{
    if (system("git --version >/dev/null 2>&1") != 0)
        skip(); /* no git here: nothing to review against */
}

static void assert_no_secret(const struct run *r)
{
    static const char *const secrets[] = {"n0wInl1ne", "0ldS3cret", "n3wS3cret", "g0neS3cret"};
    for (size_t i = 0; i < 4; i++) {
        assert_null(strstr(r->out, secrets[i]));
        assert_null(strstr(r->err, secrets[i]));
    }
}

/* Each change a reviewer must see, on the new text, and nothing on what did not change. */
static void test_text_reports_each_risky_change(void **state)
{
    (void)state;
    skip_without_git();
    struct run r = review("repo", "text", "HEAD~1");
    assert_exit(&r, 0); /* warnings: a build that fails on errors still passes */
    assert_non_null(strstr(r.out, "a.source.json:1:10: warning: \"name\" changed since HEAD~1 "
                                  "from \"s1\" to \"s2\""));
    assert_non_null(strstr(r.out, "a.source.json:1:70: warning: insecure-transport since "
                                  "HEAD~1: `secure` is false"));
    assert_non_null(strstr(r.out, "warning: inline-secret since HEAD~1: the secret "
                                  "\"accessSecret\" is written inline"));
    assert_non_null(strstr(r.out, "bulk.json:1:1: warning: the source \"one\" was removed "
                                  "since HEAD~1"));
    /* "two" moved from index 1 to 0 but was already insecure: nothing new on it */
    assert_null(strstr(r.out, "bulk.json:1:72: warning"));
    assert_non_null(strstr(r.out, "bulk.json:1:72: information: `secure` is false"));
    /* unchanged, or inline at REF already: no risky-change */
    assert_null(strstr(r.out, "same.source.json:1:54: warning"));
    assert_null(strstr(r.out, "kept.source.json:1:140: warning"));
    /* a deleted document: an entry with the path and no place; a deleted non-document: none */
    assert_non_null(strstr(r.out, "\ngone.source.json: warning: the file was deleted since "
                                  "HEAD~1, and with it the source \"gone\" [risky-change]\n"));
    assert_null(strstr(r.out, "package.json"));
    assert_non_null(strstr(r.out, "\nchecked 5 files: 0 errors, 5 warnings, "));
    assert_no_secret(&r);
    run_free(&r);

    /* at HEAD nothing changed: no risky-change at all */
    r = review("repo", "text", "HEAD");
    assert_exit(&r, 0);
    assert_null(strstr(r.out, "risky-change"));
    run_free(&r);

    struct run_options options = {.subdir = "repo"};
    r = run_srcls_with(&options, (const char *[]){"--check", "--fail-on", "warning", "--base",
                                                  "HEAD~1", "a.source.json", NULL});
    assert_exit(&r, 1);
    run_free(&r);
}

/* "type" changed: a different kind of source. */
static void test_type_changed(void **state)
{
    (void)state;
    skip_without_git();
    write_file("typed/t.source.json", SOURCE("t", STORAGE, "true", KEEP) "\n");
    assert_int_equal(scratch_git_base("typed"), 0);
    write_file("typed/t.source.json",
               "{\"name\": \"t\", \"type\": \"SEARCH_INDEX\", \"config\": {}}\n");
    struct run r = review("typed", "text", "HEAD");
    assert_non_null(strstr(r.out, "t.source.json:1:23: warning: \"type\" changed since HEAD "
                                  "from \"" STORAGE "\" to \"SEARCH_INDEX\": a different kind of "
                                  "source [risky-change]"));
    run_free(&r);
}

/* A field the schema data marks "removalWidens" (kind 3's whitelistedBuckets, and a team kind's
 * own field, read from its kind file without recompiling): present at REF, absent now, one
 * risky-change with the data's reason (not a second one for the posture finding it causes). */
static void test_removal_widens(void **state)
{
    (void)state;
    skip_without_git();
    write_file("widen/w.source.json", SOURCE("w", STORAGE, "true", KEEP) "\n");
    write_file("widen/srcls.json", "{\"schemas\": [\"kinds\"]}\n");
    write_file("widen/kinds/queue.json",
               "{\"title\": \"Queue\", \"types\": [\"TEAM_QUEUE\"], \"description\": \"A "
               "queue.\", \"fields\": {\"topics\": {\"type\": \"array\", \"description\": "
               "\"Topics read.\", \"items\": {\"type\": \"string\", \"description\": \"A "
               "topic.\"}, \"removalWidens\": \"without topics the queue reads every topic\"}, "
               "\"group\": {\"type\": \"string\", \"description\": \"Consumer group.\"}}}\n");
    write_file("widen/q.source.json", "{\"name\": \"q\", \"type\": \"TEAM_QUEUE\", \"config\": "
                                      "{\"topics\": [\"t\"], \"group\": \"g\"}}\n");
    assert_int_equal(scratch_git_base("widen"), 0);
    write_file("widen/w.source.json",
               "{\"name\": \"w\", \"type\": \"" STORAGE "\", \"config\": {\"secure\": true, "
               "\"accessKey\": \"k\", \"accessSecret\": \"" KEEP "\"}}\n");
    write_file("widen/q.source.json",
               "{\"name\": \"q\", \"type\": \"TEAM_QUEUE\", \"config\": {\"group\": \"g\"}}\n");
    struct run r = review("widen", "text", "HEAD");
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "w.source.json:1:48: warning: \"whitelistedBuckets\" removed "
                                  "since HEAD: an update (PUT) without `whitelistedBuckets` "
                                  "updates the source to include all buckets"));
    assert_non_null(strstr(r.out, "w.source.json:1:48: information: no `whitelistedBuckets`"));
    assert_non_null(strstr(r.out, "q.source.json:1:37: warning: \"topics\" removed since HEAD: "
                                  "without topics the queue reads every topic [risky-change]"));
    assert_int_equal(occurrences(r.out, "[risky-change]"), 2);
    run_free(&r);
    r = review("widen", "json", "HEAD");
    assert_non_null(strstr(r.out, "\"pointer\":\"/config/whitelistedBuckets\""));
    assert_non_null(strstr(r.out, "\"pointer\":\"/config/topics\""));
    run_free(&r);
    /* kept (or added): nothing */
    assert_int_equal(scratch_git("widen", "commit -q -a -m removed"), 0);
    r = review("widen", "text", "HEAD");
    assert_null(strstr(r.out, "risky-change"));
    run_free(&r);
}

/* Standard input: compared with REF's version of the path --stdin-filename names; unnamed, it
 * is checked but not compared, and stderr says so. */
static void test_stdin(void **state)
{
    (void)state;
    skip_without_git();
    const char *text = SOURCE("s2", STORAGE, "false", KEEP) "\n";
    struct run_options options = {.subdir = "repo", .input = text};
    struct run r =
        run_srcls_with(&options, (const char *[]){"--check", "--no-show-source", "--base", "HEAD~1",
                                                  "--stdin-filename", "a.source.json", "-", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "a.source.json:1:10: warning: \"name\" changed since HEAD~1 "
                                  "from \"s1\" to \"s2\""));
    assert_non_null(strstr(r.out, "warning: insecure-transport since HEAD~1"));
    assert_null(strstr(r.out, "gone.source.json")); /* only what was given is reviewed */
    assert_string_equal(r.err, "");
    run_free(&r);

    r = run_srcls_with(
        &options, (const char *[]){"--check", "--no-show-source", "--base", "HEAD~1", "-", NULL});
    assert_exit(&r, 0);
    assert_null(strstr(r.out, "risky-change"));
    assert_non_null(strstr(r.out, "<stdin>:1:70: information: `secure` is false"));
    assert_string_equal(r.err, "srcls: --base HEAD~1: standard input is not compared (name its "
                               "file with --stdin-filename PATH to compare it with PATH at "
                               "HEAD~1)\n");
    run_free(&r);
}

/* Every output format carries the findings, none prints a secret. */
static void test_every_format(void **state)
{
    (void)state;
    skip_without_git();
    /* the format, two findings, and the deleted file (json: no range; sarif: no region) */
    static const char *const formats[][4] = {
        {"json", "\"code\":\"risky-change\"", "the source \\\"one\\\" was removed since HEAD~1",
         "{\"path\":\"gone.source.json\",\"document\":\"unknown\",\"kind\":null,\"diagnostics\":"
         "[{\"code\":\"risky-change\",\"severity\":\"warning\",\"message\":\"the file was deleted "
         "since HEAD~1, and with it the source \\\"gone\\\"\",\"pointer\":\"\"}]}"},
        {"sarif", "\"ruleId\":\"risky-change\"", "\"id\":\"risky-change\"",
         "{\"uri\":\"gone.source.json\",\"uriBaseId\":\"%SRCROOT%\"}}}]"},
        {"github", "::warning file=bulk.json,line=1,", "title=risky-change::the source",
         "\n::warning file=gone.source.json,title=risky-change::the file was deleted"},
        {"gitlab", "\"check_name\":\"risky-change\"", "was removed since HEAD~1",
         "{\"description\":\"the file was deleted since HEAD~1, and with it the source "
         "\\\"gone\\\"\",\"check_name\":\"risky-change\""},
    };
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        struct run r = review("repo", formats[i][0], "HEAD~1");
        assert_exit(&r, 0);
        assert_non_null(strstr(r.out, formats[i][1]));
        assert_non_null(strstr(r.out, formats[i][2]));
        assert_non_null(strstr(r.out, formats[i][3]));
        assert_no_secret(&r);
        run_free(&r);
    }
}

/* A REF that does not exist, a directory in no work tree, a shallow clone without REF: exit
 * 2, a message on stderr, never a silent pass. */
static void test_bad_input_exits_2(void **state)
{
    (void)state;
    skip_without_git();
    struct run r = review("repo", "text", "no-such-branch");
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls: --base no-such-branch: no such commit in this "
                                  "repository\n"));
    assert_null(strstr(r.err, "shallow"));
    assert_string_equal(r.out, "");
    run_free(&r);

    write_file("outside/o.source.json", SOURCE("o", STORAGE, "true", KEEP) "\n");
    struct run_options options = {.subdir = "outside"};
    r = run_srcls_with(&options, (const char *[]){"--check", "--base", "HEAD", ".", NULL});
    if (strstr(r.err, "not in a git work tree") == NULL) { /* the scratch dir is in a repo */
        run_free(&r);
        skip();
    }
    assert_exit(&r, 2);
    run_free(&r);

    char clone[600];
    snprintf(clone, sizeof clone, "clone -q --depth 1 file://%s/repo ../shallow", scratch_dir());
    assert_int_equal(scratch_git("repo", clone), 0);
    r = review("shallow", "json", "HEAD~1");
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls: --base HEAD~1: no such commit in this repository (the "
                                  "clone is shallow"));
    run_free(&r);
    r = review("shallow", "text", "HEAD"); /* what a shallow clone has is fine */
    assert_exit(&r, 0);
    run_free(&r);
}

/* A git whose `cat-file --batch` dies at once (a broken repository, a killed process): the
 * comparison fails with a message and exit 2, never a silent pass. (Whether srcls's request
 * meets the closed pipe depends on which process runs first: here it is usually written before
 * git exits, so this does not pin down the SIGPIPE handling of check_git.c's check_git_batch_ask.)
 */
static void test_git_dying_mid_run_exits_2(void **state)
{
    (void)state;
    skip_without_git();
    FILE *which = popen("command -v git", "r");
    char real[512] = "";
    assert_non_null(which);
    assert_non_null(fgets(real, sizeof real, which));
    pclose(which);
    real[strcspn(real, "\n")] = '\0';
    char script[1024];
    snprintf(script, sizeof script,
             "#!/bin/sh\nfor a; do [ \"$a\" = cat-file ] && { exec 0<&- 1>&-; exit 1; }; done\n"
             "exec %s \"$@\"\n",
             real);
    write_file("fakegit/git", script);
    char fake[700];
    snprintf(fake, sizeof fake, "%s/fakegit/git", scratch_dir());
    assert_int_equal(chmod(fake, 0755), 0);
    const char *path = getenv("PATH");
    static char saved[8192], wrapped[9000];
    snprintf(saved, sizeof saved, "%s", path != NULL ? path : "/usr/bin:/bin");
    snprintf(wrapped, sizeof wrapped, "%s/fakegit:%s", scratch_dir(), saved);
    setenv("PATH", wrapped, 1);
    struct run r = review("repo", "text", "HEAD~1");
    setenv("PATH", saved, 1);
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "cannot compare it with its version at HEAD~1"));
    run_free(&r);
}

/* A source on several lines, so that git's rename detection sees a one-line edit as a move. */
#define LONG_SOURCE(name, secure)                                                                  \
    "{\n  \"name\": \"" name "\",\n  \"type\": \"" STORAGE "\",\n  \"config\": {\n"                \
    "    \"secure\": " secure ",\n    \"accessKey\": \"k\",\n"                                     \
    "    \"accessSecret\": \"" KEEP "\",\n    \"whitelistedBuckets\": [\n"                         \
    "      \"raw\",\n      \"events\",\n      \"archive\",\n      \"staging\",\n"                  \
    "      \"exports\",\n      \"reports\",\n      \"audit\",\n      \"backups\"\n    ]\n  }\n}\n"

/* Moves: git's rename detection. A move git sees (git mv, committed or staged) is compared with
 * the old path's version and is no deletion; a plain mv that git was not told of, and a move
 * rewritten beyond git's similarity threshold, are a deletion and a new file, as git says. */
static void test_moves_follow_git(void **state)
{
    (void)state;
    skip_without_git();
    write_file("moves/m1.source.json", LONG_SOURCE("m1", "true"));
    write_file("moves/m2.source.json", LONG_SOURCE("m2", "true"));
    write_file("moves/m3.source.json", LONG_SOURCE("m3", "true"));
    write_file("moves/m4.source.json", LONG_SOURCE("m4", "true"));
    assert_int_equal(scratch_git_base("moves"), 0);
    /* committed: moved with git mv into a folder, TLS turned off in the same commit */
    write_file("moves/team/README", "the team's sources\n");
    assert_int_equal(scratch_git("moves", "mv m1.source.json team/n1.source.json"), 0);
    write_file("moves/team/n1.source.json", LONG_SOURCE("m1", "false"));
    assert_int_equal(scratch_git("moves", "commit -q -a -m move"), 0);
    /* not committed: git mv then edited (the move is staged) */
    assert_int_equal(scratch_git("moves", "mv m2.source.json n2.source.json"), 0);
    write_file("moves/n2.source.json", LONG_SOURCE("m2", "false"));
    /* a plain mv git was not told of, edited */
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/moves/m3.source.json", scratch_dir());
    snprintf(to, sizeof to, "%s/moves/n3.source.json", scratch_dir());
    assert_int_equal(rename(from, to), 0);
    write_file("moves/n3.source.json", LONG_SOURCE("m3", "false"));
    /* git mv, rewritten beyond git's similarity threshold */
    assert_int_equal(scratch_git("moves", "mv m4.source.json n4.source.json"), 0);
    write_file("moves/n4.source.json", "{\"name\": \"m4\", \"type\": \"" STORAGE "\", \"config\": "
                                       "{\"secure\": false, \"whitelistedBuckets\": [\"b\"]}}\n");

    struct run r = review("moves", "text", "HEAD~1");
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "team/n1.source.json:5:15: warning: insecure-transport since "
                                  "HEAD~1: `secure` is false"));
    assert_non_null(strstr(r.out, "n2.source.json:5:15: warning: insecure-transport since "
                                  "HEAD~1: `secure` is false"));
    assert_null(strstr(r.out, "m1.source.json"));
    assert_null(strstr(r.out, "m2.source.json"));
    /* the plain mv and the rewrite: the old path deleted, the new one not compared */
    assert_non_null(strstr(r.out, "\nm3.source.json: warning: the file was deleted since "
                                  "HEAD~1, and with it the source \"m3\" [risky-change]\n"));
    assert_non_null(strstr(r.out, "\nm4.source.json: warning: the file was deleted since "
                                  "HEAD~1, and with it the source \"m4\" [risky-change]\n"));
    assert_null(strstr(r.out, "n3.source.json:5:15: warning"));
    assert_null(strstr(r.out, "n4.source.json:1:70: warning"));
    assert_non_null(strstr(r.out, "n4.source.json:1:70: information: `secure` is false"));
    run_free(&r);
}

#define NAS(name, path)                                                                            \
    "{\"name\": \"" name                                                                           \
    "\", \"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"" path "\"}}"

/* duplicate-name: two sources of one bulk file named alike (but for case), an error on the
 * later one with the earlier as related information, in text, JSON and SARIF. */
static void test_duplicate_name_in_bulk(void **state)
{
    (void)state;
    write_file("dups/bulk.json", "[" NAS("lake", "/a") ",\n " NAS("Lake", "/b") "]\n");
    struct run_options options = {.subdir = "dups"};
    struct run r = run_srcls_with(
        &options, (const char *[]){"--check", "--no-show-source", "bulk.json", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "bulk.json:2:11: error: the name \"Lake\" is taken by an "
                                  "earlier source of this file (index 0): the catalog and SQL "
                                  "know a source by its name [duplicate-name]\n"
                                  "bulk.json:1:11: note: the source at index 0 has the name "
                                  "first\n"));
    run_free(&r);
    r = run_srcls_with(&options,
                       (const char *[]){"--check", "--format", "json", "bulk.json", NULL});
    assert_non_null(strstr(r.out, "\"related\":[{\"message\":\"the source at index 0 has the name "
                                  "first\",\"range\":{\"start\":{\"line\":0,\"character\":10}"));
    run_free(&r);
    r = run_srcls_with(&options,
                       (const char *[]){"--check", "--format", "sarif", "bulk.json", NULL});
    assert_non_null(strstr(r.out, "\"relatedLocations\":[{\"id\":1,\"physicalLocation\":{"
                                  "\"artifactLocation\":{\"uri\":\"bulk.json\""));
    assert_non_null(strstr(r.out, "\"ruleId\":\"duplicate-name\""));
    run_free(&r);
}

/* --base: a source a bulk file held twice at REF is compared once: its type changed, or the
 * source removed, is one finding, not one per copy. */
static void test_base_reports_a_duplicated_source_once(void **state)
{
    (void)state;
    skip_without_git();
    write_file("dupbase/bulk.json",
               "[" SOURCE("twice", STORAGE, "true", KEEP) ",\n " SOURCE(
                   "twice", STORAGE, "true", KEEP) ",\n " NAS("gone", "/g") ",\n " NAS("gone",
                                                                                       "/h") "]\n");
    assert_int_equal(scratch_git_base("dupbase"), 0);
    write_file("dupbase/bulk.json", "[" NAS("twice", "/t") "]\n");
    struct run r = review("dupbase", "text", "HEAD");
    const char *changed =
        "warning: \"type\" changed since HEAD from \"" STORAGE "\" to \"NETWORK_ATTACHED_STORAGE\"";
    const char *removed = "warning: the source \"gone\" was removed since HEAD";
    assert_int_equal(occurrences(r.out, changed), 1);
    assert_int_equal(occurrences(r.out, removed), 1);
    run_free(&r);
}

/* --base: a bulk file that holds two sources of one name now and at REF (a duplicate-name): a
 * change to one copy is reported once — the second copy's type changed (it was not reported at
 * all), both copies turned insecure (it was reported once per copy). */
static void test_base_reports_a_change_to_a_duplicated_source_once(void **state)
{
    (void)state;
    skip_without_git();
    write_file("dupcopy/bulk.json",
               "[" SOURCE("twice", STORAGE, "true", KEEP) ",\n " SOURCE(
                   "twice", STORAGE, "true",
                   KEEP) ",\n " SOURCE("pair", STORAGE, "true",
                                       KEEP) ",\n " SOURCE("pair", STORAGE, "true", KEEP) "]\n");
    assert_int_equal(scratch_git_base("dupcopy"), 0);
    write_file(
        "dupcopy/bulk.json",
        "[" SOURCE("twice", STORAGE, "true", KEEP) ",\n " NAS("twice", "/t") ",\n " SOURCE(
            "pair", STORAGE, "false", KEEP) ",\n " SOURCE("pair", STORAGE, "false", KEEP) "]\n");
    struct run r = review("dupcopy", "text", "HEAD");
    const char *changed =
        "warning: \"type\" changed since HEAD from \"" STORAGE "\" to \"NETWORK_ATTACHED_STORAGE\"";
    const char *insecure = "warning: insecure-transport since HEAD";
    assert_int_equal(occurrences(r.out, changed), 1);
    assert_non_null(strstr(r.out, "bulk.json:2:28: warning: \"type\" changed"));
    assert_int_equal(occurrences(r.out, insecure), 1);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_reports_each_risky_change),
        cmocka_unit_test(test_type_changed),
        cmocka_unit_test(test_removal_widens),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_every_format),
        cmocka_unit_test(test_bad_input_exits_2),
        cmocka_unit_test(test_git_dying_mid_run_exits_2),
        cmocka_unit_test(test_moves_follow_git),
        cmocka_unit_test(test_duplicate_name_in_bulk),
        cmocka_unit_test(test_base_reports_a_duplicated_source_once),
        cmocka_unit_test(test_base_reports_a_change_to_a_duplicated_source_once),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
