/* test_vector: the growth of every hand-grown array — the first allocation, doubling, a jump to
 * what is needed, no move when there is room, and a byte size that would overflow size_t
 * refused rather than wrapped to a small allocation; and an array in an arena copied with room
 * to grow (arena_copy_array). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>

#include "base/base.h"

static void test_first_growth_allocates_the_minimum_capacity(void **state)
{
    (void)state;
    size_t capacity = 0;
    int *items = vector_grow(NULL, &capacity, 1, sizeof *items);
    assert_non_null(items);
    assert_int_equal(capacity, VECTOR_MIN_CAPACITY);
    items[VECTOR_MIN_CAPACITY - 1] = 1; /* the whole capacity is usable (ASan checks) */
    free(items);
}

static void test_growth_doubles_the_capacity(void **state)
{
    (void)state;
    size_t capacity = 0;
    int *items = vector_grow(NULL, &capacity, VECTOR_MIN_CAPACITY, sizeof *items);
    assert_non_null(items);
    items = vector_grow(items, &capacity, VECTOR_MIN_CAPACITY + 1, sizeof *items);
    assert_non_null(items);
    assert_int_equal(capacity, 2 * VECTOR_MIN_CAPACITY);
    free(items);
}

static void test_growth_takes_what_is_needed_when_that_is_more_than_double(void **state)
{
    (void)state;
    size_t capacity = 0;
    char *bytes = vector_grow(NULL, &capacity, 100000, 1);
    assert_non_null(bytes);
    assert_int_equal(capacity, 100000);
    bytes[99999] = 'x';
    free(bytes);
}

static void test_an_array_with_room_is_returned_as_it_is(void **state)
{
    (void)state;
    size_t capacity = 0;
    int *items = vector_grow(NULL, &capacity, 3, sizeof *items);
    assert_non_null(items);
    int *same = vector_grow(items, &capacity, VECTOR_MIN_CAPACITY, sizeof *items);
    assert_ptr_equal(same, items);
    assert_int_equal(capacity, VECTOR_MIN_CAPACITY);
    free(items);
}

static void test_appends_keep_every_item_and_grow_by_doubling(void **state)
{
    (void)state;
    size_t count = 0, capacity = 0, growths = 0;
    uint32_t *items = NULL;
    for (uint32_t i = 0; i < 1000; i++) {
        size_t before = capacity;
        uint32_t *grown = vector_grow(items, &capacity, count + 1, sizeof *grown);
        assert_non_null(grown);
        growths += capacity != before;
        items = grown;
        items[count++] = i;
    }
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(items[i], i);
    assert_int_equal(capacity, 1024); /* 16, 32, ..., 1024 */
    assert_int_equal(growths, 7);
    free(items);
}

static void test_a_byte_size_over_size_max_fails_instead_of_wrapping(void **state)
{
    (void)state;
    size_t capacity = 0;
    uint64_t *items = vector_grow(NULL, &capacity, 4, sizeof *items);
    assert_non_null(items);
    size_t before = capacity;
    /* (SIZE_MAX / 8 + 1) * 8 wraps to 0 in size_t arithmetic. */
    assert_null(vector_grow(items, &capacity, SIZE_MAX / sizeof *items + 1, sizeof *items));
    assert_int_equal(capacity, before);
    assert_null(vector_grow(items, &capacity, SIZE_MAX, 2));
    assert_int_equal(capacity, before);
    items[before - 1] = 7; /* still the caller's, still whole */
    free(items);
    size_t none = 0;
    assert_null(vector_grow(NULL, &none, SIZE_MAX / 3 + 1, 3));
    assert_int_equal(none, 0);
}

static void test_items_of_no_size_are_refused(void **state)
{
    (void)state;
    size_t capacity = 0;
    assert_null(vector_grow(NULL, &capacity, 1, 0));
    assert_int_equal(capacity, 0);
}

static void test_arena_array_copied_with_room(void **state)
{
    (void)state;
    struct arena arena;
    arena_init(&arena);
    int *first = arena_copy_array(&arena, NULL, 0, 2, sizeof *first);
    assert_non_null(first);
    first[0] = 1;
    first[1] = 2;
    int *grown = arena_copy_array(&arena, first, 2, 64, sizeof *grown);
    assert_non_null(grown);
    assert_ptr_not_equal(grown, first);
    assert_int_equal(grown[0], 1);
    assert_int_equal(grown[1], 2);
    grown[63] = 3;                 /* the whole capacity is usable (ASan checks) */
    assert_int_equal(first[1], 2); /* the old array is untouched */
    assert_false(arena.failed);
    assert_null(arena_copy_array(&arena, grown, 2, SIZE_MAX / 2, sizeof *grown));
    assert_true(arena.failed); /* a size that overflows: refused, not wrapped */
    arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_growth_allocates_the_minimum_capacity),
        cmocka_unit_test(test_growth_doubles_the_capacity),
        cmocka_unit_test(test_growth_takes_what_is_needed_when_that_is_more_than_double),
        cmocka_unit_test(test_an_array_with_room_is_returned_as_it_is),
        cmocka_unit_test(test_appends_keep_every_item_and_grow_by_doubling),
        cmocka_unit_test(test_a_byte_size_over_size_max_fails_instead_of_wrapping),
        cmocka_unit_test(test_items_of_no_size_are_refused),
        cmocka_unit_test(test_arena_array_copied_with_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
