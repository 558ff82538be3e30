/* test_fixes: the quick fixes of the core (fix.c, fix_required.c, fix_value.c) as a table of
 * (document, diagnostic, fix title) with the exact text the fix writes and the document after
 * it; every fix is applied (fix_apply) and the result analysed again: it parses without errors
 * and, where the fix resolves the diagnostic, the diagnostic is gone. Then the fix-all set
 * (fix_collect_safe) on small documents and on every document of tests/rules/: valid JSON
 * after every single fix and after fix-all, which comes to rest. The schema is the embedded
 * one plus one kind that exists only here (required fields with defaults, an enum, bounds),
 * so that a safe "add all" can be shown; no C code knows it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "domain/domain.h"
#include "assist/assist.h"
#include "schema/schema.h"

#include "analysed.h"

static const char test_kind[] =
    "{\"kind\": 26, \"title\": \"Fix test queue\", \"types\": [\"FIX_TEST_QUEUE\"],\n"
    " \"description\": \"A kind for the fix tests.\",\n"
    " \"fields\": {\n"
    "  \"brokerUrl\": {\"type\": \"string\", \"description\": \"d\", \"required\": true},\n"
    "  \"retries\": {\"type\": \"integer\", \"description\": \"d\", \"required\": true,\n"
    "              \"default\": 3, \"minimum\": 0, \"maximum\": 10},\n"
    "  \"timeoutMs\": {\"type\": \"integer\", \"description\": \"d\", \"required\": true,\n"
    "                \"default\": 1000},\n"
    "  \"ratio\": {\"type\": \"number\", \"description\": \"d\", \"minimum\": 0.5,\n"
    "            \"maximum\": 2.5}\n"
    " }}\n";

static struct schema_registry registry;

static int setup(void **state)
{
    (void)state;
    analysed_registry = &registry;
    struct schema_file *files = calloc(schema_embedded_count + 1, sizeof *files);
    if (files == NULL)
        return -1;
    for (unsigned i = 0; i < schema_embedded_count; i++) {
        files[i].name = schema_embedded_files[i].name;
        files[i].text = schema_embedded_files[i].text;
        files[i].len = schema_embedded_files[i].len;
    }
    files[schema_embedded_count] = (struct schema_file){
        .name = "kinds/26-fix-test-queue.json", .text = test_kind, .len = sizeof test_kind - 1};
    char error[512];
    int status =
        schema_registry_load(&registry, files, schema_embedded_count + 1, error, sizeof error);
    free(files);
    if (status != 0)
        print_error("schema: %s\n", error);
    return status;
}

static int teardown(void **state)
{
    (void)state;
    schema_registry_free(&registry);
    return 0;
}

/* ---- documents ---- */

static void print_fixes(const struct fix_list *fixes)
{
    for (uint32_t i = 0; i < fixes->count; i++)
        fprintf(stderr, "  fix \"%s\" (safe %d, preferred %d): [%u, %u) \"%s\"\n",
                fixes->items[i].title, fixes->items[i].safe, fixes->items[i].preferred,
                fixes->items[i].edit.start, fixes->items[i].edit.end, fixes->items[i].edit.text);
}

/* The fix titled `title` among `fixes` (exactly one), or NULL when `title` is not there. */
static const struct fix *titled(const struct fix_list *fixes, const char *title)
{
    const struct fix *found = NULL;
    for (uint32_t i = 0; i < fixes->count; i++) {
        if (strcmp(fixes->items[i].title, title) == 0) {
            assert_null(found);
            found = &fixes->items[i];
        }
    }
    return found;
}

/* `fix` alone applied to `d`, analysed into `after`, which must have no more syntax errors
 * than `d` less the one the fix repairs, if any: none when `d` had one at most. */
static void apply_one(const struct analysed *d, const struct fix *fix, struct analysed *after)
{
    uint32_t allowed = d->a.doc.error_count > 1 ? d->a.doc.error_count - 1 : 0;
    struct fix_list one = {.items = (struct fix *)fix, .count = 1, .cap = 1};
    size_t len = 0;
    char *text = fix_apply(d->text, d->len, &one, &len);
    assert_non_null(text);
    analyse_n(after, text, len);
    free(text);
    if (after->a.doc.error_count > allowed) {
        fprintf(stderr, "fix \"%s\" left syntax errors\n", fix->title);
        print_diagnostics(after);
    }
    assert_true(after->a.doc.error_count <= allowed);
}

