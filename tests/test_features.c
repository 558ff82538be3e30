/* test_features: the editor features of the core — completion, quick fixes, formatting, hover
 * and the outline — on small documents analysed against the embedded schema. A fix is proved by
 * applying it and analysing the result again: the diagnostic is gone and the JSON still parses
 * without errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "domain/domain.h"
#include "assist/assist.h"
#include "json/json.h"
#include "schema/schema.h"

#include "analysed.h"

/* ---- documents ---- */

static void assert_contains(const char *text, const char *part)
{
    if (text == NULL || strstr(text, part) == NULL)
        fprintf(stderr, "\"%s\" not found in:\n%s\n", part, text ? text : "(null)");
    assert_non_null(text);
    assert_non_null(strstr(text, part));
}

/* `text` (which may be NULL) does not hold `part`. */
static void assert_lacks(const char *text, const char *part)
{
    if (text == NULL)
        return;
    if (strstr(text, part) != NULL)
        fail_msg("\"%s\" unexpectedly in:\n%s", part, text);
}

/* ---- completion ---- */

struct completion {
    struct analysed doc;
    uint32_t cursor;
    struct completion_list list;
};

static void complete(struct completion *c, const char *marked)
{
    c->cursor = analyse_at(&c->doc, marked);
    assert_int_equal(complete_at(&c->doc.a, &analysed_schema, NULL, c->cursor, NULL, &c->list), 0);
}

static void completion_free(struct completion *c)
{
    completion_list_free(&c->list);
    analysed_free(&c->doc);
}

static const struct completion_item *item_labelled(const struct completion *c, const char *label)
{
    for (uint32_t i = 0; i < c->list.count; i++) {
        if (strcmp(c->list.items[i].label, label) == 0)
            return &c->list.items[i];
    }
    return NULL;
}

static const struct completion_item *offered(const struct completion *c, const char *label)
{
    const struct completion_item *item = item_labelled(c, label);
    if (item == NULL) {
        fprintf(stderr, "%s not offered in: %s (%u items:", label, c->doc.text, c->list.count);
        for (uint32_t i = 0; i < c->list.count; i++)
            fprintf(stderr, " %s", c->list.items[i].label);
        fprintf(stderr, ")\n");
    }
    assert_non_null(item);
    return item;
}

static void not_offered(const struct completion *c, const char *label)
{
    assert_null(item_labelled(c, label));
}

/* Checks that `item`'s placeholder covers `expected` in its text, and that the text holds
 * nothing of a snippet (the LSP door makes snippets from the placeholder). */
static void assert_placeholder(const struct completion_item *item, const char *expected)
{
    assert_int_equal(item->placeholder_count, 1);
    const struct completion_placeholder *p = &item->placeholders[0];
    assert_true(p->start <= p->end && p->end <= strlen(item->text));
    assert_int_equal(p->end - p->start, strlen(expected));
    assert_memory_equal(item->text + p->start, expected, strlen(expected));
    assert_null(strchr(item->text, '$'));
}

static void test_completion_between_members_offers_the_missing_keys_at_the_cursor(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": false, |"
                 "\"rootPath\": \"/\"}}");
    const struct completion_item *item = offered(&c, "accessKey");
    assert_int_equal(item->kind, COMPLETION_KEY);
    assert_int_equal(item->start, c.cursor);
    assert_int_equal(item->end, c.cursor);
    /* Inserted before another member, it brings its own comma. */
    assert_string_equal(item->text, "\"accessKey\": \"\",");
    offered(&c, "credentialType");
    not_offered(&c, "secure");
    not_offered(&c, "rootPath");
    /* Keys of the top level do not belong in the config. */
    not_offered(&c, "type");
    not_offered(&c, "config");
    completion_free(&c);
}

static void test_completion_in_an_empty_config_offers_every_key_of_the_kind(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {|}}");
    offered(&c, "accessKey");
    offered(&c, "secure");
    offered(&c, "whitelistedBuckets");
    const struct completion_item *item = offered(&c, "rootPath");
    assert_int_equal(item->start, c.cursor);
    assert_int_equal(item->end, c.cursor);
    assert_string_equal(item->text, "\"rootPath\": \"/\"");
    completion_free(&c);
}

static void test_completion_in_a_half_typed_key_replaces_what_was_typed(void **state)
{
    (void)state;
    static const char marked[] = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"acc|";
    struct completion c;
    complete(&c, marked);
    const struct completion_item *item = offered(&c, "accessKey");
    uint32_t quote = (uint32_t)(strstr(marked, "\"acc") - marked);
    assert_int_equal(item->start, quote);
    assert_int_equal(item->end, c.cursor);
    assert_int_equal(strncmp(item->text, "\"accessKey\"", 11), 0);
    offered(&c, "accessSecret");
    completion_free(&c);
}

static void test_completion_on_a_key_that_has_its_value_replaces_only_the_key(void **state)
{
    (void)state;
    static const char marked[] =
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"acc|\": \"AK\"}}";
    struct completion c;
    complete(&c, marked);
    const struct completion_item *item = offered(&c, "accessKey");
    uint32_t quote = (uint32_t)(strstr(marked, "\"acc") - marked);
    assert_int_equal(item->start, quote);
    assert_int_equal(item->end, quote + 5); /* "acc" with its quotes */
    assert_string_equal(item->text, "\"accessKey\"");
    assert_int_equal(item->placeholder_count, 0);
    completion_free(&c);
}

static void test_completion_after_a_key_offers_the_enum_values(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": |}}");
    const struct completion_item *item = offered(&c, "\"ACCESS_KEY\"");
    assert_int_equal(item->kind, COMPLETION_ENUM);
    assert_string_equal(item->text, "\"ACCESS_KEY\"");
    assert_int_equal(item->start, c.cursor);
    assert_int_equal(item->end, c.cursor);
    assert_non_null(item->documentation); /* the value's meaning */
    offered(&c, "\"NONE\"");
    offered(&c, "\"CLOUDA_VM_METADATA\"");
    offered(&c, "\"CLOUDA_PROFILE\"");
    assert_int_equal(c.list.count, 4);
    completion_free(&c);
}

