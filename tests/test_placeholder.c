/* test_placeholder: the pattern language of srcls.json "placeholders" (what a pattern may be,
 * what it matches: flexible spaces, a name's characters, inside a longer value), and rendering a
 * template with the variables' values: escaped for JSON, missing variables left and listed, and
 * every offset of the rendered text placed back on the template. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "json/json.h"
#include "domain/domain.h"

static struct placeholder_pattern parse(const char *text)
{
    struct placeholder_pattern p;
    const char *wrong = placeholder_pattern_parse(text, strlen(text), &p);
    if (wrong != NULL)
        fail_msg("%s: %s", text, wrong);
    return p;
}

static void test_a_pattern_holds_name_once_after_some_text(void **state)
{
    (void)state;
    struct placeholder_pattern p;
    const char *bad[] = {"",
                         "${X}",
                         "NAME}",
                         "  NAME",
                         "${NAME}{NAME}",
                         "\"${NAME}\"",
                         "${NAME}\\",
                         "${NAME}\t",
                         "$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$NAME"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_non_null(placeholder_pattern_parse(bad[i], strlen(bad[i]), &p));
    const char *good[] = {"${NAME}", "{{ NAME }}", "$NAME", "%NAME%", "<<NAME>>"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_null(placeholder_pattern_parse(good[i], strlen(good[i]), &p));
    assert_true(placeholder_name_valid("DB_PASSWORD", 11));
    assert_true(placeholder_name_valid("db.password_2", 13));
    assert_false(placeholder_name_valid("2DB", 3));
    assert_false(placeholder_name_valid("", 0));
}

static void expect_match(const struct placeholder_pattern *p, uint32_t count, const char *text,
                         const char *whole, const char *name)
{
    struct placeholder_match m;
    if (!placeholder_find(p, count, text, strlen(text), 0, &m))
        fail_msg("no placeholder in %s", text);
    assert_int_equal(m.end - m.start, strlen(whole));
    assert_memory_equal(text + m.start, whole, strlen(whole));
    assert_int_equal(m.name_end - m.name_start, strlen(name));
    assert_memory_equal(text + m.name_start, name, strlen(name));
}

static void test_spaces_in_a_pattern_match_any_run_of_spaces(void **state)
{
    (void)state;
    struct placeholder_pattern p[2] = {parse("${NAME}"), parse("{{ NAME }}")};
    expect_match(p, 2, "${DB_PASSWORD}", "${DB_PASSWORD}", "DB_PASSWORD");
    expect_match(p, 2, "{{DB}}", "{{DB}}", "DB");
    expect_match(p, 2, "{{   DB \t}}", "{{   DB \t}}", "DB");
    expect_match(p, 2, "jdbc:${HOST}:5432", "${HOST}", "HOST");
    expect_match(p, 2, "${} ${1X} ${a.b}", "${a.b}", "a.b");
    struct placeholder_match m;
    assert_false(placeholder_find(p, 2, "${DB", 4, 0, &m));
    assert_false(placeholder_find(p, 2, "{ {DB}}", 7, 0, &m));
    assert_false(placeholder_find(p, 2, "$DB", 3, 0, &m));
    assert_false(placeholder_find(p, 0, "${DB}", 5, 0, &m));
    size_t start;
    static const char typing[] = "jdbc:${DB_H";
    assert_true(placeholder_open_before(p, 2, typing, 0, sizeof typing - 1, &start));
    assert_int_equal(start, 5);
    assert_true(placeholder_open_before(p, 2, "{{  D", 0, 5, &start));
    assert_int_equal(start, 0);
    assert_false(placeholder_open_before(p, 2, "${DB}x", 0, 6, &start));
    assert_false(placeholder_open_before(p, 2, "jdbc:${DB", 6, 9, &start)); /* before `from` */
    struct placeholder_pattern bare = parse("$NAME"); /* no suffix: the name as far as it goes */
    expect_match(&bare, 1, "x$HOST:1", "$HOST", "HOST");
}

