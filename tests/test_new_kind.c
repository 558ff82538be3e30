/* test_new_kind: adding a kind is adding a file. The built-in schema plus one kind file that
 * exists nowhere else (a message-queue source, with a group, a secret, an enum and a condition)
 * loads, and the unchanged rule engine, completion and kind inference treat it like any
 * built-in kind: no C code knows it. */
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
#include "schema/schema.h"

static const char new_kind[] =
    "{\n"
    "  \"kind\": 26,\n"
    "  \"title\": \"Message queue\",\n"
    "  \"types\": [\"MESSAGE_QUEUE\"],\n"
    "  \"description\": \"Topics of a message broker, read as tables.\",\n"
    "  \"include\": [\"CACHE\"],\n"
    "  \"fields\": {\n"
    "    \"brokerUrl\": {\"type\": \"string\", \"description\": \"Where the broker listens.\",\n"
    "                  \"required\": true},\n"
    "    \"authMode\": {\"type\": \"string\", \"description\": \"How srcls signs in.\",\n"
    "                 \"enum\": [{\"value\": \"NONE\", \"description\": \"No sign-in.\"},\n"
    "                          {\"value\": \"TOKEN\", \"description\": \"A bearer token.\"}],\n"
    "                 \"default\": \"NONE\"},\n"
    "    \"token\": {\"type\": \"string\", \"description\": \"The bearer token.\", \"secret\": "
    "true,\n"
    "              \"required\": {\"field\": \"authMode\", \"in\": [\"TOKEN\"]}}\n"
    "  }\n"
    "}\n";

struct registry_state {
    struct schema_registry registry;
};

static int setup(void **state)
{
    struct registry_state *s = calloc(1, sizeof *s);
    struct schema_file *files = calloc(schema_embedded_count + 1, sizeof *files);
    if (s == NULL || files == NULL)
        return -1;
    for (unsigned i = 0; i < schema_embedded_count; i++) {
        files[i].name = schema_embedded_files[i].name;
        files[i].text = schema_embedded_files[i].text;
        files[i].len = schema_embedded_files[i].len;
    }
    files[schema_embedded_count] = (struct schema_file){
        .name = "kinds/26-message-queue.json", .text = new_kind, .len = sizeof new_kind - 1};
    char error[512];
    int status =
        schema_registry_load(&s->registry, files, schema_embedded_count + 1, error, sizeof error);
    free(files);
    if (status != 0) {
        print_error("the schema with a new kind does not load: %s\n", error);
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    struct registry_state *s = *state;
    schema_registry_free(&s->registry);
    free(s);
    return 0;
}

static void test_a_valid_document_of_the_new_kind_is_clean(void **state)
{
    struct registry_state *s = *state;
    assert_non_null(schema_find_kind(&s->registry, "MESSAGE_QUEUE", 13));
    char *got = diagnostic_lines(&s->registry,
                                 "{\"name\": \"q\", \"type\": \"MESSAGE_QUEUE\", \"config\": "
                                 "{\"brokerUrl\": \"amqp://broker\", \"authMode\": \"TOKEN\", "
                                 "\"token\": \"$SERVICE_EXISTING_VALUE$\"}}");
    assert_string_equal(got, "");
    free(got);
}

static void test_the_rule_engine_checks_the_new_kind_like_a_built_in_one(void **state)
{
    struct registry_state *s = *state;
    char *got = diagnostic_lines(&s->registry,
                                 "{\"name\": \"q\", \"type\": \"MESSAGE_QUEUE\", \"config\": "
                                 "{\"brokerUrll\": \"amqp://broker\", \"authMode\": \"TOKEN\"}}");
    /* the required field missing, the typo unknown (with its suggestion), the secret required
     * by the condition */
    assert_non_null(strstr(got, "missing-required /config/brokerUrl\n"));
    assert_non_null(strstr(got, "unknown-field /config/brokerUrll\n"));
    assert_non_null(strstr(got, "conditional-required /config/token\n"));
    free(got);
    got = diagnostic_lines(&s->registry,
                           "{\"type\": \"MESSAGE_QUEUE\", \"config\": {\"brokerUrl\": \"b\", "
                           "\"authMode\": \"token\", \"token\": \"plain\"}}");
    assert_non_null(strstr(got, "invalid-enum /config/authMode\n"));
    assert_non_null(strstr(got, "secret-not-encoded /config/token\n"));
    free(got);
}

static void test_the_new_kind_brings_its_group_and_is_inferred(void **state)
{
    struct registry_state *s = *state;
    /* brokerUrl and authMode only this kind defines: inferred, with the hint that says so */
    char *got = diagnostic_lines(&s->registry, "{\"name\": \"q\", \"config\": {\"brokerUrl\": "
                                               "\"b\", \"authMode\": \"NONE\"}}");
    assert_string_equal(got, "kind-inferred /type\n");
    free(got);
    /* a field of the CACHE group it includes is known, with the group's type */
    got =
        diagnostic_lines(&s->registry, "{\"type\": \"MESSAGE_QUEUE\", \"config\": {\"brokerUrl\": "
                                       "\"b\", \"maxCacheSpacePct\": \"ninety\"}}");
    assert_string_equal(got, "type-mismatch /config/maxCacheSpacePct\n");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_valid_document_of_the_new_kind_is_clean),
        cmocka_unit_test(test_the_rule_engine_checks_the_new_kind_like_a_built_in_one),
        cmocka_unit_test(test_the_new_kind_brings_its_group_and_is_inferred),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
