/* test_schema_loader: schema_registry_load fed broken schema files, one per way the loader can
 * refuse them. A typo in schema/ must fail the build's tests with a message that a maintainer
 * can act on: the file, the line and column, and the JSON Pointer of the offending value
 * ("schema/kinds/01-a.json:1:71 at /fields/port/type: unknown type name"). Each case is a
 * small valid schema with one file replaced or added, and the exact message expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"

/* ---- a schema in memory ---- */

#define MAX_FILES 8

/* The files of one schema; each text is an exact-size heap copy, so that AddressSanitizer sees
 * any read past its end. */
struct schema_set {
    struct schema_file files[MAX_FILES];
    char *copies[MAX_FILES];
    size_t count;
};

/* A small schema that loads: every later case breaks exactly one thing of it. */
static const struct {
    const char *name, *text;
} baseline[] = {
    {"source.json", "{\"description\": \"A source.\", \"additionalFields\": true, "
                    "\"fields\": {\"name\": {\"type\": \"string\"}}}"},
    {"job.json", "{\"title\": \"Job\", \"fields\": {\"jobState\": {\"type\": \"string\"}}}"},
    {"groups/G.json",
     "{\"group\": \"G\", \"description\": \"Shared.\", "
     "\"fields\": {\"g1\": {\"type\": \"string\"}, \"g2\": {\"type\": \"integer\"}}}"},
    {"kinds/01-a.json", "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"include\": [\"G\"], "
                        "\"fields\": {\"port\": {\"type\": \"integer\"}}}"},
    {"kinds/02-b.json",
     "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": \"01-a\", \"fields\": {}}"},
};

static void set_free(struct schema_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->copies[i]);
    set->count = 0;
}

/* Replaces the file `name` with `text`, adds it when it is new, removes it when `text` is NULL. */
static void set_file(struct schema_set *set, const char *name, const char *text)
{
    size_t i = 0;
    while (i < set->count && strcmp(set->files[i].name, name) != 0)
        i++;
    if (i < set->count)
        free(set->copies[i]);
    if (text == NULL) {
        if (i < set->count) {
            set->count--;
            memmove(&set->files[i], &set->files[i + 1], (set->count - i) * sizeof set->files[0]);
            memmove(&set->copies[i], &set->copies[i + 1], (set->count - i) * sizeof(char *));
        }
        return;
    }
    assert_true(i < MAX_FILES);
    size_t len = strlen(text);
    set->copies[i] = malloc(len > 0 ? len : 1);
    assert_non_null(set->copies[i]);
    memcpy(set->copies[i], text, len);
    set->files[i] = (struct schema_file){.name = name, .text = set->copies[i], .len = len};
    if (i == set->count)
        set->count++;
}

static void set_baseline(struct schema_set *set)
{
    set->count = 0;
    for (size_t i = 0; i < sizeof baseline / sizeof baseline[0]; i++)
        set_file(set, baseline[i].name, baseline[i].text);
}

/* ---- broken schemas and their messages ---- */

struct broken_case {
    const char *file, *text;   /* the file replaced or added (text NULL: removed) */
    const char *file2, *text2; /* a second one, or NULL */
    const char *message;       /* the whole error message, exactly */
};

/* Loads each case and lists every case whose message differs, or that loaded. */
static void assert_messages(const struct broken_case *cases, size_t count)
{
    char report[8192] = "";
    size_t used = 0;
    unsigned wrong = 0;
    for (size_t c = 0; c < count; c++) {
        struct schema_set set;
        set_baseline(&set);
        set_file(&set, cases[c].file, cases[c].text);
        if (cases[c].file2 != NULL)
            set_file(&set, cases[c].file2, cases[c].text2);
        struct schema_registry registry;
        char error[512] = "(none)";
        int status = schema_registry_load(&registry, set.files, set.count, error, sizeof error);
        set_free(&set);
        if (status == 0)
            schema_registry_free(&registry);
        if (status != 0 && strcmp(error, cases[c].message) == 0)
            continue;
        wrong++;
        int n = snprintf(report + used, sizeof report - used,
                         "\n  %s\n    expected: %s\n    got:      %s", cases[c].file,
                         cases[c].message, status == 0 ? "(it loaded)" : error);
        if (n > 0 && (size_t)n < sizeof report - used)
            used += (size_t)n;
    }
    if (wrong > 0)
        fail_msg("%u of %zu broken schemas got another message:%s", wrong, count, report);
}

#define ASSERT_MESSAGES(cases) assert_messages(cases, sizeof cases / sizeof cases[0])

/* ---- what loads ---- */

static void test_embedded_schema_loads_every_kind(void **state)
{
    (void)state;
    struct schema_registry registry;
    char error[512] = "";
    if (schema_registry_load_embedded(&registry, error, sizeof error) != 0)
        fail_msg("the embedded schema does not load: %s", error);
    unsigned kind_files = 0; /* one kind per file of schema/kinds/, however many there are */
    for (unsigned i = 0; i < schema_embedded_count; i++)
        kind_files += strncmp(schema_embedded_files[i].name, "kinds/", 6) == 0;
    assert_true(kind_files > 0);
    assert_int_equal(registry.kind_count, kind_files);
    for (uint32_t k = 0; k < registry.kind_count; k++) {
        const struct schema_kind *kind = &registry.kinds[k];
        assert_int_equal(kind->number, (int)k + 1); /* sorted by number, none missing */
        assert_non_null(kind->title);
        assert_true(kind->type_count > 0);
        assert_ptr_equal(schema_find_kind(&registry, kind->types[0], strlen(kind->types[0])), kind);
    }
    assert_non_null(registry.source.object);
    assert_non_null(registry.job.object);
    assert_non_null(registry.job_title);
    schema_registry_free(&registry);
}

