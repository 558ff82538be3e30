/* test_json_parse: the parser's specification — strict on JSONTestSuite, recovering the way an
 * editor needs (every half-typed document keeps what can be kept), exact byte ranges, numbers
 * that keep their text, decoded strings, limits that hold on hostile input, and messages that
 * never quote a document's values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"
#include "json/json.h"

/* A document parsed from an exact-size heap copy of its text, so that AddressSanitizer sees
 * every read past the end (a string literal would hide it behind its NUL). */
struct parsed {
    struct json_doc doc;
    char *text;
    size_t len;
};

static void parse_bytes(struct parsed *p, const char *text, size_t len,
                        const struct json_parse_options *options)
{
    p->len = len;
    p->text = malloc(len > 0 ? len : 1);
    assert_non_null(p->text);
    memcpy(p->text, text, len);
    assert_int_equal(json_parse(&p->doc, p->text, len, options), 0);
}

static void parse(struct parsed *p, const char *text)
{
    parse_bytes(p, text, strlen(text), NULL);
}

static void parsed_free(struct parsed *p)
{
    json_doc_free(&p->doc);
    free(p->text);
}

static const struct json_node *node(const struct parsed *p, uint32_t index)
{
    assert_int_not_equal(index, JSON_NONE);
    assert_in_range(index, 0, p->doc.node_count - 1);
    return &p->doc.nodes[index];
}

/* The member `key` of `object`, which must exist and be of `kind`. */
static uint32_t member(struct parsed *p, uint32_t object, const char *key, enum json_kind kind)
{
    uint32_t m = json_object_get(&p->doc, object, key, strlen(key));
    if (m == JSON_NONE)
        fail_msg("no member \"%s\"", key);
    if (node(p, m)->kind != kind)
        fail_msg("member \"%s\" is a %s, expected a %s", key,
                 json_kind_name((enum json_kind)node(p, m)->kind), json_kind_name(kind));
    return m;
}

static void assert_int64(struct parsed *p, uint32_t n, int64_t expected)
{
    int64_t value = 0;
    assert_true(json_node_int64(&p->doc, n, &value));
    assert_int_equal(value, expected);
}

static void assert_key(struct parsed *p, uint32_t n, const char *expected)
{
    struct json_str key = json_node_key(&p->doc, n);
    assert_int_equal(key.len, strlen(expected));
    assert_memory_equal(key.ptr, expected, key.len);
}

static void assert_string(struct parsed *p, uint32_t n, const char *expected, size_t len)
{
    struct json_str value = json_node_string(&p->doc, n);
    assert_int_equal(value.len, len);
    assert_memory_equal(value.ptr, expected, len);
    assert_true(json_node_string_equals(&p->doc, n, expected, len));
}

static void assert_range(const struct json_node *n, uint32_t start, uint32_t end)
{
    assert_int_equal(n->start, start);
    assert_int_equal(n->end, end);
}

static void assert_key_range(const struct json_node *n, uint32_t start, uint32_t end)
{
    assert_int_equal(n->key_start, start);
    assert_int_equal(n->key_end, end);
}

static uint32_t count_errors(const struct parsed *p, enum json_error_code code)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < p->doc.error_count; i++)
        count += p->doc.errors[i].code == code;
    return count;
}

static const struct json_error *first_error(const struct parsed *p, enum json_error_code code)
{
    uint32_t i = 0;
    while (i < p->doc.error_count && p->doc.errors[i].code != code)
        i++;
    assert_in_range(i, 0, p->doc.error_count - 1);
    return &p->doc.errors[i];
}

/* The tree's structural invariants, which every parse must keep whatever the input: ranges
 * inside the text, keys before their values, children inside their container and in order,
 * parent links that point back. Returns a description of the first violation, or NULL. */
static const char *tree_violation(const struct json_doc *doc, uint32_t index, unsigned depth)
{
    const struct json_node *n = &doc->nodes[index];
    if (depth > JSON_DEFAULT_MAX_DEPTH + 1)
        return "tree deeper than the depth limit";
    if (n->start > n->end || n->end > doc->len)
        return "value range outside the text";
    if (n->key_start != JSON_NONE && (n->key_start > n->key_end || n->key_end > n->start))
        return "key range not before the value";
    uint32_t previous_end = n->start;
    for (uint32_t c = n->first_child; c != JSON_NONE; c = doc->nodes[c].next) {
        if (c >= doc->node_count)
            return "child index outside the node array";
        const struct json_node *child = &doc->nodes[c];
        uint32_t from = child->key_start != JSON_NONE ? child->key_start : child->start;
        if (child->parent != index)
            return "child whose parent link points elsewhere";
        if (from < previous_end || child->end > n->end)
            return "child outside its container or out of order";
        if ((n->kind == JSON_OBJECT) != (child->key_start != JSON_NONE))
            return "object member without a key, or array element with one";
        const char *violation = tree_violation(doc, c, depth + 1);
        if (violation != NULL)
            return violation;
        previous_end = child->end;
    }
    return NULL;
}

static void assert_tree_sound(const struct parsed *p)
{
    if (p->doc.root == JSON_NONE)
        return;
    const char *violation = tree_violation(&p->doc, p->doc.root, 0);
    if (violation != NULL)
        fail_msg("%s", violation);
}

/* ---- JSONTestSuite (nst/JSONTestSuite, test_parsing/) ---- */

/* The suite's test_parsing directory, into `buffer`; false (saying why on stderr) when it is
 * absent, as on a clone without ../shared/testdata. */
static bool test_suite_dir(char *buffer, size_t size)
{
    const char *testdata = getenv("SRCLS_TESTDATA");
    snprintf(buffer, size, "%s/JSONTestSuite/test_parsing",
             testdata ? testdata : "(SRCLS_TESTDATA not set)");
    DIR *dir = testdata ? opendir(buffer) : NULL;
    if (dir == NULL) {
        fprintf(stderr,
                "JSONTestSuite not found at %s: the conformance tests are skipped (they need "
                "../shared/testdata next to the source tree, or SRCLS_TESTDATA)\n",
                buffer);
        return false;
    }
    closedir(dir);
    return true;
}

/* Parses every `<prefix>_*.json` of the suite and lists the files that break `expectation`:
 * 'y' parses with no error and a root, 'n' gets at least one error, 'i' merely must not crash
 * or read out of bounds (which the sanitizer build checks). Every parse keeps the tree sound.
 * A duplicate key is valid JSON (y_object_duplicated_key.json) that srcls still reports: it
 * does not count as an error of a 'y' file. */
