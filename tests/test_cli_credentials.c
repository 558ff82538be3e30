/* test_cli_credentials: plaintext-credential through the command line — a credential shape in an
 * ordinary field and plain text in a sensitive field are reported, and the value is in no
 * output format (text, json, sarif, github, gitlab, with the source shown) nor in a baseline;
 * the unsafe fix (a bare secret encoded as data:,) left out of --fix and --diff unless
 * --unsafe-fixes; a value that looks like a template while no "placeholders" are configured
 * gets a hint and is never rewritten; --env without "placeholders" says nothing is templated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

/* Split so that the test's own text holds no credential shape. */
#define ACCESS_KEY                                                                                 \
    "AKIA"                                                                                         \
    "IOSFODNN7EXAMPLE"
#define PLAIN_TOKEN "pat-7Hq2XkN9rT4mPlainToken"

/* Kind 8: a plaintext token in its sensitive field, an access key id in an ordinary property. */
static const char credential_source[] =
    "{\"name\": \"partner\", \"type\": \"SERVICE_CATALOG_EXTERNAL_V1\", \"config\": {\n"
    "  \"serviceCatalogEndpoint\": \"https://catalog.example.com\",\n"
    "  \"oAuthTokenEndpoint\": \"https://login.example.com/oauth/token\",\n"
    "  \"personalAccessToken\": \"" PLAIN_TOKEN "\",\n"
    "  \"storageAccessCredential\": \"CREDENTIAL_VENDING\",\n"
    "  \"propertyList\": [{\"name\": \"fs.key\", \"value\": \"" ACCESS_KEY "\"}]}}\n";

/* Kind 20 with a bare plaintext password (an unsafe fix) and an enum in the wrong case (safe). */
static const char bare_source[] =
    "{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"hostname\": \"h\", \"port\": 3306, "
    "\"authenticationType\": \"master\", \"username\": \"u\", \"password\": \"Zq7Bare\"}}\n";

static int setup(void **state)
{
    (void)state;
    if (scratch_create("credentials") != 0)
        return -1;
    write_file("p/cred.source.json", credential_source);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static void test_a_credential_is_reported_and_never_printed(void **state)
{
    (void)state;
    static const char *const formats[] = {"text", "json", "sarif", "github", "gitlab"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        struct run r = run_srcls(
            NULL, (const char *[]){"--check", "--format", formats[i], "--show-source", "p", NULL});
        assert_has(&r, "plaintext-credential");
        assert_has(&r, "cloud access key id");
        assert_lacks(&r, ACCESS_KEY);
        assert_lacks(&r, "IOSFODNN7");
        assert_lacks(&r, PLAIN_TOKEN);
        assert_lacks(&r, "7Hq2XkN9");
        run_free(&r);
    }
}

static void test_a_baseline_hashes_no_credential(void **state)
{
    (void)state;
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--write-baseline", "base.json", "p", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    char path[4096];
    snprintf(path, sizeof path, "%s/base.json", scratch_dir());
    char *baseline = read_all(path);
    assert_non_null(baseline);
    assert_non_null(strstr(baseline, "plaintext-credential"));
    assert_null(strstr(baseline, "IOSFODNN7"));
    assert_null(strstr(baseline, "7Hq2XkN9"));
    /* both findings' values are "secret", so the baseline holds no hash of the credential */
    const char *at = baseline;
    int secret = 0;
    while ((at = strstr(at, "plaintext-credential")) != NULL) {
        const char *hash = strstr(at, "\"hash\"");
        assert_non_null(hash);
        secret += strncmp(strchr(hash + 6, '"'), "\"secret\"", 8) == 0;
        at++;
    }
    assert_int_equal(secret, 2);
    free(baseline);
    remove(path);
}

static void test_fix_leaves_the_unsafe_fix_out_unless_asked(void **state)
{
    (void)state;
    write_file("fix/a.source.json", bare_source);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--fix", "fix", NULL});
    if (strstr(r.err, "srcls: applied 1 fix in 1 file; 1 hidden fix can be enabled with "
                      "--unsafe-fixes\n") == NULL)
        fail_msg("no count of the hidden fix:\n%s", r.err);
    run_free(&r);
    char *text = read_all("fix/a.source.json");
    assert_non_null(strstr(text, "\"MASTER\""));  /* the safe fix */
    assert_non_null(strstr(text, "\"Zq7Bare\"")); /* the secret left as it was */
    free(text);

    r = run_srcls(NULL, (const char *[]){"--check", "--fix", "--unsafe-fixes", "fix", NULL});
    if (strstr(r.err, "srcls: applied 1 fix in 1 file\n") == NULL)
        fail_msg("unexpected summary:\n%s", r.err);
    run_free(&r);
    text = read_all("fix/a.source.json");
    assert_non_null(strstr(text, "\"data:,Zq7Bare\""));
    free(text);
    remove_tree("fix");
}

static void test_diff_shows_the_unsafe_fix_only_when_asked(void **state)
{
    (void)state;
    write_file("diff/a.source.json", bare_source);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--diff", "diff", NULL});
    assert_exit(&r, 1);
    assert_null(strstr(r.out, "data:,"));
    assert_non_null(strstr(r.err, "; 1 hidden fix can be enabled with --unsafe-fixes"));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--diff", "--unsafe-fixes", "diff", NULL});
    assert_non_null(strstr(r.out, "\"data:,***\""));
    assert_null(strstr(r.err, "hidden"));
    assert_null(strstr(r.out, "Zq7"));
    run_free(&r);
    remove_tree("diff");
}

static void test_unsafe_fixes_goes_with_fix_or_diff(void **state)
{
    (void)state;
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--unsafe-fixes", "p", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--unsafe-fixes goes with --fix or --diff"));
    run_free(&r);
}