static void test_completion_in_a_half_typed_value_replaces_the_whole_string(void **state)
{
    (void)state;
    static const char marked[] =
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"ACC|\"}}";
    struct completion c;
    complete(&c, marked);
    const struct completion_item *item = offered(&c, "\"ACCESS_KEY\"");
    uint32_t quote = (uint32_t)(strstr(marked, "\"ACC") - marked);
    assert_int_equal(item->start, quote);
    assert_int_equal(item->end, quote + 5); /* "ACC" with its quotes */
    completion_free(&c);
}

static void test_completion_of_the_type_value_offers_the_kind_identifiers(void **state)
{
    (void)state;
    static const char marked[] = "{\"type\": \"|\"}";
    struct completion c;
    complete(&c, marked);
    const struct completion_item *item = offered(&c, "\"CLOUDA_OBJECT_STORAGE\"");
    assert_int_equal(item->kind, COMPLETION_KIND_ID);
    assert_string_equal(item->detail, "Object storage A");
    assert_int_equal(item->start, c.cursor - 1); /* the empty string, both quotes */
    assert_int_equal(item->end, c.cursor + 1);
    offered(&c, "\"SEARCH_INDEX\"");
    /* One per identifier of every kind. */
    uint32_t identifiers = 0;
    for (uint32_t k = 0; k < analysed_schema.kind_count; k++)
        identifiers += analysed_schema.kinds[k].type_count;
    assert_int_equal(c.list.count, identifiers);
    completion_free(&c);
}

static void test_completion_in_an_array_element_object_offers_its_fields(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"SEARCH_INDEX\", \"config\": {\"hostList\": [{|}]}}");
    offered(&c, "hostname");
    const struct completion_item *port = offered(&c, "port");
    assert_string_equal(port->text, "\"port\": 9200");
    assert_placeholder(port, "9200");
    not_offered(&c, "hostList");
    assert_int_equal(c.list.count, 2);
    completion_free(&c);

    complete(&c, "{\"type\": \"SEARCH_INDEX\", \"config\": {\"hostList\": [{\"hostname\": \"a\"}, "
                 "{\"port\": 9200, |}]}}");
    offered(&c, "hostname");
    not_offered(&c, "port");
    completion_free(&c);
}

static void test_completion_at_the_top_of_a_job_offers_job_fields(void **state)
{
    (void)state;
    struct completion c;
    /* A job is known by its jobState, so jobState is offered while that key is edited. */
    complete(&c, "{\"job|State\": \"COMPLETED\", \"rowCount\": 3}");
    const struct completion_item *item = offered(&c, "jobState");
    assert_string_equal(item->text, "\"jobState\"");
    not_offered(&c, "rowCount");
    not_offered(&c, "config");
    completion_free(&c);

    complete(&c, "{\"jobState\": \"COMPLETED\", |}");
    offered(&c, "rowCount");
    offered(&c, "errorMessage");
    not_offered(&c, "jobState");
    not_offered(&c, "config");
    completion_free(&c);
}

static void test_completion_at_the_top_of_a_source_offers_type_and_config(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"name\": \"lake\", |}");
    offered(&c, "type");
    offered(&c, "config");
    not_offered(&c, "name");
    completion_free(&c);
}

static void test_completion_of_a_key_marks_its_value_to_type_over(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {|}}");
    const struct completion_item *secure = offered(&c, "secure");
    assert_string_equal(secure->text, "\"secure\": true");
    assert_placeholder(secure, "true");
    /* Strings: the inside of the quotes; arrays: between the brackets. */
    assert_placeholder(offered(&c, "rootPath"), "/");
    const struct completion_item *buckets = offered(&c, "externalBucketList");
    assert_string_equal(buckets->text, "\"externalBucketList\": []");
    assert_placeholder(buckets, "");
    assert_int_equal(buckets->placeholders[0].start, strlen("\"externalBucketList\": ["));
    assert_placeholder(offered(&c, "accessSecret"), "data:,");
    /* An enum's values are the choices there, in schema order. */
    const struct completion_item *type = offered(&c, "credentialType");
    static const char *const values[] = {"NONE", "CLOUDA_VM_METADATA", "ACCESS_KEY",
                                         "CLOUDA_PROFILE"};
    assert_int_equal(type->placeholders[0].choice_count, 4);
    for (uint32_t i = 0; i < 4; i++)
        assert_string_equal(type->placeholders[0].choices[i], values[i]);
    assert_null(secure->placeholders[0].choices);
    for (uint32_t i = 0; i < c.list.count; i++) {
        const struct completion_item *item = &c.list.items[i];
        assert_int_equal(item->kind, COMPLETION_KEY);
        assert_int_equal(item->placeholder_count, 1);
        assert_null(strchr(item->text, '$'));
    }
    completion_free(&c);
}

static void test_completion_puts_required_keys_first(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": "
                 "\"ACCESS_KEY\", |}}");
    /* accessKey is required with ACCESS_KEY (a condition), secure never is. */
    const struct completion_item *key = offered(&c, "accessKey");
    const struct completion_item *secure = offered(&c, "secure");
    assert_true(strcmp(key->sort, secure->sort) < 0);
    completion_free(&c);
}

static void test_completion_of_a_secret_value_offers_the_encodings(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessSecret\": |}}");
    offered(&c, "\"data:,\"");
    offered(&c, "\"$SERVICE_EXISTING_VALUE$\"");
    completion_free(&c);
}

/* ---- fixes ---- */

/* The fixes of one diagnostic of `d`. */
static void fixes_of(struct analysed *d, uint32_t index, struct fix_list *fixes)
{
    fix_list_init(fixes);
    assert_int_equal(fix_collect(&d->a, index, fixes), 0);
    for (uint32_t i = 0; i < fixes->count; i++) {
        assert_int_equal(fixes->items[i].diagnostic, index);
        assert_non_null(fixes->items[i].title);
        assert_non_null(fixes->items[i].edit.text);
    }
}

