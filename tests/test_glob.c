/* test_glob: the one glob dialect (server/core/domain/glob.c) that srcls.json's "include",
 * "exclude" and "ignore" files, and --exclude, are matched with: '*' and '?' within a segment,
 * "**" for any number of whole segments, '\' making a character plain, a glob without '/'
 * against the last segment, nothing else special. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "domain/domain.h"

static void test_star_and_question_stay_within_a_segment(void **state)
{
    (void)state;
    assert_true(glob_match("gen/*.json", "gen/a.json"));
    assert_false(glob_match("gen/*.json", "gen/sub/a.json"));
    assert_true(glob_match("gen/?.json", "gen/a.json"));
    assert_false(glob_match("gen/?.json", "gen/ab.json"));
    assert_false(glob_match("a?b", "a/b"));
    assert_true(glob_match("*", "anything.json"));
}

static void test_double_star_spans_whole_segments(void **state)
{
    (void)state;
    assert_true(glob_match("sources/**/*.json", "sources/a.json")); /* none */
    assert_true(glob_match("sources/**/*.json", "sources/x/y/a.json"));
    assert_false(glob_match("sources/**/*.json", "other/x/a.json"));
    assert_true(glob_match("gen/**", "gen/x/y/z.json"));
    assert_true(glob_match("**/legacy/*", "a/b/legacy/x.json"));
    assert_true(glob_match("**/legacy/*", "legacy/x.json"));
    assert_false(glob_match("x**/a", "xy/z/a")); /* "**" within a segment is two '*' */
    assert_true(glob_match("x**/a", "xy/a"));
}

static void test_a_glob_without_slash_matches_the_last_segment(void **state)
{
    (void)state;
    assert_true(glob_match("*.draft.json", "deep/down/x.draft.json"));
    assert_true(glob_match("legacy", "a/legacy"));
    assert_false(glob_match("legacy", "legacy/a"));
    assert_true(glob_match("./gen/*", "gen/a")); /* a leading "./" in the glob is dropped */
}

static void test_backslash_makes_a_character_plain_and_nothing_else_is_special(void **state)
{
    (void)state;
    assert_true(glob_match("a\\*b.json", "a*b.json"));
    assert_false(glob_match("a\\*b.json", "axb.json"));
    assert_true(glob_match("a\\\\b", "a\\b"));
    assert_true(glob_match("[ab].json", "[ab].json")); /* no brackets: plain characters */
    assert_false(glob_match("[ab].json", "a.json"));
    assert_true(glob_match("{a,b}", "{a,b}"));
}

static void test_a_literal_glob_matches_its_path_alone(void **state)
{
    (void)state;
    struct arena arena;
    arena_init(&arena);
    const char *glob = glob_literal(&arena, "dir/a*b?.json");
    assert_string_equal(glob, "dir/a\\*b\\?.json");
    assert_true(glob_match(glob, "dir/a*b?.json"));
    assert_false(glob_match(glob, "dir/axby.json"));
    arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_star_and_question_stay_within_a_segment),
        cmocka_unit_test(test_double_star_spans_whole_segments),
        cmocka_unit_test(test_a_glob_without_slash_matches_the_last_segment),
        cmocka_unit_test(test_backslash_makes_a_character_plain_and_nothing_else_is_special),
        cmocka_unit_test(test_a_literal_glob_matches_its_path_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
