/* test_complete: completion and hover as the editor features of issue 13 — value edits that
 * cover the whole string token (never a stray quote), Markdown or plain text, completion where
 * a whole object goes (an empty document, a bulk file, an array of objects), a source without
 * a kind, the current time for timestamps, keys ranked by what the rule engine says now, and
 * the item that fills in every required field. Each case is a document with a '|' cursor and
 * its exact expected result; where the engine has a say, the test asks the engine too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "codes.h"
#include "complete.h"
#include "field_text.h"
#include "hover.h"
#include "schema.h"

#include "analysed.h"

/* The time the tests complete at. */
static const char NOW[] = "2026-11-23T12:34:56.789Z";

/* ---- documents ---- */

/* ---- completion ---- */

struct completion {
    struct analysed doc;
    uint32_t cursor;
    struct completion_list list;
};

static void complete_with(struct completion *c, const char *marked, enum text_markup markup,
                          const char *now)
{
    c->cursor = analyse_at(&c->doc, marked);
    struct completion_options options = {markup, now, NULL, 0};
    assert_int_equal(complete_at(&c->doc.a, &analysed_schema, NULL, c->cursor, &options, &c->list),
                     0);
}

static void complete(struct completion *c, const char *marked)
{
    complete_with(c, marked, TEXT_MARKDOWN, NOW);
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

static void print_items(const struct completion *c)
{
    fprintf(stderr, "in: %s\n%u items:", c->doc.text, c->list.count);
    for (uint32_t i = 0; i < c->list.count; i++)
        fprintf(stderr, " %s(%s)", c->list.items[i].label, c->list.items[i].sort);
    fprintf(stderr, "\n");
}

static const struct completion_item *offered(const struct completion *c, const char *label)
{
    const struct completion_item *item = item_labelled(c, label);
    if (item == NULL) {
        fprintf(stderr, "%s not offered\n", label);
        print_items(c);
    }
    assert_non_null(item);
    return item;
}

static void not_offered(const struct completion *c, const char *label)
{
    if (item_labelled(c, label) != NULL) {
        fprintf(stderr, "%s offered\n", label);
        print_items(c);
    }
    assert_null(item_labelled(c, label));
}

/* The document's text with `item` applied: a heap string. */
static char *accept_item(const struct completion *c, const struct completion_item *item)
{
    size_t len = c->doc.len - (item->end - item->start) + strlen(item->text);
    char *out = malloc(len + 1);
    assert_non_null(out);
    memcpy(out, c->doc.text, item->start);
    memcpy(out + item->start, item->text, strlen(item->text));
    memcpy(out + item->start + strlen(item->text), c->doc.text + item->end, c->doc.len - item->end);
    out[len] = '\0';
    return out;
}

/* Accepting `item` gives `expected`. */
static void assert_accepts_as(const struct completion *c, const struct completion_item *item,
                              const char *expected)
{
    char *accepted = accept_item(c, item);
    assert_string_equal(accepted, expected);
    free(accepted);
}

/* The items' labels of `kind` in the order an editor shows them (by sort key). */
static uint32_t sorted_labels(const struct completion *c, enum completion_kind kind,
                              const char **labels, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->list.count && n < cap; i++) {
        if (c->list.items[i].kind != kind)
            continue;
        uint32_t at = n++;
        while (at > 0) {
            const struct completion_item *prev = item_labelled(c, labels[at - 1]);
            if (strcmp(prev->sort, c->list.items[i].sort) <= 0)
                break;
            labels[at] = labels[at - 1];
            at--;
        }
        labels[at] = c->list.items[i].label;
    }
    return n;
}

/* ---- 1. values inside quotes ---- */

#define OBJECT_STORAGE "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": "

/* Every shape of a string the cursor can be in, as an editor leaves it: auto-paired quotes
 * (the closing quote after the cursor), a partly typed word with or without text after the
 * cursor, an opening quote alone at the end of a line, no quote typed yet; for values and for
 * keys. Accepting the item gives valid JSON with one pair of quotes: the item replaces the whole
 * token, the text after the cursor included. */
