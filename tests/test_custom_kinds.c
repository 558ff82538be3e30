/* test_custom_kinds: a team's own kind files over the built-in schema (srcls.json "schemas"),
 * through schema_registry_load_custom — a new kind from scratch, an extension of a built-in kind
 * (a new field, a stricter bound, an extra required field), a group of their own, and broken
 * files reported with their place while everything else still loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysed.h"
#include "check/check.h"
#include "domain/domain.h"
#include "assist/assist.h"
#include "project/project.h"
#include "schema/schema.h"

/* A new kind, numbered by srcls, using a group of the team's own. */
static const char queue_kind[] =
    "{\n"
    "  \"title\": \"Message queue\",\n"
    "  \"types\": [\"MESSAGE_QUEUE\"],\n"
    "  \"include\": [\"BROKER\"],\n"
    "  \"fields\": {\n"
    "    \"topic\": {\"type\": \"string\", \"description\": \"The topic read.\", \"required\": "
    "true}\n"
    "  }\n"
    "}\n";

static const char broker_group[] =
    "{\"group\": \"BROKER\", \"description\": \"Where the broker is.\",\n"
    " \"fields\": {\"brokerUrl\": {\"type\": \"string\", \"description\": \"Its address.\",\n"
    "                              \"required\": true}}}\n";

/* Kind 10 as one team runs it: a field of their own, cachePercent at most 50, rootPath
 * required. */
static const char stricter_kind_10[] =
    "{\n"
    "  \"$schema\": \"../srcls-schemas/kind-file.schema.json\",\n"
    "  \"extends\": \"10-object-storage-c\",\n"
    "  \"fields\": {\n"
    "    \"costCenter\": {\"type\": \"string\", \"description\": \"Who pays.\", \"required\": "
    "true},\n"
    "    \"cachePercent\": {\"maximum\": 50},\n"
    "    \"rootPath\": {\"required\": true}\n"
    "  }\n"
    "}\n";

static void load(struct schema_registry *registry, struct schema_problems *problems,
                 const struct schema_file *files, size_t count)
{
    assert_int_equal(schema_registry_load_custom(registry, files, count, problems), 0);
}

static void test_a_new_kind_from_scratch_is_checked_like_a_built_in_one(void **state)
{
    (void)state;
    struct schema_file files[] = {{"team/broker.json", broker_group, sizeof broker_group - 1, true},
                                  {"team/queue.json", queue_kind, sizeof queue_kind - 1, true}};
    struct schema_registry registry;
    struct schema_problems problems;
    load(&registry, &problems, files, 2);
    assert_int_equal(problems.count, 0);
    assert_int_equal(registry.kind_count, 26);
    const struct schema_kind *kind = schema_find_kind(&registry, "MESSAGE_QUEUE", 13);
    assert_non_null(kind);
    assert_int_equal(kind->number, 26); /* after every built-in kind */
    assert_string_equal(kind->title, "Message queue");
    char *got = diagnostic_lines(&registry, "{\"name\": \"q\", \"type\": \"MESSAGE_QUEUE\", "
                                            "\"config\": {\"topik\": \"orders\"}}");
    assert_string_equal(got, "missing-required /config/brokerUrl\n"
                             "missing-required /config/topic\n"
                             "unknown-field /config/topik\n");
    free(got);
    got = diagnostic_lines(&registry, "{\"name\": \"q\", \"type\": \"MESSAGE_QUEUE\", \"config\": "
                                      "{\"topic\": \"orders\", \"brokerUrl\": \"amqp://b\"}}");
    assert_string_equal(got, "");
    free(got);
    schema_problems_free(&problems);
    schema_registry_free(&registry);
}