static void run_test_suite(char prefix)
{
    char dir_path[4096];
    DIR *dir = test_suite_dir(dir_path, sizeof dir_path) ? opendir(dir_path) : NULL;
    if (dir == NULL)
        fail_msg("cannot open %s", dir_path); /* main checked it: only a race gets here */
    char failures[4096] = "";
    size_t failures_len = 0;
    unsigned checked = 0, failed = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        const char *name = entry->d_name;
        size_t name_len = strlen(name);
        if (name[0] != prefix || name[1] != '_' || name_len < 5 ||
            strcmp(name + name_len - 5, ".json") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir_path, name);
        size_t len = 0;
        char *text = read_all_len(path, &len);
        if (text == NULL)
            fail_msg("cannot read %s", path);
        struct parsed p;
        parse_bytes(&p, text, len, NULL);
        free(text);
        const char *violation =
            p.doc.root != JSON_NONE ? tree_violation(&p.doc, p.doc.root, 0) : NULL;
        bool ok = violation == NULL;
        if (prefix == 'y')
            ok = ok && p.doc.error_count == count_errors(&p, JSON_ERROR_DUPLICATE_KEY) &&
                 p.doc.errors_dropped == 0 && p.doc.root != JSON_NONE;
        else if (prefix == 'n')
            ok = ok && p.doc.error_count > 0;
        else
            ok = ok && (p.doc.error_count > 0 || p.doc.root != JSON_NONE);
        parsed_free(&p);
        checked++;
        if (!ok) {
            failed++;
            int written =
                snprintf(failures + failures_len, sizeof failures - failures_len, " %s%s%s", name,
                         violation ? ": " : "", violation ? violation : "");
            if (written > 0 && (size_t)written < sizeof failures - failures_len)
                failures_len += (size_t)written;
        }
    }
    closedir(dir);
    if (checked == 0)
        fail_msg("no %c_*.json files in %s", prefix, dir_path);
    if (failed > 0)
        fail_msg("%u of %u %c_ files misparsed:%s", failed, checked, prefix, failures);
}

static void test_suite_y_files_parse_without_errors(void **state)
{
    (void)state;
    run_test_suite('y');
}

static void test_suite_n_files_are_rejected(void **state)
{
    (void)state;
    run_test_suite('n');
}

static void test_suite_i_files_parse_without_crashing(void **state)
{
    (void)state;
    run_test_suite('i');
}

/* ---- recovery: the documents an editor sends while the user types ---- */

/* The first error of each broken document, as the user reads it: the message is the contract. */
static void test_recovery_reports_exact_first_error(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t start, end;
        const char *message;
    } cases[] = {
        {"{\"port\": 8080 \"host\": \"db\"}", 13, 13,
         "expected ',' or '}' after the value of \"port\""},
        {"{\"a\" 1, \"b\": 2}", 4, 5, "expected ':' after the key \"a\""},
        {"{\"a\", \"b\": 2}", 4, 4, "expected ':' and a value after the key \"a\""},
        {"{\"a\": , \"b\": 1}", 6, 6, "expected a value for the key \"a\""},
        {"{\"a\": 1,}", 7, 8, "trailing comma: JSON does not allow ',' before '}'"},
        {"[1, 2,]", 5, 6, "trailing comma: JSON does not allow ',' before ']'"},
        {"[1 2]", 2, 2, "expected ',' or ']' after an element of the array"},
        {"{host: \"x\"}", 1, 5, "property names must be strings in double quotes"},
        {"{\"a\": \"b\": 1}", 6, 6, "expected a value for the key \"a\""},
        {"{\"a\": \"abc\n\"b\": 2}", 6, 10,
         "unterminated string: expected '\"' before the end of the line"},
        {"{\"a\": 1", 7, 7, "expected '}' to close the object before the end of the document"},
        {"[1", 2, 2, "expected ']' to close the array before the end of the document"},
        {"{\"list\": [{\"a\": 1], \"b\": 2}", 17, 18,
         "expected '}' to close the object before ']'"},
        {"{\"a\": tru}", 6, 9,
         "invalid value: expected a string (in double quotes), a number, an object, an array, "
         "true, false or null"},
        {"{\"a\": 01}", 6, 8,
         "invalid number: JSON numbers are like 12, -3, 0.5 or 1e9 (no leading zeros, '+', hex, "
         "or trailing '.')"},
        {"{\"a\": 1} x", 9, 10,
         "unexpected content after the end of the JSON value (a document holds one value)"},
        {"  ", 2, 2, "the document is empty: expected a JSON value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p;
        parse(&p, cases[i].text);
        if (p.doc.error_count == 0)
            fail_msg("no error for %s", cases[i].text);
        const struct json_error *e = &p.doc.errors[0];
        if (strcmp(e->message, cases[i].message) != 0 || e->start != cases[i].start ||
            e->end != cases[i].end || e->code != JSON_ERROR_SYNTAX)
            fail_msg("for %s: got [%u, %u) \"%s\", expected [%u, %u) \"%s\"", cases[i].text,
                     e->start, e->end, e->message, cases[i].start, cases[i].end, cases[i].message);
        assert_tree_sound(&p);
        parsed_free(&p);
    }
}

static void test_missing_comma_keeps_both_members(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"port\": 8080 \"host\": \"db\"}");
    uint32_t root = p.doc.root;
    assert_int_equal(json_child_count(&p.doc, root), 2);
    uint32_t port = member(&p, root, "port", JSON_NUMBER);
    uint32_t host = member(&p, root, "host", JSON_STRING);
    assert_int64(&p, port, 8080);
    assert_string(&p, host, "db", 2);
    assert_int_equal(node(&p, root)->first_child, port);
    assert_int_equal(node(&p, port)->next, host);
    assert_int_equal(p.doc.error_count, 1);
    assert_string_equal(p.doc.errors[0].message, "expected ',' or '}' after the value of \"port\"");
    parsed_free(&p);
}

static void test_missing_colon_keeps_the_value(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\" 1, \"b\": 2}");
    assert_int64(&p, member(&p, p.doc.root, "a", JSON_NUMBER), 1);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 2);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);

    parse(&p, "{\"a\", \"b\": 2}"); /* no colon and no value */
    const struct json_node *a = node(&p, member(&p, p.doc.root, "a", JSON_INVALID));
    assert_range(a, 4, 4);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 2);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

static void test_missing_value_is_an_empty_invalid_node(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": , \"b\": 1}");
    const struct json_node *a = node(&p, member(&p, p.doc.root, "a", JSON_INVALID));
    assert_range(a, 6, 6);
    assert_key_range(a, 1, 4);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 1);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);

    parse(&p, "{\"a\": 1, \"c\":"); /* the value not typed yet, at the end */
    const struct json_node *c = node(&p, member(&p, p.doc.root, "c", JSON_INVALID));
    assert_range(c, 13, 13);
    assert_true(node(&p, p.doc.root)->flags & JSON_FLAG_UNCLOSED);
    parsed_free(&p);
}

static void test_trailing_comma_keeps_the_container(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": 1,}");
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 1);
    assert_int64(&p, member(&p, p.doc.root, "a", JSON_NUMBER), 1);
    assert_false(node(&p, p.doc.root)->flags & JSON_FLAG_UNCLOSED);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);

    parse(&p, "[1, 2,]");
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 2);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

static void test_unquoted_key_is_kept_as_bare_key(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{host: \"x\", \"b\": 1}");
    uint32_t host = member(&p, p.doc.root, "host", JSON_STRING);
    const struct json_node *n = node(&p, host);
    assert_true(n->flags & JSON_FLAG_KEY_BARE);
    assert_key_range(n, 1, 5);
    assert_key(&p, host, "host");
    assert_string(&p, host, "x", 1);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 1);
    assert_false(node(&p, member(&p, p.doc.root, "b", JSON_NUMBER))->flags & JSON_FLAG_KEY_BARE);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