/* ---- one fix at a time ---- */

struct fix_case {
    const char *name;
    const char *document;
    const char *code, *pointer; /* the diagnostic */
    const char *title;          /* its fix */
    bool safe, preferred;
    const char *edit; /* the text the fix writes */
    const char *expected;
    bool resolves; /* the diagnostic is gone afterwards (not checked when false) */
};

static const struct fix_case fix_cases[] = {
    /* 1. An added field keeps the error visible: no default means an empty value. */
    {"add a required string: an empty one, which the rule engine still reports",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {}}", "missing-required", "/config/path",
     "Add \"path\"", false, false, "\n  \"path\": \"\"\n",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\n  \"path\": \"\"\n}}", false},
    {"add a required enum field: its first value",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostname\": \"h\", \"port\": 31010, "
     "\"username\": \"u\", \"password\": \"data:,p\"}}",
     "missing-required", "/config/hostType", "Add \"hostType\"", false, false,
     "\"hostType\": \"DIRECT\", ",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostType\": \"DIRECT\", \"hostname\": \"h\", "
     "\"port\": 31010, \"username\": \"u\", \"password\": \"data:,p\"}}",
     true},
    {"add a required secret: data:,",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostType\": \"DIRECT\", \"hostname\": \"h\", "
     "\"port\": 31010, \"username\": \"u\"}}",
     "missing-required", "/config/password", "Add \"password\"", false, false,
     "\"password\": \"data:,\", ",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:,\", \"hostType\": "
     "\"DIRECT\", \"hostname\": \"h\", \"port\": 31010, \"username\": \"u\"}}",
     false},
    {"add a required field with a default: safe",
     "{\n  \"type\": \"PEER_CLUSTER\",\n  \"config\": {\n    \"hostType\": \"DIRECT\",\n"
     "    \"hostname\": \"h\",\n    \"username\": \"u\",\n    \"password\": \"data:,p\"\n  }\n}\n",
     "missing-required", "/config/port", "Add \"port\" with its default", true, true,
     "\"port\": \"31010\",\n    ",
     "{\n  \"type\": \"PEER_CLUSTER\",\n  \"config\": {\n    \"port\": \"31010\",\n"
     "    \"hostType\": \"DIRECT\",\n    \"hostname\": \"h\",\n    \"username\": \"u\",\n"
     "    \"password\": \"data:,p\"\n  }\n}\n",
     true},
    /* 2. A misspelled key that is a missing field: the rename, from either diagnostic. */
    {"a misspelling of a missing required field: the rename is safe and preferred",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"pth\": \"/mnt\"}}", "unknown-field",
     "/config/pth", "Rename to \"path\"", true, true, "\"path\"",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/mnt\"}}", true},
    {"the missing field's diagnostic offers the same rename",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"pth\": \"/mnt\"}}",
     "missing-required", "/config/path", "Rename to \"path\"", true, true, "\"path\"",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/mnt\"}}", true},
    {"a misspelling of an optional field: a guess, not preferred",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"brokerUrl\": \"b\", \"retries\": 1, "
     "\"timeoutMs\": 5, \"rati\": 1}}",
     "unknown-field", "/config/rati", "Rename to \"ratio\"", false, false, "\"ratio\"",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"brokerUrl\": \"b\", \"retries\": 1, "
     "\"timeoutMs\": 5, \"ratio\": 1}}",
     true},
    {"a misspelled config of a source whose kind requires fields",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"confg\": {\"path\": \"/a\"}}", "unknown-field",
     "/confg", "Rename to \"config\"", true, true, "\"config\"",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/a\"}}", true},
    /* 3. Every missing field at once, in the schema's order. */
    {"add all missing required fields",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostType\": \"DIRECT\"}}", "missing-required",
     "/config/port", "Add all 4 missing required fields", false, false,
     "\"hostname\": \"\", \"port\": \"31010\", \"username\": \"\", \"password\": \"data:,\", ",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"hostname\": \"\", \"port\": \"31010\", "
     "\"username\": \"\", \"password\": \"data:,\", \"hostType\": \"DIRECT\"}}",
     false},
    {"add all missing required fields to an empty config, one a line",
     "{\n  \"type\": \"FIX_TEST_QUEUE\",\n  \"config\": {}\n}", "missing-required",
     "/config/brokerUrl", "Add all 3 missing required fields", false, false,
     "\n    \"brokerUrl\": \"\",\n    \"retries\": 3,\n    \"timeoutMs\": 1000\n  ",
     "{\n  \"type\": \"FIX_TEST_QUEUE\",\n  \"config\": {\n    \"brokerUrl\": \"\",\n"
     "    \"retries\": 3,\n    \"timeoutMs\": 1000\n  }\n}",
     false},
    {"all missing fields have defaults: adding them all is safe",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"brokerUrl\": \"b\"}}", "missing-required",
     "/config/timeoutMs", "Add all 2 missing required fields", true, false,
     "\"retries\": 3, \"timeoutMs\": 1000, ",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"retries\": 3, \"timeoutMs\": 1000, "
     "\"brokerUrl\": \"b\"}}",
     true},
    {"a source without config: config with the required fields, after the last member",
     "{\n  \"type\": \"PEER_CLUSTER\",\n  \"name\": \"p\"\n}\n", "missing-required", "/config",
     "Add \"config\" with the required fields", false, false,
     ",\n  \"config\": {\n    \"hostType\": \"DIRECT\",\n    \"hostname\": \"\",\n"
     "    \"port\": \"31010\",\n    \"username\": \"\",\n    \"password\": \"data:,\"\n  }",
     "{\n  \"type\": \"PEER_CLUSTER\",\n  \"name\": \"p\",\n  \"config\": {\n"
     "    \"hostType\": \"DIRECT\",\n    \"hostname\": \"\",\n    \"port\": \"31010\",\n"
     "    \"username\": \"\",\n    \"password\": \"data:,\"\n  }\n}\n",
     true},
    /* 4. Fixes with one obvious answer. */
    {"a duplicate key: the earlier member goes with its comma",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/a\", \"path\": \"/b\"}}",
     "duplicate-key", "/config/path", "Remove the earlier duplicate (the last one takes effect)",
     false, true, "", "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/b\"}}",
     true},
    {"a duplicate key with a member between, one a line",
     "{\n  \"type\": \"NETWORK_ATTACHED_STORAGE\",\n  \"config\": {\n    \"path\": \"/a\",\n"
     "    \"enableAsync\": true,\n    \"path\": \"/b\"\n  }\n}",
     "duplicate-key", "/config/path", "Remove the earlier duplicate (the last one takes effect)",
     false, true, "",
     "{\n  \"type\": \"NETWORK_ATTACHED_STORAGE\",\n  \"config\": {\n    \"enableAsync\": true,\n"
     "    \"path\": \"/b\"\n  }\n}",
     true},
    {"a trailing comma in an object",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/a\",}}", "json-syntax",
     "/config/path", "Remove the trailing comma", true, true, "",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/a\"}}", true},
    {"a trailing comma in an array, before a line break",
     "{\n  \"jobState\": \"RUNNING\",\n  \"acceleration\": {\"reflectionRelationships\": [\n"
     "    {},\n  ]}\n}",
     "json-syntax", "/acceleration/reflectionRelationships/0", "Remove the trailing comma", true,
     true, "",
     "{\n  \"jobState\": \"RUNNING\",\n  \"acceleration\": {\"reflectionRelationships\": [\n"
     "    {}\n  ]}\n}",
     true},
    {"an unknown type: the nearest kind",
     "{\"type\": \"NETWORK_ATACHED_STORAGE\", \"config\": {\"path\": \"/a\"}}", "unknown-kind",
     "/type", "Change to \"NETWORK_ATTACHED_STORAGE\"", false, true, "\"NETWORK_ATTACHED_STORAGE\"",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/a\"}}", true},
    {"an unknown type that differs in case only: safe",
     "{\"type\": \"Peer_Cluster\", \"config\": {}}", "unknown-kind", "/type",
     "Change to \"PEER_CLUSTER\"", true, true, "\"PEER_CLUSTER\"",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {}}", true},
    {"a number over its maximum", "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"retries\": 11}}",
     "out-of-range", "/config/retries", "Change to 10 (the maximum)", false, true, "10",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"retries\": 10}}", true},
    {"a fraction under its minimum",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"ratio\": 0.25e0}}", "out-of-range",
     "/config/ratio", "Change to 0.5 (the minimum)", false, true, "0.5",
     "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"ratio\": 0.5}}", true},
    {"a port written as a string over 65535 stays a string",
     "{\"type\": \"DISTRIBUTED_FILESYSTEM\", \"config\": {\"hostname\": \"h\", \"port\": "
     "\"70000\"}}",
     "out-of-range", "/config/port", "Change to 65535 (the maximum)", false, true, "\"65535\"",
     "{\"type\": \"DISTRIBUTED_FILESYSTEM\", \"config\": {\"hostname\": \"h\", \"port\": "
     "\"65535\"}}",
     true},
    {"a port of 0",
     "{\"type\": \"DISTRIBUTED_FILESYSTEM\", \"config\": {\"hostname\": \"h\", \"port\": 0}}",
     "out-of-range", "/config/port", "Change to 1 (the minimum)", false, true, "1",
     "{\"type\": \"DISTRIBUTED_FILESYSTEM\", \"config\": {\"hostname\": \"h\", \"port\": 1}}",
     true},
    {"a failed job with rows: rowCount 0",
     "{\"jobState\": \"FAILED\", \"errorMessage\": \"boom\", \"rowCount\": 12}", "job-inconsistent",
     "/rowCount", "Set \"rowCount\" to 0", false, true, "0",
     "{\"jobState\": \"FAILED\", \"errorMessage\": \"boom\", \"rowCount\": 0}", true},
    {"a canceled job with rows: rowCount 0",
     "{\"jobState\": \"CANCELED\", \"rowCount\": 3, \"cancellationReason\": \"user\"}",
     "job-inconsistent", "/rowCount", "Set \"rowCount\" to 0", false, true, "0",
     "{\"jobState\": \"CANCELED\", \"rowCount\": 0, \"cancellationReason\": \"user\"}", true},
    {"an error message on a job that did not fail is removed",
     "{\"jobState\": \"COMPLETED\", \"errorMessage\": \"boom\", \"rowCount\": 1}",
     "job-inconsistent", "/errorMessage", "Remove \"errorMessage\"", false, true, "",
     "{\"jobState\": \"COMPLETED\", \"rowCount\": 1}", true},
    {"an end on a running job, the last member, is removed with the comma before it",
     "{\n  \"jobState\": \"RUNNING\",\n  \"endedAt\": \"2024-05-01T12:30:00.000Z\"\n}",
     "job-inconsistent", "/endedAt", "Remove \"endedAt\"", false, true, "",
     "{\n  \"jobState\": \"RUNNING\"\n}", true},
    /* 5. The fix of a field that has no effect stays. */
    {"a field that has no effect is removed",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessKey\": \"a\", \"accessSecret\": "
     "\"data:,b\", \"isCachingEnabled\": false, \"maxCacheSpacePct\": 50}}",
     "not-applicable", "/config/maxCacheSpacePct", "Remove \"maxCacheSpacePct\"", false, false, "",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessKey\": \"a\", \"accessSecret\": "
     "\"data:,b\", \"isCachingEnabled\": false}}",
     true},
    /* 6. A risky setting: set to the safer value the kind file's assertion names. */
    {"TLS turned off is turned on", "{\"type\": \"DOCUMENT_DB\", \"config\": {\"useSsl\": false}}",
     "insecure-transport", "/config/useSsl", "Set \"useSsl\" to true", false, true, "true",
     "{\"type\": \"DOCUMENT_DB\", \"config\": {\"useSsl\": true}}", true},
    {"TLS off by default is turned on",
     "{\"type\": \"SEARCH_INDEX\", \"config\": {\"useWhitelist\": false}}", "insecure-transport",
     "/config/sslEnabled", "Set \"sslEnabled\" to true", false, true, ", \"sslEnabled\": true",
     "{\"type\": \"SEARCH_INDEX\", \"config\": {\"useWhitelist\": false, \"sslEnabled\": true}}",
     true},
    {"an unverified certificate is verified",
     "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"encryptionValidationMode\": "
     "\"NO_VALIDATION\"}}",
     "unverified-certificate", "/config/encryptionValidationMode",
     "Set \"encryptionValidationMode\" to CERTIFICATE_AND_HOSTNAME_VALIDATION", false, true,
     "\"CERTIFICATE_AND_HOSTNAME_VALIDATION\"",
     "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"encryptionValidationMode\": "
     "\"CERTIFICATE_AND_HOSTNAME_VALIDATION\"}}",
     true},
};