/* The baseline, and every construct the cases below break, used correctly: the loader's checks
 * refuse the broken forms only. */
static void test_valid_small_schema_loads_with_inheritance_groups_and_conditions(void **state)
{
    (void)state;
    struct schema_set set;
    set_baseline(&set);
    set_file(
        &set, "kinds/03-c.json",
        "{\"kind\": 3, \"title\": \"C\", \"types\": [\"C\", \"C_OLD\"], \"extends\": \"02-b\", "
        "\"omit\": [\"g2\"], \"include\": [{\"group\": \"G\", \"only\": [\"g1\"], "
        "\"override\": {\"g1\": {\"default\": \"x\"}}}], \"notes\": \"n\", "
        "\"fields\": {\"mode\": {\"type\": [\"string\", \"null\"], \"enum\": [\"A\", "
        "{\"value\": \"B\", \"description\": \"b\"}], \"aliases\": [\"Mode\"]}, "
        "\"key\": {\"type\": \"string\", \"secret\": true, \"required\": {\"all\": [{\"field\": "
        "\"mode\", \"in\": [\"B\"]}, {\"not\": {\"field\": \"port\", \"present\": true}}]}}, "
        "\"list\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"fields\": {\"x\": "
        "{\"type\": \"number\", \"minimum\": 0, \"maximum\": 1.5}}}}}, "
        "\"assertions\": [{\"code\": \"job-inconsistent\", \"field\": \"mode\", "
        "\"when\": {\"field\": \"mode\", \"nonEmpty\": true}, \"expect\": {\"any\": [{\"field\": "
        "\"mode\", \"in\": [\"A\"]}, {\"field\": \"port\", \"notBefore\": \"mode\"}]}, "
        "\"message\": \"m\"}]}");
    struct schema_registry registry;
    char error[512] = "";
    int status = schema_registry_load(&registry, set.files, set.count, error, sizeof error);
    set_free(&set);
    if (status != 0)
        fail_msg("the valid schema does not load: %s", error);
    assert_int_equal(registry.kind_count, 3);
    const struct schema_kind *c = schema_find_kind(&registry, "C_OLD", 5);
    assert_non_null(c);
    /* port from 01-a through 02-b, g1 from the group, g2 omitted, and its own three */
    assert_non_null(schema_object_field(&c->config, "port", 4));
    assert_non_null(schema_object_field(&c->config, "g1", 2));
    assert_null(schema_object_field(&c->config, "g2", 2));
    assert_int_equal(c->config.field_count, 5);
    schema_registry_free(&registry);
}

/* Loads the baseline with up to two files added; fails the test when it does not load. */
static void load_with(struct schema_registry *registry, const char *name, const char *text,
                      const char *name2, const char *text2)
{
    struct schema_set set;
    set_baseline(&set);
    set_file(&set, name, text);
    if (name2 != NULL)
        set_file(&set, name2, text2);
    char error[512] = "";
    int status = schema_registry_load(registry, set.files, set.count, error, sizeof error);
    set_free(&set);
    if (status != 0)
        fail_msg("the schema does not load: %s", error);
}

/* "extends" and "omit" may be left out (the baseline's 01-a has neither); null and [] still
 * mean none. */
static void test_extends_omit_and_include_are_optional(void **state)
{
    (void)state;
    struct schema_registry registry;
    load_with(
        &registry, "kinds/03-c.json",
        "{\"kind\": 3, \"title\": \"C\", \"types\": [\"C\"], \"extends\": null, \"omit\": [], "
        "\"include\": [], \"fields\": {\"x\": {\"type\": \"string\"}}}",
        "kinds/04-d.json", "{\"kind\": 4, \"title\": \"D\", \"types\": [\"D\"]}");
    assert_int_equal(schema_find_kind(&registry, "A", 1)->config.field_count, 3);
    assert_int_equal(schema_find_kind(&registry, "C", 1)->config.field_count, 1);
    assert_int_equal(schema_find_kind(&registry, "D", 1)->config.field_count, 0);
    schema_registry_free(&registry);
}

/* The parent, then include, then omit, then the kind's own fields, as docs/schema-format.md
 * says, whatever the order of the keys: 04-d is 03-c with its keys reversed. */
static void test_resolution_order_does_not_depend_on_key_order(void **state)
{
    (void)state;
    struct schema_registry registry;
    load_with(&registry, "kinds/03-c.json",
              "{\"kind\": 3, \"title\": \"C\", \"types\": [\"C\"], \"extends\": \"02-b\", "
              "\"include\": [\"G\"], \"omit\": [\"g1\"], \"fields\": {\"g2\": {\"type\": "
              "\"string\"}}}",
              "kinds/04-d.json",
              "{\"fields\": {\"g2\": {\"type\": \"string\"}}, \"omit\": [\"g1\"], \"include\": "
              "[\"G\"], \"extends\": \"02-b\", \"types\": [\"D\"], \"title\": \"D\", \"kind\": 4}");
    for (const char *type = "C"; type != NULL; type = *type == 'C' ? "D" : NULL) {
        const struct schema_kind *kind = schema_find_kind(&registry, type, 1);
        assert_non_null(kind);
        assert_int_equal(kind->config.field_count, 2); /* port and g2 */
        assert_non_null(schema_object_field(&kind->config, "port", 4));
        assert_null(schema_object_field(&kind->config, "g1", 2));
        const struct schema_field *g2 = schema_object_field(&kind->config, "g2", 2);
        assert_non_null(g2);
        assert_int_equal(g2->types, SCHEMA_STRING); /* the kind's own entry, merged last */
    }
    schema_registry_free(&registry);
}

