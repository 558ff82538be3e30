/* test_cli_security: the posture codes (the "security" group) through the command line — on by
 * default at information (exit 0), raised all at once by srcls.json "rules": {"security": ...},
 * a code named alone winning over its group, --select and --ignore of the group, --fail-on as
 * for any code, SARIF help for each, a team's own kind declaring a risky setting in its kind
 * file (no recompiling), and an inline secret never printed in any format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli_harness.h"

/* Kind 17 with TLS off, anonymous access and a misspelled field (a validity warning). */
static const char risky_source[] =
    "{\"type\": \"CLOUDB_SQL_WAREHOUSE\", \"config\": {\"hostname\": \"db.example.com\", "
    "\"authenticationType\": \"ANONYMOUS\", \"useSsl\": false, \"databse\": \"sales\"}}\n";
/* Kind 20 with its password inline: the plaintext and its base64 must never be printed. */
static const char inline_source[] =
    "{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"hostname\": \"h\", \"port\": 3306, "
    "\"authenticationType\": \"MASTER\", \"username\": \"u\", \"password\": "
    "\"data:;base64,U3VwM3JTM2NyZXQ=\"}}\n";
static const char plain_source[] =
    "{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"hostname\": \"h\", \"port\": 3306, "
    "\"authenticationType\": \"MASTER\", \"username\": \"u\", \"password\": "
    "\"data:,Sup3rS3cret\"}}\n";

static int setup(void **state)
{
    (void)state;
    if (scratch_create("security") != 0)
        return -1;
    write_file("p/risky.source.json", risky_source);
    write_file("p/inline.source.json", inline_source);
    write_file("p/plain.source.json", plain_source);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static struct run check(const char *const *extra)
{
    const char *args[16] = {"--check"};
    size_t n = 1;
    while (extra != NULL && *extra != NULL && n < 14)
        args[n++] = *extra++;
    args[n++] = "p";
    args[n] = NULL;
    return run_srcls(NULL, args);
}

static void test_posture_codes_are_information_by_default(void **state)
{
    (void)state;
    remove("p/srcls.json");
    struct run r = check(NULL);
    assert_exit(&r, 0);
    assert_has(&r, "p/risky.source.json:1:120: information: `useSsl` is false or absent");
    assert_has(&r, "set `useSsl` to true [insecure-transport]");
    assert_has(&r, "information: `authenticationType` is ANONYMOUS: no authentication");
    assert_has(&r, "p/inline.source.json:1:137: information: the secret \"password\" is "
                   "written inline");
    assert_has(&r, "warning: unknown field \"databse\"");
    run_free(&r);
    r = check((const char *[]){"--fail-on", "information", NULL});
    assert_exit(&r, 1);
    run_free(&r);
}

static void test_the_group_name_raises_all_five_and_a_code_alone_wins(void **state)
{
    (void)state;
    write_file("p/srcls.json", "{\"rules\": {\"security\": \"error\"}}");
    struct run r = check(NULL);
    assert_exit(&r, 1);
    assert_has(&r, "error: `useSsl` is false or absent");
    assert_has(&r, "error: `authenticationType` is ANONYMOUS");
    assert_has(&r, "p/inline.source.json:1:137: error: the secret \"password\"");
    assert_has(&r, "warning: unknown field \"databse\""); /* not in the group */
    run_free(&r);
    static const char *const orders[] = {
        "{\"rules\": {\"security\": \"error\", \"anonymous-access\": \"off\"}}",
        "{\"rules\": {\"anonymous-access\": \"off\", \"security\": \"error\"}}",
    };
    for (size_t i = 0; i < 2; i++) {
        write_file("p/srcls.json", orders[i]);
        r = check(NULL);
        assert_exit(&r, 1);
        assert_has(&r, "error: `useSsl` is false or absent");
        assert_lacks(&r, "[anonymous-access]");
        run_free(&r);
    }
    write_file("p/srcls.json", "{\"rules\": {\"security\": \"loud\"}}");
    r = check(NULL);
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "p/srcls.json:1:12: the severity of \"security\" must be error, "
                                  "warning, information, hint or off"));
    run_free(&r);
    write_file("p/srcls.json", "{\"rules\": {\"securty\": \"error\"}}");
    r = check(NULL);
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "p/srcls.json:1:12: unknown code \"securty\""));
    run_free(&r);
    remove("p/srcls.json");
}

