/* test_project: srcls.json as a document — its settings, its mistakes placed where they are
 * written, the editor's settings laid over it, the edit that maps a type identifier, and
 * "extends" (the paths it joins, the settings it merges, its mistakes). */
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

/* project_config_find's question in a test: whether `candidate` is one of the NULL-ended
 * paths of `ctx`; each candidate asked is appended to `asked` (one a line). */
static char asked[512];

static bool listed(void *ctx, const char *candidate)
{
    strcat(asked, candidate);
    strcat(asked, "\n");
    for (const char *const *p = ctx; *p != NULL; p++) {
        if (strcmp(*p, candidate) == 0)
            return true;
    }
    return false;
}

static void test_the_governing_srcls_json_is_the_nearest_upwards(void **state)
{
    (void)state;
    static const char *const both[] = {"/a/srcls.json", "/a/b/srcls.json", NULL};
    static const char *const root[] = {"/srcls.json", NULL};
    static const char *const none[] = {NULL};
    char *found;
    asked[0] = '\0';
    assert_int_equal(project_config_find("/a/b/c", listed, (void *)both, &found), 1);
    assert_string_equal(found, "/a/b/srcls.json"); /* the nearer one */
    assert_string_equal(asked, "/a/b/c/srcls.json\n/a/b/srcls.json\n");
    free(found);
    asked[0] = '\0';
    assert_int_equal(project_config_find("/a/b", listed, (void *)root, &found), 1);
    assert_string_equal(found, "/srcls.json");
    assert_string_equal(asked, "/a/b/srcls.json\n/a/srcls.json\n/srcls.json\n");
    free(found);
    asked[0] = '\0';
    assert_int_equal(project_config_find("", listed, (void *)none, &found), 0); /* "/" */
    assert_null(found);
    assert_string_equal(asked, "/srcls.json\n");
    asked[0] = '\0';
    assert_int_equal(project_config_find("x/y", listed, (void *)none, &found), 0);
    assert_null(found);
    assert_string_equal(asked, "x/y/srcls.json\nx/srcls.json\n"); /* relative: not "/" */
}

/* "extends" paths: joined and tidied as `cd` would, and the path between two directories that
 * an extended file's globs are matched from. */
static void test_extends_paths_are_joined_and_related(void **state)
{
    (void)state;
    static const char *const joins[][3] = {
        {"/r/app", "../srcls.json", "/r/srcls.json"},
        {"/r/app", "./base.json", "/r/app/base.json"},
        {"/r/app", "a//b/./../c.json", "/r/app/a/c.json"},
        {"/r", "../../../x.json", "/x.json"},
        {"/", "x.json", "/x.json"},
        {"/r/app", "/etc/srcls.json", "/etc/srcls.json"},
        {".", "x.json", "x.json"},
        {"app", "../../x.json", "../x.json"},
        {"a", "..", "."},
    };
    struct arena arena;
    arena_init(&arena);
    for (size_t i = 0; i < sizeof joins / sizeof *joins; i++)
        assert_string_equal(project_path_join(&arena, joins[i][0], joins[i][1]), joins[i][2]);
    static const char *const froms[][3] = {
        {"/r", "/r/app", "app/"},   {"/r", "/r", ""},          {"/r/shared", "/r/app", "../app/"},
        {"/r/a/b", "/r", "../../"}, {"/", "/r/app", "r/app/"}, {"/r/app", "/", "../../"},
        {"/r/ab", "/r/a", "../a/"}, /* segments, not bytes */
    };
    for (size_t i = 0; i < sizeof froms / sizeof *froms; i++)
        assert_string_equal(project_path_from(&arena, froms[i][0], froms[i][1]), froms[i][2]);
    arena_free(&arena);
    /* a glob from the root matched from a sub-project's directory */
    assert_true(glob_match_from("legacy/**", "", "legacy/a.json"));
    assert_false(glob_match_from("legacy/**", "app/", "legacy/a.json"));
    assert_true(glob_match_from("app/legacy/**", "app/", "legacy/a.json"));
    assert_true(glob_match_from("*.draft.json", "app/", "x/b.draft.json"));
    assert_true(glob_match_from("**/gen/*", "../app/", "gen/x.json"));
}

/* An in-memory file system for project_reader: NAME, TEXT pairs, NULL-terminated. */
static int read_memory(void *context, const char *path, char **text, size_t *len, char *why,
                       size_t why_size)
{
    const char *const *files = context;
    for (size_t i = 0; files[i] != NULL; i += 2) {
        if (strcmp(files[i], path) == 0) {
            *len = strlen(files[i + 1]);
            *text = strdup(files[i + 1]);
            return *text != NULL ? 1 : -1;
        }
    }
    snprintf(why, why_size, "no such file");
    return 0;
}

static int no_dir(void *context, const char *dir, struct project_schema *schema, char *why,
                  size_t why_size)
{
    (void)context, (void)dir, (void)schema;
    snprintf(why, why_size, "no such directory");
    return -1;
}

/* The settings of /r/app/srcls.json `text` with the files of `files`: 1, or 0 with the first
 * mistake's message in `*message` (static storage). */
static int extend(const char *text, const char *const *files, struct settings *s,
                  const char **message)
{
    struct analysis a;
    struct project_reader reader = {no_dir, read_memory, (void *)files};
    struct project_schema schema = {0};
    static char first[512];
    int status = project_analyze_schema(&a, text, strlen(text), &analysed_schema, "/r/app", &reader,
                                        s, &schema);
    snprintf(first, sizeof first, "%s", a.diags.count > 0 ? a.diags.items[0].message : "");
    *message = first;
    analysis_free(&a);
    project_schema_free(&schema);
    return status;
}

