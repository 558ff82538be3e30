/* test_cli_env: `srcls --check --env FILE` — a template (srcls.json "placeholders") checked as
 * rendered with a dotenv file's values: clean with good values, each finding of bad values placed
 * on the template's placeholder, a variable no file sets reported (unset-variable), later files
 * winning, the dotenv subset (export, quotes, comments); an empty file, a file of comments, a
 * malformed line, an unclosed quote, a missing file and --env with --fix: a clear error and exit
 * 2; and the values never printed, in any format or code frame, not even a wrong enum value or
 * an unknown type identifier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

static const char template_source[] = "{\n"
                                      "  \"name\": \"lake\",\n"
                                      "  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n"
                                      "  \"config\": {\n"
                                      "    \"accessKey\": \"AKEXAMPLE\",\n"
                                      "    \"accessSecret\": \"${DB_SECRET}\",\n"
                                      "    \"credentialType\": \"{{ CRED_TYPE }}\",\n"
                                      "    \"rootPath\": \"/data/${ENV}/raw\",\n"
                                      "    \"whitelistedBuckets\": [\"b\"],\n"
                                      "    \"secure\": true\n"
                                      "  }\n"
                                      "}\n";

static int setup(void **state)
{
    (void)state;
    if (scratch_create("env") != 0)
        return -1;
    write_file("srcls.json", "{\"placeholders\": [\"${NAME}\", \"{{ NAME }}\"]}");
    write_file("t/lake.source.json", template_source);
    write_file("good.env", "DB_SECRET=arn:secret:lake\nCRED_TYPE=ACCESS_KEY\nENV=prod\n");
    write_file("bad.env", "# staging\nDB_SECRET=Sup3rS3cret\nCRED_TYPE=ACCESS_KEYS\n");
    write_file("subset.env", "export DB_SECRET='arn:secret:lake'\r\n\n  # comment\n"
                             "CRED_TYPE=\"ACCESS_KEY\" # the default\nENV = prod # comment\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static void test_a_template_is_clean_without_env_and_with_good_values(void **state)
{
    (void)state;
    const char *files[] = {NULL, "good.env", "subset.env"}; /* none, then each */
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        const char *const with[] = {"--check", "--env", files[i], "t", NULL};
        const char *const without[] = {"--check", "t", NULL};
        struct run r = run_srcls(NULL, files[i] != NULL ? with : without);
        assert_exit(&r, 0);
        assert_line(&r, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 hints");
        run_free(&r);
    }
}

static void test_bad_values_are_reported_on_the_template_and_unset_variables_too(void **state)
{
    (void)state;
    const char *const args[] = {"--check", "--env", "bad.env", "t", NULL};
    struct run r = run_srcls(NULL, args);
    assert_exit(&r, 1);
    assert_line(&r, "t/lake.source.json:6:21: error: \"accessSecret\" is a secret and is not "
                    "encoded: write it as \"data:,<secret>\" (\"data:;base64,<base64>\" when it "
                    "contains a colon), as the placeholder $SERVICE_EXISTING_VALUE$, or as a "
                    "secret-store reference (arn:, vault:, https://) [secret-not-encoded]");
    assert_line(&r, "t/lake.source.json:7:23: error: \"credentialType\" must be one of NONE, "
                    "CLOUDA_VM_METADATA, ACCESS_KEY, CLOUDA_PROFILE [invalid-enum]");
    assert_line(&r, "t/lake.source.json:8:24: error: the variable \"ENV\" is set in none of the "
                    "--env files: the rendered document would keep this placeholder "
                    "[unset-variable]");
    assert_line(&r, "checked 1 file: 3 errors, 0 warnings, 0 information, 0 hints");
    run_free(&r);
    /* a later file wins */
    const char *const both[] = {"--check", "--env", "bad.env", "--env", "good.env", "t", NULL};
    r = run_srcls(NULL, both);
    assert_exit(&r, 0);
    run_free(&r);
}

