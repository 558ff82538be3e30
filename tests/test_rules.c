/* test_rules: the rule engine against the table of cases in tests/rules/ (one file per kind,
 * and one for jobs). Each case is a document and the exact, complete set of diagnostics
 * (code and pointer, and the message and severity where the case gives them) srcls must report
 * for it. The posture codes (the "security" group) are compared only in cases marked
 * "security": true; the other cases are about validity and ignore them. A case may give the
 * settings of its srcls.json ("project": {"placeholders": [...]}). Also:
 * every example in docs/examples/ lints clean, and the schema walks the reference (every kind
 * present, every type identifier). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "check/check.h"
#include "domain/domain.h"
#include "json/json.h"
#include "schema/schema.h"

static struct schema_registry registry;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    *len = fread(text, 1, (size_t)size, f);
    text[*len] = '\0';
    fclose(f);
    return text;
}

static const char *source_root(void)
{
    const char *root = getenv("SRCLS_SOURCE_ROOT");
    return root ? root : ".";
}

static int setup(void **state)
{
    (void)state;
    char error[512];
    int status = schema_registry_load_embedded(&registry, error, sizeof error);
    if (status != 0)
        fprintf(stderr, "schema: %s\n", error);
    return status;
}

static int teardown(void **state)
{
    (void)state;
    schema_registry_free(&registry);
    return 0;
}

struct expected {
    char code[64];
    char pointer[256];
    char message[512]; /* "": any message; otherwise the message, exactly */
    int severity;      /* -1: any severity */
    bool matched;
};

/* Runs one case; returns the number of mismatches, printing each. */
static int run_case(const char *file, struct json_doc *cases, uint32_t item)
{
    uint32_t name = json_object_get(cases, item, "name", 4);
    uint32_t document = json_object_get(cases, item, "document", 8);
    uint32_t expect = json_object_get(cases, item, "expect", 6);
    struct json_str case_name = json_node_string(cases, name);
    uint32_t security = json_object_get(cases, item, "security", 8);
    bool posture = security != JSON_NONE && cases->nodes[security].kind == JSON_TRUE;
    if (document == JSON_NONE || expect == JSON_NONE) {
        fprintf(stderr, "%s: case without document or expect\n", file);
        return 1;
    }
    const struct json_node *d = &cases->nodes[document];
    /* "project": the case's srcls.json settings (its placeholders, ...), which must read clean */
    struct settings settings;
    char problems[512] = "";
    settings_init(&settings);
    uint32_t project = json_object_get(cases, item, "project", 7);
    if (project != JSON_NONE)
        settings_read(&settings, cases, project, problems, sizeof problems);
    if (problems[0] != '\0') {
        fprintf(stderr, "%s: \"%.*s\": project: %s\n", file, (int)case_name.len, case_name.ptr,
                problems);
        settings_free(&settings);
        return 1;
    }
    struct analysis a;
    struct analysis_options options = {
        .report_unknown_document = true, .registry = &registry, .settings = &settings};
    /* "path": the document's path from the srcls.json's directory (for "ignore"'s "files") */
    uint32_t path = json_object_get(cases, item, "path", 4);
    char path_text[256] = "";
    if (path != JSON_NONE) {
        struct json_str p = json_node_string(cases, path);
        snprintf(path_text, sizeof path_text, "%.*s", (int)p.len, p.ptr);
        options.path = path_text;
    }
    assert_int_equal(analysis_run(&a, cases->text + d->start, d->end - d->start, &options), 0);

    uint32_t count = json_child_count(cases, expect);
    struct expected *want = calloc(count + 1, sizeof *want);
    uint32_t i = 0;
    for (uint32_t e = cases->nodes[expect].first_child; e != JSON_NONE;
         e = cases->nodes[e].next, i++) {
        struct json_str code = json_node_string(cases, json_object_get(cases, e, "code", 4));
        struct json_str pointer = json_node_string(cases, json_object_get(cases, e, "pointer", 7));
        snprintf(want[i].code, sizeof want[i].code, "%.*s", (int)code.len, code.ptr);
        snprintf(want[i].pointer, sizeof want[i].pointer, "%.*s", (int)pointer.len, pointer.ptr);
        struct json_str severity =
            json_node_string(cases, json_object_get(cases, e, "severity", 8));
        char severity_text[32];
        snprintf(severity_text, sizeof severity_text, "%.*s", (int)severity.len, severity.ptr);
        want[i].severity = severity.len > 0 ? diag_severity_parse(severity_text) : -1;
        uint32_t message = json_object_get(cases, e, "message", 7);
        if (message != JSON_NONE) {
            struct json_str m = json_node_string(cases, message);
            snprintf(want[i].message, sizeof want[i].message, "%.*s", (int)m.len, m.ptr);
        }
    }
    int mismatches = 0;
    for (uint32_t k = 0; k < a.diags.count; k++) {
        const struct diagnostic *got = &a.diags.items[k];
        if (!posture && code_in_group(got->code, CODE_GROUP_SECURITY))
            continue;
        bool found = false;
        for (uint32_t w = 0; w < count && !found; w++) {
            if (!want[w].matched && strcmp(want[w].code, code_name(got->code)) == 0 &&
                strcmp(want[w].pointer, got->pointer) == 0 &&
                (want[w].severity < 0 || want[w].severity == (int)got->severity) &&
                (want[w].message[0] == '\0' || strcmp(want[w].message, got->message) == 0))
                found = want[w].matched = true;
        }
        if (!found) {
            fprintf(stderr, "%s: \"%.*s\": unexpected %s at %s: %s\n", file, (int)case_name.len,
                    case_name.ptr, code_name(got->code), got->pointer, got->message);
            mismatches++;
        }
    }
    for (uint32_t w = 0; w < count; w++) {
        if (!want[w].matched) {
            fprintf(stderr, "%s: \"%.*s\": missing %s at %s%s%s\n", file, (int)case_name.len,
                    case_name.ptr, want[w].code, want[w].pointer, want[w].message[0] ? ": " : "",
                    want[w].message);
            mismatches++;
        }
    }
    free(want);
    analysis_free(&a);
    settings_free(&settings);
    return mismatches;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in `dir` that end with `suffix`; the caller frees each and the array. */
static char **list_dir(const char *dir, const char *suffix, size_t *count)
{
    DIR *d = opendir(dir);
    char **names = calloc(256, sizeof *names);
    *count = 0;
    if (d == NULL)
        return names;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL && *count < 255) {
        size_t n = strlen(entry->d_name), s = strlen(suffix);
        if (n > s && strcmp(entry->d_name + n - s, suffix) == 0)
            names[(*count)++] = strdup(entry->d_name);
    }
    closedir(d);
    qsort(names, *count, sizeof *names, compare_strings);
    return names;
}