static void test_an_extension_replaces_the_built_in_kind(void **state)
{
    (void)state;
    struct schema_file files[] = {
        {"team/object-storage-c.json", stricter_kind_10, sizeof stricter_kind_10 - 1, true}};
    struct schema_registry registry;
    struct schema_problems problems;
    load(&registry, &problems, files, 1);
    assert_int_equal(problems.count, 0);
    assert_int_equal(registry.kind_count, 25); /* kind 10 replaced, not added */
    const struct schema_kind *kind = schema_find_kind(&registry, "CLOUDC_OBJECT_STORAGE", 21);
    assert_non_null(kind);
    assert_int_equal(kind->number, 10);
    assert_string_equal(kind->title, "Object storage C");
    assert_string_equal(kind->stem, "object-storage-c");
    const char *base = "{\"name\": \"c\", \"type\": \"CLOUDC_OBJECT_STORAGE\", \"config\": "
                       "{\"projectId\": \"p\", \"authMode\": \"AUTO\", "
                       "\"cachingEnable\": true, \"cachePercent\": 70}}";
    char *got = diagnostic_lines(&registry, base);
    /* what the built-in kind accepts, the team's does not */
    assert_string_equal(got, "missing-required /config/costCenter\n"
                             "missing-required /config/rootPath\n"
                             "out-of-range /config/cachePercent\n");
    free(got);
    schema_problems_free(&problems);
    schema_registry_free(&registry);
}

static void test_broken_files_are_placed_and_take_nothing_else_down(void **state)
{
    (void)state;
    static const char bad_type[] = "{\n  \"title\": \"T\",\n  \"types\": [\"T\"],\n"
                                   "  \"fields\": {\"port\": {\"type\": \"int\"}}\n}\n";
    static const char bad_json[] = "{\"title\": \"U\",\n \"types\": [\"U\"]\n\"fields\": {}}";
    static const char clash[] = "{\"title\": \"V\", \"types\": [\"CLOUDA_OBJECT_STORAGE\"]}";
    struct schema_file files[] = {
        {"team/t.json", bad_type, sizeof bad_type - 1, true},
        {"team/queue.json", queue_kind, sizeof queue_kind - 1, true}, /* needs BROKER: below */
        {"team/u.json", bad_json, sizeof bad_json - 1, true},
        {"team/broker.json", broker_group, sizeof broker_group - 1, true},
        {"team/v.json", clash, sizeof clash - 1, true},
    };
    struct schema_registry registry;
    struct schema_problems problems;
    load(&registry, &problems, files, 5);
    assert_int_equal(problems.count, 3);
    assert_int_equal(problems.items[0].file, 0);
    assert_string_equal(problems.items[0].text,
                        "team/t.json:4:31 at /fields/port/type: unknown type name");
    assert_string_equal(problems.items[0].pointer, "/fields/port/type");
    assert_int_equal(problems.items[0].start, strstr(bad_type, "\"int\"") - bad_type);
    assert_int_equal(problems.items[0].end, strstr(bad_type, "\"int\"") - bad_type + 5);
    assert_int_equal(problems.items[1].file, 2);
    assert_string_equal(problems.items[1].text, "team/u.json:2:16: not valid JSON: expected ',' or "
                                                "'}' after the value of \"types\"");
    assert_int_equal(problems.items[2].file, 4);
    assert_string_equal(problems.items[2].text,
                        "team/v.json:1:26 at /types/0: the type identifier is also one of "
                        "schema/kinds/03-object-storage-a.json");
    /* every built-in kind, and the good files */
    assert_int_equal(registry.kind_count, 26);
    assert_non_null(schema_find_kind(&registry, "MESSAGE_QUEUE", 13));
    assert_null(schema_find_kind(&registry, "T", 1));
    schema_problems_free(&problems);
    schema_registry_free(&registry);
}