static void test_a_bad_env_file_is_a_clear_error_and_checks_nothing(void **state)
{
    (void)state;
    static const struct {
        const char *name, *content, *error;
    } cases[] = {
        {"empty.env", "", "srcls: --env empty.env: the file is empty: it sets no variable"},
        {"comments.env", "# nothing yet\n\n",
         "srcls: --env comments.env: the file sets no variable (only blank lines and comments)"},
        {"malformed.env", "ENV=prod\nDB_SECRET Sup3rS3cret\n",
         "srcls: --env malformed.env:2: expected KEY=VALUE (KEY: letters, digits, _ and ., not "
         "starting with a digit)"},
        {"unclosed.env", "ENV=prod\n\nDB_SECRET=\"Sup3rS3cret\n",
         "srcls: --env unclosed.env:3: the quoted value has no closing quote on its line (a "
         "value is one line)"},
        {"trailing.env", "DB_SECRET='Sup3rS3cret' x\n",
         "srcls: --env trailing.env:1: text after the closing quote (a comment starts with #)"},
        {NULL, NULL, "srcls: --env missing.env: cannot read: No such file or directory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *name = cases[i].name != NULL ? cases[i].name : "missing.env";
        if (cases[i].name != NULL)
            write_file(name, cases[i].content);
        const char *const args[] = {"--check", "--env", "good.env", "--env", name, "t", NULL};
        struct run r = run_srcls(NULL, args);
        assert_exit(&r, 2);
        if (!has_line(r.err, cases[i].error))
            fail_msg("%s: stderr was: %s", name, r.err);
        assert_string_equal(r.out, "");
        assert_null(strstr(r.err, "Sup3rS3cret"));
        run_free(&r);
    }
    const char *const fix[] = {"--check", "--env", "good.env", "--fix", "t", NULL};
    struct run r = run_srcls(NULL, fix);
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--env checks the documents as rendered: it takes no --fix"));
    run_free(&r);
    char *after = read_all("t/lake.source.json");
    assert_string_equal(after, template_source);
    free(after);
}

static void test_no_format_prints_a_value_of_the_env_file(void **state)
{
    (void)state;
    const char *formats[] = {"text", "json", "sarif", "github", "gitlab"};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        const char *const args[] = {"--check",  "--env", "bad.env",       "--format",
                                    formats[i], "t",     "--show-source", NULL};
        const char *const plain[] = {"--check",  "--env", "bad.env", "--format",
                                     formats[i], "t",     NULL};
        struct run r = run_srcls(NULL, i == 0 ? args : plain);
        assert_exit(&r, 1);
        assert_non_null(strstr(r.out, "unset-variable"));
        assert_null(strstr(r.out, "Sup3rS3cret"));
        assert_null(strstr(r.err, "Sup3rS3cret"));
        assert_null(strstr(r.out, "ACCESS_KEYS")); /* not even an enum value of the file */
        run_free(&r);
    }
}

/* A bulk file: each source rendered and checked; --fix on templates fixes what is fixable and
 * never rewrites a placeholder, even one in a field that takes no string. */
static void test_bulk_files_and_fix_leave_placeholders_as_written(void **state)
{
    (void)state;
    write_file("b/bulk.json", "[\n"
                              "{\"name\": \"a\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": "
                              "{\"rootPath\": \"/${ENV}\", \"whitelistedBuckets\": [\"b\"]}},\n"
                              "{\"name\": \"b\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": "
                              "{\"rootPath\": \"/${REGION}\", \"whitelistedBuckets\": [\"b\"], "
                              "\"secure\": \"true\", \"maxCacheSpacePct\": \"${PCT}\"}}\n"
                              "]\n");
    const char *const args[] = {"--check", "--env", "good.env", "b", NULL};
    struct run r = run_srcls(NULL, args);
    assert_exit(&r, 1);
    assert_line(&r, "b/bulk.json:3:73: error: the variable \"REGION\" is set in none of the --env "
                    "files: the rendered document would keep this placeholder [unset-variable]");
    assert_non_null(strstr(r.out, "b/bulk.json:3:153: error: the variable \"PCT\""));
    run_free(&r);
    /* a templated type rendered to no kind: said without the value */
    write_file("k/typed.source.json", "{\"type\": \"${TYPE}\", \"config\": {}}\n");
    write_file("type.env", "TYPE=NOPE_KIND\n");
    const char *const typed[] = {"--check", "--env", "type.env", "k", NULL};
    r = run_srcls(NULL, typed);
    assert_exit(&r, 1);
    assert_line(&r, "k/typed.source.json:1:10: error: unknown type \"***\", and the config keys do "
                    "not identify a kind: see srcls --list-kinds for the known identifiers, or map "
                    "it in srcls.json \"types\" [unknown-kind]");
    assert_null(strstr(r.out, "NOPE_KIND"));
    run_free(&r);
    /* a template with a syntax error is checked as written (not rendered: no unset variable) */
    write_file("k/typed.source.json", "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {"
                                      "\"rootPath\": \"${UNSET}\",}}\n");
    r = run_srcls(NULL, typed);
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "[json-syntax]"));
    assert_null(strstr(r.out, "unset-variable"));
    run_free(&r);
    const char *const fix[] = {"--check", "--fix", "b", NULL};
    r = run_srcls(NULL, fix);
    run_free(&r);
    char *after = read_all("b/bulk.json");
    assert_non_null(strstr(after, "\"secure\": true")); /* fixed */
    assert_non_null(strstr(after, "\"rootPath\": \"/${REGION}\""));
    assert_non_null(strstr(after, "\"maxCacheSpacePct\": \"${PCT}\""));
    free(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_template_is_clean_without_env_and_with_good_values),
        cmocka_unit_test(test_bad_values_are_reported_on_the_template_and_unset_variables_too),
        cmocka_unit_test(test_a_bad_env_file_is_a_clear_error_and_checks_nothing),
        cmocka_unit_test(test_no_format_prints_a_value_of_the_env_file),
        cmocka_unit_test(test_bulk_files_and_fix_leave_placeholders_as_written),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
