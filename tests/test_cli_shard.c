/* --shard I/N: a partition of the files by path (disjoint, covering: the shards' findings are
 * the unsharded run's), each shard's exit status its own, --baseline's and --base's gone files
 * said by their owner alone, usage errors; and --jobs N giving the same bytes in every format. */
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

/* The JSON report's lines of files (one a file), each ending at its newline. */
static unsigned file_lines(const char *json, const char *lines[], unsigned max)
{
    unsigned n = 0;
    for (const char *at = strstr(json, "\n    {\"path\":"); at != NULL && n < max;
         at = strstr(at + 1, "\n    {\"path\":"))
        lines[n++] = at + 1;
    return n;
}

static size_t line_length(const char *line)
{
    const char *end = strchr(line, '\n');
    size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
    return len > 0 && line[len - 1] == ',' ? len - 1 : len; /* the last has no comma */
}

/* For N = 1..5: every file line of the unsharded run is in exactly one shard's, the shards have
 * no other, and a shard exits 1 exactly when it holds an error. */
static void test_shards_are_disjoint_and_cover_the_run(void **state)
{
    (void)state;
    write_corpus();
    struct run whole = run_srcls(NULL, (const char *[]){"--check", "--format", "json", "d", NULL});
    assert_exit(&whole, 1);
    const char *all[FILES + 1];
    assert_int_equal(file_lines(whole.out, all, FILES + 1), FILES);
    for (unsigned n = 1; n <= 5; n++) {
        unsigned seen[FILES] = {0}, total = 0;
        for (unsigned i = 1; i <= n; i++) {
            char shard[16];
            snprintf(shard, sizeof shard, "%u/%u", i, n);
            struct run r = run_srcls(
                NULL, (const char *[]){"--check", "--format", "json", "--shard", shard, "d", NULL});
            const char *mine[FILES + 1];
            unsigned count = file_lines(r.out, mine, FILES + 1);
            total += count;
            bool error = false;
            for (unsigned m = 0; m < count; m++) {
                char line[1024];
                snprintf(line, sizeof line, "%.*s", (int)line_length(mine[m]), mine[m]);
                error |= strstr(line, "\"severity\":\"error\"") != NULL;
                unsigned found = FILES;
                for (unsigned a = 0; a < FILES && found == FILES; a++) {
                    if (line_length(all[a]) == line_length(mine[m]) &&
                        memcmp(all[a], mine[m], line_length(mine[m])) == 0)
                        found = a;
                }
                if (found == FILES)
                    fail_msg("shard %s: a file the whole run does not report:\n%s", shard, r.out);
                seen[found]++;
            }
            if (r.exit_status != (error ? 1 : 0))
                fail_msg("shard %s: exit %d, errors %d\n%s", shard, r.exit_status, error, r.err);
            assert_string_equal(r.err, ""); /* no shard's directory "held nothing to check" */
            run_free(&r);
        }
        assert_int_equal(total, FILES);
        for (unsigned a = 0; a < FILES; a++)
            assert_int_equal(seen[a], 1);
    }
    run_free(&whole);
}

/* The partition is by path as reported: "./d" and "d" give the same shards. */
static void test_a_leading_dot_slash_does_not_move_a_file(void **state)
{
    (void)state;
    write_corpus();
    for (const char *shard = "1/3"; shard != NULL; shard = shard[0] == '1' ? "3/3" : NULL) {
        struct run a =
            run_srcls(NULL, (const char *[]){"--check", "--quiet", "--shard", shard, "d", NULL});
        struct run b =
            run_srcls(NULL, (const char *[]){"--check", "--quiet", "--shard", shard, "./d", NULL});
        unsigned count = occurrences(a.out, "\n");
        assert_true(count > 0);
        assert_int_equal(occurrences(b.out, "\n"), count);
        for (int i = 1; i <= FILES; i++) {
            char name[32];
            snprintf(name, sizeof name, "/f%d.source.json:", i);
            assert_int_equal(occurrences(a.out, name), occurrences(b.out, name));
        }
        run_free(&a);
        run_free(&b);
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

/* --base REF: a document deleted since is reported by the shard that owns its path alone. */
static void test_a_deleted_document_is_said_by_one_shard(void **state)
{
    (void)state;
    write_corpus();
    assert_int_equal(scratch_git_base("."), 0);
    remove_tree("d/odd/f9.source.json");
    struct run whole =
        run_srcls(NULL, (const char *[]){"--check", "--base", "HEAD", "--quiet", "d", NULL});
    unsigned said = occurrences(whole.out, "f9.source.json");
    assert_true(said > 0);
    run_free(&whole);
    for (unsigned n = 2; n <= 3; n++) {
        unsigned sum = 0;
        for (unsigned i = 1; i <= n; i++) {
            char shard[16];
            snprintf(shard, sizeof shard, "%u/%u", i, n);
            struct run r = run_srcls(NULL, (const char *[]){"--check", "--base", "HEAD", "--quiet",
                                                            "--shard", shard, "d", NULL});
            sum += occurrences(r.out, "f9.source.json");
            run_free(&r);
        }
        assert_int_equal(sum, said);
    }
}

static void test_a_shard_that_is_not_i_of_n_is_a_usage_error(void **state)
{
    (void)state;
    write_corpus();
    static const char *const wrong[] = {"0/2", "3/2", "x", "1/", "/2", "1/0", "-1/2", "1/2x", ""};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        struct run r = run_srcls(NULL, (const char *[]){"--check", "--shard", wrong[i], "d", NULL});
        assert_exit(&r, 2);
        char expected[128];
        snprintf(expected, sizeof expected,
                 "srcls: --shard takes I/N, two positive integers with I <= N, as 1/4 (got '%s')\n",
                 wrong[i]);
        if (strncmp(r.err, expected, strlen(expected)) != 0)
            fail_msg("--shard '%s': %s", wrong[i], r.err);
        assert_string_equal(r.out, "");
        run_free(&r);
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
        TEST(test_shards_are_disjoint_and_cover_the_run),
        TEST(test_a_leading_dot_slash_does_not_move_a_file),
        TEST(test_a_gone_files_baseline_entry_is_fixed_in_one_shard),
        TEST(test_a_deleted_document_is_said_by_one_shard),
        TEST(test_a_shard_that_is_not_i_of_n_is_a_usage_error),
        TEST(test_jobs_give_the_same_bytes_in_every_format),
    };
#undef TEST
    return harness_status(cmocka_run_group_tests(tests, NULL, NULL));
}