/* `"a": "b": 1` is a key typed where "a"'s value should be: "a" gets a missing value, "b" = 1. */
static void test_value_followed_by_colon_splits_into_two_members(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": \"b\": 1}");
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 2);
    const struct json_node *a = node(&p, member(&p, p.doc.root, "a", JSON_INVALID));
    assert_range(a, 6, 6);
    uint32_t b = member(&p, p.doc.root, "b", JSON_NUMBER);
    assert_key_range(node(&p, b), 6, 9);
    assert_int64(&p, b, 1);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);

    parse(&p, "{\"a\": \"\\u0062\": 1}"); /* the split key keeps its escape */
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 1);
    assert_true(node(&p, member(&p, p.doc.root, "b", JSON_NUMBER))->flags & JSON_FLAG_KEY_ESCAPED);
    parsed_free(&p);
}

static void test_unterminated_string_ends_at_the_line(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": \"abc\n\"b\": 2,\n\"c\": 3}");
    uint32_t a = member(&p, p.doc.root, "a", JSON_STRING);
    assert_true(node(&p, a)->flags & JSON_FLAG_UNTERMINATED);
    assert_range(node(&p, a), 6, 10);
    assert_string(&p, a, "abc", 3);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 2);
    assert_int64(&p, member(&p, p.doc.root, "c", JSON_NUMBER), 3);
    assert_false(node(&p, p.doc.root)->flags & JSON_FLAG_UNCLOSED);
    parsed_free(&p);

    parse(&p, "{\"ho\r\n\"b\": 2}"); /* a key, ended by CRLF */
    uint32_t ho = node(&p, p.doc.root)->first_child;
    assert_true(node(&p, ho)->flags & JSON_FLAG_KEY_UNTERMINATED);
    assert_key(&p, ho, "ho");
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 2);
    parsed_free(&p);
}

static void test_unclosed_object_at_end_keeps_its_members(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": {\"b\": 1, \"c\": 2");
    const struct json_node *root = node(&p, p.doc.root);
    assert_true(root->flags & JSON_FLAG_UNCLOSED);
    assert_range(root, 0, 21);
    uint32_t a = member(&p, p.doc.root, "a", JSON_OBJECT);
    assert_true(node(&p, a)->flags & JSON_FLAG_UNCLOSED);
    assert_int64(&p, member(&p, a, "b", JSON_NUMBER), 1);
    assert_int64(&p, member(&p, a, "c", JSON_NUMBER), 2);
    /* each unclosed object points back at its '{' */
    assert_int_equal(p.doc.error_count, 2);
    assert_int_equal(p.doc.errors[0].related_start, 6);
    assert_int_equal(p.doc.errors[0].related_end, 7);
    assert_int_equal(p.doc.errors[1].related_start, 0);
    assert_int_equal(p.doc.errors[1].related_end, 1);
    parsed_free(&p);
}

static void test_mismatched_bracket_closes_the_object(void **state)
{
    (void)state;
    struct parsed p;
    /* ']' closes the array it belongs to; the object inside it is left unclosed. */
    parse(&p, "{\"list\": [{\"a\": 1], \"b\": 2}");
    uint32_t list = member(&p, p.doc.root, "list", JSON_ARRAY);
    assert_range(node(&p, list), 9, 18);
    assert_false(node(&p, list)->flags & JSON_FLAG_UNCLOSED);
    uint32_t inner = json_array_get(&p.doc, list, 0);
    assert_int_equal(node(&p, inner)->kind, JSON_OBJECT);
    assert_true(node(&p, inner)->flags & JSON_FLAG_UNCLOSED);
    assert_int64(&p, member(&p, inner, "a", JSON_NUMBER), 1);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 2);
    assert_int_equal(p.doc.error_count, 1);
    assert_int_equal(p.doc.errors[0].related_start, 10);
    parsed_free(&p);

    /* A ']' that closes nothing is dropped; the object goes on. */
    parse(&p, "{\"a\": 1 ], \"b\": 2}");
    assert_int64(&p, member(&p, p.doc.root, "a", JSON_NUMBER), 1);
    assert_int64(&p, member(&p, p.doc.root, "b", JSON_NUMBER), 2);
    assert_false(node(&p, p.doc.root)->flags & JSON_FLAG_UNCLOSED);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

static void test_stray_word_is_an_invalid_node(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": tru, \"b\": true}");
    const struct json_node *a = node(&p, member(&p, p.doc.root, "a", JSON_INVALID));
    assert_range(a, 6, 9);
    member(&p, p.doc.root, "b", JSON_TRUE);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

static void test_garbage_after_the_root_keeps_the_root(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": 1} x");
    assert_range(node(&p, p.doc.root), 0, 8);
    assert_int64(&p, member(&p, p.doc.root, "a", JSON_NUMBER), 1);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

/* ---- duplicate keys ---- */

static void assert_duplicate(const struct json_error *e, uint32_t start, uint32_t end,
                             uint32_t related_start, uint32_t related_end)
{
    assert_int_equal(e->code, JSON_ERROR_DUPLICATE_KEY);
    assert_int_equal(e->start, start);
    assert_int_equal(e->end, end);
    assert_int_equal(e->related_start, related_start);
    assert_int_equal(e->related_end, related_end);
}

static void test_duplicate_key_reports_both_ranges(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": 1, \"b\": 2, \"a\": 3}");
    assert_int_equal(p.doc.error_count, 1);
    assert_duplicate(&p.doc.errors[0], 17, 20, 1, 4);
    assert_string_equal(p.doc.errors[0].message,
                        "duplicate key \"a\": it is already defined in this object, and only one "
                        "of the two takes effect");
    /* both members stay in the tree; lookups see the last one, as JSON readers do */
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 3);
    assert_int64(&p, member(&p, p.doc.root, "a", JSON_NUMBER), 3);
    parsed_free(&p);
}

static void test_duplicate_key_in_large_object(void **state)
{
    (void)state;
    struct parsed p;
    /* more than 8 members: found through the hash table */
    parse(&p, "{\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,"
              "\"k3\":10}");
    assert_int_equal(p.doc.error_count, 1);
    assert_duplicate(&p.doc.errors[0], 64, 68, 15, 19);
    parsed_free(&p);
}

/* A key written three times: each repeat points at the first definition, whichever way the
 * object is searched. */
static void test_duplicate_key_repeats_point_at_the_first_definition(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"x\":1,\"x\":2,\"x\":3}",
        "{\"x\":1,\"x\":2,\"x\":3,\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct parsed p;
        parse(&p, texts[i]);
        assert_int_equal(p.doc.error_count, 2);
        assert_duplicate(&p.doc.errors[0], 7, 10, 1, 4);
        assert_duplicate(&p.doc.errors[1], 13, 16, 1, 4);
        parsed_free(&p);
    }
}

static void test_duplicate_keys_compare_decoded(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": 1, \"\\u0061\": 2}");
    assert_int_equal(p.doc.error_count, 1);
    assert_duplicate(&p.doc.errors[0], 9, 17, 1, 4);
    parsed_free(&p);

    parse(&p,
          "{\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"a\\/b\":9,"
          "\"a/b\":10}");
    assert_int_equal(count_errors(&p, JSON_ERROR_DUPLICATE_KEY), 1);
    parsed_free(&p);
}

