/* test_line_index: byte offsets <-> (line, character) in the three encodings an editor or a
 * terminal counts in: UTF-16 code units (LSP's default), UTF-8 bytes, and code points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "json/json.h"

/* An index over an exact-size heap copy of `text`, so that AddressSanitizer sees any read past
 * the end. */
struct indexed {
    struct line_index index;
    char *text;
};

static void index_text(struct indexed *t, const char *text)
{
    size_t len = strlen(text);
    t->text = malloc(len > 0 ? len : 1);
    assert_non_null(t->text);
    memcpy(t->text, text, len);
    assert_int_equal(line_index_build(&t->index, t->text, len), 0);
}

static void indexed_free(struct indexed *t)
{
    line_index_free(&t->index);
    free(t->text);
}

static const char *encoding_name(enum position_encoding encoding)
{
    switch (encoding) {
    case POSITION_UTF16: return "UTF-16";
    case POSITION_UTF8: return "UTF-8";
    case POSITION_UTF32: return "UTF-32";
    }
    return "?";
}

static void assert_position(const struct indexed *t, uint32_t offset,
                            enum position_encoding encoding, uint32_t line, uint32_t character)
{
    struct text_position pos = line_index_position(&t->index, offset, encoding);
    if (pos.line != line || pos.character != character)
        fail_msg("%s position of byte %u: got %u:%u, expected %u:%u", encoding_name(encoding),
                 offset, pos.line, pos.character, line, character);
}

static void assert_offset(const struct indexed *t, uint32_t line, uint32_t character,
                          enum position_encoding encoding, uint32_t offset)
{
    struct text_position pos = {line, character};
    uint32_t got = line_index_offset(&t->index, pos, encoding);
    if (got != offset)
        fail_msg("%s offset of %u:%u: got byte %u, expected %u", encoding_name(encoding), line,
                 character, got, offset);
}

static void test_ascii_lines(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "abc\ndef\n");
    assert_int_equal(t.index.count, 3);
    for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++) {
        enum position_encoding encoding = (enum position_encoding)e;
        assert_position(&t, 0, encoding, 0, 0);
        assert_position(&t, 3, encoding, 0, 3); /* on the line break: the line's end */
        assert_position(&t, 5, encoding, 1, 1);
        assert_position(&t, 8, encoding, 2, 0); /* after the last line break */
        assert_offset(&t, 1, 2, encoding, 6);
        assert_offset(&t, 2, 0, encoding, 8);
    }
    indexed_free(&t);
}

/* "aé€😀b": 1 + 2 + 3 + 4 + 1 bytes; 😀 is a surrogate pair in UTF-16. */
static void test_multibyte_characters_in_each_encoding(void **state)
{
    (void)state;
    static const struct {
        uint32_t offset, utf16, utf8, utf32;
    } boundaries[] = {
        {0, 0, 0, 0}, {1, 1, 1, 1}, {3, 2, 3, 2}, {6, 3, 6, 3}, {10, 5, 10, 4}, {11, 6, 11, 5},
    };
    struct indexed t;
    index_text(&t, "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
                   "b");
    for (size_t i = 0; i < sizeof boundaries / sizeof boundaries[0]; i++) {
        assert_position(&t, boundaries[i].offset, POSITION_UTF16, 0, boundaries[i].utf16);
        assert_position(&t, boundaries[i].offset, POSITION_UTF8, 0, boundaries[i].utf8);
        assert_position(&t, boundaries[i].offset, POSITION_UTF32, 0, boundaries[i].utf32);
        assert_offset(&t, 0, boundaries[i].utf16, POSITION_UTF16, boundaries[i].offset);
        assert_offset(&t, 0, boundaries[i].utf8, POSITION_UTF8, boundaries[i].offset);
        assert_offset(&t, 0, boundaries[i].utf32, POSITION_UTF32, boundaries[i].offset);
    }
    indexed_free(&t);
}