static const struct accept_case {
    const char *marked, *label, *expected;
} QUOTE_SHAPES[] = {
    /* values */
    {OBJECT_STORAGE "{\"credentialType\": \"|\"}}", "\"NONE\"",
     OBJECT_STORAGE "{\"credentialType\": \"NONE\"}}"},
    {OBJECT_STORAGE "{\"credentialType\": \"NO|\"}}", "\"NONE\"",
     OBJECT_STORAGE "{\"credentialType\": \"NONE\"}}"},
    {OBJECT_STORAGE "{\"credentialType\": \"NO|NE\"}}", "\"NONE\"",
     OBJECT_STORAGE "{\"credentialType\": \"NONE\"}}"},
    {OBJECT_STORAGE "{\"credentialType\": \"AC|CESS\"}}", "\"ACCESS_KEY\"",
     OBJECT_STORAGE "{\"credentialType\": \"ACCESS_KEY\"}}"},
    {OBJECT_STORAGE "{\"credentialType\": \"|NONE\"}}", "\"ACCESS_KEY\"",
     OBJECT_STORAGE "{\"credentialType\": \"ACCESS_KEY\"}}"},
    {OBJECT_STORAGE "{\n  \"credentialType\": \"|\n}}", "\"NONE\"",
     OBJECT_STORAGE "{\n  \"credentialType\": \"NONE\"\n}}"},
    {OBJECT_STORAGE "{\n  \"credentialType\": \"AC|\n}}", "\"ACCESS_KEY\"",
     OBJECT_STORAGE "{\n  \"credentialType\": \"ACCESS_KEY\"\n}}"},
    {OBJECT_STORAGE "{\"credentialType\": |}}", "\"NONE\"",
     OBJECT_STORAGE "{\"credentialType\": \"NONE\"}}"},
    {OBJECT_STORAGE "{\n  \"credentialType\": |\n}}", "\"NONE\"",
     OBJECT_STORAGE "{\n  \"credentialType\": \"NONE\"\n}}"},
    {OBJECT_STORAGE "{\"credentialType\": \"NONE\", \"secure\": |}}", "true",
     OBJECT_STORAGE "{\"credentialType\": \"NONE\", \"secure\": true}}"},
    {"{\"type\": \"|\", \"config\": {}}", "\"CLOUDA_OBJECT_STORAGE\"",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {}}"},
    /* keys */
    {OBJECT_STORAGE "{\"|\"}}", "rootPath", OBJECT_STORAGE "{\"rootPath\": \"/\"}}"},
    {OBJECT_STORAGE "{\"ro|\"}}", "rootPath", OBJECT_STORAGE "{\"rootPath\": \"/\"}}"},
    {OBJECT_STORAGE "{\"ro|ot\"}}", "rootPath", OBJECT_STORAGE "{\"rootPath\": \"/\"}}"},
    {OBJECT_STORAGE "{\n  \"|\n}}", "rootPath", OBJECT_STORAGE "{\n  \"rootPath\": \"/\"\n}}"},
    {OBJECT_STORAGE "{\n  \"|\"\n  \"secure\": true\n}}", "rootPath",
     OBJECT_STORAGE "{\n  \"rootPath\": \"/\",\n  \"secure\": true\n}}"},
    {OBJECT_STORAGE "{\"secure\": true, \"|\"}}", "rootPath",
     OBJECT_STORAGE "{\"secure\": true, \"rootPath\": \"/\"}}"},
    {OBJECT_STORAGE "{\"ro|\": \"/data\"}}", "rootPath",
     OBJECT_STORAGE "{\"rootPath\": \"/data\"}}"},
    {OBJECT_STORAGE "{\"ro|\" : \"/data\", \"secure\": true}}", "rootPath",
     OBJECT_STORAGE "{\"rootPath\" : \"/data\", \"secure\": true}}"},
    {OBJECT_STORAGE "{\"secure\": true, \"ro|\": 1}}", "rootPath",
     OBJECT_STORAGE "{\"secure\": true, \"rootPath\": 1}}"},
};

static void test_every_quote_shape_accepts_as_one_pair_of_quotes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof QUOTE_SHAPES / sizeof QUOTE_SHAPES[0]; i++) {
        const struct accept_case *k = &QUOTE_SHAPES[i];
        struct completion c;
        complete(&c, k->marked);
        const struct completion_item *item = offered(&c, k->label);
        char *accepted = accept_item(&c, item);
        if (strcmp(accepted, k->expected) != 0)
            fail_msg("in %s, accepting %s gives\n%s\nexpected\n%s", k->marked, k->label, accepted,
                     k->expected);
        /* The range holds the cursor, as LSP requires of a completion's edit. */
        assert_true(item->start <= c.cursor && c.cursor <= item->end);
        struct analysed after;
        analyse(&after, accepted);
        assert_int_equal(after.a.doc.error_count, 0);
        analysed_free(&after);
        free(accepted);
        completion_free(&c);
    }
}