static void test_distinct_keys_are_not_duplicates(void **state)
{
    (void)state;
    struct parsed p;
    /* same key in sibling objects; keys that differ in case or length */
    parse(&p, "{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"A\": 0, \"aa\": 0, \"\": 0}");
    assert_int_equal(p.doc.error_count, 0);
    parsed_free(&p);

    /* a large object of distinct keys (hash collisions must compare the keys) */
    char text[40000];
    size_t n = 0;
    text[n++] = '{';
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\"key%d\":%d", i ? "," : "", i, i);
    text[n++] = '}';
    parse_bytes(&p, text, n, NULL);
    assert_int_equal(p.doc.error_count, 0);
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 2000);
    assert_int64(&p, member(&p, p.doc.root, "key1999", JSON_NUMBER), 1999);
    parsed_free(&p);
}

/* ---- ranges ---- */

static void test_ranges_are_exact_bytes_after_multibyte_text(void **state)
{
    (void)state;
    struct parsed p;
    /* é is 2 bytes, 😀 is 4: offsets count bytes */
    parse(&p, "{\"name\": \"\xC3\xA9\xF0\x9F\x98\x80\", \"n\": [1, 2.5], \"\xD0\xBA\": null}");
    assert_int_equal(p.doc.error_count, 0);
    assert_range(node(&p, p.doc.root), 0, 45);
    const struct json_node *name = node(&p, member(&p, p.doc.root, "name", JSON_STRING));
    assert_key_range(name, 1, 7);
    assert_range(name, 9, 17);
    uint32_t list = member(&p, p.doc.root, "n", JSON_ARRAY);
    assert_key_range(node(&p, list), 19, 22);
    assert_range(node(&p, list), 24, 32);
    assert_range(node(&p, json_array_get(&p.doc, list, 0)), 25, 26);
    assert_range(node(&p, json_array_get(&p.doc, list, 1)), 28, 31);
    assert_int_equal(node(&p, json_array_get(&p.doc, list, 0))->key_start, JSON_NONE);
    const struct json_node *ka = node(&p, member(&p, p.doc.root, "\xD0\xBA", JSON_NULL));
    assert_key_range(ka, 34, 38);
    assert_range(ka, 40, 44);
    assert_tree_sound(&p);
    parsed_free(&p);
}

static void test_ranges_skip_whitespace_and_bom(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "\xEF\xBB\xBF \r\n\t[ true ,false\n, null ] \n");
    assert_int_equal(p.doc.error_count, 0);
    assert_range(node(&p, p.doc.root), 7, 29);
    assert_range(node(&p, json_array_get(&p.doc, p.doc.root, 0)), 9, 13);
    assert_range(node(&p, json_array_get(&p.doc, p.doc.root, 1)), 15, 20);
    assert_range(node(&p, json_array_get(&p.doc, p.doc.root, 2)), 23, 27);
    assert_int_equal(node(&p, p.doc.root)->parent, JSON_NONE);
    parsed_free(&p);
}

/* ---- encodings ---- */

/* JSON is UTF-8 (RFC 8259, section 8.1). A UTF-16 or UTF-32 document, with its byte order mark
 * or without (told by the zero bytes of its ASCII characters, RFC 4627 section 3), gets one error
 * that names its encoding and the one to convert to, and no tree: no cascade of syntax errors,
 * no keys read from every other byte. */
static void test_utf16_and_utf32_documents_get_one_error_naming_the_encoding(void **state)
{
    (void)state;
    static const struct {
        const char *ascii;
        size_t unit;
        bool big_endian, bom;
        const char *encoding;
    } cases[] = {
        {"{\"a\": \"b\"}", 2, false, true, "UTF-16LE"},
        {"{\"a\": \"b\"}", 2, true, true, "UTF-16BE"},
        {"{\"a\": \"b\"}", 2, false, false, "UTF-16LE"},
        {"{\"a\": \"b\"}", 2, true, false, "UTF-16BE"},
        {" \n[]", 2, false, false, "UTF-16LE"},
        {"1", 2, false, false, "UTF-16LE"},
        {"1", 2, true, false, "UTF-16BE"},
        {"", 2, false, true, "UTF-16LE"},
        {"{}", 4, false, true, "UTF-32LE"},
        {"{}", 4, true, true, "UTF-32BE"},
        {"{}", 4, false, false, "UTF-32LE"},
        {"{}", 4, true, false, "UTF-32BE"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char bytes[64];
        size_t len =
            encode_wide(cases[i].ascii, cases[i].unit, cases[i].big_endian, cases[i].bom, bytes);
        struct parsed p;
        parse_bytes(&p, bytes, len, NULL);
        if (p.doc.error_count != 1)
            fail_msg("case %zu: %u errors, expected one", i, p.doc.error_count);
        const struct json_error *e = &p.doc.errors[0];
        char expected[256];
        snprintf(expected, sizeof expected,
                 "the document is %s (judging by its %s), but JSON must be UTF-8 (RFC 8259, "
                 "section 8.1): convert it, for example with iconv -f %s -t UTF-8",
                 cases[i].encoding, cases[i].bom ? "byte order mark" : "zero bytes",
                 cases[i].encoding);
        assert_string_equal(e->message, expected);
        assert_int_equal(e->code, JSON_ERROR_SYNTAX);
        assert_int_equal(e->start, 0);
        assert_int_equal(e->end, cases[i].unit); /* the byte order mark, or the first character */
        assert_int_equal(p.doc.root, JSON_NONE);
        assert_int_equal(p.doc.node_count, 0);
        parsed_free(&p);
    }
}

/* UTF-8 stays UTF-8: its byte order mark is skipped, and a NUL byte that is not in the pattern
 * of UTF-16 or UTF-32 is an ordinary syntax error. */
static void test_utf8_documents_are_not_taken_for_utf16(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "\xEF\xBB\xBF{\"a\": \"\xC3\xA9\"}");
    assert_int_equal(p.doc.error_count, 0);
    parsed_free(&p);
    parse_bytes(&p, "{}\0", 3, NULL);
    assert_int_equal(p.doc.error_count, 1);
    assert_null(strstr(p.doc.errors[0].message, "UTF-16"));
    assert_non_null(json_node_at(&p.doc, p.doc.root));
    parsed_free(&p);
    parse_bytes(&p, "\0\0", 2, NULL);
    assert_null(strstr(p.doc.errors[0].message, "UTF-"));
    parsed_free(&p);
}

/* ---- numbers ---- */

static void test_big_number_keeps_its_text(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "[12345678901234567890123]");
    uint32_t n = json_array_get(&p.doc, p.doc.root, 0);
    assert_int_equal(node(&p, n)->kind, JSON_NUMBER);
    assert_range(node(&p, n), 1, 24);
    assert_memory_equal(p.doc.text + node(&p, n)->start, "12345678901234567890123", 23);
    int64_t value = 0;
    assert_false(json_node_int64(&p.doc, n, &value));
    double d = 0;
    assert_true(json_node_double(&p.doc, n, &d));
    assert_true(d > 1.2345678901234e22 && d < 1.2345678901235e22);
    assert_int_equal(p.doc.error_count, 0);
    parsed_free(&p);
}