/* Applies `fix` alone to `d` and analyses the result into `after`, which must parse cleanly. */
static void apply_one(const struct analysed *d, const struct fix *fix, struct analysed *after)
{
    struct fix_list one = {.items = (struct fix *)fix, .count = 1, .cap = 1};
    size_t len = 0;
    char *text = fix_apply(d->text, d->len, &one, &len);
    assert_non_null(text);
    analyse_n(after, text, len);
    free(text);
    if (after->a.doc.error_count > 0)
        print_diagnostics(after);
    assert_int_equal(after->a.doc.error_count, 0);
}

/* Fixes the diagnostic `code` at `pointer` of `document` with its preferred fix, or its first
 * when none is preferred (which must be `safe` or not as said), and analyses the result into
 * `after`: the diagnostic is gone. */
static void fix_and_check(const char *document, const char *code, const char *pointer, bool safe,
                          struct analysed *after)
{
    struct analysed before;
    analyse(&before, document);
    assert_int_equal(before.a.doc.error_count, 0);
    uint32_t index = diagnostic_at(&before, code, pointer);
    struct fix_list fixes;
    fixes_of(&before, index, &fixes);
    assert_true(fixes.count >= 1);
    const struct fix *chosen = &fixes.items[0];
    for (uint32_t i = fixes.count; i-- > 0;) {
        if (fixes.items[i].preferred)
            chosen = &fixes.items[i];
    }
    assert_int_equal(chosen->safe, safe);
    apply_one(&before, chosen, after);
    assert_no_diagnostic(after, code, pointer);
    fix_list_free(&fixes);
    analysed_free(&before);
}

static void test_fix_renames_a_misspelled_key(void **state)
{
    (void)state;
    struct analysed after;
    fix_and_check("{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"acessKey\": \"AK\"}}",
                  "unknown-field", "/config/acessKey", false, &after);
    assert_string_equal(
        after.text, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessKey\": \"AK\"}}");
    assert_int_equal(validity_count(&after), 0);
    analysed_free(&after);
}

static void test_fix_uses_the_documented_spelling_of_an_alternate_key(void **state)
{
    (void)state;
    static const char document[] =
        "{\"type\": \"CLOUDB_BLOB_STORAGE\", \"config\": {\"accountKind\": \"STORAGE_V2\", "
        "\"accountName\": \"acct\", \"credentialsType\": \"ACCESS_KEY\", "
        "\"accessKey\": \"data:,k\"}}";
    struct analysed after;
    fix_and_check(document, "alternate-spelling", "/config/credentialsType", true, &after);
    assert_non_null(strstr(after.text, "\"credentialType\": \"ACCESS_KEY\""));
    assert_int_equal(validity_count(&after), 0);
    analysed_free(&after);
}

static void test_fix_adds_a_missing_required_field_with_its_default_to_an_empty_config(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {}}",
        "{\n  \"type\": \"OPEN_RELATIONAL_DB_B\",\n  \"config\": {\n  }\n}\n",
    };
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
        struct analysed after;
        fix_and_check(documents[i], "missing-required", "/config/port", true, &after);
        assert_non_null(strstr(after.text, "\"port\": \"5432\""));
        /* The other missing fields have no default: their fixes are not safe. */
        diagnostic_at(&after, "missing-required", "/config/hostname");
        analysed_free(&after);
    }
    struct analysed before;
    analyse(&before, documents[0]);
    struct fix_list fixes;
    fixes_of(&before, diagnostic_at(&before, "missing-required", "/config/hostname"), &fixes);
    /* Its own fix, and one that adds all the missing fields (tests/test_fixes.c). */
    assert_int_equal(fixes.count, 2);
    assert_false(fixes.items[0].safe);
    assert_false(fixes.items[1].safe);
    fix_list_free(&fixes);
    analysed_free(&before);
}

static void test_fix_adds_a_missing_required_field_to_a_config_with_members(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"hostname\": \"db\", "
        "\"databaseName\": \"d\", \"authenticationType\": \"ANONYMOUS\"}}",
        "{\n  \"type\": \"OPEN_RELATIONAL_DB_B\",\n  \"config\": {\n    \"hostname\": \"db\",\n"
        "    \"databaseName\": \"d\",\n    \"authenticationType\": \"ANONYMOUS\"\n  }\n}\n",
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\n\t\"hostname\": \"db\",\n"
        "\t\"databaseName\": \"d\",\n\t\"authenticationType\": \"ANONYMOUS\"\n}}",
    };
    static const char *const expected[] = {
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"port\": \"5432\", "
        "\"hostname\": \"db\", \"databaseName\": \"d\", \"authenticationType\": \"ANONYMOUS\"}}",
        "{\n  \"type\": \"OPEN_RELATIONAL_DB_B\",\n  \"config\": {\n    \"port\": \"5432\",\n"
        "    \"hostname\": \"db\",\n    \"databaseName\": \"d\",\n"
        "    \"authenticationType\": \"ANONYMOUS\"\n  }\n}\n",
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\n\t\"port\": \"5432\",\n"
        "\t\"hostname\": \"db\",\n\t\"databaseName\": \"d\",\n"
        "\t\"authenticationType\": \"ANONYMOUS\"\n}}",
    };
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
        struct analysed after;
        fix_and_check(documents[i], "missing-required", "/config/port", true, &after);
        assert_string_equal(after.text, expected[i]);
        assert_int_equal(validity_count(&after), 0);
        analysed_free(&after);
    }
}

static const char relational_prefix[] =
    "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"hostname\": \"db\", \"port\": 5432, "
    "\"databaseName\": \"d\", \"authenticationType\": \"MASTER\", \"username\": \"u\", ";

/* A relational source whose password is written as `password_json`. */
static void with_password(char *out, size_t size, const char *password_json)
{
    snprintf(out, size, "%s\"password\": %s}}", relational_prefix, password_json);
}