static void test_extends_merges_and_keeps_each_glob_where_it_was_written(void **state)
{
    (void)state;
    static const char *const files[] = {
        "/r/srcls.json",
        "{\"extends\": \"shared/base.json\", \"rules\": {\"unknown-field\": \"error\", "
        "\"kind-inferred\": \"hint\"}, \"exclude\": [\"legacy/**\"], \"placeholders\": "
        "[\"${NAME}\"], \"ignore\": [{\"files\": \"app/x.json\", \"codes\": [\"unknown-field\"], "
        "\"reason\": \"r\"}], \"baseline\": \"bl.json\"}",
        "/r/shared/base.json",
        "{\"rules\": {\"unknown-field\": \"off\", \"missing-required\": \"hint\"}, \"types\": "
        "{\"A\": \"SEARCH_INDEX\"}}",
        NULL,
    };
    struct settings s;
    settings_init(&s);
    const char *message;
    assert_int_equal(
        extend("{\"extends\": \"../srcls.json\", \"rules\": {\"kind-inferred\": "
               "\"off\"}, \"exclude\": [\"gen/*\"], \"placeholders\": [\"{{ NAME }}\"]}",
               files, &s, &message),
        1);
    /* rules key by key: the nearest file wins */
    assert_int_equal(settings_severity(&s, CODE_KIND_INFERRED, DIAG_WARNING), DIAG_OFF);
    assert_int_equal(settings_severity(&s, CODE_UNKNOWN_FIELD, DIAG_WARNING), DIAG_ERROR);
    assert_int_equal(settings_severity(&s, CODE_MISSING_REQUIRED, DIAG_ERROR), DIAG_HINT);
    assert_string_equal(settings_type(&s, "A", 1), "SEARCH_INDEX");
    /* lists concatenated, theirs first; globs from where they were written */
    assert_int_equal(s.exclude.count, 2);
    assert_int_equal(s.exclude.inherited, 1);
    assert_true(settings_glob_match(&s.exclude, "gen/a.json"));
    assert_false(settings_glob_match(&s.exclude, "legacy/a.json"));
    assert_int_equal(s.placeholder_count, 2);
    assert_int_equal(s.ignore_count, 1);
    assert_int_equal(s.ignore_inherited, 1);
    assert_string_equal(s.ignores[0].origin, "/r/srcls.json");
    assert_string_equal(s.ignores[0].files_from, "app/");
    /* the baseline is the root's, from the root */
    assert_string_equal(s.baseline, "/r/bl.json");
    assert_int_equal(s.extended.count, 2);
    settings_free(&s);
}

/* Two files that extend one base (a diamond): the base is read once, under the first; the later
 * file's settings win over the earlier's, and the base's list entries come once. */
static void test_a_base_two_files_extend_is_read_once(void **state)
{
    (void)state;
    static const char *const files[] = {
        "/r/base.json", "{\"rules\": {\"unknown-field\": \"error\"}, \"exclude\": [\"gen/**\"]}",
        "/r/a.json",    "{\"extends\": \"base.json\", \"rules\": {\"unknown-field\": \"hint\"}}",
        "/r/b.json",    "{\"extends\": \"./base.json\"}",
        NULL,
    };
    struct settings s;
    settings_init(&s);
    const char *message;
    assert_int_equal(extend("{\"extends\": [\"../a.json\", \"../b.json\"]}", files, &s, &message),
                     1);
    assert_int_equal(settings_severity(&s, CODE_UNKNOWN_FIELD, DIAG_WARNING), DIAG_HINT);
    assert_int_equal(s.exclude.count, 1);
    assert_int_equal(s.extended.count, 3);
    settings_free(&s);
}

static void test_a_broken_extends_is_a_mistake_and_applies_nothing(void **state)
{
    (void)state;
    static const char *const files[] = {
        "/r/a.json",
        "{\"extends\": \"b.json\"}",
        "/r/b.json",
        "{\"extends\": \"./a.json\"}",
        "/r/bad.json",
        "{\"rules\": [1]}",
        "/r/self/srcls.json",
        "{\"extends\": \"srcls.json\"}",
        NULL,
    };
    static const char *const cases[][2] = {
        {"{\"extends\": \"../nope.json\"}",
         "cannot read ../nope.json, which this file extends: no such file"},
        {"{\"extends\": [\"../a.json\"]}",
         "\"extends\" makes a cycle: ../a.json → ../b.json → ../a.json"},
        {"{\"extends\": \"srcls.json\"}", "\"extends\" makes a cycle: srcls.json → srcls.json"},
        {"{\"extends\": \"../bad.json\"}",
         "../bad.json, which this file extends, has a mistake (/rules: must be an object mapping "
         "a code to a severity)"},
        {"{\"extends\": [\"../self/srcls.json\"]}",
         "\"extends\" makes a cycle: ../self/srcls.json → ../self/srcls.json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct settings s;
        settings_init(&s);
        const char *message;
        assert_int_equal(extend(cases[i][0], files, &s, &message), 0);
        assert_string_equal(message, cases[i][1]);
        assert_int_equal(s.severity_count, 0); /* nothing applied */
        settings_free(&s);
    }
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
        cmocka_unit_test(test_the_governing_srcls_json_is_the_nearest_upwards),
        cmocka_unit_test(test_extends_paths_are_joined_and_related),
        cmocka_unit_test(test_extends_merges_and_keeps_each_glob_where_it_was_written),
        cmocka_unit_test(test_a_base_two_files_extend_is_read_once),
        cmocka_unit_test(test_a_broken_extends_is_a_mistake_and_applies_nothing),
    };
    int failed = cmocka_run_group_tests(tests, analysed_setup, analysed_teardown);
    return failed;
}
