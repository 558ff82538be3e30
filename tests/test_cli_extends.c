/* test_cli_extends: srcls.json "extends" through `srcls --check`, on trees the test writes: a
 * sub-project's srcls.json builds on the root's (rules key by key, the extending file winning;
 * lists concatenated; the root's globs relative to the root, its names at any depth); the same
 * findings from the root and from the sub-project; an "ignore" entry of the root used through
 * the sub-project is not reported unused; a missing file, a mistake and a cycle are
 * project-config errors at the "extends" value; and under --base a weakening in a file extended
 * is a risky-change that cannot lower the security group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

/* A source with an unknown field (unknown-field, a warning) and no bucket list
 * (unrestricted-scope, information); `name` its name. */
#define SOURCE(name)                                                                               \
    "{\"name\": \"" name "\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"bogus\": 1, "    \
    "\"credentialType\": \"NONE\"}}\n"

static int setup(void **state)
{
    (void)state;
    return scratch_create("cli-extends");
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

/* The monorepo of the tests below `top`: the root's srcls.json turns unknown-field off, raises
 * unrestricted-scope to a warning, excludes its own legacy directory and
 * *.draft.json (at any depth), and silences unrestricted-scope in app/quiet.json; app/'s extends
 * it and sets unrestricted-scope back to information. */
static void write_monorepo(const char *top)
{
    char path[256];
    static const struct {
        const char *name, *text;
    } files[] = {
        {"srcls.json", "{\"rules\": {\"unknown-field\": \"off\", \"unrestricted-scope\": "
                       "\"warning\"}, \"exclude\": [\"legacy/**\", \"*.draft.json\"], \"ignore\": "
                       "[{\"files\": \"app/quiet.json\", \"codes\": [\"unrestricted-scope\"], "
                       "\"reason\": \"a test\"}]}\n"},
        {"app/srcls.json", "{\"extends\": \"../srcls.json\", \"rules\": {\"unrestricted-scope\": "
                           "\"information\"}}\n"},
        {"app/a.json", SOURCE("a")},
        {"app/quiet.json", SOURCE("q")},
        {"app/legacy/old.json", SOURCE("o")},
        {"app/b.draft.json", SOURCE("d")},
        {"legacy/root-old.json", SOURCE("r")},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", top, files[i].name);
        write_file(path, files[i].text);
    }
}

static void test_a_sub_project_builds_on_the_root(void **state)
{
    (void)state;
    write_monorepo("mono");
    struct run r = check_in("mono/app", (const char *[]){"--check", "--no-show-source", ".", NULL});
    /* the root's "off" holds; app's own severity wins over the root's */
    assert_lacks(&r, "[unknown-field]");
    assert_has(&r, "a.json:1:");
    assert_line(&r, "checked 3 files: 0 errors, 0 warnings, 2 information, 0 hints");
    /* the root's legacy/(anything) is the root's legacy/: app/legacy is checked; "*.draft.json" is
     * a name, excluded at any depth; the root's ignore entry silences app/quiet.json */
    assert_has(&r, "legacy/old.json:1:");
    assert_lacks(&r, "draft");
    assert_lacks(&r, "quiet.json");
    assert_exit(&r, 0);
    run_free(&r);
}

/* The same findings for app's files whether --check starts at the root or in app. */
static void test_the_root_and_the_sub_project_agree(void **state)
{
    (void)state;
    write_monorepo("agree");
    struct run top = check_in(
        "agree", (const char *[]){"--check", "--no-show-source", "--format", "json", "app", NULL});
    struct run sub = check_in("agree/app", (const char *[]){"--check", "--no-show-source",
                                                            "--format", "json", ".", NULL});
    assert_exit(&top, 0);
    assert_exit(&sub, 0);
    /* the paths differ by "app/" alone */
    assert_int_equal(occurrences(top.out, "\"path\":\"app/"), occurrences(sub.out, "\"path\":"));
    assert_int_equal(occurrences(top.out, "\"code\":"), occurrences(sub.out, "\"code\":"));
    assert_int_equal(occurrences(top.out, "\"code\":\"unrestricted-scope\",\"severity\":"
                                          "\"information\""),
                     2);
    run_free(&top);
    run_free(&sub);
    /* from the root, the root's ignore entry was used (through app's srcls.json): not unused */
    struct run all = check_in("agree", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_lacks(&all, "silenced no finding");
    assert_lacks(&all, "root-old.json");
    run_free(&all);
}

/* "extends" as a list: the later file wins a code; "placeholders" of both apply. */
static void test_a_list_is_read_in_order(void **state)
{
    (void)state;
    write_file("list/one.json", "{\"rules\": {\"unrestricted-scope\": \"error\"}, "
                                "\"placeholders\": [\"${NAME}\"]}\n");
    write_file("list/two.json", "{\"rules\": {\"unrestricted-scope\": \"hint\"}, "
                                "\"placeholders\": [\"{{ NAME }}\"]}\n");
    write_file("list/p/srcls.json", "{\"extends\": [\"../one.json\", \"../two.json\"]}\n");
    write_file("list/p/a.json",
               "{\"name\": \"${A}\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": "
               "{\"credentialType\": \"NONE\", \"endpoint\": \"{{ ENDPOINT }}\"}}\n");
    struct run r = check_in("list/p", (const char *[]){"--check", "--no-show-source", ".", NULL});
    assert_has(&r, "hint: no `whitelistedBuckets`");
    assert_lacks(&r, "[template-");
    assert_lacks(&r, "looks like a template");
    assert_exit(&r, 0);
    run_free(&r);
}

struct broken {
    const char *files[3][2]; /* name, text (NULL name: none) */
    const char *expected;    /* the line on stderr */
};

static void test_a_broken_extends_is_an_error_at_its_value(void **state)
{
    (void)state;
    static const struct broken cases[] = {
        {{{"srcls.json", "{\"extends\": \"nope.json\"}\n"}},
         "srcls.json:1:13: cannot read nope.json, which this file extends: No such file or "
         "directory"},
        {{{"srcls.json", "{\"extends\": [\"b.json\"]}\n"},
          {"b.json", "{\"extends\": \"c.json\"}\n"},
          {"c.json", "{\"extends\": \"b.json\"}\n"}},
         "srcls.json:1:14: \"extends\" makes a cycle: b.json → c.json → b.json"},
        {{{"srcls.json", "{\"extends\": \"b.json\"}\n"}, {"b.json", "{\"rules\": {\"x\": 1}}\n"}},
         "srcls.json:1:13: b.json, which this file extends, has a mistake (/rules/x: "
         "unknown code \"x\")"},
        {{{"srcls.json", "{\"extends\": \"b.json\"}\n"}, {"b.json", "{\"rules\": \n"}},
         "srcls.json:1:13: b.json, which this file extends, has a mistake (line 2: "},
        {{{"srcls.json", "{\"extends\": 3}\n"}},
         "srcls.json:1:2: must be the path of a srcls.json, or an array of them "
         "(non-empty strings, relative to this file)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[32], path[96];
        snprintf(dir, sizeof dir, "broken%zu", i);
        for (size_t f = 0; f < 3 && cases[i].files[f][0] != NULL; f++) {
            snprintf(path, sizeof path, "%s/%s", dir, cases[i].files[f][0]);
            write_file(path, cases[i].files[f][1]);
        }
        snprintf(path, sizeof path, "%s/a.json", dir);
        write_file(path, SOURCE("a"));
        struct run r = check_in(dir, (const char *[]){"--check", "--no-show-source", ".", NULL});
        if (strstr(r.err, cases[i].expected) == NULL || r.exit_status != 2)
            fail_msg("case %zu: expected \"%s\" and exit 2, got %d:\n%s%s", i, cases[i].expected,
                     r.exit_status, r.out, r.err);
        assert_has(&r, "a.json: error: not checked: its srcls.json has mistakes");
        run_free(&r);
    }
}

/* --base: a file extended that turns the security group off since REF is a risky-change at
 * "extends" of the srcls.json that extends it, and the security finding is still reported. */
static void test_a_weakening_in_a_file_extended_is_gated(void **state)
{
    (void)state;
    if (system("git --version >/dev/null 2>&1") != 0)
        skip(); /* no git here: nothing to review against */
    write_file("gate/shared.json", "{}\n");
    write_file("gate/team/srcls.json", "{\n  \"extends\": \"../shared.json\"\n}\n");
    write_file("gate/team/a.json",
               "{\"name\": \"s\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": "
               "false, \"whitelistedBuckets\": [\"b\"], \"credentialType\": \"NONE\"}}\n");
    assert_int_equal(scratch_git_base("gate"), 0);
    write_file("gate/shared.json", "{\"rules\": {\"security\": \"off\"}}\n");
    assert_int_equal(scratch_git("gate", "commit -q -a -m weaken"), 0);
    struct run_options options = {.subdir = "gate/team"};
    struct run r = run_srcls_with(
        &options, (const char *[]){"--check", "--no-show-source", "--base", "HEAD~1", ".", NULL});
    assert_has(&r, "srcls.json:2:3: warning: \"rules\" weakened since HEAD~1: insecure-transport "
                   "from information to off");
    assert_has(&r, "a.json:1:69: information: `secure` is false");
    assert_exit(&r, 0); /* warnings pass by default */
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_sub_project_builds_on_the_root),
        cmocka_unit_test(test_the_root_and_the_sub_project_agree),
        cmocka_unit_test(test_a_list_is_read_in_order),
        cmocka_unit_test(test_a_broken_extends_is_an_error_at_its_value),
        cmocka_unit_test(test_a_weakening_in_a_file_extended_is_gated),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