static void assert_values(const struct schema_value *values, uint32_t count, const char *expected)
{
    char got[64] = "";
    for (uint32_t i = 0; i < count; i++) {
        strncat(got, i ? " " : "", sizeof got - strlen(got) - 1);
        strncat(got, values[i].text, sizeof got - strlen(got) - 1);
    }
    assert_string_equal(got, expected);
}

/* noOtherThan's other values come from the field's enum in each kind, in enum order: a child
 * kind that changes the enum gets its own, and the parent keeps its. */
static void test_no_other_than_takes_the_other_values_from_each_kinds_enum(void **state)
{
    (void)state;
    struct schema_registry registry;
    load_with(&registry, "kinds/03-c.json",
              "{\"kind\": 3, \"title\": \"C\", \"types\": [\"C\"], \"fields\": {\"key\": "
              "{\"applicable\": {\"all\": [{\"field\": \"mode\", \"noOtherThan\": [\"B\"]}]}}, "
              "\"mode\": {\"type\": \"string\", \"enum\": [\"A\", \"B\", \"C\"]}}}",
              "kinds/04-d.json",
              "{\"kind\": 4, \"title\": \"D\", \"types\": [\"D\"], \"extends\": \"03-c\", "
              "\"fields\": {\"mode\": {\"enum\": [\"E\", \"B\", \"A\", \"D\"]}}}");
    const char *expected[][2] = {{"C", "A C"}, {"D", "E A D"}};
    for (size_t k = 0; k < 2; k++) {
        const struct schema_kind *kind = schema_find_kind(&registry, expected[k][0], 1);
        const struct schema_condition *all =
            schema_object_field(&kind->config, "key", 3)->applicable;
        assert_int_equal(all->op, COND_ALL);
        const struct schema_condition *c = all->children[0];
        assert_int_equal(c->op, COND_NO_OTHER_THAN);
        assert_values(c->values, c->value_count, "B");
        assert_values(c->others, c->other_count, expected[k][1]);
    }
    schema_registry_free(&registry);
}

/* ---- what does not ---- */

static void test_unparsable_files_name_file_line_and_column(void **state)
{
    (void)state;
    static const struct broken_case cases[] = {
        {"kinds/01-a.json", "{\"kind\": 1,\n  \"title\": \"A\"\n  \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:2:15: not valid JSON: expected ',' or '}' after the value of "
         "\"title\""},
        {"kinds/01-a.json", "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"kind\": 2}",
         NULL, NULL,
         "schema/kinds/01-a.json:1:43: not valid JSON: duplicate key \"kind\": it is already "
         "defined in this object, and only one of the two takes effect"},
        {"job.json", "", NULL, NULL,
         "schema/job.json:1:1: not valid JSON: the document is empty: expected a "
         "JSON value"},
    };
    ASSERT_MESSAGES(cases);
}

static void test_misplaced_or_missing_files_are_named(void **state)
{
    (void)state;
    static const struct broken_case cases[] = {
        {"kinds/01-a.json", "[1]", NULL, NULL,
         "schema/kinds/01-a.json:1:1 at the top level: a schema file holds one object"},
        {"extra/x.json", "{}", NULL, NULL,
         "schema/extra/x.json: not a schema file (source.json, job.json, credentials.json, "
         "groups/NAME.json, kinds/NN-NAME.json)"},
        {"source.json", NULL, NULL, NULL,
         "schema/source.json: missing (the schema needs source.json and job.json)"},
        {"job.json", NULL, NULL, NULL,
         "schema/job.json: missing (the schema needs source.json and job.json)"},
    };
    ASSERT_MESSAGES(cases);
}

