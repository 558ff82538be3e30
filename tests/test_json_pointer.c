/* test_json_pointer: RFC 6901 pointers built from and resolved in a document, and json_locate,
 * which tells completion and hover what the cursor is on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

struct parsed {
    struct json_doc doc;
    struct arena arena; /* for the pointers */
    char *text;         /* exact-size heap copy, for AddressSanitizer */
};

static void parse(struct parsed *p, const char *text)
{
    size_t len = strlen(text);
    p->text = malloc(len > 0 ? len : 1);
    assert_non_null(p->text);
    memcpy(p->text, text, len);
    assert_int_equal(json_parse(&p->doc, p->text, len, NULL), 0);
    arena_init(&p->arena);
}

static void parsed_free(struct parsed *p)
{
    json_doc_free(&p->doc);
    arena_free(&p->arena);
    free(p->text);
}

static const struct json_node *node_of(const struct parsed *p, uint32_t index)
{
    assert_in_range(index, 0, p->doc.node_count - 1);
    return &p->doc.nodes[index];
}

static uint32_t find(struct parsed *p, const char *pointer)
{
    return json_pointer_find(&p->doc, pointer, strlen(pointer));
}

static void assert_pointer_of(struct parsed *p, uint32_t node, const char *expected)
{
    assert_int_not_equal(node, JSON_NONE);
    char *pointer = json_pointer_of(&p->doc, node, &p->arena);
    assert_non_null(pointer);
    assert_string_equal(pointer, expected);
}

/* ---- pointers ---- */

static const char nested[] =
    "{\"name\": \"lake\", \"config\": {\"hosts\": [\"a\", {\"port\": 1}], \"a/b\": 2, "
    "\"m~n\": 3, \"\": 4, \"~1\": 5, \"\\u00e9\": 6}, \"list\": [[], [7]]}";

static void test_pointer_of_names_each_node(void **state)
{
    (void)state;
    static const struct {
        const char *pointer;
        const char *text; /* the node's text */
    } cases[] = {
        {"", NULL},
        {"/name", "\"lake\""},
        {"/config/hosts/0", "\"a\""},
        {"/config/hosts/1/port", "1"},
        {"/config/a~1b", "2"},
        {"/config/m~0n", "3"},
        {"/config/", "4"},
        {"/config/~01", "5"},
        {"/config/\xC3\xA9", "6"},
        {"/list/1/0", "7"},
    };
    struct parsed p;
    parse(&p, nested);
    assert_int_equal(p.doc.error_count, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t node = find(&p, cases[i].pointer);
        if (node == JSON_NONE)
            fail_msg("\"%s\" finds nothing", cases[i].pointer);
        if (cases[i].text == NULL) {
            assert_int_equal(node, p.doc.root);
        } else {
            const struct json_node *n = node_of(&p, node);
            size_t len = strlen(cases[i].text);
            if (n->end - n->start != len || memcmp(p.doc.text + n->start, cases[i].text, len))
                fail_msg("\"%s\" finds the wrong node", cases[i].pointer);
        }
        assert_pointer_of(&p, node, cases[i].pointer);
    }
    parsed_free(&p);
}

/* Every node of the document: its pointer leads back to it. */
static void test_pointer_round_trip_for_every_node(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, nested);
    for (uint32_t node = 0; node < p.doc.node_count; node++) {
        char *pointer = json_pointer_of(&p.doc, node, &p.arena);
        assert_non_null(pointer);
        uint32_t found = find(&p, pointer);
        if (found != node)
            fail_msg("node %u -> \"%s\" -> node %u", node, pointer, found);
    }
    assert_int_equal(p.doc.node_count, 16);
    parsed_free(&p);
}

static void test_pointer_append_escapes_tilde_and_slash(void **state)
{
    (void)state;
    struct arena arena;
    arena_init(&arena);
    assert_string_equal(json_pointer_append(&arena, "/x", "a~/b", 4), "/x/a~0~1b");
    assert_string_equal(json_pointer_append(&arena, "", "~1", 2), "/~01");
    assert_string_equal(json_pointer_append(&arena, "", "", 0), "/");
    arena_free(&arena);
}

