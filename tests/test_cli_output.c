/* test_cli_output: what CI and code scanning read from `srcls --check`, end to end with the real
 * binary ($SRCLS_BINARY) in a scratch directory: SARIF 2.1.0 read back with the project's own
 * parser, GitHub workflow commands line by line with their escaping, the project configuration
 * (srcls.json found upwards, --config, and what a broken one does), and secret values, which no
 * format ever prints. */
#define _XOPEN_SOURCE 700 /* realpath */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"
#include "json/json.h"

/* ---- fixtures ---- */

/* One unknown field ("acessKey", a warning) after é and 😀 on line 3: its key starts at UTF-16
 * column 55 (😀 is two units) and at character 54; it ends 10 units later. */
static const char emoji_source[] =
    "{\n"
    "  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n"
    "  \"name\": \"\xC3\xA9\xF0\x9F\x98\x80\", \"config\": {\"credentialType\": \"NONE\", "
    "\"acessKey\": \"k\", \"whitelistedBuckets\": [\"b\"]}\n"
    "}\n";
static const char emoji_message[] = "unknown field \"acessKey\" for Object storage A "
                                    "(CLOUDA_OBJECT_STORAGE); did you mean \"accessKey\"?";

/* docs/examples/bad-object-storage.source.json: six diagnostics of five codes, errors and
 * warnings, one of them about the plaintext secret "hunter2". */
static char *bad_example(void)
{
    return example("bad-object-storage.source.json");
}

