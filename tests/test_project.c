/* test_project: srcls.json as a document — its settings, its mistakes placed where they are
 * written, the editor's settings laid over it, and the edit that maps a type identifier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysed.h"
#include "domain/domain.h"
#include "project/project.h"

static void test_a_good_configuration_gives_its_settings(void **state)
{
    (void)state;
    static const char text[] =
        "{\"rules\": {\"unknown-field\": \"error\"}, \"types\": {\"X\": \"SEARCH_INDEX\"}}";
    struct analysis a;
    struct settings s;
    settings_init(&s);
    assert_int_equal(project_analyze(&a, text, strlen(text), &analysed_schema, &s), 1);
    assert_int_equal(a.diags.count, 0);
    assert_int_equal(settings_severity(&s, CODE_UNKNOWN_FIELD, DIAG_WARNING), DIAG_ERROR);
    assert_string_equal(settings_type(&s, "X", 1), "SEARCH_INDEX");
    analysis_free(&a);
    settings_free(&s);
}

static void test_mistakes_are_placed_and_nothing_is_applied(void **state)
{
    (void)state;
    static const char text[] = "{\"rules\": {\"unknown-field\": \"loud\"}, \"typo\": 1, "
                               "\"types\": {\"X\": \"NO_KIND\"}}";
    struct analysis a;
    struct settings s;
    settings_init(&s);
    assert_int_equal(project_analyze(&a, text, strlen(text), &analysed_schema, &s), 0);
    assert_int_equal(a.diags.count, 3);
    static const char *const at[] = {"\"unknown-field\"", "\"typo\"", "\"X\""};
    for (uint32_t i = 0; i < 3; i++) {
        const struct diagnostic *d = &a.diags.items[i];
        assert_int_equal(d->code, CODE_PROJECT_CONFIG);
        assert_int_equal(d->start, (uint32_t)(strstr(text, at[i]) - text));
        assert_int_equal(d->end - d->start, strlen(at[i]));
    }
    assert_int_equal(s.severity_count, 0); /* never half applied */
    analysis_free(&a);
    assert_int_equal(project_analyze(&a, "[1]", 3, &analysed_schema, &s), 0);
    assert_int_equal(a.diags.count, 1);
    analysis_free(&a);
    settings_free(&s);
}

/* An "ignore" entry with a mistake is reported and silences nothing, even where the settings
 * are applied with their mistakes (the editor's): before, one without "codes" and "pointer"
 * silenced every finding, and one that was not an object held whatever memory held. */
static void test_a_wrong_ignore_entry_silences_nothing(void **state)
{
    (void)state;
    static const char text[] = "{\"ignore\": [1, {\"reason\": \"x\"}, {\"files\": \"*.json\", "
                               "\"reason\": \"x\"}, {\"codes\": [\"unknown-field\"]}]}";
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, text, strlen(text), NULL), 0);
    struct settings s;
    settings_init(&s);
    char problems[1024] = "";
    settings_read(&s, &doc, doc.root, problems, sizeof problems);
    assert_int_equal(s.ignore_count, 4);
    assert_non_null(strstr(problems, "must be an object"));
    assert_non_null(strstr(problems, "needs \"pointer\" or \"codes\""));
    assert_non_null(strstr(problems, "needs a \"reason\""));
    for (int code = 0; code < CODE_COUNT; code++) {
        struct diagnostic d = {.code = (enum diag_code)code, .pointer = "/config/x"};
        for (uint32_t e = 0; e < s.ignore_count; e++)
            assert_false(suppress_matches(&s.ignores[e], &d, "a.json", &doc, NULL, 0));
    }
    settings_free(&s);
    json_doc_free(&doc);
}