static void check_fix_case(const struct fix_case *c)
{
    struct analysed before;
    analyse(&before, c->document);
    uint32_t index = diagnostic_at(&before, c->code, c->pointer);
    struct fix_list fixes;
    fix_list_init(&fixes);
    assert_int_equal(fix_collect(&before.a, index, &fixes), 0);
    const struct fix *fix = titled(&fixes, c->title);
    if (fix == NULL || fix->safe != c->safe || fix->preferred != c->preferred ||
        strcmp(fix->edit.text, c->edit) != 0) {
        fprintf(stderr, "case: %s\nexpected \"%s\" (safe %d, preferred %d) writing \"%s\"\n",
                c->name, c->title, c->safe, c->preferred, c->edit);
        print_fixes(&fixes);
    }
    assert_non_null(fix);
    assert_int_equal(fix->safe, c->safe);
    assert_int_equal(fix->preferred, c->preferred);
    assert_string_equal(fix->edit.text, c->edit);
    struct analysed after;
    apply_one(&before, fix, &after);
    if (c->expected != NULL)
        assert_string_equal(after.text, c->expected);
    if (c->resolves && diagnostic_index(&after, c->code, c->pointer) >= 0) {
        fprintf(stderr, "case: %s: the diagnostic remains\n", c->name);
        print_diagnostics(&after);
        fail();
    }
    analysed_free(&after);
    fix_list_free(&fixes);
    analysed_free(&before);
}

