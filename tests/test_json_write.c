/* test_json_write: the JSON writer's strings and numbers, which every report and every LSP
 * message goes through, against plain references: a string escaped a byte at a time (the words
 * the writer skips in one step must be exactly the bytes that need nothing), and integers as
 * printf writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json/json.h"

/* The reference: every byte in turn (UTF-8 sequences checked as the writer does). */
static void reference(struct json_writer *w, const char *text, size_t len, bool replace_invalid)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        char out[8];
        if (c >= 0x80) {
            uint32_t width = json_utf8_sequence_length((const unsigned char *)text + i, len - i);
            if (width > 0 || !replace_invalid) {
                size_t n = width > 0 ? width : 1;
                json_write_bytes(w, text + i, n);
                i += n - 1;
            } else {
                json_write_bytes(w, "\\ufffd", 6);
            }
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
            json_write_bytes(w, text + i, 1);
            continue;
        }
        const char *named = c == '"'    ? "\\\""
                            : c == '\\' ? "\\\\"
                            : c == '\n' ? "\\n"
                            : c == '\r' ? "\\r"
                            : c == '\t' ? "\\t"
                            : c == '\b' ? "\\b"
                            : c == '\f' ? "\\f"
                                        : NULL;
        if (named == NULL)
            snprintf(out, sizeof out, "\\u%04x", c);
        json_write_bytes(w, named != NULL ? named : out, strlen(named != NULL ? named : out));
    }
}

static void same_as_reference(const char *text, size_t len, bool replace_invalid)
{
    struct json_writer got, want;
    json_writer_init(&got, 0);
    json_writer_init(&want, 0);
    json_write_escaped(&got, text, len, replace_invalid);
    reference(&want, text, len, replace_invalid);
    assert_false(got.failed || want.failed);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.buf, want.buf, got.len);
    json_writer_free(&got);
    json_writer_free(&want);
}

/* Every byte value at every place of a plain 24-byte string, and words of one kind each. */
static void test_every_byte_at_every_place_is_escaped_as_a_byte_at_a_time(void **state)
{
    (void)state;
    char text[24];
    for (int b = 0; b < 256; b++) {
        for (size_t at = 0; at < sizeof text; at++) {
            memset(text, 'a', sizeof text);
            text[at] = (char)b;
            for (size_t len = at + 1; len <= sizeof text; len += 7) {
                same_as_reference(text, len, true);
                same_as_reference(text, len, false);
            }
        }
        memset(text, b, sizeof text);
        same_as_reference(text, sizeof text, true);
    }
}

/* Random texts: mostly plain, with UTF-8 (valid and not) and characters to escape. */
static void test_random_texts_are_escaped_as_a_byte_at_a_time(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "path/to/a.json",  "é", "€", "😀", "\xff", "\xc3", "\"", "\\", "\n", "\x01", "\x7f", " ",
        "a long plain run"};
    srand(7);
    for (int round = 0; round < 2000; round++) {
        char text[256];
        size_t len = 0;
        for (int k = rand() % 12; k > 0; k--) {
            const char *p = pieces[rand() % (int)(sizeof pieces / sizeof *pieces)];
            size_t n = strlen(p);
            if (len + n > sizeof text)
                break;
            memcpy(text + len, p, n);
            len += n;
        }
        same_as_reference(text, len, round % 2 == 0);
    }
}

static void test_integers_are_written_as_printf_writes_them(void **state)
{
    (void)state;
    static const int64_t values[] = {
        0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN, INT64_MIN + 1, 4294967296};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        struct json_writer w;
        json_writer_init(&w, 0);
        json_write_int(&w, values[i]);
        char want[32];
        snprintf(want, sizeof want, "%lld", (long long)values[i]);
        assert_string_equal(w.buf, want);
        json_writer_free(&w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_byte_at_every_place_is_escaped_as_a_byte_at_a_time),
        cmocka_unit_test(test_random_texts_are_escaped_as_a_byte_at_a_time),
        cmocka_unit_test(test_integers_are_written_as_printf_writes_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