static void test_kind_file_errors_name_the_key(void **state)
{
    (void)state;
    static const struct broken_case cases[] = {
        {"kinds/01-a.json", "{\"kind\": \"one\", \"title\": \"A\", \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:1:10 at /kind: \"kind\" must be a positive integer"},
        {"kinds/01-a.json", "{\"kind\": 0, \"title\": \"A\", \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:1:10 at /kind: \"kind\" must be a positive integer"},
        {"kinds/01-a.json", "{\"kind\": 1, \"title\": 5, \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:1:22 at /title: title must be a string"},
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"description\": [], \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:1:42 at /description: description must be a string"},
        {"kinds/01-a.json", "{\"kind\": 1, \"title\": \"A\", \"types\": \"A\"}", NULL, NULL,
         "schema/kinds/01-a.json:1:36 at /types: \"types\" must be an array"},
        {"kinds/01-a.json", "{\"kind\": 1, \"title\": \"A\", \"types\": []}", NULL, NULL,
         "schema/kinds/01-a.json:1:36 at /types: a kind needs at least one type identifier"},
        {"kinds/01-a.json", "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\", 7]}", NULL, NULL,
         "schema/kinds/01-a.json:1:42 at /types/1: a type identifier must be a string"},
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"colour\": \"red\"}", NULL, NULL,
         "schema/kinds/01-a.json:1:53 at /colour: unknown key in a kind file"},
        {"kinds/01-a.json", "{\"kind\": 1, \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:1:1 at the top level: a kind needs \"kind\", \"title\" and "
         "\"types\""},
        {"kinds/01-a.json", "{\"title\": \"A\", \"types\": [\"A\"]}", NULL, NULL,
         "schema/kinds/01-a.json:1:1 at the top level: a kind needs \"kind\", \"title\" and "
         "\"types\""},
        /* two kinds with one number, or one type identifier: the later file is named */
        {"kinds/01-b.json", "{\"kind\": 1, \"title\": \"B\", \"types\": [\"B\"]}", NULL, NULL,
         "schema/kinds/01-b.json:1:10 at /kind: kind 1 is also schema/kinds/01-a.json"},
        /* the number that starts the file name is the kind's */
        {"kinds/02-b.json", "{\"kind\": 3, \"title\": \"B\", \"types\": [\"B\"]}", NULL, NULL,
         "schema/kinds/02-b.json:1:10 at /kind: \"kind\" is 3, but the file name starts with 02"},
        {"kinds/b.json", "{\"kind\": 3, \"title\": \"B\", \"types\": [\"B\"]}", NULL, NULL,
         "schema/kinds/b.json:1:10 at /kind: the file name must start with the kind number and a "
         "dash (kinds/03-NAME.json)"},
        {"kinds/3b.json", "{\"kind\": 3, \"title\": \"B\", \"types\": [\"B\"]}", NULL, NULL,
         "schema/kinds/3b.json:1:10 at /kind: the file name must start with the kind number and a "
         "dash (kinds/03-NAME.json)"},
        {"kinds/02-b.json", "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\", \"A\"]}", NULL,
         NULL,
         "schema/kinds/02-b.json:1:42 at /types/1: the type identifier is also one of "
         "schema/kinds/01-a.json"},
    };
    ASSERT_MESSAGES(cases);
}

static void test_extends_and_omit_errors_name_the_kind_that_has_them(void **state)
{
    (void)state;
    static const struct broken_case cases[] = {
        {"kinds/02-b.json",
         "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": \"99-z\"}", NULL, NULL,
         "schema/kinds/02-b.json:1:54 at /extends: \"extends\" names no kind (a kind is named by "
         "its file name without \".json\", as \"03-object-storage-a\")"},
        {"kinds/02-b.json", "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": 1}",
         NULL, NULL,
         "schema/kinds/02-b.json:1:54 at /extends: \"extends\" must be the file stem of a kind, "
         "or null"},
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"extends\": \"01-a\"}", NULL, NULL,
         "schema/kinds/01-a.json:1:54 at /extends: \"extends\" forms a cycle"},
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"extends\": \"02-b\"}", NULL, NULL,
         "schema/kinds/02-b.json:1:54 at /extends: \"extends\" forms a cycle"},
        /* 01-a is built first and builds its parent 02-b on the way: 02-b's error is 02-b's */
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"extends\": \"02-b\"}",
         "kinds/02-b.json", "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"colour\": 1}",
         "schema/kinds/02-b.json:1:53 at /colour: unknown key in a kind file"},
        {"kinds/02-b.json",
         "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": \"01-a\", \"omit\": "
         "\"g1\"}",
         NULL, NULL, "schema/kinds/02-b.json:1:70 at /omit: \"omit\" must be an array"},
        {"kinds/02-b.json",
         "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": \"01-a\", \"omit\": "
         "[1]}",
         NULL, NULL, "schema/kinds/02-b.json:1:71 at /omit/0: \"omit\" lists field names"},
        {"kinds/02-b.json",
         "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": \"01-a\", \"omit\": "
         "[\"nope\"]}",
         NULL, NULL,
         "schema/kinds/02-b.json:1:71 at /omit/0: \"omit\" names a field the kind does not "
         "inherit"},
    };
    ASSERT_MESSAGES(cases);
}