static int setup(void **state)
{
    (void)state;
    return scratch_create("cli-output");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

/* ---- JSON output, read back ---- */

static void parse_output(struct json_doc *doc, const struct run *r)
{
    assert_int_equal(json_parse(doc, r->out, strlen(r->out), NULL), 0);
    if (doc->error_count > 0 || doc->root == JSON_NONE)
        fail_msg("the output is not JSON (%s):\n%s",
                 doc->error_count ? doc->errors[0].message : "empty", r->out);
}

/* The node at `base` + `pointer`, which must be of `kind`. */
static uint32_t node_at(struct json_doc *doc, uint32_t base, const char *pointer,
                        enum json_kind kind)
{
    struct arena scratch;
    arena_init(&scratch);
    const char *prefix = json_pointer_of(doc, base, &scratch);
    char full[512];
    snprintf(full, sizeof full, "%s%s", prefix ? prefix : "", pointer);
    arena_free(&scratch);
    uint32_t node = json_pointer_find(doc, full, strlen(full));
    if (node == JSON_NONE)
        fail_msg("nothing at %s", full);
    if (doc->nodes[node].kind != kind)
        fail_msg("%s is a %s", full, json_kind_name((enum json_kind)doc->nodes[node].kind));
    return node;
}

static void assert_string_node(struct json_doc *doc, uint32_t base, const char *pointer,
                               const char *expected)
{
    uint32_t node = node_at(doc, base, pointer, JSON_STRING);
    struct json_str s = json_node_string(doc, node);
    if (s.len != strlen(expected) || memcmp(s.ptr, expected, s.len) != 0)
        fail_msg("%s is \"%.*s\", expected \"%s\"", pointer, (int)s.len, s.ptr, expected);
}

static int64_t int_node(struct json_doc *doc, uint32_t base, const char *pointer)
{
    int64_t value = -1;
    assert_true(json_node_int64(doc, node_at(doc, base, pointer, JSON_NUMBER), &value));
    return value;
}

/* ---- SARIF ---- */

static struct run run_sarif(const char *path)
{
    return run_srcls(NULL, (const char *[]){"--check", "--format", "sarif", path, NULL});
}

static uint32_t sarif_results(struct json_doc *doc)
{
    return node_at(doc, doc->root, "/runs/0/results", JSON_ARRAY);
}

/* The result with `rule_id` at `pointer` (properties.pointer); fails when there is none. */
static uint32_t sarif_result(struct json_doc *doc, const char *rule_id, const char *pointer)
{
    uint32_t results = sarif_results(doc);
    for (uint32_t r = doc->nodes[results].first_child; r != JSON_NONE; r = doc->nodes[r].next) {
        uint32_t id = json_object_get(doc, r, "ruleId", 6);
        uint32_t properties = json_object_get(doc, r, "properties", 10);
        uint32_t at =
            properties == JSON_NONE ? JSON_NONE : json_object_get(doc, properties, "pointer", 7);
        if (json_node_string_equals(doc, id, rule_id, strlen(rule_id)) && at != JSON_NONE &&
            json_node_string_equals(doc, at, pointer, strlen(pointer)))
            return r;
    }
    fail_msg("no %s result at %s", rule_id, pointer);
    return JSON_NONE;
}

static void test_sarif_declares_version_schema_tool_and_the_rules_its_results_use(void **state)
{
    (void)state;
    char *text = bad_example();
    write_file("a.source.json", text);
    free(text);
    struct run r = run_sarif("a.source.json");
    assert_exit(&r, 1);
    struct json_doc doc;
    parse_output(&doc, &r);
    assert_string_node(&doc, doc.root, "/version", "2.1.0");
    assert_string_node(&doc, doc.root, "/$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    assert_int_equal(json_child_count(&doc, node_at(&doc, doc.root, "/runs", JSON_ARRAY)), 1);
    assert_string_node(&doc, doc.root, "/runs/0/tool/driver/name", "srcls");
    assert_string_node(&doc, doc.root, "/runs/0/columnKind", "utf16CodeUnits");

    /* every rule has an id, a description and a default level; no id twice */
    uint32_t rules = node_at(&doc, doc.root, "/runs/0/tool/driver/rules", JSON_ARRAY);
    assert_true(json_child_count(&doc, rules) >= 5);
    for (uint32_t a = doc.nodes[rules].first_child; a != JSON_NONE; a = doc.nodes[a].next) {
        struct json_str id = json_node_string(&doc, node_at(&doc, a, "/id", JSON_STRING));
        node_at(&doc, a, "/shortDescription/text", JSON_STRING);
        node_at(&doc, a, "/help/text", JSON_STRING);
        node_at(&doc, a, "/defaultConfiguration/level", JSON_STRING);
        for (uint32_t b = doc.nodes[a].next; b != JSON_NONE; b = doc.nodes[b].next) {
            if (json_node_string_equals(&doc, node_at(&doc, b, "/id", JSON_STRING), id.ptr, id.len))
                fail_msg("rule %.*s is listed twice", (int)id.len, id.ptr);
        }
    }
    /* every result names a rule of the list, and ruleIndex points at it */
    uint32_t results = sarif_results(&doc);
    assert_int_equal(json_child_count(&doc, results), 7); /* six, and unrestricted-scope */
    for (uint32_t s = doc.nodes[results].first_child; s != JSON_NONE; s = doc.nodes[s].next) {
        struct json_str id = json_node_string(&doc, node_at(&doc, s, "/ruleId", JSON_STRING));
        int64_t index = int_node(&doc, s, "/ruleIndex");
        uint32_t rule = json_array_get(&doc, rules, (uint32_t)index);
        if (rule == JSON_NONE ||
            !json_node_string_equals(&doc, node_at(&doc, rule, "/id", JSON_STRING), id.ptr, id.len))
            fail_msg("result %.*s has ruleIndex %lld, which is another rule", (int)id.len, id.ptr,
                     (long long)index);
    }
    json_doc_free(&doc);
    run_free(&r);
}

static void test_sarif_result_has_message_uri_and_exact_utf16_region(void **state)
{
    (void)state;
    write_file("sub/emoji.source.json", emoji_source);
    struct run r = run_sarif("sub/emoji.source.json");
    assert_exit(&r, 0);
    struct json_doc doc;
    parse_output(&doc, &r);
    assert_int_equal(json_child_count(&doc, sarif_results(&doc)), 1);
    uint32_t s = sarif_result(&doc, "unknown-field", "/config/acessKey");
    assert_string_node(&doc, s, "/level", "warning");
    assert_string_node(&doc, s, "/message/text", emoji_message);
    assert_string_node(&doc, s, "/locations/0/physicalLocation/artifactLocation/uri",
                       "sub/emoji.source.json");
    static const struct {
        const char *pointer;
        int64_t value;
    } region[] = {{"/startLine", 3}, {"/startColumn", 55}, {"/endLine", 3}, {"/endColumn", 65}};
    uint32_t at = node_at(&doc, s, "/locations/0/physicalLocation/region", JSON_OBJECT);
    for (size_t i = 0; i < sizeof region / sizeof region[0]; i++) {
        if (int_node(&doc, at, region[i].pointer) != region[i].value)
            fail_msg("region %s is %lld, expected %lld", region[i].pointer,
                     (long long)int_node(&doc, at, region[i].pointer), (long long)region[i].value);
    }
    node_at(&doc, s, "/partialFingerprints/srclsPointer~1v1", JSON_STRING);
    json_doc_free(&doc);
    run_free(&r);
}

/* error -> "error", warning -> "warning", information and hint -> "note"; "off" -> no result. */
static void test_sarif_levels_follow_the_configured_severities(void **state)
{
    (void)state;
    char *text = bad_example();
    write_file("a.source.json", text);
    free(text);
    write_file("srcls.json", "{\"rules\": {\"unknown-field\": \"information\", "
                             "\"not-applicable\": \"hint\", \"invalid-enum\": \"warning\", "
                             "\"secret-not-encoded\": \"off\"}}");
    struct run r = run_sarif("a.source.json");
    assert_exit(&r, 1);
    struct json_doc doc;
    parse_output(&doc, &r);
    static const struct {
        const char *rule, *pointer, *level;
    } expected[] = {
        {"conditional-required", "/config/accessKey", "error"},
        {"unknown-field", "/config/acessKey", "note"},
        {"not-applicable", "/config/maxCacheSpacePct", "note"},
        {"out-of-range", "/config/maxCacheSpacePct", "error"},
        {"invalid-enum", "/config/defaultCtasFormat", "warning"},
        {"unrestricted-scope", "/config/whitelistedBuckets", "note"}, /* information */
    };
    assert_int_equal(json_child_count(&doc, sarif_results(&doc)), 6);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        assert_string_node(&doc, sarif_result(&doc, expected[i].rule, expected[i].pointer),
                           "/level", expected[i].level);
    json_doc_free(&doc);
    run_free(&r);
}

static void test_sarif_uri_is_relative_to_the_current_directory(void **state)
{
    (void)state;
    write_file("sub/emoji.source.json", emoji_source);
    char absolute[PATH_MAX + 64];
    snprintf(absolute, sizeof absolute, "%s/sub/emoji.source.json", scratch_dir());
    const char *spellings[] = {"sub/emoji.source.json", "./sub/emoji.source.json", absolute};
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        struct run r = run_sarif(spellings[i]);
        struct json_doc doc;
        parse_output(&doc, &r);
        assert_string_node(&doc, sarif_result(&doc, "unknown-field", "/config/acessKey"),
                           "/locations/0/physicalLocation/artifactLocation/uri",
                           "sub/emoji.source.json");
        json_doc_free(&doc);
        run_free(&r);
    }
}

/* The fingerprint of each result, in output order, as one string. */
static char *fingerprints(const struct run *r)
{
    struct json_doc doc;
    parse_output(&doc, r);
    char *list = calloc(1, 1024);
    assert_non_null(list);
    uint32_t results = sarif_results(&doc);
    for (uint32_t s = doc.nodes[results].first_child; s != JSON_NONE; s = doc.nodes[s].next) {
        struct json_str print = json_node_string(
            &doc, node_at(&doc, s, "/partialFingerprints/srclsPointer~1v1", JSON_STRING));
        size_t used = strlen(list);
        snprintf(list + used, 1024 - used, "%.*s ", (int)print.len, print.ptr);
    }
    json_doc_free(&doc);
    return list;
}

/* Code scanning matches results across commits by their fingerprint: the same on a second run,
 * the same when unrelated lines move, and distinct between results. */
static void test_sarif_fingerprints_are_stable_and_distinct(void **state)
{
    (void)state;
    char *text = bad_example();
    write_file("a.source.json", text);
    struct run first = run_sarif("a.source.json");
    struct run second = run_sarif("a.source.json");
    assert_string_equal(first.out, second.out);
    char *before = fingerprints(&first);

    char moved[4096];
    snprintf(moved, sizeof moved, "\n\n%s", text); /* every line two lower */
    write_file("a.source.json", moved);
    struct run third = run_sarif("a.source.json");
    char *after = fingerprints(&third);
    assert_string_equal(before, after);
    struct json_doc doc;
    parse_output(&doc, &third);
    assert_int_equal(int_node(&doc, sarif_result(&doc, "unknown-field", "/config/acessKey"),
                              "/locations/0/physicalLocation/region/startLine"),
                     9);
    json_doc_free(&doc);

    /* seven results, seven fingerprints of 12 hex digits ("%012lx "), no two alike */
    assert_int_equal(strlen(before), 7 * 13);
    for (size_t a = 0; a < 7; a++) {
        assert_int_equal(strspn(before + a * 13, "0123456789abcdef"), 12);
        for (size_t b = a + 1; b < 7; b++) {
            if (memcmp(before + a * 13, before + b * 13, 12) == 0)
                fail_msg("two results share a fingerprint: %s", before);
        }
    }
    free(text);
    free(before);
    free(after);
    run_free(&first);
    run_free(&second);
    run_free(&third);
}

static void test_sarif_clean_file_has_no_results(void **state)
{
    (void)state;
    char *text = example("01-search-service.source.json");
    write_file("good.source.json", text);
    free(text);
    struct run r = run_sarif("good.source.json");
    assert_exit(&r, 0);
    struct json_doc doc;
    parse_output(&doc, &r);
    assert_int_equal(json_child_count(&doc, sarif_results(&doc)), 0);
    json_doc_free(&doc);
    assert_string_equal(r.err, "");
    run_free(&r);
}

/* An unreadable path among others: the SARIF of the others stays whole, and the exit status is
 * 2. (report_sarif.c leaves the path out of the SARIF.) */
static void test_sarif_unreadable_path_keeps_the_other_results_and_exits_2(void **state)
{
    (void)state;
    write_file("sub/emoji.source.json", emoji_source);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--format", "sarif", "missing.json",
                                                    "sub/emoji.source.json", NULL});
    assert_exit(&r, 2);
    struct json_doc doc;
    parse_output(&doc, &r);
    assert_int_equal(json_child_count(&doc, sarif_results(&doc)), 1);
    sarif_result(&doc, "unknown-field", "/config/acessKey");
    /* The unreadable path is not lost: the run says it did not succeed, with a notification
     * that names the path, and stderr says so too. */
    uint32_t invocation = node_at(&doc, doc.root, "/runs/0/invocations/0", JSON_OBJECT);
    assert_int_equal(doc.nodes[json_object_get(&doc, invocation, "executionSuccessful", 19)].kind,
                     JSON_FALSE);
    uint32_t notes = node_at(&doc, invocation, "/toolExecutionNotifications", JSON_ARRAY);
    assert_int_equal(json_child_count(&doc, notes), 1);
    uint32_t uri =
        node_at(&doc, notes, "/0/locations/0/physicalLocation/artifactLocation/uri", JSON_STRING);
    assert_true(json_node_string_equals(&doc, uri, "missing.json", 12));
    uint32_t level = node_at(&doc, notes, "/0/level", JSON_STRING);
    assert_true(json_node_string_equals(&doc, level, "error", 5));
    assert_non_null(strstr(r.err, "missing.json: cannot read: No such file or directory"));
    json_doc_free(&doc);
    run_free(&r);
}