static void test_fix_marks_a_plaintext_secret_as_data(void **state)
{
    (void)state;
    char document[512], expected[512];
    with_password(document, sizeof document, "\"hunter2\"");
    with_password(expected, sizeof expected, "\"data:,hunter2\"");
    struct analysed after;
    fix_and_check(document, "secret-not-encoded", "/config/password", true, &after);
    assert_string_equal(after.text, expected);
    assert_int_equal(validity_count(&after), 0);
    analysed_free(&after);
}

static void test_fix_encodes_a_plaintext_secret_with_a_colon_in_base64(void **state)
{
    (void)state;
    /* base64("user:pw") = dXNlcjpwdw==, base64("a:bc") = YTpiYw==, base64("x:yz1") = eDp5ejE= */
    static const char *const cases[][2] = {
        {"\"user:pw\"", "\"data:;base64,dXNlcjpwdw==\""},
        {"\"a:bc\"", "\"data:;base64,YTpiYw==\""},
        {"\"x:yz1\"", "\"data:;base64,eDp5ejE=\""},
        {"\"p\\u00e9:w\"", "\"data:;base64,cMOpOnc=\""}, /* escapes are decoded first */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char document[512], expected[512];
        with_password(document, sizeof document, cases[i][0]);
        with_password(expected, sizeof expected, cases[i][1]);
        struct analysed after;
        fix_and_check(document, "secret-not-encoded", "/config/password", true, &after);
        assert_string_equal(after.text, expected);
        assert_int_equal(validity_count(&after), 0);
        analysed_free(&after);
    }
}

static void test_fix_encodes_data_plaintext_with_a_colon_in_base64(void **state)
{
    (void)state;
    char document[512], expected[512];
    with_password(document, sizeof document, "\"data:,a:b\"");
    with_password(expected, sizeof expected, "\"data:;base64,YTpi\"");
    struct analysed after;
    fix_and_check(document, "secret-needs-base64", "/config/password", true, &after);
    assert_string_equal(after.text, expected);
    assert_int_equal(validity_count(&after), 0);
    analysed_free(&after);
}

static void test_fix_inserts_the_inferred_type(void **state)
{
    (void)state;
    /* Keys that only object storage A has. */
    static const char *const cases[][2] = {
        {"{\"config\": {\"accessKey\": \"AK\", \"compatibilityMode\": false, "
         "\"requesterPays\": false}}",
         "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessKey\": \"AK\", "
         "\"compatibilityMode\": false, \"requesterPays\": false}}"},
        {"{\n  \"name\": \"lake\",\n  \"config\": {\n    \"compatibilityMode\": false,\n"
         "    \"requesterPays\": false\n  }\n}\n",
         "{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"name\": \"lake\",\n  \"config\": {\n"
         "    \"compatibilityMode\": false,\n    \"requesterPays\": false\n  }\n}\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct analysed after;
        fix_and_check(cases[i][0], "kind-inferred", "/type", true, &after);
        assert_string_equal(after.text, cases[i][1]);
        assert_int_equal(validity_count(&after), 0);
        analysed_free(&after);
    }
}

static void test_fix_corrects_the_case_of_an_enum_value_safely(void **state)
{
    (void)state;
    static const char document[] =
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"access_key\"}}";
    struct analysed after;
    fix_and_check(document, "invalid-enum", "/config/credentialType", true, &after);
    assert_contains(after.text, "\"credentialType\": \"ACCESS_KEY\"");
    analysed_free(&after);

    /* The other values are offered too, but not as safe fixes. */
    struct analysed before;
    analyse(&before, document);
    struct fix_list fixes;
    fixes_of(&before, diagnostic_at(&before, "invalid-enum", "/config/credentialType"), &fixes);
    assert_int_equal(fixes.count, 4);
    unsigned safe = 0;
    for (uint32_t i = 0; i < fixes.count; i++)
        safe += fixes.items[i].safe;
    assert_int_equal(safe, 1);
    fix_list_free(&fixes);
    analysed_free(&before);
}

static void test_fix_turns_a_quoted_boolean_into_a_boolean(void **state)
{
    (void)state;
    struct analysed after;
    fix_and_check("{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": \"true\"}}",
                  "type-mismatch", "/config/secure", true, &after);
    assert_string_equal(after.text,
                        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": true}}");
    analysed_free(&after);
}

static void test_fix_removes_a_field_that_does_not_apply_with_its_comma(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        /* first, middle, last, only */
        {"{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessKey\": \"AK\", "
         "\"credentialType\": \"NONE\", \"secure\": true}}",
         "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
         "\"secure\": true}}"},
        {"{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
         "\"accessKey\": \"AK\", \"secure\": true}}",
         "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
         "\"secure\": true}}"},
        {"{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
         "\"secure\": true, \"accessKey\": \"AK\"}}",
         "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"NONE\", "
         "\"secure\": true}}"},
        {"{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"config\": {\n    \"accessKey\": \"AK\",\n"
         "    \"credentialType\": \"NONE\"\n  }\n}\n",
         "{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"config\": {\n"
         "    \"credentialType\": \"NONE\"\n  }\n}\n"},
        {"{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"config\": {\n"
         "    \"credentialType\": \"NONE\",\n    \"accessKey\": \"AK\",\n    \"secure\": true\n"
         "  }\n}\n",
         "{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"config\": {\n"
         "    \"credentialType\": \"NONE\",\n    \"secure\": true\n  }\n}\n"},
        {"{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"config\": {\n"
         "    \"credentialType\": \"NONE\",\n    \"accessKey\": \"AK\"\n  }\n}\n",
         "{\n  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n  \"config\": {\n"
         "    \"credentialType\": \"NONE\"\n  }\n}\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct analysed after;
        fix_and_check(cases[i][0], "not-applicable", "/config/accessKey", false, &after);
        assert_string_equal(after.text, cases[i][1]);
        assert_int_equal(validity_count(&after), 0);
        analysed_free(&after);
    }
}

static void test_fix_all_applies_every_safe_fix_in_one_pass(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"hostname\": \"db\", "
        "\"databaseName\": \"d\", \"authenticationType\": \"master\", \"useSsl\": \"true\", "
        "\"username\": \"u\", \"password\": \"hunter2\", \"secretResourceUrl\": \"\"}}",
        "{\n  \"type\": \"OPEN_RELATIONAL_DB_B\",\n  \"config\": {\n    \"hostname\": \"db\",\n"
        "    \"databaseName\": \"d\",\n    \"authenticationType\": \"master\",\n"
        "    \"useSsl\": \"true\",\n    \"username\": \"u\",\n    \"password\": \"a:b\"\n"
        "  }\n}\n",
    };
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
        struct analysed before;
        analyse(&before, documents[i]);
        const char *codes[] = {"missing-required", "invalid-enum", "type-mismatch",
                               "secret-not-encoded"};
        const char *pointers[] = {"/config/port", "/config/authenticationType", "/config/useSsl",
                                  "/config/password"};
        for (size_t k = 0; k < 4; k++)
            diagnostic_at(&before, codes[k], pointers[k]);
        /* the encoding of the bare secret is unsafe: left out, and counted, unless asked */
        struct fix_list fixes;
        fix_list_init(&fixes);
        uint32_t hidden = 0;
        assert_int_equal(fix_collect_safe(&before.a, &fixes, false, &hidden), 0);
        assert_int_equal(fixes.count, 3);
        assert_int_equal(hidden, 1);
        fix_list_free(&fixes);
        fix_list_init(&fixes);
        assert_int_equal(fix_collect_safe(&before.a, &fixes, true, &hidden), 0);
        assert_int_equal(fixes.count, 4);
        assert_int_equal(hidden, 0);
        for (uint32_t f = 1; f < fixes.count; f++)
            assert_true(fixes.items[f].edit.start >= fixes.items[f - 1].edit.end);
        size_t len = 0;
        char *text = fix_apply(before.text, before.len, &fixes, &len);
        assert_non_null(text);
        struct analysed after;
        analyse_n(&after, text, len);
        free(text);
        assert_int_equal(after.a.doc.error_count, 0);
        for (size_t k = 0; k < 4; k++)
            assert_no_diagnostic(&after, codes[k], pointers[k]);
        /* Nothing safe is left to fix. */
        struct fix_list again;
        fix_list_init(&again);
        assert_int_equal(fix_collect_safe(&after.a, &again, true, NULL), 0);
        assert_int_equal(again.count, 0);
        fix_list_free(&again);
        analysed_free(&after);
        fix_list_free(&fixes);
        analysed_free(&before);
    }
}