static void test_include_and_group_errors_name_the_file_they_are_in(void **state)
{
    (void)state;
#define KIND_A(include)                                                                            \
    "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"include\": " include "}"
    static const struct broken_case cases[] = {
        {"kinds/01-a.json", KIND_A("\"G\""), NULL, NULL,
         "schema/kinds/01-a.json:1:54 at /include: \"include\" must be an array"},
        {"kinds/01-a.json", KIND_A("[1]"), NULL, NULL,
         "schema/kinds/01-a.json:1:55 at /include/0: an include entry is a group name or an "
         "object with \"group\""},
        {"kinds/01-a.json", KIND_A("[\"H\"]"), NULL, NULL,
         "schema/kinds/01-a.json:1:55 at /include/0: no group of that name in schema/groups/"},
        {"kinds/01-a.json", KIND_A("[{\"only\": [\"g1\"]}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:55 at /include/0: an include entry needs \"group\""},
        {"kinds/01-a.json", KIND_A("[{\"group\": 1}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:65 at /include/0/group: a group name must be a string"},
        {"kinds/01-a.json", KIND_A("[{\"group\": \"G\", \"onyl\": []}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:78 at /include/0/onyl: unknown key in an include entry (group, "
         "only, override)"},
        {"kinds/01-a.json", KIND_A("[{\"group\": \"G\", \"only\": \"g1\"}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:78 at /include/0/only: \"only\" must be an array"},
        {"kinds/01-a.json", KIND_A("[{\"group\": \"G\", \"only\": [1]}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:79 at /include/0/only/0: \"only\" lists field names"},
        {"kinds/01-a.json", KIND_A("[{\"group\": \"G\", \"only\": [\"g3\"]}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:79 at /include/0/only/0: \"only\" names a field the group does "
         "not have"},
        {"kinds/01-a.json", KIND_A("[{\"group\": \"G\", \"override\": []}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:82 at /include/0/override: fields must be an object of field "
         "entries"},
        {"kinds/01-a.json",
         KIND_A("[{\"group\": \"G\", \"override\": {\"g1\": {\"type\": \"text\"}}}]"), NULL, NULL,
         "schema/kinds/01-a.json:1:98 at /include/0/override/g1/type: unknown type name"},
        /* a bad field of the group is the group file's error, not the including kind's */
        {"groups/G.json", "{\"group\": \"G\", \"fields\": {\"g1\": {\"type\": \"text\"}}}", NULL,
         NULL, "schema/groups/G.json:1:42 at /fields/g1/type: unknown type name"},
        {"groups/G.json", "{\"group\": \"G\", \"colour\": 1, \"fields\": {}}", NULL, NULL,
         "schema/groups/G.json:1:26 at /colour: unknown key in a group file"},
        {"groups/G.json", "{\"group\": 1, \"fields\": {}}", NULL, NULL,
         "schema/groups/G.json:1:11 at /group: group must be a string"},
        {"groups/G.json", "{\"group\": \"G\"}", NULL, NULL,
         "schema/groups/G.json:1:1 at the top level: a group needs \"fields\""},
    };
#undef KIND_A
    ASSERT_MESSAGES(cases);
}

static void test_field_errors_name_the_field_key(void **state)
{
    (void)state;
    /* 01-a with `fields` set to the argument; its fields start at column 56 */
#define FIELDS(fields) "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"fields\": " fields "}"
    static const struct broken_case cases[] = {
        {"kinds/01-a.json", FIELDS("[]"), NULL, NULL,
         "schema/kinds/01-a.json:1:53 at /fields: fields must be an object of field entries"},
        {"kinds/01-a.json", FIELDS("{\"port\": \"integer\"}"), NULL, NULL,
         "schema/kinds/01-a.json:1:62 at /fields/port: a field is an object"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"tpye\": \"integer\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:71 at /fields/port/tpye: unknown field key"},
        {"kinds/01-a.json", FIELDS("{\"a/b~c\": {\"tpye\": \"integer\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:72 at /fields/a~1b~0c/tpye: unknown field key"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"type\": \"int\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:71 at /fields/port/type: unknown type name"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"type\": [\"integer\", \"text\"]}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:83 at /fields/port/type/1: unknown type name"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"type\": 1}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:71 at /fields/port/type: a type is a name or an array of names"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"sampleType\": \"int\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:77 at /fields/port/sampleType: unknown type name"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"description\": 1}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:78 at /fields/port/description: description must be a string"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"required\": \"yes\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:75 at /fields/port/required: required must be true or false"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"enum\": \"A\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:71 at /fields/port/enum: \"enum\" must be an array"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"enum\": [{\"description\": \"d\"}]}}"), NULL,
         NULL, "schema/kinds/01-a.json:1:72 at /fields/port/enum/0: an enum entry needs \"value\""},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"enum\": [{\"value\": 1, \"description\": 2}]}}"),
         NULL, NULL,
         "schema/kinds/01-a.json:1:100 at /fields/port/enum/0/description: description must be a "
         "string"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"minimum\": \"1\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:74 at /fields/port/minimum: a bound must be a number"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"maximum\": null}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:74 at /fields/port/maximum: a bound must be a number"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"format\": \"url\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:73 at /fields/port/format: unknown format (uuid, timestamp, "
         "port, namespace, email)"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"secret\": 1}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:73 at /fields/port/secret: secret must be true or false"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"sensitive\": \"yes\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:76 at /fields/port/sensitive: sensitive must be true or false"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"sampleOnly\": 0}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:77 at /fields/port/sampleOnly: sampleOnly must be true or "
         "false"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"additionalFields\": null}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:83 at /fields/port/additionalFields: additionalFields must be "
         "true or false"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"aliases\": \"p\"}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:74 at /fields/port/aliases: \"aliases\" must be an array"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"aliases\": [\"p\", 1]}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:80 at /fields/port/aliases/1: an alias must be a string"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"items\": 1}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:72 at /fields/port/items: a field is an object"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"items\": {\"type\": \"text\"}}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:81 at /fields/port/items/type: unknown type name"},
        {"kinds/01-a.json", FIELDS("{\"port\": {\"fields\": {\"a\": {\"type\": \"text\"}}}}"), NULL,
         NULL, "schema/kinds/01-a.json:1:88 at /fields/port/fields/a/type: unknown type name"},
    };
#undef FIELDS
    ASSERT_MESSAGES(cases);
}

static void test_condition_errors_name_the_condition_key(void **state)
{
    (void)state;
    /* 01-a whose field `port` has the argument as `required`; it starts at column 76 */
#define REQUIRED(condition)                                                                        \
    "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"fields\": {\"port\": "                  \
    "{\"required\": " condition "}}}"
    static const struct broken_case cases[] = {
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"fields\": {\"port\": "
         "{\"applicable\": "
         "true}}}",
         NULL, NULL,
         "schema/kinds/01-a.json:1:77 at /fields/port/applicable: a condition is an object"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\", \"in\": \"A\"}"), NULL, NULL,
         "schema/kinds/01-a.json:1:96 at /fields/port/required/in: \"in\" takes an array of "
         "values"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\", \"present\": \"yes\"}"), NULL, NULL,
         "schema/kinds/01-a.json:1:101 at /fields/port/required/present: present/nonEmpty must be "
         "true or false"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\", \"nonEmpty\": 1}"), NULL, NULL,
         "schema/kinds/01-a.json:1:102 at /fields/port/required/nonEmpty: present/nonEmpty must be "
         "true or false"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\", \"notBefore\": 1}"), NULL, NULL,
         "schema/kinds/01-a.json:1:103 at /fields/port/required/notBefore: notBefore must be a "
         "string"},
        {"kinds/01-a.json", REQUIRED("{\"field\": 1, \"present\": true}"), NULL, NULL,
         "schema/kinds/01-a.json:1:85 at /fields/port/required/field: field must be a string"},
        {"kinds/01-a.json", REQUIRED("{\"all\": {}}"), NULL, NULL,
         "schema/kinds/01-a.json:1:83 at /fields/port/required/all: \"all\" and \"any\" take an "
         "array of conditions"},
        {"kinds/01-a.json",
         REQUIRED("{\"any\": [{\"field\": \"x\", \"in\": []}, {\"field\": \"y\", "
                  "\"equals\": 1}]}"),
         NULL, NULL,
         "schema/kinds/01-a.json:1:135 at /fields/port/required/any/1/equals: unknown condition "
         "key"},
        {"kinds/01-a.json", REQUIRED("{\"not\": 1}"), NULL, NULL,
         "schema/kinds/01-a.json:1:83 at /fields/port/required/not: a condition is an object"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\", \"equals\": \"A\"}"), NULL, NULL,
         "schema/kinds/01-a.json:1:100 at /fields/port/required/equals: unknown condition key"},
        {"kinds/01-a.json", REQUIRED("{\"in\": [\"A\"]}"), NULL, NULL,
         "schema/kinds/01-a.json:1:75 at /fields/port/required: a condition needs \"field\" with "
         "in/noOtherThan/present/nonEmpty/notBefore, or all/any/not"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\"}"), NULL, NULL,
         "schema/kinds/01-a.json:1:75 at /fields/port/required: a condition needs \"field\" with "
         "in/noOtherThan/present/nonEmpty/notBefore, or all/any/not"},
        {"kinds/01-a.json", REQUIRED("{\"field\": \"x\", \"in\": [\"A\"], \"present\": true}"),
         NULL, NULL,
         "schema/kinds/01-a.json:1:114 at /fields/port/required/present: a condition has one "
         "operator (in, noOtherThan, present, nonEmpty, notBefore, all, any or not)"},
    };