static void test_int64_boundaries(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool fits;
        int64_t value;
    } cases[] = {
        {"0", true, 0},
        {"-0", true, 0},
        {"9223372036854775807", true, INT64_MAX},
        {"-9223372036854775808", true, INT64_MIN},
        {"9223372036854775808", false, 0},
        {"-9223372036854775809", false, 0},
        {"18446744073709551616", false, 0},
        {"-1", true, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p;
        parse(&p, cases[i].text);
        assert_int_equal(p.doc.error_count, 0);
        assert_true(node(&p, p.doc.root)->flags & JSON_FLAG_INTEGER);
        int64_t value = 12345;
        bool fits = json_node_int64(&p.doc, p.doc.root, &value);
        if (fits != cases[i].fits || (fits && value != cases[i].value))
            fail_msg("json_node_int64(%s): got %s %lld", cases[i].text, fits ? "true" : "false",
                     (long long)value);
        parsed_free(&p);
    }
}

static void test_fraction_or_exponent_is_not_an_integer(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        double value;
    } cases[] = {{"1e5", 1e5}, {"1.0", 1.0}, {"-0.5", -0.5}, {"2E-2", 0.02}, {"-0e+0", 0.0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p;
        parse(&p, cases[i].text);
        assert_int_equal(p.doc.error_count, 0);
        assert_int_equal(node(&p, p.doc.root)->kind, JSON_NUMBER);
        if (node(&p, p.doc.root)->flags & JSON_FLAG_INTEGER)
            fail_msg("%s has the integer flag", cases[i].text);
        int64_t ignored;
        assert_false(json_node_int64(&p.doc, p.doc.root, &ignored));
        double d = -1;
        assert_true(json_node_double(&p.doc, p.doc.root, &d));
        assert_true(d == cases[i].value);
        parsed_free(&p);
    }
}

static void test_malformed_numbers_are_invalid_nodes(void **state)
{
    (void)state;
    static const char *const texts[] = {"[01]", "[1.]", "[+1]",    "[0x10]", "[-]",
                                        "[1e]", "[.5]", "[1.5e+]", "[2a]"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct parsed p;
        parse(&p, texts[i]);
        uint32_t e = json_array_get(&p.doc, p.doc.root, 0);
        if (e == JSON_NONE || node(&p, e)->kind != JSON_INVALID)
            fail_msg("%s: the element is not an invalid node", texts[i]);
        assert_range(node(&p, e), 1, (uint32_t)strlen(texts[i]) - 1);
        assert_int_equal(p.doc.error_count, 1);
        parsed_free(&p);
    }
}

/* ---- strings ---- */

static void test_strings_decode_escapes(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *decoded;
        size_t len;
    } cases[] = {
        {"\"plain\"", "plain", 5},
        {"\"a\\\"b\\\\c\\/d\"", "a\"b\\c/d", 7},
        {"\"\\b\\f\\n\\r\\t\"", "\b\f\n\r\t", 5},
        {"\"\\u00e9\\u20AC\"", "\xC3\xA9\xE2\x82\xAC", 5},
        {"\"\\u0000\"", "\0", 1},
        {"\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80", 4},
        {"\"\xF0\x9F\x98\x80\"", "\xF0\x9F\x98\x80", 4},
        {"\"\\ud83d x\"", "\xEF\xBF\xBD x", 5}, /* lone high surrogate */
        {"\"\\ude00\"", "\xEF\xBF\xBD", 3},     /* lone low surrogate */
        {"\"\\ud83d\\u0041\"",
         "\xEF\xBF\xBD"
         "A",
         4}, /* high, then not a low one */
        {"\"\\ude00\\ud83d\"", "\xEF\xBF\xBD\xEF\xBF\xBD", 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p;
        parse(&p, cases[i].text);
        assert_int_equal(p.doc.error_count, 0);
        assert_int_equal(node(&p, p.doc.root)->kind, JSON_STRING);
        struct json_str s = json_node_string(&p.doc, p.doc.root);
        if (s.len != cases[i].len || memcmp(s.ptr, cases[i].decoded, s.len) != 0)
            fail_msg("%s decoded to %zu bytes, expected %zu", cases[i].text, s.len, cases[i].len);
        parsed_free(&p);
    }
}

static void test_keys_decode_escapes(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\\u002fb\": 1, \"\\ud83d\\ude00\": 2}");
    assert_int64(&p, member(&p, p.doc.root, "a/b", JSON_NUMBER), 1);
    assert_int64(&p, member(&p, p.doc.root, "\xF0\x9F\x98\x80", JSON_NUMBER), 2);
    assert_true(node(&p, member(&p, p.doc.root, "a/b", JSON_NUMBER))->flags &
                JSON_FLAG_KEY_ESCAPED);
    assert_false(
        json_node_key_equals(&p.doc, member(&p, p.doc.root, "a/b", JSON_NUMBER), "a\\u002fb", 8));
    parsed_free(&p);
}

static void test_string_accessors_refuse_other_kinds(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "[1, \"1\"]");
    uint32_t number = json_array_get(&p.doc, p.doc.root, 0);
    assert_int_equal(json_node_string(&p.doc, number).len, 0);
    assert_false(json_node_string_equals(&p.doc, number, "1", 1));
    assert_true(json_node_string_equals(&p.doc, json_array_get(&p.doc, p.doc.root, 1), "1", 1));
    assert_int_equal(json_node_key(&p.doc, number).len, 0);
    assert_int_equal(json_array_get(&p.doc, p.doc.root, 2), JSON_NONE);
    parsed_free(&p);
}

/* ---- string and whitespace scanning, which reads eight bytes at a time: every special byte at
 * every offset of a block, and strings that end short of a block ---- */

/* One case: a string body of `before` 'a's, `special`, then `after` 'z's (not hex digits). */
struct scan_case {
    const char *special;
    const char *decoded; /* the decoded special, or NULL when the string holds an error */
    const char *message; /* the start of the first error's message, or NULL when none */
    uint32_t error_start, error_end; /* offsets from the special's first byte (the end: from
                                        its first byte too) */
};

static size_t scan_case_text(const struct scan_case *c, uint32_t before, uint32_t after,
                             bool closed, char *out)
{
    size_t n = 0, special_len = strlen(c->special);
    out[n++] = '"';
    memset(out + n, 'a', before);
    n += before;
    memcpy(out + n, c->special, special_len);
    n += special_len;
    memset(out + n, 'z', after);
    n += after;
    if (closed)
        out[n++] = '"';
    return n;
}