static void test_each_fix_writes_its_text_and_leaves_valid_json(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof fix_cases / sizeof fix_cases[0]; i++)
        check_fix_case(&fix_cases[i]);
}

/* Titles that `index` of `document` must not offer. */
static void assert_not_offered(const char *document, const char *code, const char *pointer,
                               const char *title)
{
    struct analysed d;
    analyse(&d, document);
    struct fix_list fixes;
    fix_list_init(&fixes);
    assert_int_equal(fix_collect(&d.a, diagnostic_at(&d, code, pointer), &fixes), 0);
    if (titled(&fixes, title) != NULL) {
        fprintf(stderr, "\"%s\" is offered for %s at %s\n", title, code, pointer);
        print_fixes(&fixes);
        fail();
    }
    fix_list_free(&fixes);
    analysed_free(&d);
}

static void test_a_misspelled_missing_field_is_renamed_not_added(void **state)
{
    (void)state;
    static const char document[] =
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"hostnam\": \"h\", \"port\": 5432, "
        "\"databaseName\": \"d\", \"authenticationType\": \"ANONYMOUS\"}}";
    assert_not_offered(document, "missing-required", "/config/hostname", "Add \"hostname\"");
    struct analysed d;
    analyse(&d, document);
    struct fix_list fixes;
    fix_list_init(&fixes);
    assert_int_equal(fix_collect_safe(&d.a, &fixes, false, NULL), 0);
    assert_int_equal(fixes.count, 1);
    assert_string_equal(fixes.items[0].title, "Rename to \"hostname\"");
    fix_list_free(&fixes);
    analysed_free(&d);
}