static void test_select_and_ignore_take_the_group(void **state)
{
    (void)state;
    remove("p/srcls.json");
    struct run r = check((const char *[]){"--select", "security", NULL});
    assert_exit(&r, 0);
    assert_has(&r, "[insecure-transport]");
    assert_has(&r, "[anonymous-access]");
    assert_has(&r, "[inline-secret]");
    assert_lacks(&r, "[unknown-field]");
    run_free(&r);
    r = check((const char *[]){"--select", "security,unknown-field", "--fail-on", "warning", NULL});
    assert_exit(&r, 1);
    assert_has(&r, "[insecure-transport]");
    assert_has(&r, "[unknown-field]");
    run_free(&r);
    r = check((const char *[]){"--ignore", "security", NULL});
    assert_exit(&r, 0);
    assert_lacks(&r, "[insecure-transport]");
    assert_lacks(&r, "[inline-secret]");
    assert_has(&r, "[unknown-field]");
    run_free(&r);
    r = check((const char *[]){"--ignore", "securty", NULL});
    assert_exit(&r, 2);
    assert_true(strstr(r.err, "--ignore: unknown code 'securty'") != NULL);
    run_free(&r);
}

static void test_sarif_describes_each_posture_rule(void **state)
{
    (void)state;
    remove("p/srcls.json");
    struct run r = check((const char *[]){"--format", "sarif", NULL});
    assert_exit(&r, 0);
    /* the tool's rules (srcls writes SARIF without spaces), each with its help */
    assert_has(&r, "{\"id\":\"insecure-transport\",");
    assert_has(&r, "{\"id\":\"anonymous-access\",");
    assert_has(&r, "{\"id\":\"inline-secret\",");
    assert_has(&r, "TLS between the service and the source is off");
    assert_has(&r, "a secret is written inline in the file");
    run_free(&r);
}

static void test_an_inline_secret_is_never_printed(void **state)
{
    (void)state;
    write_file("p/srcls.json", "{\"rules\": {\"security\": \"error\"}}");
    static const char *const formats[] = {"text", "json", "sarif", "github", "gitlab"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        struct run r = check((const char *[]){"--format", formats[i], "--show-source", NULL});
        assert_exit(&r, 1);
        assert_has(&r, "inline-secret");
        assert_lacks(&r, "Sup3rS3cret");
        assert_lacks(&r, "U3VwM3JTM2NyZXQ");
        run_free(&r);
    }
    remove("p/srcls.json");
}

/* A team's kind file declares a risky default; srcls reports it, unchanged. */
static void test_a_team_kind_declares_a_risky_setting(void **state)
{
    (void)state;
    write_file("t/srcls.json", "{\"schemas\": [\"kinds\"]}");
    write_file(
        "t/kinds/broker.json",
        "{\"title\": \"Broker\", \"types\": [\"TEAM_BROKER\"], \"description\": \"A broker.\","
        " \"fields\": {\"url\": {\"type\": \"string\", \"description\": \"Where.\", "
        "\"required\": true}, \"tls\": {\"type\": \"boolean\", \"description\": \"TLS.\", "
        "\"default\": false}}, \"assertions\": [{\"code\": \"insecure-transport\", "
        "\"field\": \"tls\", \"expect\": {\"field\": \"tls\", \"in\": [true]}, "
        "\"message\": \"`tls` is off: the broker traffic is readable on the network; set "
        "`tls` to true\"}]}");
    write_file("t/absent.source.json", "{\"type\": \"TEAM_BROKER\", \"config\": {\"url\": \"u\"}}");
    write_file("t/off.source.json",
               "{\"type\": \"TEAM_BROKER\", \"config\": {\"url\": \"u\", \"tls\": false}}");
    write_file("t/on.source.json",
               "{\"type\": \"TEAM_BROKER\", \"config\": {\"url\": \"u\", \"tls\": true}}");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "t", NULL});
    assert_exit(&r, 0);
    assert_line(&r, "t/absent.source.json:1:25: information: `tls` is off: the broker traffic is "
                    "readable on the network; set `tls` to true [insecure-transport]");
    assert_line(&r, "t/off.source.json:1:55: information: `tls` is off: the broker traffic is "
                    "readable on the network; set `tls` to true [insecure-transport]");
    assert_lacks(&r, "t/on.source.json");
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--select", "security", "--fail-on",
                                         "information", "t/on.source.json", NULL});
    assert_exit(&r, 0);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_posture_codes_are_information_by_default),
        cmocka_unit_test(test_the_group_name_raises_all_five_and_a_code_alone_wins),
        cmocka_unit_test(test_select_and_ignore_take_the_group),
        cmocka_unit_test(test_sarif_describes_each_posture_rule),
        cmocka_unit_test(test_an_inline_secret_is_never_printed),
        cmocka_unit_test(test_a_team_kind_declares_a_risky_setting),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