static void test_a_kind_is_replaced_once_and_names_are_distinct(void **state)
{
    (void)state;
    static const char again[] = "{\"extends\": \"10-object-storage-c\", \"fields\": {}}";
    static const char renamed[] = "{\"group\": \"POOL\", \"fields\": {}}";
    static const char numbered[] = "{\"extends\": \"10-object-storage-c\", \"kind\": 30}";
    struct schema_file files[] = {
        {"team/a.json", stricter_kind_10, sizeof stricter_kind_10 - 1, true},
        {"team/b.json", again, sizeof again - 1, true},
        {"team/pool.json", renamed, sizeof renamed - 1, true},
        {"other/a.json", again, sizeof again - 1, true},
        {"team/c.json", numbered, sizeof numbered - 1, true},
    };
    struct schema_registry registry;
    struct schema_problems problems;
    load(&registry, &problems, files, 5);
    assert_int_equal(problems.count, 4);
    assert_string_equal(problems.items[0].text,
                        "team/b.json:1:13 at /extends: another custom kind replaces "
                        "10-object-storage-c already (give \"types\" to add a kind)");
    assert_string_equal(problems.items[1].text, "team/pool.json:1:11 at /group: a group of that "
                                                "name is already schema/groups/POOL.json");
    assert_string_equal(problems.items[2].text,
                        "other/a.json: a kind file of that name is already team/a.json");
    assert_string_equal(problems.items[3].text,
                        "team/c.json:1:44 at /kind: a kind that replaces kind 10 keeps its "
                        "number (leave \"kind\" out)");
    assert_int_equal(schema_find_kind(&registry, "CLOUDC_OBJECT_STORAGE", 21)->config.field_count,
                     registry.kinds[9].config.field_count);
    assert_non_null(schema_object_field(&registry.kinds[9].config, "costCenter", 10));
    schema_problems_free(&problems);
    schema_registry_free(&registry);
}

static void test_a_kind_built_on_a_broken_one_is_left_out_and_says_why(void **state)
{
    (void)state;
    static const char base[] = "{\"title\": \"B\", \"types\": [\"B\"],\n"
                               " \"fields\": {\"a\": {\"type\": \"strin\"}}}";
    static const char child[] = "{\"title\": \"C\", \"types\": [\"C\"], \"extends\": \"base\"}";
    static const char group[] = "{\"group\": \"TEAM\", \"fields\": {\"g\": {\"typ\": 1}}}";
    static const char user[] = "{\"title\": \"U\", \"types\": [\"U\"], \"include\": [\"TEAM\"]}";
    static const char fine[] = "{\"title\": \"F\", \"types\": [\"F\"]}";
    struct schema_file files[] = {{"team/child.json", child, sizeof child - 1, true},
                                  {"team/base.json", base, sizeof base - 1, true},
                                  {"team/user.json", user, sizeof user - 1, true},
                                  {"team/group.json", group, sizeof group - 1, true},
                                  {"team/fine.json", fine, sizeof fine - 1, true}};
    struct schema_registry registry;
    struct schema_problems problems;
    load(&registry, &problems, files, 5);
    assert_int_equal(problems.count, 4);
    assert_string_equal(problems.items[0].text, "team/child.json:1:43 at /extends: the kind base "
                                                "has a mistake (said in its file)");
    assert_string_equal(problems.items[1].text,
                        "team/base.json:2:27 at /fields/a/type: unknown type name");
    assert_string_equal(problems.items[2].text, "team/user.json:1:44 at /include/0: the group "
                                                "TEAM has a mistake (said in its file)");
    assert_int_equal(problems.items[3].file, 3);
    assert_string_equal(problems.items[3].text,
                        "team/group.json:1:43 at /fields/g/typ: unknown field key");
    assert_int_equal(registry.kind_count, 26); /* the built-in kinds and F */
    assert_non_null(schema_find_kind(&registry, "F", 1));
    schema_problems_free(&problems);
    schema_registry_free(&registry);
}

/* ---- completion and hover in a kind file, off the kind-file format's JSON Schema ---- */

static struct schema_registry builtin;

static char *labels_at(const char *text, const char *marker)
{
    struct project_schema none = {0};
    struct analysis a;
    assert_int_equal(project_kind_file_analyze(&a, text, strlen(text), "k.json", &none), 0);
    struct completion_list list;
    uint32_t offset = (uint32_t)(strstr(text, marker) - text);
    assert_int_equal(project_kind_file_complete(&a, &builtin, offset, &list), 0);
    char *out = calloc(1, 8192);
    assert_non_null(out);
    for (uint32_t i = 0; i < list.count; i++) {
        strcat(out, list.items[i].label);
        strcat(out, i + 1 < list.count ? " " : "");
    }
    completion_list_free(&list);
    analysis_free(&a);
    return out;
}