static void check_scan_case(const struct scan_case *c, uint32_t before, uint32_t after)
{
    char text[64], expected[64];
    size_t len = scan_case_text(c, before, after, true, text);
    struct parsed p;
    parse_bytes(&p, text, len, NULL);
    if (c->message == NULL) {
        if (p.doc.error_count != 0)
            fail_msg("%.*s: unexpected error %s", (int)len, text, p.doc.errors[0].message);
        size_t n = 0, decoded_len = strlen(c->decoded);
        memset(expected, 'a', before);
        n += before;
        memcpy(expected + n, c->decoded, decoded_len);
        n += decoded_len;
        memset(expected + n, 'z', after);
        n += after;
        assert_string(&p, p.doc.root, expected, n);
        assert_range(node(&p, p.doc.root), 0, (uint32_t)len);
    } else {
        if (p.doc.error_count == 0)
            fail_msg("%.*s: no error, expected \"%s\"", (int)len, text, c->message);
        const struct json_error *e = &p.doc.errors[0];
        assert_int_equal(strncmp(e->message, c->message, strlen(c->message)), 0);
        assert_int_equal(e->start, c->error_start == JSON_NONE ? 0 : 1 + before + c->error_start);
        assert_int_equal(e->end, 1 + before + c->error_end);
    }
    parsed_free(&p);
}

static void test_string_scanning_at_every_offset(void **state)
{
    (void)state;
    static const struct scan_case cases[] = {
        {"\\n", "\n", NULL, 0, 0},
        {"\\\"", "\"", NULL, 0, 0},
        {"\\u00e9", "\xC3\xA9", NULL, 0, 0},
        {"\xC3\xA9", "\xC3\xA9", NULL, 0, 0},
        {"\xE2\x82\xAC", "\xE2\x82\xAC", NULL, 0, 0},
        {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", NULL, 0, 0},
        {"\x7F", "\x7F", NULL, 0, 0},
        {" ", " ", NULL, 0, 0},
        {"\x01", NULL, "control character U+0001 in a string", 0, 1},
        {"\x1F", NULL, "control character U+001F in a string", 0, 1},
        {"\t", NULL, "control character U+0009 in a string", 0, 1},
        {"\xFF", NULL, "invalid UTF-8 byte in a string", 0, 1},
        {"\xC3", NULL, "invalid UTF-8 byte in a string", 0, 1},
        {"\xED\xA0\x80", NULL, "invalid UTF-8 byte in a string", 0, 1},
        {"\\x", NULL, "invalid escape: only", 0, 2},
        {"\\u12", NULL, "invalid escape: '\\u' must be", 0, 4},
        {"\n", NULL, "unterminated string: expected '\"' before the end of the line", JSON_NONE, 0},
        {"\r", NULL, "unterminated string: expected '\"' before the end of the line", JSON_NONE, 0},
    };
    /* offsets through two 16-byte blocks (SSE2), an 8-byte word and the bytes one by one */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (uint32_t before = 0; before <= 41; before++) {
            for (uint32_t after = 0; after <= 9; after++)
                check_scan_case(&cases[i], before, after);
        }
    }
}

/* A '"' inside ends the string there; without a closing '"' the string runs to the end. */
static void test_string_ends_at_every_offset(void **state)
{
    (void)state;
    char text[64];
    for (uint32_t body = 0; body <= 41; body++) {
        struct parsed p;
        memset(text + 1, 'x', body);
        text[0] = '"';
        text[body + 1] = '"';
        parse_bytes(&p, text, body + 2, NULL);
        assert_int_equal(p.doc.error_count, 0);
        assert_range(node(&p, p.doc.root), 0, body + 2);
        parsed_free(&p);
        parse_bytes(&p, text, body + 1, NULL); /* unterminated: every tail length */
        assert_int_equal(p.doc.error_count, 1);
        assert_int_equal(p.doc.errors[0].start, 0);
        assert_int_equal(p.doc.errors[0].end, body + 1);
        assert_non_null(strstr(p.doc.errors[0].message, "before the end of the document"));
        assert_true(node(&p, p.doc.root)->flags & JSON_FLAG_UNTERMINATED);
        parsed_free(&p);
    }
}

/* Runs of spaces and other whitespace of every length before and between values. */
static void test_whitespace_runs_of_every_length(void **state)
{
    (void)state;
    static const char *const fills[] = {" ", "\n", "\t", "\r\n", "\n  \t "};
    char text[128];
    for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
        for (uint32_t run = 0; run <= 20; run++) {
            size_t n = 0, fill_len = strlen(fills[f]);
            for (uint32_t k = 0; k < run; k++)
                text[n++] = fills[f][k % fill_len];
            uint32_t open = (uint32_t)n;
            text[n++] = '[';
            memset(text + n, ' ', run);
            n += run;
            uint32_t one = (uint32_t)n;
            text[n++] = '1';
            memset(text + n, ' ', run);
            n += run;
            text[n++] = ']';
            memset(text + n, ' ', run);
            n += run;
            struct parsed p;
            parse_bytes(&p, text, n, NULL);
            assert_int_equal(p.doc.error_count, 0);
            assert_range(node(&p, p.doc.root), open, (uint32_t)(n - run));
            assert_range(node(&p, json_array_get(&p.doc, p.doc.root, 0)), one, one + 1);
            parsed_free(&p);
        }
    }
}

/* Keys compare decoded, whether short (decoded on the stack) or long (in the arena). */
static void test_keys_with_escapes_compare_decoded_at_any_length(void **state)
{
    (void)state;
    char text[2048], key[320];
    for (size_t len = 1; len <= 301; len += 100) {
        size_t n = 0;
        text[n++] = '{';
        text[n++] = '"';
        for (size_t k = 0; k < len; k++) {
            memcpy(text + n, "\\u0041", 6);
            n += 6;
            key[k] = 'A';
        }
        memcpy(text + n, "\": 1}", 5);
        n += 5;
        struct parsed p;
        parse_bytes(&p, text, n, NULL);
        assert_int_equal(p.doc.error_count, 0);
        uint32_t m = json_object_get(&p.doc, p.doc.root, key, len);
        assert_int_not_equal(m, JSON_NONE);
        assert_true(json_node_key_equals(&p.doc, m, key, len));
        assert_false(json_node_key_equals(&p.doc, m, key, len - 1));
        key[len - 1] = 'B';
        assert_false(json_node_key_equals(&p.doc, m, key, len));
        parsed_free(&p);
    }
}

/* ---- limits ---- */

static void test_deep_nesting_stops_at_the_depth_limit(void **state)
{
    (void)state;
    size_t n = 100000;
    char *text = malloc(n * 5);
    assert_non_null(text);
    memset(text, '[', n);
    struct parsed p;
    parse_bytes(&p, text, n, NULL);
    assert_int_equal(count_errors(&p, JSON_ERROR_LIMIT), 1);
    const struct json_error *e = first_error(&p, JSON_ERROR_LIMIT);
    assert_int_equal(e->start, JSON_DEFAULT_MAX_DEPTH);
    assert_string_equal(e->message, "nesting deeper than 512 levels: srcls stops reading here");
    assert_int_equal(node(&p, p.doc.root)->kind, JSON_ARRAY);
    assert_tree_sound(&p);
    parsed_free(&p);

    for (size_t i = 0; i < n; i++)
        memcpy(text + i * 5, "{\"a\":", 5);
    parse_bytes(&p, text, n * 5, NULL);
    assert_int_equal(count_errors(&p, JSON_ERROR_LIMIT), 1);
    assert_int_equal(node(&p, p.doc.root)->kind, JSON_OBJECT);
    assert_tree_sound(&p);
    parsed_free(&p);
    free(text);
}

