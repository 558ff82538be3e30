/* test_navigation: folds, selection ranges, inlay hints, the outline's names for the sources
 * of a bulk file, and range formatting — the core's answers, with exact ranges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"
#include "analysed.h"
#include "json/json.h"
#include "assist/assist.h"
#include "schema/schema.h"

static void analyse_text(struct analysis *a, const char *text)
{
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    assert_int_equal(analysis_run(a, text, strlen(text), &options), 0);
}

/* The bytes [start, end) of `text`, for messages and comparisons. */
static void assert_range(const char *text, struct byte_range r, const char *expected)
{
    size_t len = strlen(expected);
    if (r.end - r.start != len || memcmp(text + r.start, expected, len) != 0)
        fail_msg("range [%u, %u) is '%.*s', expected '%s'", r.start, r.end, (int)(r.end - r.start),
                 text + r.start, expected);
}

static void test_folds_are_the_containers_that_span_lines(void **state)
{
    (void)state;
    static const char text[] =
        "{\n  \"a\": [1, 2],\n  \"b\": {\n    \"c\": [\n      3\n    ]\n  }\n}\n";
    struct analysis a;
    analyse_text(&a, text);
    struct byte_range *folds;
    int64_t count = navigation_folds(&a, 100, &folds);
    assert_int_equal(count, 3); /* the root, b, c; not the one-line [1, 2] */
    assert_int_equal(folds[0].start, 0);
    assert_range(text, folds[1], "{\n    \"c\": [\n      3\n    ]\n  }");
    assert_range(text, folds[2], "[\n      3\n    ]");
    free(folds);
    /* at most 2: the deepest are dropped first */
    count = navigation_folds(&a, 2, &folds);
    assert_int_equal(count, 2);
    assert_int_equal(folds[0].start, 0);
    assert_range(text, folds[1], "{\n    \"c\": [\n      3\n    ]\n  }");
    free(folds);
    analysis_free(&a);
}

static void test_selection_grows_from_the_cursor_to_the_document(void **state)
{
    (void)state;
    static const char text[] =
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\"}}";
    struct analysis a;
    analyse_text(&a, text);
    struct byte_range r[16];
    uint32_t n = navigation_selection(&a, (uint32_t)(strstr(text, "NONE") - text) + 2, r, 16);
    assert_int_equal(n, 6);
    assert_range(text, r[0], "NONE");
    assert_range(text, r[1], "\"NONE\"");
    assert_range(text, r[2], "\"credentialType\": \"NONE\"");
    assert_range(text, r[3], "{\"credentialType\": \"NONE\"}");
    assert_range(text, r[4], "\"config\": {\"credentialType\": \"NONE\"}");
    assert_range(text, r[5], text);
    /* on a key: its text, the key, the member, ... */
    n = navigation_selection(&a, (uint32_t)(strstr(text, "credential") - text) + 3, r, 16);
    assert_int_equal(n, 6);
    assert_range(text, r[0], "credentialType");
    assert_range(text, r[1], "\"credentialType\"");
    assert_range(text, r[2], "\"credentialType\": \"NONE\"");
    /* at most `max` */
    assert_int_equal(navigation_selection(&a, 3, r, 2), 2);
    analysis_free(&a);
}

static void test_selection_in_an_empty_document_is_nothing(void **state)
{
    (void)state;
    struct analysis a;
    analyse_text(&a, "  ");
    struct byte_range r[4];
    assert_int_equal(navigation_selection(&a, 1, r, 4), 0);
    analysis_free(&a);
}

/* The hint labels of `text` in [from, to], joined by '|'. */
static void hint_labels(const char *text, uint32_t from, uint32_t to, char *out, size_t size)
{
    struct analysis a;
    analyse_text(&a, text);
    struct inlay_list hints;
    assert_int_equal(inlay_hints(&a, &analysed_schema, NULL, from, to, &hints), 0);
    out[0] = '\0';
    for (uint32_t i = 0; i < hints.count; i++) {
        if (i > 0)
            strncat(out, "|", size - strlen(out) - 1);
        strncat(out, hints.items[i].label, size - strlen(out) - 1);
        assert_true(hints.items[i].offset >= from && hints.items[i].offset <= to);
    }
    inlay_list_free(&hints);
    analysis_free(&a);
}