static void test_two_misspellings_of_one_field_are_guesses(void **state)
{
    (void)state;
    static const char document[] =
        "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"pth\": \"/a\", \"pat\": \"/b\"}}";
    struct analysed d;
    analyse(&d, document);
    struct fix_list fixes;
    fix_list_init(&fixes);
    assert_int_equal(
        fix_collect(&d.a, diagnostic_at(&d, "missing-required", "/config/path"), &fixes), 0);
    assert_int_equal(fixes.count, 2); /* a rename of each, neither preferred, no add */
    for (uint32_t i = 0; i < fixes.count; i++) {
        assert_string_equal(fixes.items[i].title, "Rename to \"path\"");
        assert_false(fixes.items[i].preferred);
        assert_false(fixes.items[i].safe);
    }
    fix_list_free(&fixes);
    analysed_free(&d);
}

static void test_fixes_without_one_obvious_answer_are_not_offered(void **state)
{
    (void)state;
    /* A rename to a key the object has would make a duplicate key. */
    assert_not_offered(
        "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"pth\": \"/a\", \"path\": \"/b\"}}",
        "unknown-field", "/config/pth", "Rename to \"path\"");
    /* A type far from every kind; a failed job without its message. */
    assert_not_offered("{\"type\": \"SOMETHING_ELSE\", \"config\": {\"path\": \"/a\"}}",
                       "unknown-kind", "/type", "Change to \"NETWORK_ATTACHED_STORAGE\"");
    /* A failed job without its message; where a secret lives and which credentials to use are
     * the user's choice; a scope list's contents too. */
    static const char *const none[][3] = {
        {"{\"jobState\": \"FAILED\", \"rowCount\": 0}", "job-inconsistent", "/errorMessage"},
        {"{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"password\": \"data:,p\"}}",
         "inline-secret", "/config/password"},
        {"{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"authenticationType\": "
         "\"ANONYMOUS\"}}",
         "anonymous-access", "/config/authenticationType"},
        {"{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": true}}",
         "unrestricted-scope", "/config/whitelistedBuckets"},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        struct analysed d;
        analyse(&d, none[i][0]);
        struct fix_list fixes;
        fix_list_init(&fixes);
        assert_int_equal(fix_collect(&d.a, diagnostic_at(&d, none[i][1], none[i][2]), &fixes), 0);
        if (fixes.count != 0)
            print_fixes(&fixes);
        assert_int_equal(fixes.count, 0);
        fix_list_free(&fixes);
        analysed_free(&d);
    }
}