static void test_type_value_in_quotes_replaces_the_whole_string(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_OB|\", \"config\": {}}");
    const struct completion_item *kind = offered(&c, "\"CLOUDA_OBJECT_STORAGE\"");
    assert_accepts_as(&c, kind, "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {}}");
    completion_free(&c);
}

/* ---- 2. Markdown or plain text ---- */

static void assert_plain(const char *text)
{
    if (text == NULL)
        return;
    static const char *const markdown[] = {"**", "`", "|", "#", "---"};
    for (size_t i = 0; i < sizeof markdown / sizeof markdown[0]; i++) {
        if (strstr(text, markdown[i]) != NULL)
            fail_msg("Markdown \"%s\" in plain text:\n%s", markdown[i], text);
    }
}

static void test_field_text_in_plain_text_has_no_markdown(void **state)
{
    (void)state;
    struct arena arena;
    arena_init(&arena);
    for (uint32_t k = 0; k < analysed_schema.kind_count; k++) {
        const struct schema_object *config = &analysed_schema.kinds[k].config;
        for (uint32_t i = 0; i < config->field_count; i++)
            assert_plain(field_text_describe(&config->fields[i], TEXT_PLAIN, &arena));
    }
    const struct schema_kind *kind =
        schema_find_kind(&analysed_schema, JSON_LITERAL("CLOUDA_SEARCH_SERVICE"));
    const struct schema_field *field =
        schema_object_field(&kind->config, JSON_LITERAL("accessKey"));
    assert_string_equal(field_text_describe(field, TEXT_PLAIN, &arena),
                        "accessKey — a string, required when \"authenticationType\" is ACCESS_KEY"
                        "\n\nApplies when \"authenticationType\" is ACCESS_KEY\n\n"
                        "Access key id used to sign requests. Needed, and only used, when "
                        "authenticationType is ACCESS_KEY.");
    assert_string_equal(field_text_describe(field, TEXT_MARKDOWN, &arena),
                        "**`accessKey`** — a string, required when \"authenticationType\" is "
                        "ACCESS_KEY\n\nApplies when \"authenticationType\" is ACCESS_KEY\n\n"
                        "Access key id used to sign requests. Needed, and only used, when "
                        "authenticationType is ACCESS_KEY.");
    arena_free(&arena);
}

static void test_completion_documentation_follows_the_markup_asked_for(void **state)
{
    (void)state;
    struct completion c;
    complete_with(&c, OBJECT_STORAGE "{|}}", TEXT_PLAIN, NOW);
    for (uint32_t i = 0; i < c.list.count; i++)
        assert_plain(c.list.items[i].documentation);
    const struct completion_item *secret = offered(&c, "accessSecret");
    assert_non_null(strstr(secret->documentation, "Write secrets as data:,<text>"));
    completion_free(&c);

    complete_with(&c, OBJECT_STORAGE "{|}}", TEXT_MARKDOWN, NOW);
    assert_non_null(strstr(offered(&c, "accessSecret")->documentation, "`data:,<text>`"));
    completion_free(&c);

    /* Values too: a secret's encodings, an enum's meanings, the hint. */
    static const char *const places[] = {
        OBJECT_STORAGE "{\"accessSecret\": |}}",
        OBJECT_STORAGE "{\"credentialType\": \"|\"}}",
        "{\"config\": {|}}",
    };
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        complete_with(&c, places[i], TEXT_PLAIN, NOW);
        assert_true(c.list.count > 0);
        for (uint32_t k = 0; k < c.list.count; k++)
            assert_plain(c.list.items[k].documentation);
        completion_free(&c);
    }
}