static void test_no_fix_title_contains_a_secret_value(void **state)
{
    (void)state;
    static const char *const passwords[] = {"\"hunter2\"", "\"s3cr:et\"", "\"data:,pa:ss\"",
                                            "\"true\"", "12345"};
    static const char *const secrets[] = {"hunter2", "s3cr", "pa:ss", "true", "12345"};
    for (size_t i = 0; i < sizeof passwords / sizeof passwords[0]; i++) {
        char document[512];
        with_password(document, sizeof document, passwords[i]);
        struct analysed d;
        analyse(&d, document);
        struct fix_list fixes;
        fix_list_init(&fixes);
        unsigned titles = 0;
        for (uint32_t k = 0; k < d.a.diags.count; k++) {
            assert_int_equal(fix_collect(&d.a, k, &fixes), 0);
            assert_lacks(d.a.diags.items[k].message, secrets[i]);
        }
        for (uint32_t f = 0; f < fixes.count; f++, titles++)
            assert_lacks(fixes.items[f].title, secrets[i]);
        assert_true(titles >= (i < 3 ? 1u : 0u));
        fix_list_free(&fixes);
        analysed_free(&d);
    }
}

/* ---- format ---- */

/* Formats `text`; NULL when the formatter refuses it. */
static char *format_text(const char *text, unsigned indent, bool tabs, size_t *len)
{
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    assert_non_null(copy);
    memcpy(copy, text, n + 1);
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, copy, n, NULL), 0);
    char *out = format_document(&doc, indent, tabs, len);
    json_doc_free(&doc);
    free(copy);
    return out;
}

static void test_format_keeps_order_numbers_and_escapes_and_reindents(void **state)
{
    (void)state;
    static const char input[] = "{\"zeta\":1.50,\"alpha\" :[1e3,-0.0, \"a\\\"b\\u00e9\\n\"],"
                                "\"mid\":{  },\"list\":[ ],\"nested\":{\"b\":null,\"a\":true}}";
    static const char expected[] = "{\n"
                                   "  \"zeta\": 1.50,\n"
                                   "  \"alpha\": [\n"
                                   "    1e3,\n"
                                   "    -0.0,\n"
                                   "    \"a\\\"b\\u00e9\\n\"\n"
                                   "  ],\n"
                                   "  \"mid\": {},\n"
                                   "  \"list\": [],\n"
                                   "  \"nested\": {\n"
                                   "    \"b\": null,\n"
                                   "    \"a\": true\n"
                                   "  }\n"
                                   "}\n";
    size_t len = 0;
    char *out = format_text(input, 2, false, &len);
    assert_non_null(out);
    assert_int_equal(len, strlen(expected));
    assert_string_equal(out, expected);
    free(out);

    out = format_text("[1,{\"k\":\"v\"}]", 0, true, &len);
    assert_non_null(out);
    assert_string_equal(out, "[\n\t1,\n\t{\n\t\t\"k\": \"v\"\n\t}\n]\n");
    free(out);
}