/* ---- GitHub workflow commands ---- */

static struct run run_github(const char *path)
{
    return run_srcls(NULL, (const char *[]){"--check", "--format", "github", path, NULL});
}

static void test_github_prints_one_exact_command_per_diagnostic_then_the_summary(void **state)
{
    (void)state;
    char *text = bad_example();
    write_file("a.source.json", text);
    free(text);
    struct run r = run_github("a.source.json");
    assert_exit(&r, 1);
    assert_string_equal(
        r.out,
        "::error file=a.source.json,line=4,endLine=4,col=3,endColumn=11,title=conditional-required"
        "::missing field \"accessKey\" (a string): it is required when \"credentialType\" is "
        "ACCESS_KEY\n"
        "::notice file=a.source.json,line=4,endLine=4,col=3,endColumn=11,title=unrestricted-scope"
        "::no `whitelistedBuckets`: the source reaches every bucket the credentials can (omitted "
        "means all available buckets), and an update (PUT) without the list resets it to all; "
        "list the buckets the source needs\n"
        "::error file=a.source.json,line=6,endLine=6,col=21,endColumn=30,title=secret-not-encoded"
        "::\"accessSecret\" is a secret and is not encoded: write it as \"data:,<secret>\" "
        "(\"data:;base64,<base64>\" when it contains a colon), as the placeholder "
        "$SERVICE_EXISTING_VALUE$, or as a secret-store reference (arn:, vault:, https://)\n"
        "::warning file=a.source.json,line=7,endLine=7,col=5,endColumn=15,title=unknown-field"
        "::unknown field \"acessKey\" for Object storage A (CLOUDA_OBJECT_STORAGE); did you mean "
        "\"accessKey\"?\n"
        "::warning file=a.source.json,line=9,endLine=9,col=5,endColumn=23,title=not-applicable"
        "::\"maxCacheSpacePct\" has no effect here: it applies only when \"isCachingEnabled\" is "
        "true\n"
        "::error file=a.source.json,line=9,endLine=9,col=25,endColumn=28,title=out-of-range"
        "::\"maxCacheSpacePct\" must be between 1 and 100\n"
        "::error file=a.source.json,line=10,endLine=10,col=26,endColumn=31,title=invalid-enum"
        "::\"defaultCtasFormat\" must be one of ICEBERG, PARQUET (got \"ORC\")\n"
        "checked 1 file: 4 errors, 2 warnings, 1 information, 0 hints\n");
    assert_string_equal(r.err, "");
    run_free(&r);
}