static void test_hover_follows_the_markup_asked_for(void **state)
{
    (void)state;
    static const char *const places[] = {
        OBJECT_STORAGE "{\"cred|entialType\": \"NONE\"}}",
        OBJECT_STORAGE "{\"credentialType\": \"NO|NE\"}}",
        "{\"type\": \"CLOUDA_OB|JECT_STORAGE\", \"config\": {}}",
        OBJECT_STORAGE "{\"sec|ure\": true}}",
    };
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        struct analysed d;
        uint32_t cursor = analyse_at(&d, places[i]);
        struct arena arena;
        arena_init(&arena);
        uint32_t start, end;
        const char *plain =
            hover_at(&d.a, &analysed_schema, NULL, cursor, TEXT_PLAIN, &arena, &start, &end);
        const char *markdown =
            hover_at(&d.a, &analysed_schema, NULL, cursor, TEXT_MARKDOWN, &arena, &start, &end);
        assert_non_null(plain);
        assert_non_null(markdown);
        assert_plain(plain);
        assert_non_null(strchr(markdown, '`'));
        arena_free(&arena);
        analysed_free(&d);
    }
    struct analysed d;
    uint32_t cursor = analyse_at(&d, "{\"type\": \"CLOUDA_OB|JECT_STORAGE\", \"config\": {}}");
    struct arena arena;
    arena_init(&arena);
    uint32_t start, end;
    const char *plain =
        hover_at(&d.a, &analysed_schema, NULL, cursor, TEXT_PLAIN, &arena, &start, &end);
    assert_int_equal(
        strncmp(plain, "Object storage A (kind 3)\n\ntype: CLOUDA_OBJECT_STORAGE\n\n",
                strlen("Object storage A (kind 3)\n\ntype: CLOUDA_OBJECT_STORAGE\n\n")),
        0);
    arena_free(&arena);
    analysed_free(&d);
}

/* ---- 3. where there was no completion ---- */

/* Checks the placeholders of `item`: what each covers, in order. */
static void assert_placeholders(const struct completion_item *item, const char *const *expected,
                                uint32_t count)
{
    assert_int_equal(item->placeholder_count, count);
    for (uint32_t i = 0; i < count; i++) {
        const struct completion_placeholder *p = &item->placeholders[i];
        size_t len = strlen(expected[i]);
        if (p->end - p->start != len || memcmp(item->text + p->start, expected[i], len) != 0)
            fail_msg("placeholder %u is \"%.*s\", not \"%s\" in %s", i, (int)(p->end - p->start),
                     item->text + p->start, expected[i], item->text);
    }
}

static void test_an_empty_document_offers_a_source_and_a_job_skeleton(void **state)
{
    (void)state;
    static const char *const documents[] = {"|", "\n  |\n"};
    for (size_t i = 0; i < 2; i++) {
        struct completion c;
        complete(&c, documents[i]);
        assert_int_equal(c.list.count, 2);
        const struct completion_item *source = offered(&c, "source");
        assert_int_equal(source->kind, COMPLETION_SNIPPET);
        assert_string_equal(source->text,
                            "{\n  \"name\": \"\",\n  \"type\": \"\",\n  \"config\": {}\n}\n");
        assert_int_equal(source->start, c.cursor);
        assert_int_equal(source->end, c.cursor);
        static const char *const empty[] = {"", "", ""};
        assert_placeholders(source, empty, 3);
        const struct completion_item *job = offered(&c, "job");
        assert_string_equal(job->text, "{\n  \"jobState\": \"\"\n}\n");
        assert_int_equal(job->placeholders[0].choice_count, 14);
        assert_string_equal(job->placeholders[0].choices[0], "NOT_SUBMITTED");
        completion_free(&c);
    }
}

static void test_a_bulk_file_offers_a_source_between_its_elements(void **state)
{
    (void)state;
    static const struct {
        const char *marked, *text;
    } cases[] = {
        {"[|]", "{\"name\": \"\", \"type\": \"\", \"config\": {}}"},
        {"[\n  |\n]", "{\"name\": \"\", \"type\": \"\", \"config\": {}}"},
        {"[{\"type\": \"NAS\", \"config\": {}}|]",
         ", {\"name\": \"\", \"type\": \"\", \"config\": {}}"},
        {"[|{\"type\": \"NAS\", \"config\": {}}]",
         "{\"name\": \"\", \"type\": \"\", \"config\": {}}, "},
        {"[{\"config\": {}}, |]", "{\"name\": \"\", \"type\": \"\", \"config\": {}}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct completion c;
        complete(&c, cases[i].marked);
        assert_int_equal(c.list.count, 1);
        const struct completion_item *source = offered(&c, "source");
        assert_string_equal(source->text, cases[i].text);
        assert_int_equal(source->start, c.cursor);
        /* Accepted, the document is a bulk file of sources without a syntax error. */
        struct analysed after;
        char *text = accept_item(&c, source);
        analyse(&after, text);
        assert_int_equal(after.a.doc.error_count, 0);
        assert_int_equal(after.a.document, DOCUMENT_BULK);
        analysed_free(&after);
        free(text);
        completion_free(&c);
    }
}

static void test_an_array_of_objects_offers_an_element_with_its_fields(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, OBJECT_STORAGE "{\"propertyList\": [|]}}");
    assert_int_equal(c.list.count, 1);
    const struct completion_item *property = offered(&c, "{name, value}");
    assert_int_equal(property->kind, COMPLETION_SNIPPET);
    assert_string_equal(property->text, "{\"name\": \"\", \"value\": \"\"}");
    static const char *const empty[] = {"", ""};
    assert_placeholders(property, empty, 2);
    completion_free(&c);

    complete(&c,
             "{\"type\": \"SEARCH_INDEX\", \"config\": {\"hostList\": [{\"hostname\": \"a\"}|]}}");
    const struct completion_item *host = offered(&c, "{hostname, port}");
    assert_string_equal(host->text, ", {\"hostname\": \"\", \"port\": 9200}");
    static const char *const values[] = {"", "9200"};
    assert_placeholders(host, values, 2);
    completion_free(&c);

    /* An array of strings still offers values, not objects. */
    complete(&c, OBJECT_STORAGE "{\"whitelistedBuckets\": [|]}}");
    assert_int_equal(c.list.count, 0);
    completion_free(&c);
}