static void test_offset_inside_a_character_counts_from_its_start(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "a\xC3\xA9\xF0\x9F\x98\x80"
                   "b");
    assert_position(&t, 2, POSITION_UTF16, 0, 1); /* inside é */
    assert_position(&t, 2, POSITION_UTF32, 0, 1);
    assert_position(&t, 5, POSITION_UTF16, 0, 2); /* inside 😀 */
    assert_position(&t, 5, POSITION_UTF32, 0, 2);
    assert_position(&t, 5, POSITION_UTF8, 0, 3);
    assert_offset(&t, 0, 2, POSITION_UTF8, 1); /* a UTF-8 column inside é rounds down */
    assert_offset(&t, 0, 6, POSITION_UTF8, 3); /* inside 😀 */
    indexed_free(&t);
}

static void test_character_inside_a_surrogate_pair_rounds_down(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "\xF0\x9F\x98\x80x\xF0\x9F\x98\x80");
    assert_offset(&t, 0, 0, POSITION_UTF16, 0);
    assert_offset(&t, 0, 1, POSITION_UTF16, 0);
    assert_offset(&t, 0, 2, POSITION_UTF16, 4);
    assert_offset(&t, 0, 3, POSITION_UTF16, 5);
    assert_offset(&t, 0, 4, POSITION_UTF16, 5);
    assert_offset(&t, 0, 5, POSITION_UTF16, 9);
    indexed_free(&t);
}

/* LF, CRLF and a lone CR each end a line, as LSP says. */
static void test_crlf_and_lone_cr_end_lines(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "a\r\nb\rc\nd\r\r\n");
    assert_int_equal(t.index.count, 6);
    static const uint32_t starts[] = {0, 3, 5, 7, 9, 11};
    for (uint32_t line = 0; line < 6; line++) {
        assert_int_equal(line_index_start(&t.index, line), starts[line]);
        assert_position(&t, starts[line], POSITION_UTF16, line, 0);
        assert_offset(&t, line, 0, POSITION_UTF16, starts[line]);
    }
    assert_position(&t, 1, POSITION_UTF16, 0, 1);  /* on the CR */
    assert_position(&t, 2, POSITION_UTF16, 0, 1);  /* between CR and LF: still the line's end */
    assert_position(&t, 4, POSITION_UTF8, 1, 1);   /* on a lone CR */
    assert_position(&t, 8, POSITION_UTF32, 3, 1);  /* the CR after "d" */
    assert_position(&t, 10, POSITION_UTF32, 4, 0); /* inside the CRLF of an empty line */
    indexed_free(&t);
}

static void test_position_past_the_line_end_clamps(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "ab\r\n\xC3\xA9\ncd");
    for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++) {
        enum position_encoding encoding = (enum position_encoding)e;
        assert_offset(&t, 0, 99, encoding, 2); /* before the CRLF, not inside it */
        assert_offset(&t, 1, 2, encoding, 6);  /* past é, in any count */
        assert_offset(&t, 1, 99, encoding, 6);
        assert_offset(&t, 2, 2, encoding, 9); /* the last line ends at the text's end */
        assert_offset(&t, 2, 99, encoding, 9);
        assert_offset(&t, 3, 0, encoding, 9); /* lines past the last: the text's length */
        assert_offset(&t, 1000, 7, encoding, 9);
        assert_position(&t, 1000, encoding, 2, 2); /* offsets past the end: the end */
    }
    indexed_free(&t);
}

static void test_empty_text(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "");
    assert_int_equal(t.index.count, 1);
    for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++) {
        enum position_encoding encoding = (enum position_encoding)e;
        assert_position(&t, 0, encoding, 0, 0);
        assert_offset(&t, 0, 0, encoding, 0);
        assert_offset(&t, 0, 3, encoding, 0);
        assert_offset(&t, 2, 3, encoding, 0);
    }
    indexed_free(&t);
}