static void test_array_indices_are_plain_decimals(void **state)
{
    (void)state;
    static const char *const missing[] = {
        "/config/hosts/01", "/config/hosts/00", "/config/hosts/2",
        "/config/hosts/-",  "/config/hosts/",   "/config/hosts/+1",
        "/config/hosts/1x", "/config/hosts/-1", "/config/hosts/99999999999",
    };
    struct parsed p;
    parse(&p, nested);
    assert_int_not_equal(find(&p, "/config/hosts/0"), JSON_NONE);
    assert_int_not_equal(find(&p, "/config/hosts/1"), JSON_NONE);
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        if (find(&p, missing[i]) != JSON_NONE)
            fail_msg("\"%s\" finds a node", missing[i]);
    }
    parsed_free(&p);
}

static void test_missing_pointers_find_nothing(void **state)
{
    (void)state;
    /* "a/b" is written a~1b and "m~n" m~0n: a '~' is always escaped */
    static const char *const missing[] = {
        "/nope",      "/config/nope", "/name/x",     "/config/hosts/1/port/0",
        "config",     "/config/a/b",  "/config/m~n", "/config/m~",
        "/config/~2", "/Name",
    };
    struct parsed p;
    parse(&p, nested);
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        if (find(&p, missing[i]) != JSON_NONE)
            fail_msg("\"%s\" finds a node", missing[i]);
    }
    parsed_free(&p);

    parse(&p, "");
    assert_int_equal(find(&p, ""), JSON_NONE);
    assert_int_equal(find(&p, "/a"), JSON_NONE);
    parsed_free(&p);
}

static void test_pointer_to_a_duplicate_key_finds_the_last(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"a\": 1, \"a\": 2}");
    uint32_t node = find(&p, "/a");
    assert_int_equal(node, json_object_get(&p.doc, p.doc.root, "a", 1));
    assert_int_equal(node_of(&p, node)->start, 14);
    parsed_free(&p);
}

/* ---- json_locate ---- */

/* The byte offset just after the first occurrence of `marker` in `text`, shifted by `delta`. */
static uint32_t at(const char *text, const char *marker, int delta)
{
    const char *found = strstr(text, marker);
    if (found == NULL)
        fail_msg("no \"%s\" in the text", marker ? marker : "(null)");
    return (uint32_t)((found - text) + (ptrdiff_t)strlen(marker) + delta);
}

static void assert_location(struct parsed *p, uint32_t offset, enum json_location_kind kind,
                            uint32_t node)
{
    struct json_location loc = json_locate(&p->doc, offset);
    if (loc.kind != kind || loc.node != node)
        fail_msg("at byte %u: got kind %d on node %d, expected kind %d on node %d", offset,
                 (int)loc.kind, (int)loc.node, (int)kind, (int)node);
}

static uint32_t member(struct parsed *p, uint32_t object, const char *key)
{
    uint32_t m = json_object_get(&p->doc, object, key, strlen(key));
    assert_int_not_equal(m, JSON_NONE);
    return m;
}

/* A pointer below a node, as the baseline walks one below a bulk element: the same rules (indexes
 * without a leading zero or sign, escapes), and a key longer than any buffer. */
static void test_find_from_a_node(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, nested);
    uint32_t config = find(&p, "/config");
    assert_int_equal(json_pointer_find_from(&p.doc, config, "/hosts/1/port", 13),
                     find(&p, "/config/hosts/1/port"));
    assert_int_equal(json_pointer_find_from(&p.doc, config, "/a~1b", 5), find(&p, "/config/a~1b"));
    assert_int_equal(json_pointer_find_from(&p.doc, config, "", 0), config);
    assert_int_equal(json_pointer_find_from(&p.doc, config, "/hosts/01", 9), JSON_NONE);
    assert_int_equal(json_pointer_find_from(&p.doc, config, "/hosts/+1", 9), JSON_NONE);
    assert_int_equal(json_pointer_find_from(&p.doc, config, "hosts", 5), JSON_NONE);
    parsed_free(&p);

    char text[700], pointer[320];
    memset(pointer, 'k', sizeof pointer);
    pointer[0] = '/';
    snprintf(text, sizeof text, "{\"%.*s\": {\"x\": 1}}", 319, pointer + 1);
    parse(&p, text);
    uint32_t key = json_pointer_find_from(&p.doc, p.doc.root, pointer, sizeof pointer);
    assert_int_not_equal(key, JSON_NONE);
    assert_int_equal(node_of(&p, key)->kind, JSON_OBJECT);
    parsed_free(&p);
}