/* Kind 20 whose password looks like a template while no srcls.json names "placeholders". */
static const char template_source[] =
    "{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"hostname\": \"h\", \"port\": 3306, "
    "\"authenticationType\": \"master\", \"username\": \"u\", \"password\": "
    "\"${DB_PASSWORD}\"}}\n";

static void test_a_template_without_placeholders_is_never_rewritten(void **state)
{
    (void)state;
    write_file("tpl/a.source.json", template_source);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "tpl", NULL});
    assert_has(&r, "hint: \"password\" looks like a template placeholder, but srcls.json names "
                   "no \"placeholders\": it is checked as written and no fix rewrites it; name "
                   "your renderer's syntax there (\"${NAME}\", \"{{ NAME }}\") [project-config]");
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--fix", "--unsafe-fixes", "tpl", NULL});
    if (strstr(r.err, "srcls: applied 1 fix in 1 file\n") == NULL)
        fail_msg("unexpected summary:\n%s", r.err);
    run_free(&r);
    char *text = read_all("tpl/a.source.json");
    assert_non_null(strstr(text, "\"MASTER\""));
    assert_non_null(strstr(text, "\"password\": \"${DB_PASSWORD}\""));
    free(text);
    remove_tree("tpl");
}

static void test_env_without_placeholders_says_nothing_is_templated(void **state)
{
    (void)state;
    write_file("env/a.source.json", template_source);
    write_file("env/b.source.json", template_source);
    write_file("prod.env", "DB_PASSWORD=x\n");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--env", "prod.env", "env", NULL});
    const char *said = "srcls: --env: the srcls.json of env/a.source.json names no "
                       "\"placeholders\", so nothing in it is templated: it is checked as "
                       "written\n";
    const char *at = strstr(r.err, said);
    if (at == NULL)
        fail_msg("no warning on stderr:\n%s", r.err);
    assert_null(strstr(at + strlen(said), "--env: the srcls.json")); /* once */
    run_free(&r);
    write_file("env/srcls.json", "{\"placeholders\": [\"${NAME}\"]}");
    r = run_srcls(NULL, (const char *[]){"--check", "--env", "prod.env", "env", NULL});
    assert_null(strstr(r.err, "nothing in it is templated"));
    run_free(&r);
    remove_tree("env");
    remove("prod.env");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_credential_is_reported_and_never_printed),
        cmocka_unit_test(test_a_baseline_hashes_no_credential),
        cmocka_unit_test(test_fix_leaves_the_unsafe_fix_out_unless_asked),
        cmocka_unit_test(test_diff_shows_the_unsafe_fix_only_when_asked),
        cmocka_unit_test(test_unsafe_fixes_goes_with_fix_or_diff),
        cmocka_unit_test(test_a_template_without_placeholders_is_never_rewritten),
        cmocka_unit_test(test_env_without_placeholders_says_nothing_is_templated),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