#undef REQUIRED
    ASSERT_MESSAGES(cases);
}

static void test_no_other_than_errors_point_where_the_condition_is_written(void **state)
{
    (void)state;
    /* 01-a with the enum field `mode` and a field `key` whose `applicable` is the argument */
#define APPLICABLE(condition)                                                                      \
    "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"fields\": {\"mode\": {\"enum\": "       \
    "[\"A\", \"B\", \"C\"]}, \"key\": {\"applicable\": " condition "}}}"
    static const struct broken_case cases[] = {
        {"kinds/01-a.json", APPLICABLE("{\"field\": \"mood\", \"noOtherThan\": [\"A\"]}"), NULL,
         NULL,
         "schema/kinds/01-a.json:1:121 at /fields/key/applicable/field: \"noOtherThan\" needs "
         "\"mood\" to be a field here, with an enum"},
        {"kinds/01-a.json", APPLICABLE("{\"field\": \"key\", \"noOtherThan\": [\"A\"]}"), NULL,
         NULL,
         "schema/kinds/01-a.json:1:121 at /fields/key/applicable/field: \"noOtherThan\" needs an "
         "enum, and \"key\" has none"},
        {"kinds/01-a.json", APPLICABLE("{\"field\": \"mode\", \"noOtherThan\": [\"A\", \"D\"]}"),
         NULL, NULL,
         "schema/kinds/01-a.json:1:150 at /fields/key/applicable/noOtherThan/1: \"D\" is not one "
         "of the enum values of \"mode\""},
        {"kinds/01-a.json", APPLICABLE("{\"all\": [{\"field\": \"mode\", \"noOtherThan\": [1]}]}"),
         NULL, NULL,
         "schema/kinds/01-a.json:1:154 at /fields/key/applicable/all/0/noOtherThan/0: 1 is not "
         "one of the enum values of \"mode\""},
        {"kinds/01-a.json",
         APPLICABLE("{\"field\": \"mode\", \"noOtherThan\": [\"C\", \"B\", \"A\"]}"), NULL, NULL,
         "schema/kinds/01-a.json:1:144 at /fields/key/applicable/noOtherThan: \"noOtherThan\" "
         "lists every enum value of \"mode\": the condition always holds"},
        {"kinds/01-a.json", APPLICABLE("{\"field\": \"mode\", \"noOtherThan\": \"A\"}"), NULL, NULL,
         "schema/kinds/01-a.json:1:144 at /fields/key/applicable/noOtherThan: \"noOtherThan\" "
         "takes a non-empty array of values"},
        {"kinds/01-a.json", APPLICABLE("{\"field\": \"mode\", \"noOtherThan\": []}"), NULL, NULL,
         "schema/kinds/01-a.json:1:144 at /fields/key/applicable/noOtherThan: \"noOtherThan\" "
         "takes a non-empty array of values"},
        {"kinds/01-a.json", APPLICABLE("{\"noOtherThan\": [\"A\"]}"), NULL, NULL,
         "schema/kinds/01-a.json:1:111 at /fields/key/applicable: a condition needs \"field\" "
         "with in/noOtherThan/present/nonEmpty/notBefore, or all/any/not"},
        /* the values are the enum of the kind that has the field: a child kind that changes
         * the enum is checked too, and the error is where the condition is written */
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"fields\": {\"mode\": {\"enum\": "
         "[\"A\", \"B\"]}, \"key\": {\"applicable\": {\"field\": \"mode\", \"noOtherThan\": "
         "[\"B\"]}}}}",
         "kinds/02-b.json",
         "{\"kind\": 2, \"title\": \"B\", \"types\": [\"B\"], \"extends\": \"01-a\", \"fields\": "
         "{\"mode\": {\"enum\": [\"A\", \"C\"]}}}",
         "schema/kinds/01-a.json:1:140 at /fields/key/applicable/noOtherThan/0: \"B\" is not one "
         "of the enum values of \"mode\" (as resolved for schema/kinds/02-b.json)"},
        /* a group's condition is resolved in each kind that includes it */
        {"groups/G.json",
         "{\"group\": \"G\", \"fields\": {\"g1\": {\"applicable\": {\"field\": \"mode\", "
         "\"noOtherThan\": [\"A\"]}}}}",
         NULL, NULL,
         "schema/groups/G.json:1:58 at /fields/g1/applicable/field: \"noOtherThan\" needs "
         "\"mode\" to be a field here, with an enum (as resolved for schema/kinds/01-a.json)"},
        /* and so are assertions */
        {"job.json",
         "{\"title\": \"Job\", \"fields\": {\"jobState\": {\"type\": \"string\"}}, "
         "\"assertions\": [{\"code\": \"job-inconsistent\", \"field\": \"jobState\", \"when\": "
         "{\"field\": \"jobState\", \"noOtherThan\": [\"FAILED\"]}, \"expect\": {\"field\": "
         "\"jobState\", \"present\": true}, \"message\": \"m\"}]}",
         NULL, NULL,
         "schema/job.json:1:145 at /assertions/0/when/field: \"noOtherThan\" needs an enum, and "
         "\"jobState\" has none"},
    };