static void test_max_depth_option(void **state)
{
    (void)state;
    struct json_parse_options options = {
        .max_size = JSON_DEFAULT_MAX_SIZE, .max_depth = 4, .max_errors = JSON_DEFAULT_MAX_ERRORS};
    struct parsed p;
    parse_bytes(&p, "[[{\"a\":[1]}]]", 13, &options); /* 4 levels: fine */
    assert_int_equal(p.doc.error_count, 0);
    parsed_free(&p);

    parse_bytes(&p, "[[{\"a\":[[1]]}]]", 15, &options); /* 5 levels */
    assert_int_equal(p.doc.error_count, 1);
    assert_int_equal(p.doc.errors[0].code, JSON_ERROR_LIMIT);
    assert_int_equal(p.doc.errors[0].start, 8);
    assert_int_equal(p.doc.errors[0].end, 9);
    assert_string_equal(p.doc.errors[0].message,
                        "nesting deeper than 4 levels: srcls stops reading here");
    parsed_free(&p);
}

static void test_max_size_option(void **state)
{
    (void)state;
    struct json_parse_options options = {
        .max_size = 10, .max_depth = JSON_DEFAULT_MAX_DEPTH, .max_errors = JSON_DEFAULT_MAX_ERRORS};
    struct parsed p;
    parse_bytes(&p, "[1,2,3,45]", 10, &options);
    assert_int_equal(p.doc.error_count, 0);
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 4);
    parsed_free(&p);

    parse_bytes(&p, "[1,2,3,456]", 11, &options);
    assert_int_equal(p.doc.error_count, 1);
    assert_int_equal(p.doc.errors[0].code, JSON_ERROR_LIMIT);
    assert_string_equal(p.doc.errors[0].message,
                        "the document is 11 bytes, over the limit of 10 bytes");
    assert_int_equal(p.doc.root, JSON_NONE);
    parsed_free(&p);
}

static void test_max_errors_caps_and_counts_the_rest(void **state)
{
    (void)state;
    struct json_parse_options options = {
        .max_size = JSON_DEFAULT_MAX_SIZE, .max_depth = JSON_DEFAULT_MAX_DEPTH, .max_errors = 3};
    struct parsed p;
    parse_bytes(&p, "[tru, tru, tru, tru, tru]", 25, &options);
    assert_int_equal(p.doc.error_count, 3);
    assert_int_equal(p.doc.errors_dropped, 2);
    assert_int_equal(json_child_count(&p.doc, p.doc.root), 5); /* the tree is all there */
    parsed_free(&p);

    /* the default cap */
    char text[2 * 1000 + 2];
    size_t n = 0;
    text[n++] = '[';
    for (int i = 0; i < 1000; i++) {
        text[n++] = 'x';
        text[n++] = i < 999 ? ',' : ']';
    }
    parse_bytes(&p, text, n, NULL);
    assert_int_equal(p.doc.error_count, JSON_DEFAULT_MAX_ERRORS);
    assert_int_equal(p.doc.errors_dropped, 1000 - JSON_DEFAULT_MAX_ERRORS);
    parsed_free(&p);
}

/* ---- messages ---- */

/* Values may be secrets: no message quotes one, whatever is wrong with it. */
static void test_messages_never_quote_values(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *secret;
    } cases[] = {
        {"{\"password\": hunter2}", "hunter2"},
        {"{\"password\": \"abc\x01\"}", "abc"},
        {"{\"password\": \"abc\\q\"}", "abc"},
        {"{\"password\": \"abc\xFF\"}", "abc"},
        {"{\"password\": \"abc\\u12\"}", "abc"},
        {"{\"password\": \"abcdef", "abc"},
        {"{\"password\": \"abc\n}", "abc"},
        {"{\"pin\": 12ab34}", "12ab34"},
        {"{\"password\": \"abc\" \"x\": 1}", "abc"},
        {"[\"abc\" \"def\"]", "abc"},
        {"\"abc\" trailing", "abc"},
        {"\"abc\" trailing", "trailing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p;
        parse(&p, cases[i].text);
        assert_true(p.doc.error_count > 0);
        for (uint32_t k = 0; k < p.doc.error_count; k++) {
            if (strstr(p.doc.errors[k].message, cases[i].secret) != NULL)
                fail_msg("the message \"%s\" quotes \"%s\"", p.doc.errors[k].message,
                         cases[i].secret);
        }
        parsed_free(&p);
    }
}

/* Text after a string value with no ',' between may be the rest of that value (a secret typed
 * in two pieces, or with a '"' inside): the parser keeps it as a member for the editor, marks
 * its key as recovered, and no message quotes it. */
static void test_string_after_a_string_value_is_a_recovered_key_never_quoted(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"password\": \"data:,a\" \"VALUE\"}",
        "{\"password\": \"data:,a\" \"VALUE\", \"b\": 1}",
        "{\"password\": \"data:,a\"\n  \"VALUE\"\n}",
        "{\"password\": \"data:,a\" \"VALUE\": 1}",
        "{\"password\": \"data:,a\" \"VALUE\" \"VALUE\"}",
        "{\"password\": \"data:,a\" \"VALUE\" 1}",
        "{\"password\": \"data:,a\" \"VALUE\" \"VALUE\": 1}",
        "{\"password\": \"data:,a\" \"VALUE\": 1 \"VALUE\": 2}",
        "{\"password\": \"data:,a\" \"VALUE\", \"VALUE\": 2}",
        "{\"password\": \"data:,a\" \"VALUE\": \"b\": 1}",
        "{\"password\": \"data:,a\"VALUE\"}",
        "{\"password\": \"data:,a\"VALUE\", \"b\": 1}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct parsed p;
        parse(&p, texts[i]);
        assert_tree_sound(&p);
        assert_true(p.doc.error_count > 0);
        assert_string_equal(p.doc.errors[0].message,
                            "expected ',' or '}' after the value of \"password\"");
        for (uint32_t k = 0; k < p.doc.error_count; k++) {
            if (strstr(p.doc.errors[k].message, "VALUE") != NULL)
                fail_msg("for %s: the message \"%s\" quotes the string after the value", texts[i],
                         p.doc.errors[k].message);
        }
        uint32_t password = member(&p, p.doc.root, "password", JSON_STRING);
        assert_false(node(&p, password)->flags & JSON_FLAG_KEY_RECOVERED);
        uint32_t after = node(&p, password)->next;
        assert_true(node(&p, after)->flags & JSON_FLAG_KEY_RECOVERED);
        parsed_free(&p);
    }

    /* A stray string is one error (the missing ','), kept as a member without a value. */
    struct parsed p;
    parse(&p, "{\"password\": \"data:,a\" \"VALUE\"}");
    assert_int_equal(p.doc.error_count, 1);
    assert_int_equal(p.doc.errors[0].start, 22);
    assert_int_equal(p.doc.errors[0].end, 22);
    uint32_t stray = node(&p, member(&p, p.doc.root, "password", JSON_STRING))->next;
    assert_int_equal(node(&p, stray)->kind, JSON_INVALID);
    assert_key_range(node(&p, stray), 23, 30);
    parsed_free(&p);

    /* Recovered keys are guesses: they take no part in duplicate keys. */
    parse(&p, "{\"a\": \"x\" \"a\"}");
    assert_int_equal(count_errors(&p, JSON_ERROR_DUPLICATE_KEY), 0);
    assert_int_equal(p.doc.error_count, 1);
    parsed_free(&p);
}