static void test_a_kind_file_completes_the_keys_and_values_of_its_format(void **state)
{
    (void)state;
    assert_int_equal(schema_registry_load_embedded(&builtin, NULL, 0), 0);
    /* the top of a kind file: every key not there yet */
    char *got = labels_at("{\"title\": \"Q\", \n}", "\n}");
    assert_string_equal(got, "$schema kind types description extends omit include fields "
                             "assertions notes");
    free(got);
    /* a group file (it has "group"): the keys of a group file */
    got = labels_at("{\"group\": \"G\", \n}", "\n}");
    assert_string_equal(got, "$schema description fields notes");
    free(got);
    /* inside a field: the keys of a field */
    got = labels_at("{\"fields\": {\"port\": {\"type\": \"integer\", \n}}}", "\n}");
    assert_non_null(strstr(got, "minimum maximum format secret"));
    assert_null(strstr(got, "type "));
    free(got);
    /* a field's type, its format, a condition's operator keys */
    got = labels_at("{\"fields\": {\"port\": {\"type\": \"\"}}}", "\"\"}}}");
    assert_string_equal(got, "string boolean integer number array object");
    free(got);
    got = labels_at("{\"fields\": {\"p\": {\"format\": }}}", " }}}");
    assert_string_equal(got, "uuid timestamp port namespace email");
    free(got);
    got = labels_at("{\"fields\": {\"p\": {\"required\": {\"field\": \"a\", \n}}}}", "\n}");
    assert_string_equal(got, "in noOtherThan present nonEmpty notBefore all any not");
    free(got);
    /* "include" names groups, as a name or in an object's "group" */
    got = labels_at("{\"include\": [\"\"]}", "\"\"]}");
    assert_string_equal(got, "ASYNC CACHE CTAS PART POOL PROPS SECRETPROPS");
    free(got);
    got = labels_at("{\"include\": [{\"group\": \"\"}]}", "\"\"}]}");
    assert_string_equal(got, "ASYNC CACHE CTAS PART POOL PROPS SECRETPROPS");
    free(got);
    /* "extends" names a kind by its file stem */
    got = labels_at("{\"extends\": \"\"}", "\"\"}");
    assert_non_null(strstr(got, "03-object-storage-a 04-metastore-catalog"));
    free(got);
}

static void test_a_kind_file_hovers_what_its_keys_mean(void **state)
{
    (void)state;
    const char *text = "{\"extends\": \"10-object-storage-c\", \"fields\": {\"p\": {\"secret\": "
                       "true}}}";
    struct project_schema none = {0};
    struct analysis a;
    assert_int_equal(project_kind_file_analyze(&a, text, strlen(text), "k.json", &none), 0);
    struct arena arena;
    arena_init(&arena);
    uint32_t start, end;
    const char *hover = project_kind_file_hover(
        &a, &builtin, (uint32_t)(strstr(text, "secret") - text), TEXT_PLAIN, &arena, &start, &end);
    assert_non_null(hover);
    assert_non_null(strstr(hover, "secret: A secret: its value must be encoded"));
    assert_int_equal(start, strstr(text, "\"secret\"") - text);
    hover =
        project_kind_file_hover(&a, &builtin, (uint32_t)(strstr(text, "object-storage-c") - text),
                                TEXT_MARKDOWN, &arena, &start, &end);
    assert_non_null(hover);
    assert_non_null(strstr(hover, "**Object storage C** (kind 10)"));
    arena_free(&arena);
    analysis_free(&a);
    schema_registry_free(&builtin);
}

/* A kind whose fields belong to one or several values of an enum (written with noOtherThan). */
static const char vault_kind[] =
    "{\"title\": \"Vault\", \"types\": [\"TEAM_VAULT\"], \"fields\": {\n"
    " \"authMode\": {\"type\": \"string\", \"description\": \"How.\",\n"
    "              \"enum\": [\"TOKEN\", \"APPROLE\", \"CERT\", \"NONE\"]},\n"
    " \"token\": {\"type\": \"string\", \"description\": \"A token.\",\n"
    "           \"applicable\": {\"field\": \"authMode\", \"noOtherThan\": [\"TOKEN\"]}},\n"
    " \"roleId\": {\"type\": \"string\", \"description\": \"A role.\",\n"
    "            \"required\": {\"field\": \"authMode\", \"noOtherThan\": [\"APPROLE\", "
    "\"CERT\"]},\n"
    "            \"applicable\": {\"field\": \"authMode\", \"noOtherThan\": [\"APPROLE\", "
    "\"CERT\"]}},\n"
    " \"audit\": {\"type\": \"string\", \"description\": \"Where.\",\n"
    "           \"applicable\": {\"field\": \"authMode\", \"noOtherThan\": [\"TOKEN\", "
    "\"APPROLE\", \"CERT\"]}}}}\n";

