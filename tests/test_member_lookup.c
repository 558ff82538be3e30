/* test_member_lookup: finding members by name, three ways that must agree — json_object_get
 * (the last of duplicated keys, keys compared decoded), the schema's name index (which field a
 * key names, against a scan of the fields), and the rule engine's per-object member index
 * (a config whose keys are escaped, duplicated and outnumbered by unknown members is checked as
 * the plain one is). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"
#include "json/json.h"
#include "schema/schema.h"

static struct schema_registry registry;

static void test_object_get_many_duplicated_and_escaped_keys(void **state)
{
    (void)state;
    char text[4096];
    size_t n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n, "{");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "\"k%d\": %d, ", i, i);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "\"dup\": 1, \"d\\u0075p\": 2, \"k5\": 50, \"\\u006b7\": 70, "
                          "\"q\\\"k\": 3, \"\": 4, \"long-key-\\u00e9-end\": 5}");
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, text, n, NULL), 0);
    uint32_t root = doc.root;
    int64_t v;
    for (int i = 0; i < 40; i++) {
        char key[8];
        int len = snprintf(key, sizeof key, "k%d", i);
        uint32_t m = json_object_get(&doc, root, key, (size_t)len);
        assert_int_not_equal(m, JSON_NONE);
        assert_true(json_node_int64(&doc, m, &v));
        assert_int_equal(v, i == 5 ? 50 : i == 7 ? 70 : i); /* the last one wins */
    }
    assert_true(json_node_int64(&doc, json_object_get(&doc, root, "dup", 3), &v));
    assert_int_equal(v, 2);
    assert_true(json_node_int64(&doc, json_object_get(&doc, root, "q\"k", 3), &v));
    assert_int_equal(v, 3);
    assert_true(json_node_int64(&doc, json_object_get(&doc, root, "", 0), &v));
    assert_int_equal(v, 4);
    assert_true(
        json_node_int64(&doc, json_object_get(&doc, root, "long-key-\xc3\xa9-end", 15), &v));
    assert_int_equal(v, 5);
    assert_int_equal(json_object_get(&doc, root, "k", 1), JSON_NONE);
    assert_int_equal(json_object_get(&doc, root, "k400", 4), JSON_NONE);
    assert_int_equal(json_object_get(&doc, root, "du", 2), JSON_NONE);
    json_doc_free(&doc);
}

/* The field a scan of the fields finds: by name (`alias` false) or by alias. */
static const struct schema_field *scan(const struct schema_object *o, const char *name, size_t len,
                                       bool alias)
{
    for (uint32_t i = 0; i < o->field_count; i++) {
        const struct schema_field *f = &o->fields[i];
        for (uint32_t r = alias ? 1 : 0; r <= (alias ? f->alias_count : 0); r++) {
            const char *s = r == 0 ? f->name : f->aliases[r - 1];
            if (strlen(s) == len && memcmp(s, name, len) == 0)
                return f;
        }
    }
    return NULL;
}

static void expect_same(const struct schema_object *o, const char *name, size_t len)
{
    assert_ptr_equal(schema_object_field(o, name, len), scan(o, name, len, false));
    assert_ptr_equal(schema_object_alias(o, name, len), scan(o, name, len, true));
}

/* Every name and alias of `o` and of `other`, and near misses, looked up in `o`. */
static void check_object(const struct schema_object *o, const struct schema_object *other,
                         int depth)
{
    if (o == NULL || depth > 8)
        return;
    assert_non_null(o->names); /* the loader indexed it */
    const struct schema_object *both[] = {o, other};
    for (int k = 0; k < 2; k++) {
        for (uint32_t i = 0; both[k] != NULL && i < both[k]->field_count; i++) {
            const struct schema_field *f = &both[k]->fields[i];
            for (uint32_t r = 0; r <= f->alias_count; r++) {
                const char *s = r == 0 ? f->name : f->aliases[r - 1];
                size_t len = strlen(s);
                expect_same(o, s, len);
                expect_same(o, s, len > 0 ? len - 1 : 0);
                char longer[256];
                snprintf(longer, sizeof longer, "%sx", s);
                expect_same(o, longer, strlen(longer));
            }
        }
    }
    expect_same(o, "", 0);
    expect_same(o, "a\0b", 3);
    for (uint32_t i = 0; i < o->field_count; i++) {
        check_object(o->fields[i].object, other, depth + 1);
        if (o->fields[i].items != NULL)
            check_object(o->fields[i].items->object, other, depth + 1);
    }
}

static void test_name_index_agrees_with_a_scan(void **state)
{
    (void)state;
    check_object(registry.source.object, registry.job.object, 0);
    check_object(registry.job.object, registry.source.object, 0);
    for (uint32_t k = 0; k < registry.kind_count; k++)
        check_object(&registry.kinds[k].config,
                     &registry.kinds[(k + 1) % registry.kind_count].config, 0);
}