/* Every character boundary of a mixed text maps to a position and back to itself. */
static void test_round_trip_at_every_character_boundary(void **state)
{
    (void)state;
    static const char text[] = "{\r\n  \"n\xC3\xA9\": \"\xE2\x82\xAC\xF0\x9F\x98\x80\",\r"
                               "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\n\n  x\xC3\xA9\xE2\x82\xAC";
    struct indexed t;
    index_text(&t, text);
    uint32_t len = (uint32_t)strlen(text);
    unsigned checked = 0;
    for (uint32_t offset = 0; offset <= len; offset++) {
        unsigned char c = offset < len ? (unsigned char)text[offset] : 0;
        if ((c & 0xC0) == 0x80)
            continue; /* not a character boundary */
        if (offset > 0 && text[offset - 1] == '\r' && c == '\n')
            continue; /* inside a CRLF: not a place a position can name */
        for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++) {
            enum position_encoding encoding = (enum position_encoding)e;
            struct text_position pos = line_index_position(&t.index, offset, encoding);
            uint32_t back = line_index_offset(&t.index, pos, encoding);
            if (back != offset)
                fail_msg("%s: byte %u -> %u:%u -> byte %u", encoding_name(encoding), offset,
                         pos.line, pos.character, back);
        }
        checked++;
    }
    assert_int_equal(checked, 26);
    indexed_free(&t);
}

/* ---- long lines: checkpoints against the plain walk from the line's start ---- */

static uint32_t naive_width(unsigned char c)
{
    return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

/* The column of `offset` counted from `start`, character by character, as the index did before
 * it had checkpoints; the reference the fast path must agree with. */
static uint32_t naive_column(const char *text, uint32_t start, uint32_t offset,
                             enum position_encoding encoding)
{
    const unsigned char *s = (const unsigned char *)text;
    if (encoding == POSITION_UTF8) {
        while (offset > start && (s[offset] & 0xC0) == 0x80)
            offset--;
        return offset - start;
    }
    uint32_t units = 0;
    for (uint32_t i = start; i < offset;) {
        uint32_t width = naive_width(s[i]);
        if (i + width > offset)
            break;
        units += (width == 4 && encoding == POSITION_UTF16) ? 2 : 1;
        i += width;
    }
    return units;
}

/* The byte of `character` on the line [start, end), walked from its start. */
static uint32_t naive_offset(const char *text, uint32_t start, uint32_t end, uint32_t character,
                             enum position_encoding encoding)
{
    const unsigned char *s = (const unsigned char *)text;
    uint32_t units = 0, i = start;
    while (i < end && units < character) {
        uint32_t width = naive_width(s[i]);
        uint32_t cost = (width == 4 && encoding == POSITION_UTF16) ? 2 : 1;
        if (units + cost > character)
            break;
        units += cost;
        i += width;
        if (i > end)
            i = end;
    }
    return i;
}

/* Lines of 0 to 9,000 bytes of 1- to 4-byte characters, with stray continuation bytes and cut
 * sequences, so that characters straddle the checkpoint blocks in every way: every offset's
 * position equals the plain walk's, and every character boundary round-trips. */
static void test_long_lines_agree_with_the_plain_walk(void **state)
{
    (void)state;
    static const char *const pieces[] = {"a",    "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                         "\x80", "\xE2\x82", "\r\n",         "\n",
                                         "\r"};
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    uint32_t seed = 12345;
    while (len + 8 < cap - 1) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = (seed >> 16) % 1000;
        /* Line breaks are rare, so most lines are several blocks long. */
        size_t pick = r < 3 ? 6 + r : (r % 6);
        const char *p = pieces[pick];
        memcpy(text + len, p, strlen(p));
        len += strlen(p);
    }
    text[len] = '\0';
    struct indexed t;
    index_text(&t, text);
    assert_true(t.index.count > 10);
    for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++) {
        enum position_encoding encoding = (enum position_encoding)e;
        for (uint32_t offset = 0; offset <= len; offset++) {
            struct text_position pos = line_index_position(&t.index, offset, encoding);
            uint32_t start = line_index_start(&t.index, pos.line);
            uint32_t end = pos.line + 1 < t.index.count ? line_index_start(&t.index, pos.line + 1)
                                                        : (uint32_t)len;
            if (offset < start || offset > end)
                fail_msg("byte %u placed on line %u [%u, %u)", offset, pos.line, start, end);
            uint32_t content_end = end;
            while (content_end > start && pos.line + 1 < t.index.count &&
                   (text[content_end - 1] == '\n' || text[content_end - 1] == '\r'))
                content_end--;
            uint32_t at = offset < content_end ? offset : content_end; /* a break: the line's end */
            uint32_t want = naive_column(text, start, at, encoding);
            if (pos.character != want)
                fail_msg("%s: byte %u: column %u, the plain walk says %u", encoding_name(encoding),
                         offset, pos.character, want);
        }
    }
    /* And back: every column of every line, and a few past its end (UTF-8 columns are bytes:
     * no walk, no checkpoints). */
    for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++) {
        enum position_encoding encoding = (enum position_encoding)e;
        if (encoding == POSITION_UTF8)
            continue;
        for (uint32_t line = 0; line < t.index.count; line++) {
            uint32_t start = line_index_start(&t.index, line);
            uint32_t end =
                line + 1 < t.index.count ? line_index_start(&t.index, line + 1) : (uint32_t)len;
            while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r'))
                end--;
            uint32_t last = naive_column(text, start, end, encoding) + 2;
            for (uint32_t character = 0; character <= last; character++) {
                uint32_t want = naive_offset(text, start, end, character, encoding);
                uint32_t got =
                    line_index_offset(&t.index, (struct text_position){line, character}, encoding);
                if (got != want)
                    fail_msg("%s: %u:%u -> byte %u, the plain walk says %u",
                             encoding_name(encoding), line, character, got, want);
            }
        }
    }
    indexed_free(&t);
    free(text);
}