static void test_every_case_of_every_kind_gives_exactly_its_diagnostics(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/rules", source_root());
    size_t count;
    char **names = list_dir(dir, ".cases.json", &count);
    assert_int_equal(count, registry.kind_count + 1); /* one file per kind, and the job's */
    int mismatches = 0, cases_run = 0;
    for (size_t f = 0; f < count; f++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t len = 0;
        char *text = read_file(path, &len);
        assert_non_null(text);
        struct json_doc cases;
        assert_int_equal(json_parse(&cases, text, len, NULL), 0);
        assert_int_equal(cases.error_count, 0);
        for (uint32_t item = cases.nodes[cases.root].first_child; item != JSON_NONE;
             item = cases.nodes[item].next) {
            mismatches += run_case(names[f], &cases, item);
            cases_run++;
        }
        json_doc_free(&cases);
        free(text);
        free(names[f]);
    }
    free(names);
    fprintf(stderr, "rule cases run: %d, mismatches: %d\n", cases_run, mismatches);
    assert_int_equal(mismatches, 0);
}

static void test_every_good_example_lints_clean(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/docs/examples", source_root());
    size_t count;
    char **names = list_dir(dir, ".json", &count);
    int dirty = 0, checked = 0;
    for (size_t f = 0; f < count; f++) {
        if (strncmp(names[f], "bad-", 4) != 0) {
            char path[1400];
            snprintf(path, sizeof path, "%s/%s", dir, names[f]);
            size_t len = 0;
            char *text = read_file(path, &len);
            struct analysis a;
            struct analysis_options options = {.report_unknown_document = true,
                                               .registry = &registry};
            assert_int_equal(analysis_run(&a, text, len, &options), 0);
            for (uint32_t k = 0; k < a.diags.count; k++) {
                fprintf(stderr, "%s: %s at %s: %s\n", names[f], code_name(a.diags.items[k].code),
                        a.diags.items[k].pointer, a.diags.items[k].message);
                dirty++;
            }
            checked++;
            analysis_free(&a);
            free(text);
        }
        free(names[f]);
    }
    free(names);
    assert_true(checked >= (int)registry.kind_count + 1); /* one per kind, and jobs */
    assert_int_equal(dirty, 0);
}