static void test_a_string_value_is_whole_or_holds_placeholders(void **state)
{
    (void)state;
    struct placeholder_pattern p = parse("${NAME}");
    static const char text[] = "{\"a\": \"${A}\", \"b\": \"x${B}y\", \"c\": 1}";
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, text, sizeof text - 1, NULL), 0);
    uint32_t a = json_object_get(&doc, doc.root, "a", 1),
             b = json_object_get(&doc, doc.root, "b", 1);
    uint32_t c = json_object_get(&doc, doc.root, "c", 1);
    struct placeholder_match m;
    assert_true(placeholder_is_whole(&p, 1, &doc, a));
    assert_false(placeholder_is_whole(&p, 1, &doc, b));
    assert_true(placeholder_in_string(&p, 1, &doc, b, 0, &m));
    assert_memory_equal(text + m.start, "${B}", 4); /* offsets in the document */
    assert_false(placeholder_in_string(&p, 1, &doc, b, m.end, &m));
    assert_false(placeholder_in_string(&p, 1, &doc, c, 0, &m));
    json_doc_free(&doc);
}

static void test_rendering_escapes_values_lists_missing_and_maps_back(void **state)
{
    (void)state;
    struct placeholder_pattern p = parse("${NAME}");
    static const char text[] = "{\"a\": \"${A}\", \"b\": \"x${B}y${GONE}\", \"c\": \"${A}\"}";
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, text, sizeof text - 1, NULL), 0);
    const struct placeholder_variable vars[] = {{"A", "q\"\\\n", 1, 4}, {"B", "", 1, 0}};
    struct placeholder_render r;
    assert_int_equal(placeholder_render(&p, 1, &doc, vars, 2, &r), 0);
    assert_string_equal(r.text.buf,
                        "{\"a\": \"q\\\"\\\\\\n\", \"b\": \"xy${GONE}\", \"c\": \"q\\\"\\\\\\n\"}");
    assert_int_equal(r.missing_count, 1);
    assert_memory_equal(text + r.missing[0].start, "${GONE}", 7);
    assert_int_equal(r.segment_count, 3);
    /* an offset before any substitution, inside one, after one */
    const char *rendered_b = strstr(r.text.buf, "\"xy");
    const char *template_b = strstr(text, "\"x$");
    assert_int_equal(placeholder_render_map(&r, 1, false), 1);
    uint32_t in_a = (uint32_t)(strchr(r.text.buf + 7, '\\') - r.text.buf);
    assert_int_equal(placeholder_render_map(&r, in_a, false), 7);    /* "${A}" starts */
    assert_int_equal(placeholder_render_map(&r, in_a, true), 7 + 4); /* and ends */
    assert_int_equal(placeholder_render_map(&r, (uint32_t)(rendered_b - r.text.buf), false),
                     (uint32_t)(template_b - text));
    assert_int_equal(placeholder_render_map(&r, (uint32_t)r.text.len, true), sizeof text - 1);
    placeholder_render_free(&r);
    json_doc_free(&doc);
}

/* A value is escaped as json_write escapes a string (control characters, DEL), but a byte that is
 * not UTF-8 stays as it is: a plain substitution would write it, and the rendering's parse says
 * so (json-syntax on the placeholder), where a U+FFFD would hide it. */
static void test_rendering_keeps_bytes_that_are_not_utf8(void **state)
{
    (void)state;
    struct placeholder_pattern p = parse("${NAME}");
    static const char text[] = "{\"a\": \"${A}\", \"b\": \"${B}\"}";
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, text, sizeof text - 1, NULL), 0);
    const struct placeholder_variable vars[] = {{"A", "\b\x7f\xc3\xa9", 1, 4},
                                                {"B", "x\xffy", 1, 3}};
    struct placeholder_render r;
    assert_int_equal(placeholder_render(&p, 1, &doc, vars, 2, &r), 0);
    assert_string_equal(r.text.buf, "{\"a\": \"\\b\\u007f\xc3\xa9\", \"b\": \"x\xffy\"}");
    struct json_doc rendered;
    assert_int_equal(json_parse(&rendered, r.text.buf, r.text.len, NULL), 0);
    assert_int_equal(rendered.error_count, 1); /* the byte 0xff, in "b" alone */
    struct json_str a =
        json_node_string(&rendered, json_object_get(&rendered, rendered.root, "a", 1));
    assert_int_equal(a.len, 4);
    assert_memory_equal(a.ptr, "\b\x7f\xc3\xa9", 4);
    json_doc_free(&rendered);
    placeholder_render_free(&r);
    json_doc_free(&doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pattern_holds_name_once_after_some_text),
        cmocka_unit_test(test_spaces_in_a_pattern_match_any_run_of_spaces),
        cmocka_unit_test(test_a_string_value_is_whole_or_holds_placeholders),
        cmocka_unit_test(test_rendering_escapes_values_lists_missing_and_maps_back),
        cmocka_unit_test(test_rendering_keeps_bytes_that_are_not_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