static void test_a_config_without_a_kind_offers_a_hint(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"config\": {|}}",
        "{\"type\": \"NO_SUCH_KIND\", \"config\": {|}}",
    };
    for (size_t i = 0; i < 2; i++) {
        struct completion c;
        complete(&c, documents[i]);
        assert_int_equal(c.list.count, 1);
        const struct completion_item *hint = &c.list.items[0];
        assert_int_equal(hint->kind, COMPLETION_HINT);
        assert_string_equal(hint->text, "");
        assert_int_equal(hint->start, c.cursor);
        assert_int_equal(hint->end, c.cursor);
        assert_non_null(strstr(hint->documentation, "`type`"));
        completion_free(&c);
    }
}

/* The config of bad-no-type.source.json: the engine infers NETWORK_ATTACHED_STORAGE. */
#define NAS_CONFIG "\"config\": {\"path\": \"/mnt/exports\", \"defaultCtasFormat\": \"PARQUET\""

static void test_a_config_of_an_inferred_kind_offers_its_keys_and_type(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{" NAS_CONFIG ", |}}");
    not_offered(&c, "path");
    not_offered(&c, "defaultCtasFormat");
    assert_int_equal(c.list.count, 1); /* the kind's one other field (of a group it includes) */
    offered(&c, "isPartitionInferenceEnabled");
    completion_free(&c);

    /* At the source level, `type` comes with the inferred kind, first. */
    complete(&c, "{|" NAS_CONFIG "}}");
    const struct completion_item *type = offered(&c, "type");
    assert_string_equal(type->text, "\"type\": \"NETWORK_ATTACHED_STORAGE\",");
    static const char *const kind[] = {"NETWORK_ATTACHED_STORAGE"};
    assert_placeholders(type, kind, 1);
    assert_int_equal(type->rank, COMPLETION_RANK_REQUIRED_BY_VALUE);
    completion_free(&c);

    /* The type's values: the inferred kind first. */
    complete(&c, "{\"type\": \"|\", " NAS_CONFIG "}}");
    const char *labels[64];
    assert_true(sorted_labels(&c, COMPLETION_KIND_ID, labels, 64) > 20);
    assert_string_equal(labels[0], "\"NETWORK_ATTACHED_STORAGE\"");
    completion_free(&c);
}

static void test_the_type_key_of_a_source_offers_every_identifier(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"name\": \"x\", |}");
    const struct completion_item *type = offered(&c, "type");
    assert_string_equal(type->text, "\"type\": \"\"");
    static const char *const empty[] = {""};
    assert_placeholders(type, empty, 1);
    uint32_t identifiers = 0;
    for (uint32_t k = 0; k < analysed_schema.kind_count; k++)
        identifiers += analysed_schema.kinds[k].type_count;
    assert_int_equal(type->placeholders[0].choice_count, identifiers);
    assert_string_equal(type->placeholders[0].choices[0], analysed_schema.kinds[0].types[0]);
    completion_free(&c);
}