/* Adding a kind is adding its schema file, tests/rules/STEM.cases.json and
 * docs/examples/STEM.source.json: no test counts the kinds. */
static void test_every_kind_has_its_cases_and_an_example(void **state)
{
    (void)state;
    static const char *const places[][2] = {{"tests/rules", ".cases.json"},
                                            {"docs/examples", ".source.json"}};
    assert_true(registry.kind_count > 0);
    for (uint32_t k = 0; k < registry.kind_count; k++) {
        for (size_t p = 0; p < sizeof places / sizeof places[0]; p++) {
            char path[1400];
            snprintf(path, sizeof path, "%s/%s/%s%s", source_root(), places[p][0],
                     registry.kinds[k].stem, places[p][1]);
            FILE *f = fopen(path, "rb");
            if (f == NULL)
                fail_msg("kind %d (%s) has no %s", registry.kinds[k].number, registry.kinds[k].stem,
                         path);
            else
                fclose(f);
        }
    }
}

static void test_registry_has_every_kind_of_the_reference(void **state)
{
    (void)state;
    /* The kind table (docs/kinds.md): 25 kinds, 26 type identifiers (more kinds may follow). */
    static const char *const types[] = {"CLOUDA_SEARCH_SERVICE",
                                        "CLOUDA_WAREHOUSE",
                                        "CLOUDA_OBJECT_STORAGE",
                                        "CLOUDA_METASTORE_CATALOG",
                                        "CLOUDB_LAKE_STORAGE_GEN1",
                                        "CLOUDB_BLOB_STORAGE",
                                        "PEER_CLUSTER",
                                        "SERVICE_CATALOG_EXTERNAL_V1",
                                        "SEARCH_INDEX",
                                        "CLOUDC_OBJECT_STORAGE",
                                        "DISTRIBUTED_FILESYSTEM",
                                        "HIVE_METASTORE_2",
                                        "HIVE_METASTORE_3",
                                        "RELATIONAL_DB",
                                        "ICEBERG_REST_CATALOG",
                                        "MANAGED_OPEN_CATALOG",
                                        "CLOUDB_DATA_EXPLORER",
                                        "CLOUDB_SQL_WAREHOUSE",
                                        "SQL_SERVER",
                                        "DOCUMENT_DB",
                                        "OPEN_RELATIONAL_DB_A",
                                        "NETWORK_ATTACHED_STORAGE",
                                        "VERSIONED_CATALOG",
                                        "ENTERPRISE_RELATIONAL_DB",
                                        "OPEN_RELATIONAL_DB_B",
                                        "CLOUD_ANALYTICS_WAREHOUSE"};
    int numbers[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 12,
                     13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        const struct schema_kind *kind = schema_find_kind(&registry, types[i], strlen(types[i]));
        assert_non_null(kind);
        assert_int_equal(kind->number, numbers[i]);
    }
    for (uint32_t k = 0; k < registry.kind_count; k++) {
        const struct schema_kind *kind = &registry.kinds[k];
        assert_non_null(kind->description);
        for (uint32_t f = 0; f < kind->config.field_count; f++) {
            if (kind->config.fields[f].description == NULL)
                fail_msg("%s: field %s has no description", kind->types[0],
                         kind->config.fields[f].name);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_has_its_cases_and_an_example),
        cmocka_unit_test(test_registry_has_every_kind_of_the_reference),
        cmocka_unit_test(test_every_good_example_lints_clean),
        cmocka_unit_test(test_every_case_of_every_kind_gives_exactly_its_diagnostics),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