/* ---- fix-all ---- */

/* Applies the safe fixes of `text` until none is left (at most `passes` rounds); returns the
 * result, owned by the caller. Each round must leave valid JSON when the text was. */
static char *fix_all(const char *text, size_t len, unsigned passes, unsigned *rounds)
{
    char *current = malloc(len + 1);
    assert_non_null(current);
    memcpy(current, text, len);
    current[len] = '\0';
    for (*rounds = 0; *rounds <= passes; (*rounds)++) {
        struct analysed d;
        analyse_n(&d, current, len);
        bool had_errors = d.a.doc.error_count > 0;
        struct fix_list fixes;
        fix_list_init(&fixes);
        assert_int_equal(fix_collect_safe(&d.a, &fixes, false, NULL), 0);
        if (fixes.count == 0) {
            fix_list_free(&fixes);
            analysed_free(&d);
            return current;
        }
        size_t fixed_len = 0;
        char *fixed = fix_apply(current, len, &fixes, &fixed_len);
        assert_non_null(fixed);
        struct analysed after;
        analyse_n(&after, fixed, fixed_len);
        if (!had_errors && after.a.doc.error_count > 0) {
            print_diagnostics(&after);
            fail();
        }
        analysed_free(&after);
        fix_list_free(&fixes);
        analysed_free(&d);
        free(current);
        current = fixed;
        len = fixed_len;
    }
    fail_msg("fix-all did not come to rest after %u rounds", passes);
    return NULL;
}