static void test_format_is_idempotent(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "{\"type\":\"CLOUDA_OBJECT_STORAGE\",\"config\":{\"secure\":true,\"rootPath\":\"/\","
        "\"externalBucketList\":[\"a\",\"b\"],\"propertyList\":[{\"name\":\"x\",\"value\":"
        "\"1\"}]}}",
        "[ ]",
        "\"just a string\"",
        "{\n\t\"a\" : [ [ ], { } , 2.5e-3 ]\n}",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        for (unsigned indent = 2; indent <= 4; indent += 2) {
            size_t once_len = 0, twice_len = 0;
            char *once = format_text(inputs[i], indent, false, &once_len);
            assert_non_null(once);
            char *twice = format_text(once, indent, false, &twice_len);
            assert_non_null(twice);
            assert_int_equal(once_len, twice_len);
            assert_memory_equal(once, twice, once_len);
            free(twice);
            free(once);
        }
    }
}

static void test_format_refuses_a_document_with_syntax_errors(void **state)
{
    (void)state;
    static const char *const broken[] = {
        "{\"a\": 1,}", "{\"a\": }", "{\"a\": 1", "[1 2]", "{\"a\": 1, \"a\": 2}", "",
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        size_t len = 12345;
        assert_null(format_text(broken[i], 2, false, &len));
    }
}

/* ---- hover ---- */

struct hover {
    struct analysed doc;
    struct arena arena;
    const char *markdown;
    uint32_t start, end;
};

static void hover(struct hover *h, const char *marked)
{
    uint32_t cursor = analyse_at(&h->doc, marked);
    arena_init(&h->arena);
    h->start = h->end = UINT32_MAX;
    h->markdown = hover_at(&h->doc.a, &analysed_schema, NULL, cursor, TEXT_MARKDOWN, &h->arena,
                           &h->start, &h->end);
}

static void hover_free(struct hover *h)
{
    arena_free(&h->arena);
    analysed_free(&h->doc);
}

static void test_hover_on_a_key_names_the_field_and_its_type(void **state)
{
    (void)state;
    static const char marked[] =
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"acc|essKey\": \"AK\"}}";
    struct hover h;
    hover(&h, marked);
    assert_contains(h.markdown, "`accessKey`");
    assert_contains(h.markdown, "string");
    assert_contains(h.markdown, "Access key id");
    uint32_t quote = (uint32_t)(strstr(marked, "\"acc") - marked);
    assert_int_equal(h.start, quote);
    assert_int_equal(h.end, quote + strlen("\"accessKey\""));
    hover_free(&h);

    hover(&h, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"sec|ure\": false}}");
    assert_contains(h.markdown, "`secure`");
    assert_contains(h.markdown, "boolean");
    assert_contains(h.markdown, "Default: `true`");
    hover_free(&h);
}

/* On a risky setting, hover says why after the field: the posture finding's message. */
static void test_hover_on_a_risky_setting_says_why(void **state)
{
    (void)state;
    struct hover h;
    hover(&h, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"sec|ure\": false}}");
    assert_contains(h.markdown, "`secure`");
    assert_contains(h.markdown, "**Risk** (`insecure-transport`): `secure` is false: the traffic "
                                "between the service and the storage is not encrypted");
    assert_contains(h.markdown, "set `secure` to true");
    hover_free(&h);
    hover(&h, "{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"authenticationType\": "
              "\"ANONY|MOUS\"}}");
    assert_contains(h.markdown, "**Risk** (`anonymous-access`)");
    hover_free(&h);
    hover(&h, "{\"type\": \"OPEN_RELATIONAL_DB_A\", \"config\": {\"pass|word\": "
              "\"data:,Sup3rS3cret\"}}");
    assert_contains(h.markdown, "**Risk** (`inline-secret`)");
    assert_lacks(h.markdown, "Sup3rS3cret");
    hover_free(&h);
    hover(&h, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"sec|ure\": true}}");
    assert_lacks(h.markdown, "Risk");
    hover_free(&h);
}

static void test_hover_on_an_enum_value_gives_its_meaning(void **state)
{
    (void)state;
    struct hover h;
    hover(&h, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": "
              "\"ACC|ESS_KEY\"}}");
    assert_contains(h.markdown, "`ACCESS_KEY`");
    assert_contains(h.markdown, "An access key (accessKey) and its secret (accessSecret).");
    hover_free(&h);
}

static void test_hover_on_the_type_value_describes_the_kind(void **state)
{
    (void)state;
    struct hover h;
    hover(&h, "{\"type\": \"CLOUDA_OB|JECT_STORAGE\", \"config\": {}}");
    assert_contains(h.markdown, "Object storage A");
    hover_free(&h);
}

static void test_hover_on_a_secret_value_never_shows_the_value(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"ACCESS_KEY\", "
        "\"accessKey\": \"AK\", \"accessSecret\": \"data:,topsec|ret\"}}",
        "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"accessSecret\": \"topsec|ret\"}}",
        "{\"type\": \"OPEN_RELATIONAL_DB_B\", \"config\": {\"secretResourceUrl\": "
        "\"arn:topsec|ret\"}}",
    };
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
        struct hover h;
        hover(&h, documents[i]);
        assert_non_null(h.markdown);
        assert_lacks(h.markdown, "topsecret");
        assert_lacks(h.markdown, "topsec");
        hover_free(&h);
    }
}

static void test_hover_outside_anything_known_is_empty(void **state)
{
    (void)state;
    struct hover h;
    hover(&h, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"made|Up\": 1}}");
    assert_null(h.markdown);
    hover_free(&h);
    hover(&h, "{\"type\": \"CLOUDA_OBJECT_STORAGE\",| \"config\": {}}");
    assert_null(h.markdown);
    hover_free(&h);
}

/* ---- symbols ---- */

/* The symbol called `name` in `list`; the test fails when there is none. */
static const struct symbol *symbol_named(const struct symbol *list, uint32_t count,
                                         const char *name)
{
    for (uint32_t i = 0; i < count; i++) {
        if (strcmp(list[i].name, name) == 0)
            return &list[i];
    }
    fail_msg("no symbol \"%s\"", name);
    abort();
}