static void test_a_timestamp_field_offers_the_time_now(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"jobState\": \"RUNNING\", \"startedAt\": |}");
    const struct completion_item *now = offered(&c, "\"2026-11-23T12:34:56.789Z\"");
    assert_string_equal(now->detail, "now (UTC)");
    char *text = accept_item(&c, now);
    struct analysed after;
    analyse(&after, text);
    assert_int_equal(after.a.diags.count, 0);
    analysed_free(&after);
    free(text);
    completion_free(&c);

    /* The key comes with the time too. */
    complete(&c, "{\"jobState\": \"RUNNING\", |}");
    assert_string_equal(offered(&c, "startedAt")->text,
                        "\"startedAt\": \"2026-11-23T12:34:56.789Z\"");
    completion_free(&c);

    /* Without a time (or with one the engine would refuse), none. */
    static const char *const refused[] = {NULL, "2026-11-23T12:34:56Z", "yesterday"};
    for (size_t i = 0; i < 3; i++) {
        complete_with(&c, "{\"jobState\": \"RUNNING\", \"startedAt\": \"|\"}", TEXT_MARKDOWN,
                      refused[i]);
        assert_int_equal(c.list.count, 0);
        completion_free(&c);
    }
}

/* ---- 4. ranked by what the engine says now ---- */

static bool ranked_required(const struct completion_item *item)
{
    return item->rank == COMPLETION_RANK_REQUIRED ||
           item->rank == COMPLETION_RANK_REQUIRED_BY_VALUE;
}

static void test_a_field_whose_condition_does_not_hold_is_not_ranked_required(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\"authenticationType\": "
                 "\"NONE\", |}}");
    const struct completion_item *key = offered(&c, "accessKey");
    assert_false(ranked_required(key));
    /* Under NONE it would get not-applicable: last, and marked so. */
    assert_int_equal(key->rank, COMPLETION_RANK_NOT_APPLICABLE);
    for (uint32_t i = 0; i < c.list.count; i++) {
        const struct completion_item *other = &c.list.items[i];
        if (other->rank != COMPLETION_RANK_NOT_APPLICABLE)
            assert_true(strcmp(other->sort, key->sort) < 0);
    }
    assert_true(ranked_required(offered(&c, "hostname")));
    completion_free(&c);

    /* The engine agrees: accessKey there is not-applicable. */
    struct analysed d;
    analyse(&d, "{\"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\"authenticationType\": "
                "\"NONE\", \"hostname\": \"h\", \"accessKey\": \"AK\"}}");
    bool reported = false;
    for (uint32_t i = 0; i < d.a.diags.count; i++)
        reported |= strcmp(code_name(d.a.diags.items[i].code), "not-applicable") == 0 &&
                    strcmp(d.a.diags.items[i].pointer, "/config/accessKey") == 0;
    assert_true(reported);
    analysed_free(&d);
}

static void test_fields_required_by_a_value_lead_the_list(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, OBJECT_STORAGE "{\"credentialType\": \"ACCESS_KEY\", |}}");
    const char *labels[64];
    uint32_t n = sorted_labels(&c, COMPLETION_KEY, labels, 64);
    assert_true(n > 4);
    assert_string_equal(labels[0], "accessKey");
    assert_string_equal(labels[1], "accessSecret");
    /* Applicable because of the value: next. cloudaProfile no longer applies: last. */
    assert_string_equal(labels[2], "assumedRoleARN");
    assert_int_equal(offered(&c, "assumedRoleARN")->rank, COMPLETION_RANK_APPLICABLE_BY_VALUE);
    assert_string_equal(labels[n - 1], "cloudaProfile");
    assert_int_equal(offered(&c, "cloudaProfile")->rank, COMPLETION_RANK_NOT_APPLICABLE);
    completion_free(&c);

    /* Without a credentialType nothing is required, and everything applies. */
    complete(&c, OBJECT_STORAGE "{|}}");
    for (uint32_t i = 0; i < c.list.count; i++)
        assert_int_equal(c.list.items[i].rank, COMPLETION_RANK_OPTIONAL);
    completion_free(&c);
}

/* The names of the fields the engine reports missing in `d`'s config, in `names`. */
static uint32_t missing_fields(const struct analysed *d, const char **names, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->a.diags.count && n < cap; i++) {
        const char *code = code_name(d->a.diags.items[i].code);
        const char *pointer = d->a.diags.items[i].pointer;
        if ((strcmp(code, "missing-required") == 0 || strcmp(code, "conditional-required") == 0) &&
            strncmp(pointer, "/config/", 8) == 0)
            names[n++] = pointer + 8;
    }
    return n;
}