/* After a number, literal, object or array, a string without a ',' before it cannot continue
 * the value: it is the next key, and messages name it. */
static void test_key_after_a_value_that_is_not_a_string_is_not_recovered(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{\"port\": 8080 \"host\": \"db\"}",
        "{\"port\": true \"host\": \"db\"}",
        "{\"port\": {} \"host\": \"db\"}",
        "{\"port\": [] \"host\": \"db\"}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct parsed p;
        parse(&p, texts[i]);
        uint32_t host = member(&p, p.doc.root, "host", JSON_STRING);
        assert_false(node(&p, host)->flags & JSON_FLAG_KEY_RECOVERED);
        assert_int_equal(p.doc.error_count, 1);
        parsed_free(&p);
    }
}

/* `"a": "b": 1` makes the value "b" a key: it may be a secret, so it is recovered too. */
static void test_value_turned_key_before_a_colon_is_recovered(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"password\": \"SECRET\": 1, \"password\": 2}");
    uint32_t secret = json_object_get(&p.doc, p.doc.root, "SECRET", 6);
    assert_true(node(&p, secret)->flags & JSON_FLAG_KEY_RECOVERED);
    for (uint32_t k = 0; k < p.doc.error_count; k++)
        assert_null(strstr(p.doc.errors[k].message, "SECRET"));
    parsed_free(&p);

    parse(&p, "{\"a\": \"SECRET\": \"b\" \"c\"}");
    for (uint32_t k = 0; k < p.doc.error_count; k++)
        assert_null(strstr(p.doc.errors[k].message, "SECRET"));
    parsed_free(&p);
}

static void test_messages_name_keys_without_control_characters(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\\nb\": 1 \"c\": 2}");
    assert_string_equal(p.doc.errors[0].message, "expected ',' or '}' after the value of \"a?b\"");
    parsed_free(&p);
}

/* A long key is shortened for a message, never in the middle of a UTF-8 character. */
static void test_messages_shorten_long_keys_between_characters(void **state)
{
    (void)state;
    char text[128], expected[128];
    char a47[48];
    memset(a47, 'a', 47);
    a47[47] = '\0';
    snprintf(text, sizeof text, "{\"%s\xC3\xA9\": 1 \"b\": 2}", a47);
    snprintf(expected, sizeof expected, "expected ',' or '}' after the value of \"%s...\"", a47);
    struct parsed p;
    parse(&p, text);
    assert_string_equal(p.doc.errors[0].message, expected);
    parsed_free(&p);

    snprintf(text, sizeof text, "{\"%s\xC3\xA9\": 1 \"b\": 2}", a47 + 1); /* fits: 46 + 2 */
    snprintf(expected, sizeof expected, "expected ',' or '}' after the value of \"%s\xC3\xA9\"",
             a47 + 1);
    parse(&p, text);
    assert_string_equal(p.doc.errors[0].message, expected);
    parsed_free(&p);
}

/* Without arguments: the parser's own tests. With --json-test-suite: the JSONTestSuite
 * conformance tests (meson's `json_test_suite`), which exit 77, meson's SKIP, when the suite's
 * files are absent, so a clone without them shows SKIP there and OK here. */
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--json-test-suite") == 0) {
        const struct CMUnitTest suite[] = {
            cmocka_unit_test(test_suite_y_files_parse_without_errors),
            cmocka_unit_test(test_suite_n_files_are_rejected),
            cmocka_unit_test(test_suite_i_files_parse_without_crashing),
        };
        char dir_path[4096];
        if (!test_suite_dir(dir_path, sizeof dir_path))
            return 77;
        return cmocka_run_group_tests_name("JSONTestSuite", suite, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovery_reports_exact_first_error),
        cmocka_unit_test(test_missing_comma_keeps_both_members),
        cmocka_unit_test(test_missing_colon_keeps_the_value),
        cmocka_unit_test(test_missing_value_is_an_empty_invalid_node),
        cmocka_unit_test(test_trailing_comma_keeps_the_container),
        cmocka_unit_test(test_unquoted_key_is_kept_as_bare_key),
        cmocka_unit_test(test_value_followed_by_colon_splits_into_two_members),
        cmocka_unit_test(test_unterminated_string_ends_at_the_line),
        cmocka_unit_test(test_unclosed_object_at_end_keeps_its_members),
        cmocka_unit_test(test_mismatched_bracket_closes_the_object),
        cmocka_unit_test(test_stray_word_is_an_invalid_node),
        cmocka_unit_test(test_garbage_after_the_root_keeps_the_root),
        cmocka_unit_test(test_duplicate_key_reports_both_ranges),
        cmocka_unit_test(test_duplicate_key_in_large_object),
        cmocka_unit_test(test_duplicate_key_repeats_point_at_the_first_definition),
        cmocka_unit_test(test_duplicate_keys_compare_decoded),
        cmocka_unit_test(test_distinct_keys_are_not_duplicates),
        cmocka_unit_test(test_ranges_are_exact_bytes_after_multibyte_text),
        cmocka_unit_test(test_ranges_skip_whitespace_and_bom),
        cmocka_unit_test(test_utf16_and_utf32_documents_get_one_error_naming_the_encoding),
        cmocka_unit_test(test_utf8_documents_are_not_taken_for_utf16),
        cmocka_unit_test(test_big_number_keeps_its_text),
        cmocka_unit_test(test_int64_boundaries),
        cmocka_unit_test(test_fraction_or_exponent_is_not_an_integer),
        cmocka_unit_test(test_malformed_numbers_are_invalid_nodes),
        cmocka_unit_test(test_strings_decode_escapes),
        cmocka_unit_test(test_keys_decode_escapes),
        cmocka_unit_test(test_string_accessors_refuse_other_kinds),
        cmocka_unit_test(test_string_scanning_at_every_offset),
        cmocka_unit_test(test_string_ends_at_every_offset),
        cmocka_unit_test(test_whitespace_runs_of_every_length),
        cmocka_unit_test(test_keys_with_escapes_compare_decoded_at_any_length),
        cmocka_unit_test(test_deep_nesting_stops_at_the_depth_limit),
        cmocka_unit_test(test_max_depth_option),
        cmocka_unit_test(test_max_size_option),
        cmocka_unit_test(test_max_errors_caps_and_counts_the_rest),
        cmocka_unit_test(test_messages_never_quote_values),
        cmocka_unit_test(test_string_after_a_string_value_is_a_recovered_key_never_quoted),
        cmocka_unit_test(test_key_after_a_value_that_is_not_a_string_is_not_recovered),
        cmocka_unit_test(test_value_turned_key_before_a_colon_is_recovered),
        cmocka_unit_test(test_messages_name_keys_without_control_characters),
        cmocka_unit_test(test_messages_shorten_long_keys_between_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