/* The message of the one diagnostic `code` at `pointer` of `text`, or a failure. */
static void assert_message(const struct schema_registry *registry, const char *text,
                           const char *code, const char *pointer, const char *expected)
{
    struct analysis a;
    struct analysis_options options = {.report_unknown_document = true, .registry = registry};
    assert_int_equal(analysis_run(&a, text, strlen(text), &options), 0);
    const char *got = NULL;
    for (uint32_t i = 0; i < a.diags.count; i++) {
        if (strcmp(code_name(a.diags.items[i].code), code) == 0 &&
            strcmp(a.diags.items[i].pointer, pointer) == 0)
            got = a.diags.items[i].message;
    }
    if (got == NULL)
        fail_msg("no %s at %s in %s", code, pointer, text);
    assert_string_equal(got, expected);
    analysis_free(&a);
}

/* A field that belongs to some values of an enum is described by the values that apply, in the
 * messages and in the hover text alike: "is APPROLE or CERT", not "is not one of" the others. */
static void test_no_other_than_is_described_by_the_values_that_apply(void **state)
{
    (void)state;
    struct schema_file files[] = {{"team/vault.json", vault_kind, sizeof vault_kind - 1, true}};
    struct schema_registry registry;
    struct schema_problems problems;
    load(&registry, &problems, files, 1);
    assert_int_equal(problems.count, 0);
    const char *none = "{\"type\": \"TEAM_VAULT\", \"config\": {\"authMode\": \"NONE\", "
                       "\"token\": \"t\", \"roleId\": \"r\", \"audit\": \"a\"}}";
    assert_message(&registry, none, "not-applicable", "/config/token",
                   "\"token\" has no effect here: it applies only when \"authMode\" is TOKEN");
    assert_message(&registry, none, "not-applicable", "/config/roleId",
                   "\"roleId\" has no effect here: it applies only when \"authMode\" is APPROLE "
                   "or CERT");
    assert_message(&registry, none, "not-applicable", "/config/audit",
                   "\"audit\" has no effect here: it applies only when \"authMode\" is one of "
                   "TOKEN, APPROLE, CERT");
    assert_message(&registry, "{\"type\": \"TEAM_VAULT\", \"config\": {\"authMode\": \"CERT\"}}",
                   "conditional-required", "/config/roleId",
                   "missing field \"roleId\" (a string): it is required when \"authMode\" is "
                   "APPROLE or CERT");
    const struct schema_kind *kind = schema_find_kind(&registry, "TEAM_VAULT", 10);
    assert_non_null(kind);
    struct arena arena;
    arena_init(&arena);
    const char *text =
        field_text_describe(schema_object_field(&kind->config, "roleId", 6), TEXT_PLAIN, &arena);
    assert_string_equal(text, "roleId — a string, required when \"authMode\" is APPROLE or "
                              "CERT\n\nApplies when \"authMode\" is APPROLE or CERT\n\nA role.");
    arena_free(&arena);
    schema_problems_free(&problems);
    schema_registry_free(&registry);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_new_kind_from_scratch_is_checked_like_a_built_in_one),
        cmocka_unit_test(test_an_extension_replaces_the_built_in_kind),
        cmocka_unit_test(test_broken_files_are_placed_and_take_nothing_else_down),
        cmocka_unit_test(test_a_kind_is_replaced_once_and_names_are_distinct),
        cmocka_unit_test(test_a_kind_built_on_a_broken_one_is_left_out_and_says_why),
        cmocka_unit_test(test_a_kind_file_completes_the_keys_and_values_of_its_format),
        cmocka_unit_test(test_a_kind_file_hovers_what_its_keys_mean),
        cmocka_unit_test(test_no_other_than_is_described_by_the_values_that_apply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
