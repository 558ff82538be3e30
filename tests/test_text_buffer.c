/* test_text_buffer: an editor's text with room on both sides — random edits agree with a plain
 * copy of the text edited the slow way, and typing near the start moves the bytes before the
 * edit, not the text after it (its bytes stay where they are, and the room made when the text
 * was set is enough for a thousand keystrokes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static uint64_t rng_state = 0x5eed;

static uint32_t rng(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

static void set(struct text_buffer *t, const char *text, size_t len)
{
    char *into = text_buffer_reserve(t, len);
    assert_non_null(into);
    memcpy(into, text, len);
    text_buffer_set_length(t, len);
}

static void test_random_edits_agree_with_a_plain_copy(void **state)
{
    (void)state;
    size_t cap = 1 << 16, len = 3000;
    char *plain = malloc(cap);
    assert_non_null(plain);
    for (size_t i = 0; i < len; i++)
        plain[i] = (char)('a' + rng(26));
    struct text_buffer t = {0};
    set(&t, plain, len);
    char with[40];
    for (int step = 0; step < 20000; step++) {
        size_t start = rng((uint32_t)len + 1), end = start + rng(8);
        if (end > len)
            end = len;
        if (rng(4) == 0) /* near an end, where the room on that side is used */
            start = end = rng(2) ? rng(3) : len - rng(len < 3 ? (uint32_t)len + 1 : 3);
        size_t n = rng(3) == 0 ? 0 : rng(sizeof with);
        for (size_t i = 0; i < n; i++)
            with[i] = (char)('A' + rng(26));
        if (len - (end - start) + n >= cap)
            n = 0;
        assert_int_equal(text_buffer_splice(&t, start, end, with, n), 0);
        memmove(plain + start + n, plain + end, len - end);
        memcpy(plain + start, with, n);
        len = len - (end - start) + n;
        assert_int_equal(t.len, len);
        assert_memory_equal(text_buffer_text(&t), plain, len);
        assert_int_equal(text_buffer_text(&t)[len], '\0');
    }
    text_buffer_free(&t);
    free(plain);
}

static void test_typing_near_the_start_leaves_the_rest_in_place(void **state)
{
    (void)state;
    size_t len = 1 << 20;
    char *text = malloc(len);
    assert_non_null(text);
    memset(text, 'x', len);
    struct text_buffer t = {0};
    set(&t, text, len);
    int layouts = 0;
    const char *tail = NULL;
    for (int i = 0; i < 1000; i++) {
        size_t at = 10 + (size_t)i / 2;
        bool insert = i % 4 != 3; /* three typed, one deleted */
        const char *base = t.base;
        assert_int_equal(text_buffer_splice(&t, at, insert ? at : at + 1, "y", insert), 0);
        if (t.base != base) {
            layouts++;
        } else if (tail != NULL) { /* the last byte did not move */
            assert_ptr_equal(text_buffer_text(&t) + t.len - 1, tail);
        }
        tail = text_buffer_text(&t) + t.len - 1;
    }
    assert_int_equal(layouts, 0); /* the room made when the text was set suffices */
    text_buffer_free(&t);
    free(text);
}

static void test_an_edit_of_a_buffer_never_set(void **state)
{
    (void)state;
    struct text_buffer t = {0};
    assert_int_equal(text_buffer_splice(&t, 0, 0, "{}", 2), 0);
    assert_string_equal(text_buffer_text(&t), "{}");
    assert_int_equal(t.len, 2);
    assert_int_equal(text_buffer_splice(&t, 0, 3, "", 0), -1); /* past the end: refused */
    text_buffer_free(&t);
    assert_int_equal(text_buffer_splice(&t, 0, 0, "", 0), 0);
    assert_string_equal(text_buffer_text(&t), "");
    text_buffer_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_edits_agree_with_a_plain_copy),
        cmocka_unit_test(test_typing_near_the_start_leaves_the_rest_in_place),
        cmocka_unit_test(test_an_edit_of_a_buffer_never_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