/* The key items ranked required are exactly the fields the engine reports missing. */
static void assert_required_as_the_engine_says(const char *marked)
{
    struct completion c;
    complete(&c, marked);
    const char *missing[64];
    uint32_t count = missing_fields(&c.doc, missing, 64);
    assert_true(count > 0);
    uint32_t required = 0;
    for (uint32_t i = 0; i < c.list.count; i++) {
        const struct completion_item *item = &c.list.items[i];
        if (item->kind != COMPLETION_KEY || !ranked_required(item))
            continue;
        required++;
        bool reported = false;
        for (uint32_t k = 0; k < count; k++)
            reported |= strcmp(missing[k], item->label) == 0;
        if (!reported)
            fail_msg("%s ranked required, but the engine does not report it in %s", item->label,
                     c.doc.text);
    }
    assert_int_equal(required, count);
    completion_free(&c);
}

static void test_an_empty_versioned_catalog_ranks_required_what_the_engine_reports(void **state)
{
    (void)state;
    assert_required_as_the_engine_says("{\"type\": \"VERSIONED_CATALOG\", \"config\": {|}}");
    assert_required_as_the_engine_says(
        "{\"type\": \"VERSIONED_CATALOG\", \"config\": {\"storageType\": \"CLOUDB\", |}}");
    assert_required_as_the_engine_says(
        "{\"type\": \"VERSIONED_CATALOG\", \"config\": {\"versionedCatalogAuthType\": \"NONE\", "
        "\"storageType\": \"CLOUDA\", \"credentialType\": \"ACCESS_KEY\", |}}");
    struct completion c;
    complete(&c, "{\"type\": \"VERSIONED_CATALOG\", \"config\": {|}}");
    assert_int_equal(offered(&c, "versionedCatalogEndpoint")->rank, COMPLETION_RANK_REQUIRED);
    /* Required by its condition on a default (BEARER), not on a value present. */
    assert_int_equal(offered(&c, "versionedCatalogAccessToken")->rank, COMPLETION_RANK_REQUIRED);
    assert_int_equal(offered(&c, "cloudaRootPath")->rank, COMPLETION_RANK_OPTIONAL);
    completion_free(&c);
}

/* ---- 5. the required fields at once ---- */

/* Accepts `item` and checks that the engine no longer reports any field it inserted missing,
 * and that the text parses without an error. A field inserted empty ("", no default to offer) is
 * there to be filled in: the engine reports it at its value, which is what it must do. */
static void assert_fills(const struct completion *c, const struct completion_item *item)
{
    char *text = accept_item(c, item);
    struct analysed after;
    analyse(&after, text);
    if (after.a.doc.error_count != 0)
        fail_msg("a syntax error in:\n%s", text);
    const char *missing[64];
    uint32_t count = missing_fields(&after, missing, 64);
    for (uint32_t k = 0; k < count; k++) {
        char quoted[128];
        snprintf(quoted, sizeof quoted, "\"%s\"", missing[k]);
        char empty[160];
        snprintf(empty, sizeof empty, "\"%s\": \"\"", missing[k]);
        if (strstr(item->text, quoted) != NULL && strstr(text, empty) == NULL)
            fail_msg("%s still missing in:\n%s", missing[k], text);
    }
    analysed_free(&after);
    free(text);
}

static void test_fill_required_fields_in_an_empty_config(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"VERSIONED_CATALOG\", \"config\": {|}}");
    const struct completion_item *fill = offered(&c, "fill required fields");
    assert_int_equal(fill->kind, COMPLETION_SNIPPET);
    assert_string_equal(fill->detail,
                        "versionedCatalogEndpoint, versionedCatalogAccessToken, storageType");
    assert_string_equal(fill->text, "\n  \"versionedCatalogEndpoint\": \"\",\n"
                                    "  \"versionedCatalogAccessToken\": \"data:,\",\n"
                                    "  \"storageType\": \"CLOUDA\"\n");
    static const char *const values[] = {"", "data:,", "CLOUDA"};
    assert_placeholders(fill, values, 3);
    assert_null(fill->placeholders[2].choices);
    assert_int_equal(fill->start, c.cursor);
    assert_int_equal(fill->end, c.cursor);
    /* Right after the keys required now, before the others. */
    for (uint32_t i = 0; i < c.list.count; i++) {
        const struct completion_item *item = &c.list.items[i];
        if (item != fill)
            assert_true(ranked_required(item) == (strcmp(item->sort, fill->sort) < 0));
    }
    assert_fills(&c, fill);
    completion_free(&c);
}

