/* test_review_git: the core's readers of git's output, shared by the CLI (--base) and the
 * editor (srcls.reviewBase): the `git diff --name-status -z -M` listing and the header of each
 * object `git cat-file --batch` answers with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "check/check.h"

static int header(const char *line, size_t max, struct review_object *object)
{
    return review_batch_header(line, strlen(line), max, object);
}

static void test_a_batch_header_gives_the_id_type_and_size(void **state)
{
    (void)state;
    struct review_object o;
    assert_int_equal(header("3b18e512dba79e4c8300dd08aeb37f8e728b8dad blob 12", 100, &o), 1);
    assert_string_equal(o.oid, "3b18e512dba79e4c8300dd08aeb37f8e728b8dad");
    assert_string_equal(o.type, "blob");
    assert_int_equal(o.size, 12);
    /* a SHA-256 repository's ids are 64 digits */
    char sha256[128];
    memset(sha256, 'a', 64);
    strcpy(sha256 + 64, " commit 0");
    assert_int_equal(header(sha256, 100, &o), 1);
    assert_int_equal(strlen(o.oid), 64);
    assert_string_equal(o.type, "commit");
}

static void test_a_missing_object_and_a_broken_header_are_told_apart(void **state)
{
    (void)state;
    struct review_object o;
    assert_int_equal(header("0123abc:docs/a b.json missing", 100, &o), 0);
    assert_int_equal(header("", 100, &o), -1);
    assert_int_equal(header("abc blob", 100, &o), -1);      /* no size */
    assert_int_equal(header("abc blob 12 x", 100, &o), -1); /* a fourth field */
    assert_int_equal(header("abc blob 1x", 100, &o), -1);   /* not a number */
    assert_int_equal(header("abc blob 101", 100, &o), -1);  /* over the bound */
    assert_int_equal(header("abc blob 99999999999999999999999", SIZE_MAX, &o), -1); /* overflow */
    assert_int_equal(header("abc averyveryverylongtype 1", 100, &o), -1);
    char long_id[100];
    memset(long_id, 'a', 65);
    strcpy(long_id + 65, " blob 1");
    assert_int_equal(header(long_id, 100, &o), -1);
}

static void test_the_listing_gives_each_change_and_the_old_path_of_a_move(void **state)
{
    (void)state;
    static const char listing[] = "M\0a.json\0R087\0old/b.json\0new/b.json\0D\0c.json\0";
    size_t at = 0;
    struct review_change change;
    assert_true(review_listing_next(listing, sizeof listing - 1, &at, &change));
    assert_int_equal(change.status, 'M');
    assert_string_equal(change.path, "a.json");
    assert_null(change.old_path);
    assert_true(review_listing_next(listing, sizeof listing - 1, &at, &change));
    assert_int_equal(change.status, 'R');
    assert_string_equal(change.path, "new/b.json");
    assert_string_equal(change.old_path, "old/b.json");
    assert_true(review_listing_next(listing, sizeof listing - 1, &at, &change));
    assert_int_equal(change.status, 'D');
    assert_false(review_listing_next(listing, sizeof listing - 1, &at, &change));
    /* a move cut short is no entry */
    at = 0;
    assert_false(review_listing_next("R100\0old\0", 9, &at, &change));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_batch_header_gives_the_id_type_and_size),
        cmocka_unit_test(test_a_missing_object_and_a_broken_header_are_told_apart),
        cmocka_unit_test(test_the_listing_gives_each_change_and_the_old_path_of_a_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