static void test_symbols_label_the_config_with_its_kind_and_list_its_members(void **state)
{
    (void)state;
    static const char document[] =
        "{\"name\": \"lake\", \"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": "
        "{\"credentialType\": "
        "\"ACCESS_KEY\", \"accessKey\": \"AK\", \"accessSecret\": \"data:,hunter2\", "
        "\"externalBucketList\": [\"a\", \"b\"]}}";
    struct analysed d;
    analyse(&d, document);
    struct arena arena;
    arena_init(&arena);
    uint32_t count = 0;
    struct symbol *top = symbols_of(&d.a, &analysed_schema, NULL, &arena, &count);
    assert_int_equal(count, 3);
    const struct symbol *config = symbol_named(top, count, "config");
    assert_non_null(config->detail);
    assert_string_equal(config->detail, "Object storage A");
    assert_int_equal(config->kind, SYMBOL_KIND_CONFIG);
    assert_int_equal(config->child_count, 4);
    symbol_named(config->children, config->child_count, "credentialType");
    symbol_named(config->children, config->child_count, "accessKey");
    const struct symbol *secret =
        symbol_named(config->children, config->child_count, "accessSecret");
    assert_lacks(secret->detail, "hunter2");
    const struct symbol *buckets =
        symbol_named(config->children, config->child_count, "externalBucketList");
    assert_int_equal(buckets->kind, SYMBOL_KIND_ARRAY);
    assert_int_equal(buckets->child_count, 2);
    assert_string_equal(buckets->children[0].name, "[0]");
    assert_int_equal(buckets->children[0].kind, SYMBOL_KIND_STRING);
    /* Ranges: the whole member, and its key. */
    uint32_t key = (uint32_t)(strstr(document, "\"config\"") - document);
    assert_int_equal(config->start, key);
    assert_int_equal(config->selection_start, key);
    assert_int_equal(config->selection_end, key + strlen("\"config\""));
    assert_int_equal(config->end, strlen(document) - 1);
    const struct symbol *name = symbol_named(top, count, "name");
    assert_null(name->detail);
    arena_free(&arena);
    analysed_free(&d);
}

/* Walks the outline and fails when any name or detail holds `text`. */
static void assert_no_symbol_quotes(const struct symbol *list, uint32_t count, const char *text)
{
    for (uint32_t i = 0; i < count; i++) {
        assert_lacks(list[i].name, text);
        assert_lacks(list[i].detail, text);
        assert_no_symbol_quotes(list[i].children, list[i].child_count, text);
    }
}

/* A string after a secret's value with no ',' between may be the rest of the secret: the
 * outline keeps the member the parser recovered (its range leads to the error), but not its
 * text; and no diagnostic quotes it, in a message or a pointer. */
static void test_symbols_and_diagnostics_never_show_a_string_after_a_secret_value(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\" \"HIDDEN7\"}}",
        "{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\" \"HIDDEN7\": 1}}",
        ("{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\" \"HIDDEN7\": "
         "{\"x\": "
         "1}}}"),
        "{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"HIDDEN7\": 1}}",
        "{\"config\": {\"hostname\": \"h\", \"password\": \"data:,a\" \"HIDDEN7\"}}",
    };
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
        struct analysed d;
        analyse(&d, documents[i]);
        for (uint32_t k = 0; k < d.a.diags.count; k++) {
            assert_lacks(d.a.diags.items[k].message, "HIDDEN7");
            assert_lacks(d.a.diags.items[k].pointer, "HIDDEN7");
        }
        assert_no_diagnostic(&d, "unknown-field", "/config/HIDDEN7");
        struct arena arena;
        arena_init(&arena);
        uint32_t count = 0;
        struct symbol *top = symbols_of(&d.a, &analysed_schema, NULL, &arena, &count);
        assert_no_symbol_quotes(top, count, "HIDDEN7");
        const struct symbol *config = symbol_named(top, count, "config");
        const struct symbol *recovered =
            symbol_named(config->children, config->child_count, "(not shown)");
        uint32_t key = (uint32_t)(strstr(documents[i], "\"HIDDEN7\"") - documents[i]);
        assert_int_equal(recovered->selection_start, key);
        arena_free(&arena);
        analysed_free(&d);
    }
}

/* A recovered key that names a field is checked as that field: the pointer then quotes the
 * schema, not the document. */
static void test_a_recovered_key_that_names_a_field_is_still_checked(void **state)
{
    (void)state;
    struct analysed d;
    analyse(&d, "{\"type\": \"RELATIONAL_DB\", \"config\": {\"username\": \"u\" \"password\": "
                "\"plain\"}}");
    diagnostic_at(&d, "secret-not-encoded", "/config/password");
    assert_no_diagnostic(&d, "missing-required", "/config/password");
    analysed_free(&d);
}

/* A required string left empty is not given: missing-required (or conditional-required) at the
 * value, with no fix (the value is there to fill in). */
static void test_an_empty_required_string_is_reported_at_its_value(void **state)
{
    (void)state;
    static const char nas[] =
        "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"\"}}";
    struct analysed d;
    analyse(&d, nas);
    uint32_t i = diagnostic_at(&d, "missing-required", "/config/path");
    assert_int_equal(d.a.diags.items[i].start, (uint32_t)(strstr(nas, "\"\"}") - nas));
    assert_int_equal(d.a.diags.items[i].end, d.a.diags.items[i].start + 2);
    assert_null(d.a.diags.items[i].field);
    analysed_free(&d);
    analyse(&d, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": "
                "\"ACCESS_KEY\", \"accessKey\": \"\", \"accessSecret\": \"data:,s\"}}");
    diagnostic_at(&d, "conditional-required", "/config/accessKey");
    analysed_free(&d);
    analyse(&d, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": "
                "\"NONE\", \"accessKey\": \"\"}}");
    assert_no_diagnostic(&d, "conditional-required", "/config/accessKey");
    analysed_free(&d);
}

/* Where a syntax error cut an object short, the fields after the break are unreadable, not
 * missing; a missing comma loses nothing, so the check still runs there. */