static void test_fill_required_fields_on_a_fresh_line_and_after_a_member(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\n  \"type\": \"CLOUDA_SEARCH_SERVICE\",\n  \"config\": {\n"
                 "    \"authenticationType\": \"ACCESS_KEY\",\n    |\n  }\n}\n");
    const struct completion_item *fill = offered(&c, "fill required fields");
    assert_string_equal(fill->text, "\"hostname\": \"\",\n    \"port\": \"443\",\n"
                                    "    \"accessKey\": \"\",\n    \"accessSecret\": \"data:,\"");
    assert_fills(&c, fill);
    completion_free(&c);

    complete(&c, "{\"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {\"hostname\": \"h\"|}}");
    fill = offered(&c, "fill required fields");
    assert_string_equal(fill->text,
                        ",\n  \"port\": \"443\",\n  \"authenticationType\": \"NONE\"\n");
    assert_fills(&c, fill);
    completion_free(&c);

    /* Before another member: a comma after. */
    complete(&c, "{\"type\": \"CLOUDA_SEARCH_SERVICE\", \"config\": {|\"hostname\": \"h\"}}");
    fill = offered(&c, "fill required fields");
    assert_string_equal(fill->text,
                        "\n  \"port\": \"443\",\n  \"authenticationType\": \"NONE\",\n  ");
    assert_fills(&c, fill);
    completion_free(&c);
}

static void test_fill_required_fields_of_a_new_source_once_its_type_is_chosen(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, "{\"type\": \"VERSIONED_CATALOG\", |}");
    const struct completion_item *fill = offered(&c, "config with its required fields");
    assert_string_equal(fill->text, "\n  \"config\": {\n    \"versionedCatalogEndpoint\": \"\",\n"
                                    "    \"versionedCatalogAccessToken\": \"data:,\",\n"
                                    "    \"storageType\": \"CLOUDA\"\n  }\n");
    assert_fills(&c, fill);
    completion_free(&c);

    /* Once the config is there, the item is inside it. */
    complete(&c, "{\"type\": \"VERSIONED_CATALOG\", |, \"config\": {}}");
    not_offered(&c, "config with its required fields");
    completion_free(&c);
}

static void test_no_fill_item_when_nothing_is_required(void **state)
{
    (void)state;
    struct completion c;
    complete(&c, OBJECT_STORAGE "{|}}");
    not_offered(&c, "fill required fields");
    completion_free(&c);
    complete(&c, OBJECT_STORAGE "{\"credentialType\": \"ACCESS_KEY\", \"accessKey\": \"a\", "
                                "\"accessSecret\": \"data:,s\", |}}");
    not_offered(&c, "fill required fields");
    completion_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_quote_shape_accepts_as_one_pair_of_quotes),
        cmocka_unit_test(test_type_value_in_quotes_replaces_the_whole_string),
        cmocka_unit_test(test_field_text_in_plain_text_has_no_markdown),
        cmocka_unit_test(test_completion_documentation_follows_the_markup_asked_for),
        cmocka_unit_test(test_hover_follows_the_markup_asked_for),
        cmocka_unit_test(test_an_empty_document_offers_a_source_and_a_job_skeleton),
        cmocka_unit_test(test_a_bulk_file_offers_a_source_between_its_elements),
        cmocka_unit_test(test_an_array_of_objects_offers_an_element_with_its_fields),
        cmocka_unit_test(test_a_config_without_a_kind_offers_a_hint),
        cmocka_unit_test(test_a_config_of_an_inferred_kind_offers_its_keys_and_type),
        cmocka_unit_test(test_the_type_key_of_a_source_offers_every_identifier),
        cmocka_unit_test(test_a_timestamp_field_offers_the_time_now),
        cmocka_unit_test(test_a_field_whose_condition_does_not_hold_is_not_ranked_required),
        cmocka_unit_test(test_fields_required_by_a_value_lead_the_list),
        cmocka_unit_test(test_an_empty_versioned_catalog_ranks_required_what_the_engine_reports),
        cmocka_unit_test(test_fill_required_fields_in_an_empty_config),
        cmocka_unit_test(test_fill_required_fields_on_a_fresh_line_and_after_a_member),
        cmocka_unit_test(test_fill_required_fields_of_a_new_source_once_its_type_is_chosen),
        cmocka_unit_test(test_no_fill_item_when_nothing_is_required),
    };
    return cmocka_run_group_tests(tests, analysed_setup, analysed_teardown);
}