/* ---- the rule engine: escaped, duplicated and many keys ---- */

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *s, size_t len)
{
    if (t->len + len + 1 > t->cap) {
        t->cap = (t->len + len + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->len, s, len);
    t->len += len;
    t->s[t->len] = '\0';
}

/* `text` with its "config" rewritten: each key escaped (and, with `duplicate`, first given with
 * a null value), then 40 unknown members. */
static struct text variant(const char *text, size_t len, bool duplicate)
{
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, text, len, NULL), 0);
    uint32_t config = json_object_get(&doc, doc.root, "config", 6);
    assert_int_not_equal(config, JSON_NONE);
    struct text t = {0};
    put(&t, text, doc.nodes[config].start);
    put(&t, "{", 1);
    for (uint32_t m = doc.nodes[config].first_child; m != JSON_NONE; m = doc.nodes[m].next) {
        struct json_str key = json_node_key(&doc, m);
        const struct json_node *n = &doc.nodes[m];
        if (duplicate) {
            put(&t, text + n->key_start, n->key_end - n->key_start);
            put(&t, ": null, ", 8);
        }
        put(&t, "\"", 1);
        for (size_t i = 0; i < key.len; i++) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", (unsigned char)key.ptr[i]);
            put(&t, e, 6);
        }
        put(&t, "\": ", 3);
        put(&t, text + n->start, n->end - n->start);
        put(&t, ", ", 2);
    }
    for (int i = 0; i < 40; i++) {
        char extra[32];
        put(&t, extra,
            (size_t)snprintf(extra, sizeof extra, "\"zz%d\": null%s", i, i < 39 ? ", " : ""));
    }
    put(&t, "}", 1);
    put(&t, text + doc.nodes[config].end, len - doc.nodes[config].end);
    json_doc_free(&doc);
    return t;
}

/* Whether `a` holds a diagnostic of `code` at `pointer` not yet `used`; marks it. */
static bool take(const struct analysis *a, bool *used, enum diag_code code, const char *pointer)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        if (!used[i] && a->diags.items[i].code == code &&
            strcmp(a->diags.items[i].pointer, pointer) == 0)
            return used[i] = true;
    }
    return false;
}

static void check_example(const char *text, size_t len)
{
    struct analysis_options options = {.report_unknown_document = true, .registry = &registry};
    struct analysis plain;
    assert_int_equal(analysis_run(&plain, text, len, &options), 0);
    for (int duplicate = 0; duplicate < 2; duplicate++) {
        struct text t = variant(text, len, duplicate != 0);
        struct analysis a;
        assert_int_equal(analysis_run(&a, t.s, t.len, &options), 0);
        bool *used = calloc(a.diags.count + 1, sizeof *used);
        for (uint32_t i = 0; i < plain.diags.count; i++)
            assert_true(take(&a, used, plain.diags.items[i].code, plain.diags.items[i].pointer));
        uint32_t unknown = 0, rest = 0;
        for (uint32_t i = 0; i < a.diags.count; i++) {
            if (used[i])
                continue;
            if (a.diags.items[i].code == CODE_UNKNOWN_FIELD &&
                strncmp(a.diags.items[i].pointer, "/config/zz", 10) == 0)
                unknown++;
            else
                rest++; /* with duplicates: the null copies' own diagnostics */
        }
        assert_int_equal(unknown, 40);
        if (!duplicate)
            assert_int_equal(rest, 0); /* escaped keys are checked as the plain ones */
        free(used);
        analysis_free(&a);
        free(t.s);
    }
    analysis_free(&plain);
}

static void test_rules_find_escaped_duplicated_keys_among_many(void **state)
{
    (void)state;
    const char *root = getenv("SRCLS_SOURCE_ROOT");
    assert_non_null(root);
    static const char *const examples[] = {
        "03-object-storage-a.source.json", "01-search-service.source.json",
        "02-warehouse-jdbc.source.json", "13-relational-db.source.json",
        "14-iceberg-rest-catalog.source.json"};
    for (size_t e = 0; e < sizeof examples / sizeof *examples; e++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/docs/examples/%s", root, examples[e]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static char text[1 << 16];
        size_t len = fread(text, 1, sizeof text, f);
        fclose(f);
        check_example(text, len);
    }
}

int main(void)
{
    char error[512];
    if (schema_registry_load_embedded(&registry, error, sizeof error) != 0) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_object_get_many_duplicated_and_escaped_keys),
        cmocka_unit_test(test_name_index_agrees_with_a_scan),
        cmocka_unit_test(test_rules_find_escaped_duplicated_keys_among_many),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    schema_registry_free(&registry);
    return failed;
}