/* Columns are characters, as in the text format: 😀 counts one. */
static void test_github_columns_count_characters(void **state)
{
    (void)state;
    write_file("sub/emoji.source.json", emoji_source);
    struct run r = run_github("sub/emoji.source.json");
    char line[512];
    snprintf(line, sizeof line,
             "::warning file=sub/emoji.source.json,line=3,endLine=3,col=54,endColumn=64,"
             "title=unknown-field::%s",
             emoji_message);
    assert_line(&r, line);
    run_free(&r);
}

/* Information and hints are ::notice; "off" prints nothing. */
static void test_github_commands_follow_the_configured_severities(void **state)
{
    (void)state;
    char *text = bad_example();
    write_file("a.source.json", text);
    free(text);
    write_file("srcls.json", "{\"rules\": {\"unknown-field\": \"information\", "
                             "\"not-applicable\": \"hint\", \"out-of-range\": \"warning\", "
                             "\"invalid-enum\": \"off\"}}");
    struct run r = run_github("a.source.json");
    assert_line(&r, "::notice file=a.source.json,line=7,endLine=7,col=5,endColumn=15,"
                    "title=unknown-field::unknown field \"acessKey\" for Object storage A "
                    "(CLOUDA_OBJECT_STORAGE); did you mean \"accessKey\"?");
    assert_line(&r, "::notice file=a.source.json,line=9,endLine=9,col=5,endColumn=23,"
                    "title=not-applicable::\"maxCacheSpacePct\" has no effect here: it applies "
                    "only when \"isCachingEnabled\" is true");
    assert_line(&r, "::warning file=a.source.json,line=9,endLine=9,col=25,endColumn=28,"
                    "title=out-of-range::\"maxCacheSpacePct\" must be between 1 and 100");
    assert_null(strstr(r.out, "invalid-enum"));
    assert_line(&r, "checked 1 file: 2 errors, 1 warning, 2 information, 1 hint");
    run_free(&r);
}