/* A Position and a Range as LSP (and the JSON report) write them: 0-based, in the encoding. */
static void test_write_position_and_range(void **state)
{
    (void)state;
    struct indexed t;
    index_text(&t, "ab\n\xf0\x9f\x99\x82x\n"); /* an emoji: 2 UTF-16 units, 4 bytes; x at 7 */
    struct json_writer w;
    json_writer_init(&w, 0);
    line_index_write_range(&w, &t.index, 1, 7, POSITION_UTF16);
    assert_string_equal(w.buf, "{\"start\":{\"line\":0,\"character\":1},"
                               "\"end\":{\"line\":1,\"character\":2}}");
    json_writer_free(&w);
    json_writer_init(&w, 0);
    json_write_array_begin(&w);
    line_index_write_position(&w, &t.index, 7, POSITION_UTF8);
    line_index_write_position(&w, &t.index, 7, POSITION_UTF32);
    json_write_array_end(&w);
    assert_string_equal(w.buf, "[{\"line\":1,\"character\":4},{\"line\":1,\"character\":1}]");
    json_writer_free(&w);
    indexed_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_lines),
        cmocka_unit_test(test_multibyte_characters_in_each_encoding),
        cmocka_unit_test(test_offset_inside_a_character_counts_from_its_start),
        cmocka_unit_test(test_character_inside_a_surrogate_pair_rounds_down),
        cmocka_unit_test(test_crlf_and_lone_cr_end_lines),
        cmocka_unit_test(test_position_past_the_line_end_clamps),
        cmocka_unit_test(test_empty_text),
        cmocka_unit_test(test_round_trip_at_every_character_boundary),
        cmocka_unit_test(test_long_lines_agree_with_the_plain_walk),
        cmocka_unit_test(test_write_position_and_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