static void test_the_editor_settings_lay_over_the_project(void **state)
{
    (void)state;
    static const char file[] = "{\"rules\": {\"unknown-field\": \"error\", \"kind-inferred\": "
                               "\"off\"}, \"types\": {\"X\": \"SEARCH_INDEX\"}}";
    static const char editor[] = "{\"rules\": {\"unknown-field\": \"hint\"}}";
    struct analysis a;
    struct settings own, over, merged;
    settings_init(&own);
    settings_init(&over);
    settings_init(&merged);
    assert_int_equal(project_analyze(&a, file, strlen(file), &analysed_schema, &own), 1);
    analysis_free(&a);
    assert_int_equal(project_analyze(&a, editor, strlen(editor), &analysed_schema, &over), 1);
    analysis_free(&a);
    assert_int_equal(settings_merge(&merged, &own, &over), 0);
    assert_int_equal(settings_severity(&merged, CODE_UNKNOWN_FIELD, DIAG_WARNING), DIAG_HINT);
    assert_int_equal(settings_severity(&merged, CODE_KIND_INFERRED, DIAG_HINT), DIAG_OFF);
    assert_string_equal(settings_type(&merged, "X", 1), "SEARCH_INDEX");
    settings_free(&own);
    settings_free(&over);
    settings_free(&merged);
}

/* srcls.json's lists and its baseline are read with the rest of its settings (the doors take
 * them from there), its mistaken entries left out; a merge puts the lists one after the other
 * and takes the later baseline. */
static void test_lists_and_baseline_are_read_and_merged_with_the_settings(void **state)
{
    (void)state;
    static const char file[] = "{\"include\": [\"conf/**\", 3], \"exclude\": [\"gen/*\"], "
                               "\"schemas\": [\"kinds\"], \"baseline\": \"base.json\"}";
    static const char other[] = "{\"exclude\": [\"old\", \"\"], \"baseline\": \"/b.json\"}";
    char problems[512] = "";
    struct json_doc doc;
    struct settings one, two, merged;
    settings_init(&one);
    settings_init(&two);
    settings_init(&merged);
    assert_int_equal(json_parse(&doc, file, strlen(file), NULL), 0);
    settings_read(&one, &doc, doc.root, problems, sizeof problems);
    json_doc_free(&doc);
    assert_non_null(strstr(problems, "/include/1: a glob is a non-empty string"));
    assert_int_equal(one.include.count, 1);
    assert_string_equal(one.include.items[0], "conf/**");
    assert_string_equal(one.exclude.items[0], "gen/*");
    assert_string_equal(one.schemas.items[0], "kinds");
    char *path = settings_baseline_path(&one, "/repo/team");
    assert_string_equal(path, "/repo/team/base.json");
    free(path);
    assert_int_equal(json_parse(&doc, other, strlen(other), NULL), 0);
    settings_read(&two, &doc, doc.root, NULL, 0);
    json_doc_free(&doc);
    assert_int_equal(two.exclude.count, 1); /* "" is a mistake, left out */
    assert_int_equal(settings_merge(&merged, &one, &two), 0);
    assert_int_equal(merged.exclude.count, 2);
    assert_string_equal(merged.exclude.items[0], "gen/*");
    assert_string_equal(merged.exclude.items[1], "old");
    assert_int_equal(merged.include.count, 1);
    path = settings_baseline_path(&merged, "/repo/team");
    assert_string_equal(path, "/b.json"); /* absolute: as written */
    free(path);
    settings_free(&one);
    settings_free(&two);
    settings_free(&merged);
}

/* `text` with bytes [start, end) replaced by `edit` (malloc'd), or NULL when `edit` is NULL. */
static char *applied(const char *text, const char *edit, uint32_t start, uint32_t end)
{
    if (edit == NULL)
        return NULL;
    size_t len = strlen(text) - (end - start) + strlen(edit);
    char *out = malloc(len + 1);
    snprintf(out, len + 1, "%.*s%s%s", (int)start, text, edit, text + end);
    return out;
}

/* The text after applying project_map_type's edit. */
static char *mapped(const char *text, const char *id)
{
    struct arena arena;
    arena_init(&arena);
    uint32_t start, end;
    const char *edit =
        project_map_type(text, strlen(text), id, "SEARCH_INDEX", &arena, &start, &end);
    char *out = applied(text, edit, start, end);
    arena_free(&arena);
    return out;
}