#undef APPLICABLE
    ASSERT_MESSAGES(cases);
}

static void test_assertion_errors_name_the_assertion_key(void **state)
{
    (void)state;
    /* job.json with the argument as `assertions`; it starts at column 72 */
#define ASSERTIONS(list)                                                                           \
    "{\"title\": \"Job\", \"fields\": {\"jobState\": {\"type\": \"string\"}}, "                    \
    "\"assertions\": " list "}"
#define GOOD "\"field\": \"jobState\", \"expect\": {\"field\": \"jobState\", \"present\": true}"
    static const struct broken_case cases[] = {
        {"job.json", ASSERTIONS("{}"), NULL, NULL,
         "schema/job.json:1:76 at /assertions: \"assertions\" must be an array"},
        {"job.json", ASSERTIONS("[1]"), NULL, NULL,
         "schema/job.json:1:77 at /assertions/0: an assertion is an object"},
        {"job.json",
         ASSERTIONS("[{\"code\": \"job-inconsistent\", " GOOD
                    ", \"message\": \"m\", \"level\": 1}]"),
         NULL, NULL, "schema/job.json:1:202 at /assertions/0/level: unknown assertion key"},
        {"job.json", ASSERTIONS("[{\"code\": \"job-inconsistent\", " GOOD "}]"), NULL, NULL,
         "schema/job.json:1:77 at /assertions/0: an assertion needs code, field, expect and "
         "message"},
        {"job.json", ASSERTIONS("[{\"code\": \"job-broken\", " GOOD ", \"message\": \"m\"}]"), NULL,
         NULL,
         "schema/job.json:1:86 at /assertions/0/code: unknown diagnostic code (docs/rules.md "
         "lists them)"},
        {"job.json", ASSERTIONS("[{\"code\": 1, " GOOD ", \"message\": \"m\"}]"), NULL, NULL,
         "schema/job.json:1:86 at /assertions/0/code: code must be a string"},
        {"job.json",
         ASSERTIONS("[{\"code\": \"job-inconsistent\", \"field\": \"jobState\", \"expect\": "
                    "{\"field\": \"x\", \"in\": 1}, \"message\": \"m\"}]"),
         NULL, NULL,
         "schema/job.json:1:158 at /assertions/0/expect/in: \"in\" takes an array of values"},
        {"job.json",
         ASSERTIONS("[{\"code\": \"job-inconsistent\", \"when\": 1, " GOOD
                    ", \"message\": \"m\"}]"),
         NULL, NULL, "schema/job.json:1:114 at /assertions/0/when: a condition is an object"},
        /* a kind may hold assertions too */
        {"kinds/01-a.json",
         "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"assertions\": [{\"code\": "
         "\"nope\"}]}",
         NULL, NULL,
         "schema/kinds/01-a.json:1:67 at /assertions/0/code: unknown diagnostic code "
         "(docs/rules.md lists them)"},
    };
#undef GOOD
#undef ASSERTIONS
    ASSERT_MESSAGES(cases);
}