static void test_array_index_segments(void **state)
{
    (void)state;
    uint32_t index = 7;
    assert_true(json_pointer_index("0", 1, &index));
    assert_int_equal(index, 0);
    assert_true(json_pointer_index("120/x", 3, &index)); /* the segment alone is read */
    assert_int_equal(index, 120);
    assert_true(json_pointer_index("999999999", 9, &index));
    assert_int_equal(index, 999999999);
    static const char *const refused[] = {"",  "01", "00", "+1",  "-1",
                                          "-", "1x", " 1", "1e2", "1234567890"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        index = 7;
        if (json_pointer_index(refused[i], strlen(refused[i]), &index) || index != 7)
            fail_msg("\"%s\" is read as an array index", refused[i]);
    }
}

static void test_locate_in_a_key(void **state)
{
    (void)state;
    static const char text[] = "{\"host\": \"h\", bare: 1}";
    struct parsed p;
    parse(&p, text);
    uint32_t host = member(&p, p.doc.root, "host");
    assert_location(&p, at(text, "\"", 0), JSON_LOCATION_KEY, host); /* after the quote */
    assert_location(&p, at(text, "\"ho", 0), JSON_LOCATION_KEY, host);
    assert_location(&p, at(text, "\"host", 0), JSON_LOCATION_KEY, host);     /* before the quote */
    assert_location(&p, at(text, "{", 0), JSON_LOCATION_OBJECT, p.doc.root); /* before it */
    uint32_t bare = member(&p, p.doc.root, "bare");
    assert_location(&p, at(text, ", ", 0), JSON_LOCATION_KEY, bare);
    assert_location(&p, at(text, "bare", 0), JSON_LOCATION_KEY, bare);
    parsed_free(&p);
}

/* A key being typed at the end of a line has no closing quote yet: the cursor after it is
 * still in the key. */
static void test_locate_in_an_unterminated_key(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "{\"hos");
    uint32_t key = node_of(&p, p.doc.root)->first_child;
    assert_location(&p, 5, JSON_LOCATION_KEY, key);
    assert_location(&p, 3, JSON_LOCATION_KEY, key);
    parsed_free(&p);

    static const char text[] = "{\"name\": \"x\",\n  \"hos\n}";
    parse(&p, text);
    key = node_of(&p, node_of(&p, p.doc.root)->first_child)->next;
    assert_location(&p, at(text, "\"hos", 0), JSON_LOCATION_KEY, key);
    parsed_free(&p);
}

static void test_locate_after_a_key(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *cursor_after;
    } cases[] = {
        {"{\"a\": }", ":"},      {"{\"a\": }", ": "},
        {"{\"a\": ", ": "},      {"{\"a\":  , \"b\": 1}", ": "},
        {"{\"a\":\n\n}", ":\n"}, {"{\"a\" : }", ": "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p;
        parse(&p, cases[i].text);
        uint32_t a = member(&p, p.doc.root, "a");
        assert_location(&p, at(cases[i].text, cases[i].cursor_after, 0), JSON_LOCATION_AFTER_KEY,
                        a);
        parsed_free(&p);
    }
    static const char text[] = "{\"a\": \"v\"}"; /* before a value that is there */
    struct parsed p;
    parse(&p, text);
    assert_location(&p, at(text, ": ", 0), JSON_LOCATION_AFTER_KEY, member(&p, p.doc.root, "a"));
    parsed_free(&p);
}

static void test_locate_between_members(void **state)
{
    (void)state;
    static const char text[] = "{\"a\": 1,  \"b\": 2 }";
    struct parsed p;
    parse(&p, text);
    assert_location(&p, at(text, ",", 0), JSON_LOCATION_OBJECT, p.doc.root);
    assert_location(&p, at(text, ", ", 0), JSON_LOCATION_OBJECT, p.doc.root);
    assert_location(&p, at(text, "2 ", 0), JSON_LOCATION_OBJECT, p.doc.root);
    parsed_free(&p);

    parse(&p, "{}");
    assert_location(&p, 1, JSON_LOCATION_OBJECT, p.doc.root);
    parsed_free(&p);
}

static void test_locate_in_an_array_gap(void **state)
{
    (void)state;
    static const char text[] = "{\"list\": [1,   2, , ]}";
    struct parsed p;
    parse(&p, text);
    uint32_t list = member(&p, p.doc.root, "list");
    assert_location(&p, at(text, "1,", 1), JSON_LOCATION_ARRAY, list);
    assert_location(&p, at(text, "2, ", 0), JSON_LOCATION_ARRAY, list);
    assert_location(&p, at(text, "[", 0), JSON_LOCATION_ARRAY, list);
    parsed_free(&p);

    parse(&p, "[]");
    assert_location(&p, 1, JSON_LOCATION_ARRAY, p.doc.root);
    parsed_free(&p);
}