static void test_an_object_cut_short_reports_no_missing_field(void **state)
{
    (void)state;
    static const char *const cut[] = {
        "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {",
        "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"pa",
        "{\"type\": \"NETWORK_ATTACHED_STORAGE\",\n \"config\": {\"x\": \"abc, path: /x\n}}",
    };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        struct analysed d;
        analyse(&d, cut[i]);
        assert_true(d.a.doc.error_count > 0);
        assert_no_diagnostic(&d, "missing-required", "/config/path");
        analysed_free(&d);
    }
    struct analysed d;
    analyse(&d, "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"a\": 1 \"b\": 2}}");
    diagnostic_at(&d, "missing-required", "/config/path");
    analysed_free(&d);
}

/* A key the parser had to guess (no quotes) gets its syntax error, not an unknown-field too;
 * one that names a field is still checked as that field. */
static void test_an_unquoted_key_gets_only_its_syntax_error(void **state)
{
    (void)state;
    struct analysed d;
    analyse(&d, "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/x\", "
                "foo: 1}}");
    assert_true(d.a.doc.error_count > 0);
    assert_no_diagnostic(&d, "unknown-field", "/config/foo");
    analysed_free(&d);
    analyse(&d, "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {path: 7}}");
    diagnostic_at(&d, "type-mismatch", "/config/path");
    analysed_free(&d);
}

/* An empty document (an editor's new file, before anything is typed) gets one hint, not an
 * error, in both doors; anything else that is not JSON stays an error. */
static void test_an_empty_document_is_a_hint(void **state)
{
    (void)state;
    static const char *const empty[] = {"", "  \n\t\r\n", "\xEF\xBB\xBF\n"};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
        struct analysed d;
        analyse(&d, empty[i]);
        assert_int_equal(d.a.diags.count, 1);
        assert_int_equal(d.a.diags.items[0].severity, DIAG_HINT);
        assert_string_equal(code_name(d.a.diags.items[0].code), "json-syntax");
        analysed_free(&d);
    }
    struct analysed d;
    analyse(&d, " x ");
    assert_int_equal(d.a.diags.items[0].severity, DIAG_ERROR);
    analysed_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_completion_between_members_offers_the_missing_keys_at_the_cursor),
        cmocka_unit_test(test_completion_in_an_empty_config_offers_every_key_of_the_kind),
        cmocka_unit_test(test_completion_in_a_half_typed_key_replaces_what_was_typed),
        cmocka_unit_test(test_completion_on_a_key_that_has_its_value_replaces_only_the_key),
        cmocka_unit_test(test_completion_after_a_key_offers_the_enum_values),
        cmocka_unit_test(test_completion_in_a_half_typed_value_replaces_the_whole_string),
        cmocka_unit_test(test_completion_of_the_type_value_offers_the_kind_identifiers),
        cmocka_unit_test(test_completion_in_an_array_element_object_offers_its_fields),
        cmocka_unit_test(test_completion_at_the_top_of_a_job_offers_job_fields),
        cmocka_unit_test(test_completion_at_the_top_of_a_source_offers_type_and_config),
        cmocka_unit_test(test_completion_of_a_key_marks_its_value_to_type_over),
        cmocka_unit_test(test_completion_puts_required_keys_first),
        cmocka_unit_test(test_completion_of_a_secret_value_offers_the_encodings),
        cmocka_unit_test(test_fix_renames_a_misspelled_key),
        cmocka_unit_test(test_fix_uses_the_documented_spelling_of_an_alternate_key),
        cmocka_unit_test(
            test_fix_adds_a_missing_required_field_with_its_default_to_an_empty_config),
        cmocka_unit_test(test_fix_adds_a_missing_required_field_to_a_config_with_members),
        cmocka_unit_test(test_fix_marks_a_plaintext_secret_as_data),
        cmocka_unit_test(test_fix_encodes_a_plaintext_secret_with_a_colon_in_base64),
        cmocka_unit_test(test_fix_encodes_data_plaintext_with_a_colon_in_base64),
        cmocka_unit_test(test_fix_inserts_the_inferred_type),
        cmocka_unit_test(test_fix_corrects_the_case_of_an_enum_value_safely),
        cmocka_unit_test(test_fix_turns_a_quoted_boolean_into_a_boolean),
        cmocka_unit_test(test_fix_removes_a_field_that_does_not_apply_with_its_comma),
        cmocka_unit_test(test_fix_all_applies_every_safe_fix_in_one_pass),
        cmocka_unit_test(test_no_fix_title_contains_a_secret_value),
        cmocka_unit_test(test_format_keeps_order_numbers_and_escapes_and_reindents),
        cmocka_unit_test(test_format_is_idempotent),
        cmocka_unit_test(test_format_refuses_a_document_with_syntax_errors),
        cmocka_unit_test(test_hover_on_a_key_names_the_field_and_its_type),
        cmocka_unit_test(test_hover_on_an_enum_value_gives_its_meaning),
        cmocka_unit_test(test_hover_on_a_risky_setting_says_why),
        cmocka_unit_test(test_hover_on_the_type_value_describes_the_kind),
        cmocka_unit_test(test_hover_on_a_secret_value_never_shows_the_value),
        cmocka_unit_test(test_hover_outside_anything_known_is_empty),
        cmocka_unit_test(test_symbols_label_the_config_with_its_kind_and_list_its_members),
        cmocka_unit_test(test_symbols_and_diagnostics_never_show_a_string_after_a_secret_value),
        cmocka_unit_test(test_a_recovered_key_that_names_a_field_is_still_checked),
        cmocka_unit_test(test_an_empty_required_string_is_reported_at_its_value),
        cmocka_unit_test(test_an_object_cut_short_reports_no_missing_field),
        cmocka_unit_test(test_an_unquoted_key_gets_only_its_syntax_error),
        cmocka_unit_test(test_an_empty_document_is_a_hint),
    };
    return cmocka_run_group_tests(tests, analysed_setup, analysed_teardown);
}