static void test_document_file_errors_name_source_or_job(void **state)
{
    (void)state;
    static const struct broken_case cases[] = {
        {"source.json", "{\"fields\": {}, \"colour\": 1}", NULL, NULL,
         "schema/source.json:1:26 at /colour: unknown key"},
        {"source.json", "{\"additionalFields\": \"yes\", \"fields\": {}}", NULL, NULL,
         "schema/source.json:1:22 at /additionalFields: additionalFields must be true or false"},
        {"source.json", "{\"fields\": {\"name\": {\"type\": \"str\"}}}", NULL, NULL,
         "schema/source.json:1:30 at /fields/name/type: unknown type name"},
        {"job.json", "{\"title\": [], \"fields\": {}}", NULL, NULL,
         "schema/job.json:1:11 at /title: title must be a string"},
        {"job.json", "{\"title\": \"Job\",\n \"description\": 1, \"fields\": {}}", NULL, NULL,
         "schema/job.json:2:17 at /description: description must be a string"},
    };
    ASSERT_MESSAGES(cases);
}

/* The message is cut to the buffer, never past it, and stays a string. */
static void test_error_message_fits_a_small_buffer(void **state)
{
    (void)state;
    struct schema_set set;
    set_baseline(&set);
    set_file(&set, "kinds/01-a.json",
             "{\"kind\": 1, \"title\": \"A\", \"types\": [\"A\"], \"x\": 1}");
    struct schema_registry registry;
    char error[24];
    memset(error, '#', sizeof error);
    assert_int_equal(schema_registry_load(&registry, set.files, set.count, error, 16), -1);
    set_free(&set);
    assert_string_equal(error, "schema/kinds/01");
    assert_int_equal(error[16], '#');
}

/* A credential shape is found at the start of a string and after any byte that is not an ASCII
 * letter or digit (a separator, a non-ASCII byte), at every offset (the scan reads eight bytes
 * at a time), and never right after a letter or a digit. */
static void test_a_credential_is_found_at_every_word_start(void **state)
{
    (void)state;
    struct schema_registry registry;
    char error[512] = "";
    if (schema_registry_load_embedded(&registry, error, sizeof error) != 0)
        fail_msg("the embedded schema does not load: %s", error);
    static const char key[] = "AKIA"
                              "IOSFODNN7EXAMPLE"; /* split: this file holds no credential */
    const struct schema_credential *shape = schema_credential_find(&registry, key, strlen(key));
    assert_non_null(shape);
    static const char *const separators[] = {"-", "/", " ", ".", "\xC3\xA9", "_"};
    for (size_t before = 0; before <= 33; before++) {
        for (size_t s = 0; s < sizeof separators / sizeof separators[0]; s++) {
            char text[80];
            memset(text, 'x', before);
            size_t n = before;
            memcpy(text + n, separators[s], strlen(separators[s]));
            n += strlen(separators[s]);
            memcpy(text + n, key, strlen(key));
            n += strlen(key);
            memcpy(text + n, ".tail", 5);
            n += 5;
            assert_ptr_equal(schema_credential_find(&registry, text, n), shape);
            /* after a letter: no word starts there */
            memcpy(text + before, key, strlen(key));
            const struct schema_credential *found =
                schema_credential_find(&registry, text, before + strlen(key));
            if (before == 0)
                assert_ptr_equal(found, shape);
            else
                assert_null(found);
        }
    }
    schema_registry_free(&registry);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_schema_loads_every_kind),
        cmocka_unit_test(test_valid_small_schema_loads_with_inheritance_groups_and_conditions),
        cmocka_unit_test(test_extends_omit_and_include_are_optional),
        cmocka_unit_test(test_resolution_order_does_not_depend_on_key_order),
        cmocka_unit_test(test_no_other_than_takes_the_other_values_from_each_kinds_enum),
        cmocka_unit_test(test_unparsable_files_name_file_line_and_column),
        cmocka_unit_test(test_misplaced_or_missing_files_are_named),
        cmocka_unit_test(test_kind_file_errors_name_the_key),
        cmocka_unit_test(test_extends_and_omit_errors_name_the_kind_that_has_them),
        cmocka_unit_test(test_include_and_group_errors_name_the_file_they_are_in),
        cmocka_unit_test(test_field_errors_name_the_field_key),
        cmocka_unit_test(test_condition_errors_name_the_condition_key),
        cmocka_unit_test(test_no_other_than_errors_point_where_the_condition_is_written),
        cmocka_unit_test(test_assertion_errors_name_the_assertion_key),
        cmocka_unit_test(test_document_file_errors_name_source_or_job),
        cmocka_unit_test(test_error_message_fits_a_small_buffer),
        cmocka_unit_test(test_a_credential_is_found_at_every_word_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