static void test_locate_on_a_value(void **state)
{
    (void)state;
    static const char text[] = "{\"s\": \"xyz\", \"n\": 12, \"t\": true, \"o\": {}, \"l\": [3]}";
    struct parsed p;
    parse(&p, text);
    uint32_t s = member(&p, p.doc.root, "s"), n = member(&p, p.doc.root, "n");
    assert_location(&p, at(text, "\"x", 0), JSON_LOCATION_VALUE, s);
    assert_location(&p, at(text, "xyz", 0), JSON_LOCATION_VALUE, s); /* before the quote */
    assert_location(&p, at(text, "1", 0), JSON_LOCATION_VALUE, n);
    assert_location(&p, at(text, "12", 0), JSON_LOCATION_VALUE, n); /* at a word's end */
    assert_location(&p, at(text, "tr", 0), JSON_LOCATION_VALUE, member(&p, p.doc.root, "t"));
    uint32_t l = member(&p, p.doc.root, "l");
    assert_location(&p, at(text, "[3", 0), JSON_LOCATION_VALUE, json_array_get(&p.doc, l, 0));
    /* the root's brackets, and outside the root */
    assert_location(&p, 0, JSON_LOCATION_VALUE, p.doc.root);
    assert_location(&p, (uint32_t)strlen(text), JSON_LOCATION_VALUE, p.doc.root);
    parsed_free(&p);

    parse(&p, " 1 ");
    assert_location(&p, 0, JSON_LOCATION_NONE, JSON_NONE);
    assert_location(&p, 3, JSON_LOCATION_NONE, JSON_NONE);
    parsed_free(&p);

    parse(&p, "");
    assert_location(&p, 0, JSON_LOCATION_NONE, JSON_NONE);
    parsed_free(&p);
}

/* The shape of a real document: the cursor inside the `config` object. */
static void test_locate_in_a_nested_config_object(void **state)
{
    (void)state;
    static const char text[] = "{\n"
                               "  \"type\": \"CLOUDA_OBJECT_STORAGE\",\n"
                               "  \"config\": {\n"
                               "    \"accessKey\": \"AK\",\n"
                               "    \"secure\": ,\n"
                               "    \n"
                               "    \"buck\n"
                               "  }\n"
                               "}\n";
    struct parsed p;
    parse(&p, text);
    uint32_t config = member(&p, p.doc.root, "config");
    uint32_t access = member(&p, config, "accessKey");
    assert_location(&p, at(text, "\"acc", 0), JSON_LOCATION_KEY, access);
    assert_location(&p, at(text, "\"AK", 0), JSON_LOCATION_VALUE, access);
    assert_location(&p, at(text, "\"secure\": ", 0), JSON_LOCATION_AFTER_KEY,
                    member(&p, config, "secure"));
    assert_location(&p, at(text, ",\n    ", 0), JSON_LOCATION_OBJECT, config);
    assert_location(&p, at(text, "\"buck", 0), JSON_LOCATION_KEY, member(&p, config, "buck"));
    assert_location(&p, at(text, "config", 2), JSON_LOCATION_AFTER_KEY, config);
    assert_location(&p, at(text, "\n  }", -1), JSON_LOCATION_OBJECT, config);
    assert_location(&p, at(text, "}\n}", -1), JSON_LOCATION_OBJECT, p.doc.root);
    char *pointer = json_pointer_of(&p.doc, member(&p, config, "secure"), &p.arena);
    assert_string_equal(pointer, "/config/secure");
    parsed_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pointer_of_names_each_node),
        cmocka_unit_test(test_pointer_round_trip_for_every_node),
        cmocka_unit_test(test_pointer_append_escapes_tilde_and_slash),
        cmocka_unit_test(test_array_indices_are_plain_decimals),
        cmocka_unit_test(test_missing_pointers_find_nothing),
        cmocka_unit_test(test_pointer_to_a_duplicate_key_finds_the_last),
        cmocka_unit_test(test_find_from_a_node),
        cmocka_unit_test(test_array_index_segments),
        cmocka_unit_test(test_locate_in_a_key),
        cmocka_unit_test(test_locate_in_an_unterminated_key),
        cmocka_unit_test(test_locate_after_a_key),
        cmocka_unit_test(test_locate_between_members),
        cmocka_unit_test(test_locate_in_an_array_gap),
        cmocka_unit_test(test_locate_on_a_value),
        cmocka_unit_test(test_locate_in_a_nested_config_object),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