/* GitHub's toolkit escapes % CR LF in the message, and also : and , in a property (a file name
 * with a comma would otherwise end the property, a colon the command). */
static void test_github_escapes_properties_and_message(void **state)
{
    (void)state;
    static const char document[] =
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
        "\"acc%ess,Ke:y\": 1}}";
    static const struct {
        const char *name, *escaped;
    } files[] = {
        {"we%ird,na:me.source.json", "we%25ird%2Cna%3Ame.source.json"},
        {"line\nbreak\r.source.json", "line%0Abreak%0D.source.json"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        write_file(files[i].name, document);
        struct run r = run_github(files[i].name);
        char line[512];
        snprintf(line, sizeof line,
                 "::warning file=%s,line=1,endLine=1,col=72,endColumn=86,title=unknown-field"
                 "::unknown field \"acc%%25ess,Ke:y\" for Object storage A "
                 "(CLOUDA_OBJECT_STORAGE); did you mean \"accessKey\"?",
                 files[i].escaped);
        assert_line(&r, line);
        run_free(&r);
    }
}

static void test_github_unreadable_path_is_an_error_command(void **state)
{
    (void)state;
    struct run r = run_github("no,such:file.json");
    assert_exit(&r, 2);
    assert_string_equal(r.out,
                        "::error file=no%2Csuch%3Afile.json,title=srcls::cannot read: No such "
                        "file or directory\n"
                        "checked 0 files: 0 errors, 0 warnings, 0 information, 0 hints (1 "
                        "path could not be read)\n");
    run_free(&r);
}

/* ---- srcls.json and --config ---- */

/* A source whose only diagnostic is an unknown field, a warning: exit 0 unless configured. */
static const char unknown_field_source[] =
    "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
    "\"acessKey\": \"k\", \"whitelistedBuckets\": [\"b\"]}}\n";
static const char unknown_field_warning[] =
    "proj/sub/a.source.json:1:72: warning: unknown field \"acessKey\" for Object storage A "
    "(CLOUDA_OBJECT_STORAGE); did you mean \"accessKey\"? [unknown-field]";
static const char unknown_field_error[] =
    "proj/sub/a.source.json:1:72: error: unknown field \"acessKey\" for Object storage A "
    "(CLOUDA_OBJECT_STORAGE); did you mean \"accessKey\"? [unknown-field]";

static struct run run_text(const char *path)
{
    return run_srcls(NULL, (const char *[]){"--check", path, NULL});
}

static void test_config_rules_upgrade_a_code_or_turn_it_off(void **state)
{
    (void)state;
    write_file("proj/sub/a.source.json", unknown_field_source);
    struct run r = run_text("proj/sub/a.source.json");
    assert_exit(&r, 0);
    assert_line(&r, unknown_field_warning);
    run_free(&r);

    write_file("proj/srcls.json", "{\"rules\": {\"unknown-field\": \"error\"}}");
    r = run_text("proj/sub/a.source.json");
    assert_exit(&r, 1);
    assert_line(&r, unknown_field_error);
    run_free(&r);

    write_file("proj/srcls.json", "{\"rules\": {\"unknown-field\": \"off\"}}");
    r = run_text("proj/sub/a.source.json");
    assert_exit(&r, 0);
    assert_string_equal(r.out, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 hints\n");
    assert_string_equal(r.err, "");
    run_free(&r);
}

static void test_config_types_map_an_identifier_onto_a_kind(void **state)
{
    (void)state;
    write_file("proj/sub/a.source.json",
               "{\"type\": \"MY_STORE\", \"config\": {\"credentialType\": \"NONE\", "
               "\"acessKey\": \"k\"}}\n");
    write_file("proj/srcls.json", "{\"types\": {\"MY_STORE\": \"CLOUDA_OBJECT_STORAGE\"}}");
    struct run r = run_text("proj/sub/a.source.json");
    assert_exit(&r, 0);
    assert_string_equal(r.out,
                        "proj/sub/a.source.json:1:22: information: no `whitelistedBuckets`: the "
                        "source reaches every bucket the credentials can (omitted means all "
                        "available buckets), and an update (PUT) without the list resets it to "
                        "all; list the buckets the source needs [unrestricted-scope]\n"
                        "proj/sub/a.source.json:1:59: warning: unknown field \"acessKey\" "
                        "for Object storage A (CLOUDA_OBJECT_STORAGE); did you mean "
                        "\"accessKey\"? [unknown-field]\n"
                        "checked 1 file: 0 errors, 1 warning, 1 information, 0 hints\n");
    run_free(&r);

    write_file("proj/srcls.json", "{}"); /* without the mapping, the type is unknown */
    r = run_text("proj/sub/a.source.json");
    assert_exit(&r, 1);
    assert_line(&r, "proj/sub/a.source.json:1:10: error: unknown type \"MY_STORE\", and the config "
                    "keys do not identify a kind: see srcls --list-kinds for the known "
                    "identifiers, or map it in srcls.json \"types\" [unknown-kind]");
    run_free(&r);
}

/* The nearest srcls.json upwards from the first path, not from the current directory. */
static void test_config_is_found_upwards_from_the_checked_path(void **state)
{
    (void)state;
    write_file("proj/sub/a.source.json", unknown_field_source);
    write_file("proj/srcls.json", "{\"rules\": {\"unknown-field\": \"error\"}}");
    write_file("other/srcls.json", "{\"rules\": {\"unknown-field\": \"off\"}}");
    struct run r = run_text("proj/sub/a.source.json");
    assert_line(&r, unknown_field_error);
    run_free(&r);
    r = run_text("proj/sub"); /* a directory */
    assert_line(&r, unknown_field_error);
    run_free(&r);
    r = run_text("proj"); /* the directory that holds it */
    assert_line(&r, unknown_field_error);
    run_free(&r);

    /* the nearest one wins */
    write_file("proj/sub/srcls.json", "{\"rules\": {\"unknown-field\": \"information\"}}");
    r = run_text("proj/sub/a.source.json");
    if (strstr(r.out, ": information: unknown field") == NULL)
        fail_msg("proj/sub/srcls.json is not the one applied:\n%s", r.out);
    run_free(&r);
}

static void test_config_option_overrides_discovery(void **state)
{
    (void)state;
    write_file("proj/sub/a.source.json", unknown_field_source);
    write_file("proj/srcls.json", "{\"rules\": {\"unknown-field\": \"off\"}}");
    write_file("ci.json", "{\"rules\": {\"unknown-field\": \"error\"}}");
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--config", "ci.json", "proj/sub", NULL});
    assert_exit(&r, 1);
    assert_line(&r, unknown_field_error);
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--config=ci.json", "proj/sub", NULL});
    assert_exit(&r, 1);
    run_free(&r);
}

/* A configuration with any problem is not half applied: nothing is checked, stderr names the
 * file and the place of each mistake as any document's (FILE:LINE:COLUMN), and the exit status
 * is 2. */
static void test_broken_config_names_file_and_place_and_exits_2(void **state)
{
    (void)state;
    write_file("a.source.json", unknown_field_source);
    static const struct {
        const char *text, *stderr_text;
    } cases[] = {
        {"{\"rules\": {\n  \"unknown-field\": \"error\",\n}}",
         "srcls: cfg.json:2:27: trailing comma: JSON does not allow ',' before '}'\n"},
        {"", "srcls: cfg.json:1:1: the configuration is empty: it holds an object ({} at least)\n"},
        {"[]", "srcls: cfg.json:1:1: the configuration must be an object\n"},
        {"{\"rule\": {\"unknown-field\": \"error\"}}",
         "srcls: cfg.json:1:2: unknown setting (the settings are \"extends\", \"rules\", "
         "\"types\", \"include\", \"exclude\", \"placeholders\", \"schemas\", \"ignore\" and "
         "\"baseline\")\n"},
        {"{\"rules\": {\"unknown-field\": \"fatal\"}}",
         "srcls: cfg.json:1:12: the severity of \"unknown-field\" must be error, warning, "
         "information, hint or off\n"},
        {"{\"rules\": {\"unknown-fields\": \"error\"}}",
         "srcls: cfg.json:1:12: unknown code \"unknown-fields\"\n"},
        {"{\"rules\": [\"unknown-field\"]}",
         "srcls: cfg.json:1:2: must be an object mapping a code to a severity\n"},
        {"{\"types\": {\"MY_STORE\": \"NO_SUCH_KIND\"}}",
         "srcls: cfg.json:1:12: \"NO_SUCH_KIND\" is the type of no kind (srcls --list-kinds lists "
         "them)\n"},
        {"{\"types\": {\"a/b\": 3}}", "srcls: cfg.json:1:12: a \"types\" entry maps an identifier "
                                      "to a kind's type (a string)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_file("cfg.json", cases[i].text);
        struct run r = run_srcls(
            NULL, (const char *[]){"--check", "--config", "cfg.json", "a.source.json", NULL});
        /* the mistakes are also findings in the report, and the document is not checked */
        if (r.exit_status != 2 || strcmp(r.err, cases[i].stderr_text) != 0 ||
            strstr(r.out, "cfg.json:") == NULL || strstr(r.out, ": error: ") == NULL ||
            strstr(r.out, "a.source.json: error: not checked: its srcls.json has mistakes\n") ==
                NULL)
            fail_msg("configuration %zu: exit %d, stdout:\n%s\nstderr:\n%s\nexpected stderr:\n%s",
                     i, r.exit_status, r.out, r.err, cases[i].stderr_text);
        run_free(&r);
    }

    /* a discovered srcls.json is named by its full path; the files it governs are not
     * checked, and said so */
    write_file("proj/srcls.json", "{\"rules\": {\"unknown-field\": 1}}");
    write_file("proj/a.source.json", unknown_field_source);
    char real[PATH_MAX], expected[PATH_MAX + 256];
    assert_non_null(realpath(scratch_dir(), real));
    snprintf(expected, sizeof expected,
             "srcls: %s/proj/srcls.json:1:12: the severity of \"unknown-field\" must be error, "
             "warning, information, hint or off\n",
             real);
    struct run r = run_text("proj/a.source.json");
    assert_exit(&r, 2);
    assert_string_equal(r.err, expected);
    assert_non_null(strstr(r.out, "not checked: its srcls.json has mistakes"));
    run_free(&r);

    r = run_srcls(NULL,
                  (const char *[]){"--check", "--config", "none.json", "a.source.json", NULL});
    assert_exit(&r, 2);
    assert_string_equal(
        r.err, "srcls: cannot read the configuration none.json: No such file or directory\n");
    run_free(&r);
}

/* Each file takes the srcls.json nearest to it, whatever else is named and in what order. */
static void test_config_is_per_file_whatever_the_order_of_the_arguments(void **state)
{
    (void)state;
    write_file("one/a.source.json", unknown_field_source);
    write_file("one/srcls.json", "{\"rules\": {\"unknown-field\": \"error\"}}");
    write_file("two/b.source.json", unknown_field_source);
    write_file("two/srcls.json", "{\"rules\": {\"unknown-field\": \"off\"}}");
    static const char *const orders[2][2] = {{"one", "two"}, {"two", "one"}};
    for (int i = 0; i < 2; i++) {
        struct run r =
            run_srcls(NULL, (const char *[]){"--check", orders[i][0], orders[i][1], NULL});
        assert_exit(&r, 1);
        assert_non_null(strstr(r.out, "one/a.source.json:"));
        assert_null(strstr(r.out, "two/b.source.json:")); /* off there */
        assert_non_null(strstr(r.out, ": error: unknown field"));
        run_free(&r);
    }
}

/* ---- secrets ---- */

/* Secret and sensitive values in every shape a rule looks at; each value holds "Zq7". */
static const struct {
    const char *name, *text, *code;
} secret_documents[] = {
    {"plain.source.json", "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"Zq7Plain\"}}",
     "[secret-not-encoded]"},
    {"colon.source.json",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:,Zq7Enc:oded\"}}",
     "[secret-needs-base64]"},
    {"base64.source.json",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:;base64,Zq7Bad@@\"}}",
     "[invalid-base64]"},
    {"array.source.json", "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": [\"Zq7Arr\"]}}",
     "[type-mismatch]"},
    {"duplicate.source.json",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:,Zq7A\", "
     "\"password\": \"data:,Zq7B\"}}",
     "[duplicate-key]"},
    {"typo.source.json", "{\"type\": \"PEER_CLUSTER\", \"config\": {\"passwrd\": \"Zq7Typo\"}}",
     "[unknown-field]"},
    {"sensitive.source.json",
     "{\"type\": \"CLOUD_ANALYTICS_WAREHOUSE\", \"config\": {\"privateKey\": [\"Zq7Sens\"]}}",
     "[type-mismatch]"},
    {"unterminated.source.json",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"Zq7Open\n}}", "[json-syntax]"},
    {"encoded.source.json",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:,Zq7Good\", \"prt\": 1}}",
     "[unknown-field]"},
};

static void test_no_format_prints_a_secret_value(void **state)
{
    (void)state;
    size_t count = sizeof secret_documents / sizeof secret_documents[0];
    for (size_t i = 0; i < count; i++)
        write_file(secret_documents[i].name, secret_documents[i].text);

    /* the rules did look at every document */
    struct run r = run_text(".");
    for (size_t i = 0; i < count; i++) {
        char line_start[128];
        snprintf(line_start, sizeof line_start, "%s:", secret_documents[i].name);
        const char *at = strstr(r.out, line_start);
        const char *code = at ? strstr(at, secret_documents[i].code) : NULL;
        if (code == NULL)
            fail_msg("no %s for %s in:\n%s", secret_documents[i].code, secret_documents[i].name,
                     r.out);
    }
    run_free(&r);

    /* every format, and the text's code frames ("text --show-source") */
    static const char *const formats[] = {"text",   "json",   "sarif",
                                          "github", "gitlab", "text --show-source"};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        char format[32];
        snprintf(format, sizeof format, "%s", formats[f]);
        char *frames = strchr(format, ' ');
        if (frames != NULL)
            *frames++ = '\0';
        const char *shown = frames != NULL ? "--show-source" : "--no-show-source";
        r = run_srcls(NULL, (const char *[]){"--check", "--format", format, shown, ".", NULL});
        assert_exit(&r, 1);
        if (strstr(r.out, "Zq7") != NULL || strstr(r.err, "Zq7") != NULL)
            fail_msg("--format %s prints a secret value:\n%s\n%s", formats[f], r.out, r.err);
        run_free(&r);
        /* one by one, so that each file is the first (and the only) one */
        for (size_t i = 0; i < count; i++) {
            r = run_srcls(NULL, (const char *[]){"--check", "--format", format, shown,
                                                 secret_documents[i].name, NULL});
            if (strstr(r.out, "Zq7") != NULL || strstr(r.err, "Zq7") != NULL)
                fail_msg("--format %s prints a secret value of %s:\n%s\n%s", formats[f],
                         secret_documents[i].name, r.out, r.err);
            run_free(&r);
        }
    }

    /* --fix --unsafe-fixes encodes the plaintext secret and does not print it either */
    r = run_srcls(
        NULL, (const char *[]){"--check", "--fix", "--unsafe-fixes", "plain.source.json", NULL});
    if (strstr(r.out, "Zq7") != NULL || strstr(r.err, "Zq7") != NULL)
        fail_msg("--fix prints a secret value:\n%s\n%s", r.out, r.err);
    char *fixed = read_all("plain.source.json");
    assert_non_null(strstr(fixed, "\"data:,Zq7Plain\""));
    free(fixed);
    run_free(&r);
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_sarif_declares_version_schema_tool_and_the_rules_its_results_use),
        TEST(test_sarif_result_has_message_uri_and_exact_utf16_region),
        TEST(test_sarif_levels_follow_the_configured_severities),
        TEST(test_sarif_uri_is_relative_to_the_current_directory),
        TEST(test_sarif_fingerprints_are_stable_and_distinct),
        TEST(test_sarif_clean_file_has_no_results),
        TEST(test_sarif_unreadable_path_keeps_the_other_results_and_exits_2),
        TEST(test_github_prints_one_exact_command_per_diagnostic_then_the_summary),
        TEST(test_github_columns_count_characters),
        TEST(test_github_commands_follow_the_configured_severities),
        TEST(test_github_escapes_properties_and_message),
        TEST(test_github_unreadable_path_is_an_error_command),
        TEST(test_config_rules_upgrade_a_code_or_turn_it_off),
        TEST(test_config_types_map_an_identifier_onto_a_kind),
        TEST(test_config_is_found_upwards_from_the_checked_path),
        TEST(test_config_option_overrides_discovery),
        TEST(test_broken_config_names_file_and_place_and_exits_2),
        TEST(test_config_is_per_file_whatever_the_order_of_the_arguments),
        TEST(test_no_format_prints_a_secret_value),
    };
#undef TEST
    return cmocka_run_group_tests(tests, NULL, NULL);
}