static void test_fix_all_applies_renames_defaults_and_syntax_repairs(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"hostnam\": \"h\", "
         "\"databaseName\": \"d\", \"authenticationType\": \"ANONYMOUS\"}}",
         "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"port\": \"5432\", "
         "\"hostname\": \"h\", \"databaseName\": \"d\", \"authenticationType\": \"ANONYMOUS\"}}"},
        /* one insertion that adds both defaulted fields, in the schema's order */
        {"{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"brokerUrl\": \"b\"}}",
         "{\"type\": \"FIX_TEST_QUEUE\", \"config\": {\"retries\": 3, \"timeoutMs\": 1000, "
         "\"brokerUrl\": \"b\"}}"},
        {"[{\"type\": \"Network_Attached_Storage\", \"config\": {\"path\": \"/a\",},},\n"
         " {\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"pth\": \"/b\"}}]",
         "[{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/a\"}},\n"
         " {\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/b\"}}]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct analysed d;
        analyse(&d, cases[i][0]);
        struct fix_list fixes;
        fix_list_init(&fixes);
        assert_int_equal(fix_collect_safe(&d.a, &fixes, false, NULL), 0);
        for (uint32_t f = 1; f < fixes.count; f++)
            assert_true(fixes.items[f].edit.start >= fixes.items[f - 1].edit.end);
        size_t len = 0;
        char *fixed = fix_apply(d.text, d.len, &fixes, &len);
        assert_non_null(fixed);
        assert_string_equal(fixed, cases[i][1]);
        unsigned rounds;
        char *rest = fix_all(fixed, len, 1, &rounds);
        assert_int_equal(rounds, 0); /* one pass did everything safe */
        free(rest);
        free(fixed);
        fix_list_free(&fixes);
        analysed_free(&d);
    }
}

/* Every fix of every document of the rule table, and fix-all on each: valid JSON, and fix-all
 * comes to rest. */
static void check_rule_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = malloc(1 << 20);
    assert_non_null(text);
    size_t len = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    text[len] = '\0';
    struct analysed table;
    analyse_n(&table, text, len);
    struct json_doc *doc = &table.a.doc;
    for (uint32_t c = doc->nodes[doc->root].first_child; c != JSON_NONE; c = doc->nodes[c].next) {
        uint32_t document = json_object_get(doc, c, JSON_LITERAL("document"));
        if (document == JSON_NONE)
            continue;
        const struct json_node *n = &doc->nodes[document];
        struct analysed d;
        analyse_n(&d, table.text + n->start, n->end - n->start);
        for (uint32_t i = 0; i < d.a.diags.count; i++) {
            struct fix_list fixes;
            fix_list_init(&fixes);
            assert_int_equal(fix_collect(&d.a, i, &fixes), 0);
            for (uint32_t k = 0; k < fixes.count; k++) {
                struct analysed after;
                apply_one(&d, &fixes.items[k], &after);
                analysed_free(&after);
            }
            fix_list_free(&fixes);
        }
        unsigned rounds;
        free(fix_all(d.text, d.len, 4, &rounds));
        analysed_free(&d);
    }
    analysed_free(&table);
    free(text);
}

static void test_every_fix_of_the_rule_table_leaves_valid_json(void **state)
{
    (void)state;
    const char *root = getenv("SRCLS_SOURCE_ROOT");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/rules", root ? root : ".");
    DIR *d = opendir(dir);
    if (d == NULL)
        skip();
    struct dirent *entry;
    unsigned files = 0;
    while ((entry = readdir(d)) != NULL) {
        size_t n = strlen(entry->d_name);
        if (n < 11 || strcmp(entry->d_name + n - 11, ".cases.json") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        check_rule_file(path);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_fix_writes_its_text_and_leaves_valid_json),
        cmocka_unit_test(test_a_misspelled_missing_field_is_renamed_not_added),
        cmocka_unit_test(test_two_misspellings_of_one_field_are_guesses),
        cmocka_unit_test(test_fixes_without_one_obvious_answer_are_not_offered),
        cmocka_unit_test(test_fix_all_applies_renames_defaults_and_syntax_repairs),
        cmocka_unit_test(test_every_fix_of_the_rule_table_leaves_valid_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