static void test_mapping_a_type_edits_every_shape_of_srcls_json(void **state)
{
    (void)state;
    static const struct {
        const char *before, *after;
    } cases[] = {
        {"", "{\n  \"types\": {\"MY\": \"SEARCH_INDEX\"}\n}\n"},
        {"{}", "{\"types\": {\"MY\": \"SEARCH_INDEX\"}}"},
        {"{\"rules\": {}}", "{\"rules\": {}, \"types\": {\"MY\": \"SEARCH_INDEX\"}}"},
        {"{\"types\": {}}", "{\"types\": {\"MY\": \"SEARCH_INDEX\"}}"},
        {"{\"types\": {\"A\": \"B\"}}", "{\"types\": {\"A\": \"B\", \"MY\": \"SEARCH_INDEX\"}}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = mapped(cases[i].before, "MY");
        assert_non_null(out);
        assert_string_equal(out, cases[i].after);
        free(out);
    }
    char *quoted = mapped("{}", "a\"b");
    assert_string_equal(quoted, "{\"types\": {\"a\\\"b\": \"SEARCH_INDEX\"}}");
    free(quoted);
    assert_null(mapped("{\"types\": {\"MY\": \"X\"}}", "MY")); /* mapped already */
    assert_null(mapped("{\"types\": ", "MY"));                 /* broken */
    assert_null(mapped("[]", "MY"));
}

/* The text after suppress_add_entry's edit (settings_edit_add on an array, as mapping a type is
 * on an object: one way to edit srcls.json). */
static char *ignored(const char *text)
{
    struct arena arena;
    arena_init(&arena);
    uint32_t start, end;
    const char *edit =
        suppress_add_entry(text, strlen(text), "{\"codes\": [\"x\"]}", &arena, &start, &end);
    char *out = applied(text, edit, start, end);
    arena_free(&arena);
    return out;
}

static void test_adding_an_ignore_entry_edits_every_shape_of_srcls_json(void **state)
{
    (void)state;
    static const struct {
        const char *before, *after;
    } cases[] = {
        {"", "{\n  \"ignore\": [\n    {\"codes\": [\"x\"]}\n  ]\n}\n"},
        {" \n", "{\n  \"ignore\": [\n    {\"codes\": [\"x\"]}\n  ]\n}\n"},
        {"{}", "{\n  \"ignore\": [\n    {\"codes\": [\"x\"]}\n  ]}"},
        {"{\"rules\": {}}", "{\"rules\": {},\n  \"ignore\": [\n    {\"codes\": [\"x\"]}\n  ]}"},
        {"{\"ignore\": []}", "{\"ignore\": [\n    {\"codes\": [\"x\"]}]}"},
        {"{\"ignore\": [1]}", "{\"ignore\": [1,\n    {\"codes\": [\"x\"]}]}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = ignored(cases[i].before);
        assert_non_null(out);
        assert_string_equal(out, cases[i].after);
        free(out);
    }
    assert_null(ignored("{\"ignore\": {}}")); /* not an array */
    assert_null(ignored("{\"ignore\": "));    /* broken */
    assert_null(ignored("[]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adding_an_ignore_entry_edits_every_shape_of_srcls_json),
        cmocka_unit_test(test_lists_and_baseline_are_read_and_merged_with_the_settings),
        cmocka_unit_test(test_a_good_configuration_gives_its_settings),
        cmocka_unit_test(test_mistakes_are_placed_and_nothing_is_applied),
        cmocka_unit_test(test_a_wrong_ignore_entry_silences_nothing),
        cmocka_unit_test(test_the_editor_settings_lay_over_the_project),
        cmocka_unit_test(test_mapping_a_type_edits_every_shape_of_srcls_json),
    };
    int failed = cmocka_run_group_tests(tests, analysed_setup, analysed_teardown);
    return failed;
}