static void test_inlay_hints_name_kinds_and_the_defaults_others_depend_on(void **state)
{
    (void)state;
    static const char bulk[] =
        "[{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\"}},\n"
        " {\"config\": {\"path\": \"/x\"}}]";
    char labels[512];
    hint_labels(bulk, 0, sizeof bulk - 1, labels, sizeof labels);
    assert_string_equal(labels, "Object storage A|isCachingEnabled: true (default)|"
                                "NETWORK_ATTACHED_STORAGE (inferred)");
    /* only those in the range asked for */
    uint32_t second = (uint32_t)(strstr(bulk, "\n") - bulk);
    hint_labels(bulk, second, sizeof bulk - 1, labels, sizeof labels);
    assert_string_equal(labels, "NETWORK_ATTACHED_STORAGE (inferred)");
    /* a single typed source: no kind hint (its type says it); a default that is given: none */
    hint_labels("{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"isCachingEnabled\": false}}",
                0, 200, labels, sizeof labels);
    assert_string_equal(labels, "");
    /* not a source: nothing */
    hint_labels("{\"jobState\": \"RUNNING\"}", 0, 100, labels, sizeof labels);
    assert_string_equal(labels, "");
}

static void test_outline_names_bulk_sources_by_their_name(void **state)
{
    (void)state;
    struct analysis a;
    analyse_text(&a, "[{\"name\": \"lake-prod\", \"config\": {\"path\": \"/x\"}}, "
                     "{\"config\": {\"path\": \"/y\"}}]");
    struct arena arena;
    arena_init(&arena);
    uint32_t count = 0;
    struct symbol *top = symbols_of(&a, &analysed_schema, NULL, &arena, &count);
    assert_int_equal(count, 2); /* the elements are the top of a bulk file's outline */
    assert_string_equal(top[0].name, "[0] lake-prod");
    assert_string_equal(top[1].name, "[1]");
    arena_free(&arena);
    analysis_free(&a);
}

/* Applies `edits` (in document order, not overlapping) to `text`; the result is malloc'd. */
static char *apply(const char *text, const struct format_edit *edits, int64_t count)
{
    size_t len = strlen(text), cap = len * 4 + 64, n = 0, at = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    for (int64_t i = 0; i < count; i++) {
        memcpy(out + n, text + at, edits[i].start - at);
        n += edits[i].start - at;
        memcpy(out + n, edits[i].text, edits[i].len);
        n += edits[i].len;
        at = edits[i].end;
    }
    memcpy(out + n, text + at, len - at + 1);
    return out;
}

static void test_range_formatting_changes_whitespace_in_the_range_only(void **state)
{
    (void)state;
    static const char text[] = "{\"a\":1,\n\"b\":  [1,2],  \"c\": \"x  y\",\n\"d\" :{}}";
    struct analysis a;
    analyse_text(&a, text);
    size_t len;
    char *formatted = format_document(&a.doc, 2, false, &len);
    assert_non_null(formatted);
    struct format_edit *edits;
    int64_t count = format_edits(text, strlen(text), formatted, len, 0, sizeof text, &edits);
    assert_true(count > 3);
    char *all = apply(text, edits, count);
    assert_string_equal(all, formatted); /* every edit: the whole formatting */
    free(all);
    free(edits);
    /* only the second line: "b" and "c" re-spaced, "x  y" kept, the rest untouched */
    uint32_t from = (uint32_t)(strchr(text, '\n') - text) + 1;
    uint32_t to = (uint32_t)(strrchr(text, '\n') - text) - 1;
    count = format_edits(text, strlen(text), formatted, len, from, to, &edits);
    for (int64_t i = 0; i < count; i++)
        assert_true(edits[i].end >= from && edits[i].start <= to);
    char *part = apply(text, edits, count);
    assert_non_null(strstr(part, "{\"a\":1,"));  /* before the range */
    assert_non_null(strstr(part, "\"x  y\""));   /* inside a string */
    assert_non_null(strstr(part, "\"d\" :{}}")); /* after the range */
    assert_null(strstr(part, "\"b\":  ["));
    free(part);
    free(edits);
    free(formatted);
    analysis_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folds_are_the_containers_that_span_lines),
        cmocka_unit_test(test_selection_grows_from_the_cursor_to_the_document),
        cmocka_unit_test(test_selection_in_an_empty_document_is_nothing),
        cmocka_unit_test(test_inlay_hints_name_kinds_and_the_defaults_others_depend_on),
        cmocka_unit_test(test_outline_names_bulk_sources_by_their_name),
        cmocka_unit_test(test_range_formatting_changes_whitespace_in_the_range_only),
    };
    int failed = cmocka_run_group_tests(tests, analysed_setup, analysed_teardown);
    return failed;
}
