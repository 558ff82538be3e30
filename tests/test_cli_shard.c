/* --shard I/N with --baseline: the entries of deleted files said fixed by their owner alone
 * (test_check_cli holds the partition, test_cli_gate the gate's findings); and --jobs 1, 2 and
 * 7 giving the same bytes in every format, sharded or not (the pool's batches). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

#define FILES 14

static int setup(void **state)
{
    (void)state;
    return scratch_create("cli-shard");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

/* FILES sources below d/ (in two directories), each with a finding: an unknown field
 * (a warning), and in f3 and f11 a syntax error (an error). */
static void write_corpus(void)
{
    for (int i = 1; i <= FILES; i++) {
        char path[64], text[256];
        snprintf(path, sizeof path, "d/%s/f%d.source.json", i % 2 ? "odd" : "even", i);
        if (i == 3 || i == 11)
            snprintf(text, sizeof text, "{\"type\": \"CLOUDA_OBJECT_STORAGE\",,}\n");
        else
            snprintf(text, sizeof text,
                     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"name\": \"s%d\", \"config\": "
                     "{\"credentialType\": \"NONE\", \"whitelistedBuckets\": [\"b\"], "
                     "\"bogus%d\": 1}}\n",
                     i, i);
        write_file(path, text);
    }
}

/* The baseline's entries of deleted files: "fixed" in their owner's shard alone (the sum over
 * the shards is the unsharded run's). */
static void test_a_gone_files_baseline_entry_is_fixed_in_one_shard(void **state)
{
    (void)state;
    write_corpus();
    struct run w =
        run_srcls(NULL, (const char *[]){"--check", "--write-baseline", "b.json", "d", NULL});
    assert_exit(&w, 1); /* the syntax errors are never baselined */
    run_free(&w);
    remove_tree("d/odd/f5.source.json");
    remove_tree("d/odd/f7.source.json");
    remove_tree("d/even/f8.source.json");
    struct run whole = run_srcls(
        NULL, (const char *[]){"--check", "--format", "json", "--baseline", "b.json", "d", NULL});
    assert_exit(&whole, 1);
    assert_non_null(strstr(whole.out, "\"fixed\": 3,"));
    run_free(&whole);
    for (unsigned n = 2; n <= 4; n++) {
        unsigned fixed = 0;
        for (unsigned i = 1; i <= n; i++) {
            char shard[16];
            snprintf(shard, sizeof shard, "%u/%u", i, n);
            struct run r =
                run_srcls(NULL, (const char *[]){"--check", "--format", "json", "--baseline",
                                                 "b.json", "--shard", shard, "d", NULL});
            const char *at = strstr(r.out, "\"fixed\": ");
            assert_non_null(at);
            fixed += (unsigned)atoi(at + 9);
            run_free(&r);
        }
        assert_int_equal(fixed, 3);
    }
}

/* --jobs 1, 2 and 7: the same bytes and exit status in every format, sharded or not. */
static void test_jobs_give_the_same_bytes_in_every_format(void **state)
{
    (void)state;
    write_corpus();
    static const char *const formats[] = {"text", "json", "sarif", "github", "gitlab"};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        for (const char *shard = "1/1"; shard != NULL; shard = shard[2] == '1' ? "2/3" : NULL) {
            struct run one =
                run_srcls(NULL, (const char *[]){"--check", "--format", formats[f], "--jobs", "1",
                                                 "--shard", shard, "d", NULL});
            for (const char *jobs = "2"; jobs != NULL; jobs = jobs[0] == '2' ? "7" : NULL) {
                struct run r =
                    run_srcls(NULL, (const char *[]){"--check", "--format", formats[f], "--jobs",
                                                     jobs, "--shard", shard, "d", NULL});
                assert_int_equal(r.exit_status, one.exit_status);
                if (strcmp(r.out, one.out) != 0)
                    fail_msg("%s, --jobs %s, --shard %s: differs from --jobs 1", formats[f], jobs,
                             shard);
                run_free(&r);
            }
            run_free(&one);
        }
    }
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_a_gone_files_baseline_entry_is_fixed_in_one_shard),
        TEST(test_jobs_give_the_same_bytes_in_every_format),
    };
#undef TEST
    return harness_status(cmocka_run_group_tests(tests, NULL, NULL));
}
