/* test_check_cli: `srcls --check` end to end, the way CI runs it: the real binary
 * ($SRCLS_BINARY) on files in a scratch directory, its exit status, its text output line by
 * line, and its JSON output read back with the project's own parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"
#include "json/json.h"

/* ---- the JSON output, read back ---- */

struct json_output {
    struct json_doc doc;
};

static void parse_output(struct json_output *o, const struct run *r)
{
    assert_int_equal(json_parse(&o->doc, r->out, strlen(r->out), NULL), 0);
    if (o->doc.error_count > 0 || o->doc.root == JSON_NONE)
        fail_msg("the output is not JSON (%s):\n%s",
                 o->doc.error_count ? o->doc.errors[0].message : "empty", r->out);
}

static uint32_t at_pointer(struct json_output *o, const char *pointer, enum json_kind kind)
{
    uint32_t node = json_pointer_find(&o->doc, pointer, strlen(pointer));
    if (node == JSON_NONE)
        fail_msg("nothing at %s", pointer);
    if (o->doc.nodes[node].kind != kind)
        fail_msg("%s is a %s", pointer, json_kind_name((enum json_kind)o->doc.nodes[node].kind));
    return node;
}

static void assert_string_at(struct json_output *o, const char *pointer, const char *expected)
{
    uint32_t node = at_pointer(o, pointer, JSON_STRING);
    if (!json_node_string_equals(&o->doc, node, expected, strlen(expected)))
        fail_msg("%s is not \"%s\"", pointer, expected);
}

static void assert_int_at(struct json_output *o, const char *pointer, int64_t expected)
{
    int64_t value = -1;
    assert_true(json_node_int64(&o->doc, at_pointer(o, pointer, JSON_NUMBER), &value));
    if (value != expected)
        fail_msg("%s is %lld, expected %lld", pointer, (long long)value, (long long)expected);
}

/* ---- fixtures ---- */

/* A source whose third line misses a comma after 8080; é and 😀 before it make the column
 * depend on how characters are counted (40th code point, UTF-16 unit 40 from 0). */
static const char missing_comma[] =
    "{\n"
    "  \"type\": \"X\",\n"
    "  \"config\": {\"note\": \"\xC3\xA9\xF0\x9F\x98\x80\", \"port\": 8080 \"host\": \"h\"}\n"
    "}\n";
static const char missing_comma_line[] =
    "bad.source.json:3:40: error: expected ',' or '}' after the value of \"port\" [json-syntax]";

static int setup(void **state)
{
    (void)state;
    return scratch_create("check-cli");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

/* ---- tests ---- */

static void test_valid_source_exits_0_with_a_summary(void **state)
{
    (void)state;
    char *text = example("01-search-service.source.json");
    write_file("good.source.json", text);
    free(text);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "good.source.json", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.out, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 hints\n");
    assert_string_equal(r.err, "");
    run_free(&r);
}

static void test_syntax_error_exits_1_with_a_located_line(void **state)
{
    (void)state;
    write_file("bad.source.json", missing_comma);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "bad.source.json", NULL});
    assert_exit(&r, 1);
    assert_line(&r, missing_comma_line);
    assert_non_null(strstr(r.out, "\nchecked 1 file: "));
    run_free(&r);

    /* --color never is plain text too; --color always marks it up */
    r = run_srcls(NULL, (const char *[]){"--check", "--color", "never", "bad.source.json", NULL});
    assert_line(&r, missing_comma_line);
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--color=always", "bad.source.json", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "\033["));
    run_free(&r);
}

static void test_duplicate_key_adds_a_note_at_the_first(void **state)
{
    (void)state;
    write_file("dup.source.json", "{\"type\": \"X\",\n"
                                  " \"config\": {\"port\": 1,\n"
                                  "            \"port\": 2}}\n");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "dup.source.json", NULL});
    assert_exit(&r, 1);
    static const char error_line[] =
        "dup.source.json:3:13: error: duplicate key \"port\": it is already defined in this "
        "object, and only one of the two takes effect [duplicate-key]";
    assert_line(&r, error_line);
    /* the note follows its error */
    char expected[512];
    snprintf(expected, sizeof expected, "%s\ndup.source.json:2:13: note: first defined here\n",
             error_line);
    if (strstr(r.out, expected) == NULL)
        fail_msg("no note line after the error in:\n%s", r.out);
    run_free(&r);
}

static void test_json_format_describes_files_and_diagnostics(void **state)
{
    (void)state;
    write_file("bad.source.json", missing_comma);
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--format", "json", "bad.source.json", NULL});
    assert_exit(&r, 1);
    struct json_output o;
    parse_output(&o, &r);
    assert_int_at(&o, "/version", 1);
    assert_int_equal(json_child_count(&o.doc, at_pointer(&o, "/files", JSON_ARRAY)), 1);
    assert_string_at(&o, "/files/0/path", "bad.source.json");
    assert_string_at(&o, "/files/0/document", "source");
    at_pointer(&o, "/files/0/kind", JSON_NULL);
    uint32_t diagnostics = at_pointer(&o, "/files/0/diagnostics", JSON_ARRAY);
    uint32_t count = json_child_count(&o.doc, diagnostics);
    uint32_t found = JSON_NONE;
    for (uint32_t i = 0; i < count && found == JSON_NONE; i++) {
        uint32_t code = json_object_get(&o.doc, json_array_get(&o.doc, diagnostics, i), "code", 4);
        if (json_node_string_equals(&o.doc, code, "json-syntax", 11))
            found = i;
    }
    if (found == JSON_NONE)
        fail_msg("no json-syntax diagnostic in:\n%s", r.out);
    char base[64], pointer[128];
    snprintf(base, sizeof base, "/files/0/diagnostics/%u", found);
    static const struct {
        const char *field;
        int64_t value;
    } range[] = {
        {"start/line", 2}, {"start/character", 40}, {"end/line", 2}, {"end/character", 40}};
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++) {
        snprintf(pointer, sizeof pointer, "%s/range/%s", base, range[i].field);
        assert_int_at(&o, pointer, range[i].value); /* 0-based, UTF-16 units (😀 is two) */
    }
    snprintf(pointer, sizeof pointer, "%s/pointer", base);
    assert_string_at(&o, pointer, "/config/port");
    snprintf(pointer, sizeof pointer, "%s/severity", base);
    assert_string_at(&o, pointer, "error");
    snprintf(pointer, sizeof pointer, "%s/message", base);
    assert_string_at(&o, pointer, "expected ',' or '}' after the value of \"port\"");
    assert_int_at(&o, "/summary/files", 1);
    at_pointer(&o, "/summary/errors", JSON_NUMBER);
    json_doc_free(&o.doc);
    run_free(&r);
}

static void test_dash_reads_standard_input(void **state)
{
    (void)state;
    char *text = example("01-search-service.source.json");
    struct run r = run_srcls(text, (const char *[]){"--check", "-", NULL});
    free(text);
    assert_exit(&r, 0);
    assert_line(&r, "checked 1 file: 0 errors, 0 warnings, 0 information, 0 hints");
    run_free(&r);

    r = run_srcls("{\"type\": \"X\",\n \"config\": {\"a\": tru}}",
                  (const char *[]){"--check", "-", NULL});
    assert_exit(&r, 1);
    assert_line(&r, "<stdin>:2:18: error: invalid value: expected a string (in double quotes), a "
                    "number, an object, an array, true, false or null [json-syntax]");
    run_free(&r);
}

static void test_missing_path_exits_2_and_reports_the_others(void **state)
{
    (void)state;
    write_file("bad.source.json", missing_comma);
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "missing.json", "bad.source.json", NULL});
    assert_exit(&r, 2);
    char line[256];
    snprintf(line, sizeof line, "missing.json: error: cannot read: %s", strerror(ENOENT));
    assert_line(&r, line);
    assert_line(&r, missing_comma_line);
    assert_non_null(strstr(r.out, " (1 path could not be read)\n"));
    run_free(&r);

    /* the JSON output stays one valid object, with the unreadable file in it */
    r = run_srcls(NULL, (const char *[]){"--check", "--format=json", "bad.source.json",
                                         "missing.json", NULL});
    assert_exit(&r, 2);
    struct json_output o;
    parse_output(&o, &r);
    assert_int_equal(json_child_count(&o.doc, at_pointer(&o, "/files", JSON_ARRAY)), 2);
    assert_string_at(&o, "/files/0/path", "bad.source.json");
    assert_string_at(&o, "/files/1/path", "missing.json");
    assert_string_at(&o, "/files/1/document", "unknown");
    at_pointer(&o, "/files/1/error", JSON_STRING);
    assert_int_equal(json_child_count(&o.doc, at_pointer(&o, "/files/1/diagnostics", JSON_ARRAY)),
                     0);
    json_doc_free(&o.doc);
    run_free(&r);
}

/* A directory is searched for *.json documents that are ours: others are skipped silently,
 * and so are hidden directories and node_modules. */
static void test_directory_is_searched_for_documents(void **state)
{
    (void)state;
    char *text = example("01-search-service.source.json");
    write_file("tree/good.json", text); /* a source by its content */
    free(text);
    write_file("tree/b/x.source.json", "{\"type\": "); /* broken, but ours by its name */
    write_file("tree/a/other.json", "{\"a\": 1");      /* broken and not ours */
    write_file("tree/a/package.json", "{\"name\": \"x\"}");
    write_file("tree/a/notes.txt", "not json");
    write_file("tree/.hidden/y.source.json", "{");
    write_file("tree/node_modules/z.source.json", "{");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "tree", NULL});
    assert_exit(&r, 1);
    assert_line(&r, "tree/b/x.source.json:1:10: error: expected a value for the key \"type\" "
                    "[json-syntax]");
    static const char *const skipped[] = {"other.json", "package.json", "notes.txt",
                                          ".hidden",    "node_modules", "good.json"};
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++) {
        if (strstr(r.out, skipped[i]) != NULL)
            fail_msg("%s is reported:\n%s", skipped[i], r.out);
    }
    assert_non_null(strstr(r.out, "\nchecked 2 files: ")); /* x.source.json and good.json */
    assert_string_equal(r.err, "");
    run_free(&r);

    r = run_srcls(NULL, (const char *[]){"--check", "tree/", NULL}); /* a trailing slash */
    assert_line(&r, "tree/b/x.source.json:1:10: error: expected a value for the key \"type\" "
                    "[json-syntax]");
    run_free(&r);
}

/* --exclude: a glob without '/' skips entries by name at any depth, one with '/' by path; a file
 * named on the command line is checked even when a glob matches it. */
static void test_exclude_skips_matching_entries_of_a_scan(void **state)
{
    (void)state;
    static const char broken[] = "{\"type\": ";
    write_file("excl/keep.source.json", broken);
    write_file("excl/legacy/old.source.json", broken);
    write_file("excl/sub/legacy/deep.source.json", broken);
    write_file("excl/sub/drop-1.source.json", broken);
    write_file("excl/sub/keep.source.json", broken);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--exclude", "legacy", "--exclude",
                                                    "excl/sub/drop-*", "excl", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "excl/keep.source.json:1:10: "));
    assert_non_null(strstr(r.out, "excl/sub/keep.source.json:1:10: "));
    static const char *const skipped[] = {"old.source.json", "deep.source.json", "drop-1"};
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++) {
        if (strstr(r.out, skipped[i]) != NULL)
            fail_msg("%s is reported:\n%s", skipped[i], r.out);
    }
    assert_non_null(strstr(r.out, "\nchecked 2 files: "));
    run_free(&r);

    /* "./" before the path does not change what a path glob matches */
    r = run_srcls(NULL, (const char *[]){"--check", "--exclude=excl/sub/*", "./excl", NULL});
    assert_non_null(strstr(r.out, "\nchecked 2 files: ")); /* keep and legacy/old */
    if (strstr(r.out, "sub/") != NULL)
        fail_msg("excl/sub is reported:\n%s", r.out);
    run_free(&r);

    /* "**" spans directories (the dialect of srcls.json's globs): every .source.json at any
     * depth below excl/sub, none left but what is above it */
    r = run_srcls(NULL,
                  (const char *[]){"--check", "--exclude=excl/sub/**/*.source.json", "excl", NULL});
    assert_non_null(strstr(r.out, "\nchecked 2 files: ")); /* keep and legacy/old */
    if (strstr(r.out, "sub/") != NULL)
        fail_msg("a file below excl/sub is reported:\n%s", r.out);
    run_free(&r);

    r = run_srcls(NULL, (const char *[]){"--check", "--exclude", "legacy",
                                         "excl/legacy/old.source.json", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "excl/legacy/old.source.json:1:10: "));
    run_free(&r);
}

/* The "path:" of each finding line of a text report, each once, sorted, joined by '\n'. */
static char *finding_paths(const char *out)
{
    static char paths[64][64];
    size_t count = 0;
    for (const char *line = out; *line != '\0' && count < 64;) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', len);
        if (colon != NULL && strncmp(line, "shard/", 6) == 0 && (size_t)(colon - line) < 64) {
            char path[64];
            snprintf(path, sizeof path, "%.*s", (int)(colon - line), line);
            bool seen = false;
            for (size_t i = 0; i < count; i++)
                seen |= strcmp(paths[i], path) == 0;
            if (!seen)
                strcpy(paths[count++], path);
        }
        line += len + (end != NULL);
    }
    qsort(paths, count, sizeof paths[0], (int (*)(const void *, const void *))strcmp);
    char *joined = calloc(count * 65 + 1, 1);
    for (size_t i = 0; i < count; i++) {
        strcat(joined, paths[i]);
        strcat(joined, "\n");
    }
    return joined;
}

/* --shard I/N: the N shards of a scan are disjoint and together check every file once, with
 * the findings of a run without --shard; a file's shard does not depend on how the path named
 * is written ("shard", "./shard/"). */
static void test_shards_split_a_scan_and_cover_it(void **state)
{
    (void)state;
    for (int i = 0; i < 24; i++) {
        char name[64];
        snprintf(name, sizeof name, "shard/d%02d/s%02d.source.json", i % 5, i);
        write_file(name, "{\"type\": ");
    }
    struct run whole = run_srcls(NULL, (const char *[]){"--check", "shard", NULL});
    assert_exit(&whole, 1);
    char *all = finding_paths(whole.out);
    assert_int_equal(occurrences(all, "\n"), 24);
    for (unsigned n = 1; n <= 5; n++) {
        char *seen = calloc(24 * 65 + 1, 1);
        unsigned total = 0;
        for (unsigned i = 1; i <= n; i++) {
            char shard[16];
            snprintf(shard, sizeof shard, "%u/%u", i, n);
            struct run r =
                run_srcls(NULL, (const char *[]){"--check", "--shard", shard, "shard", NULL});
            struct run again =
                run_srcls(NULL, (const char *[]){"--check", "--shard", shard, "./shard/", NULL});
            if (r.exit_status > 1 || strstr(r.err, "nothing checked") != NULL)
                fail_msg("--shard %s: status %d, stderr:\n%s", shard, r.exit_status, r.err);
            char *mine = finding_paths(r.out), *mine_again = finding_paths(again.out);
            assert_int_equal(occurrences(mine, "\n"), occurrences(mine_again, "\n"));
            total += occurrences(mine, "\n");
            strcat(seen, mine);
            free(mine);
            free(mine_again);
            run_free(&r);
            run_free(&again);
        }
        assert_int_equal(total, 24); /* disjoint, and together every file */
        for (const char *p = all; *p != '\0'; p = strchr(p, '\n') + 1) {
            char path[66];
            snprintf(path, sizeof path, "%.*s\n", (int)(strchr(p, '\n') - p), p);
            if (strstr(seen, path) == NULL)
                fail_msg("no shard of %u checked %s", n, path);
        }
        free(seen);
    }
    free(all);
    run_free(&whole);
}

/* --shard takes I/N with 1 <= I <= N; --write-baseline records the whole run, not a shard. */
static void test_shard_usage_errors(void **state)
{
    (void)state;
    write_file("shard-usage/a.source.json", "{\"type\": ");
    static const char *const bad[] = {"0/2", "3/2", "x", "1/0", "1/", "/2", "1/2/3", "1/1025"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct run r =
            run_srcls(NULL, (const char *[]){"--check", "--shard", bad[i], "shard-usage", NULL});
        assert_exit(&r, 2);
        assert_non_null(strstr(r.err, "--shard takes I/N"));
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--shard", "1/2", "--write-baseline",
                                                    "b.json", "shard-usage", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--write-baseline records the findings of the whole run"));
    run_free(&r);
}

/* In a git work tree a scan skips what git ignores (.gitignore, .git/info/exclude), as ruff
 * does; --no-respect-gitignore scans it too; a path named on the command line is checked. */
static void test_scan_skips_what_git_ignores(void **state)
{
    (void)state;
    if (system("git --version >/dev/null 2>&1") != 0)
        skip(); /* no git here: nothing to ask */
    assert_int_equal(system("git init -q gitrepo"), 0);
    static const char broken[] = "{\"type\": ";
    write_file("gitrepo/.gitignore", "generated/\n*.tmp.source.json\n");
    write_file("gitrepo/.git/info/exclude", "private.source.json\n");
    write_file("gitrepo/keep.source.json", broken);
    write_file("gitrepo/generated/a.source.json", broken);
    write_file("gitrepo/sub/b.tmp.source.json", broken);
    write_file("gitrepo/sub/private.source.json", broken);
    struct run r = run_srcls(NULL, (const char *[]){"--check", "gitrepo", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "gitrepo/keep.source.json:1:10: "));
    assert_non_null(strstr(r.out, "\nchecked 1 file: "));
    run_free(&r);

    r = run_srcls(NULL, (const char *[]){"--check", "--no-respect-gitignore", "gitrepo", NULL});
    assert_non_null(strstr(r.out, "gitrepo/generated/a.source.json:1:10: "));
    assert_non_null(strstr(r.out, "gitrepo/sub/private.source.json:1:10: "));
    assert_non_null(strstr(r.out, "\nchecked 4 files: "));
    run_free(&r);

    /* from inside the work tree, and a named ignored file */
    r = run_srcls(
        NULL, (const char *[]){"--check", "gitrepo/sub", "gitrepo/generated/a.source.json", NULL});
    assert_non_null(strstr(r.out, "gitrepo/generated/a.source.json:1:10: "));
    assert_null(strstr(r.out, "b.tmp.source.json"));
    assert_non_null(strstr(r.out, "\nchecked 1 file: "));
    run_free(&r);
}

/* srcls.json's "exclude" skips what a scan meets below it (a glob with '/' from its own
 * directory, one without by name), its "include" adds files checked as documents whatever
 * their name; both hold whatever directory srcls runs from, and named paths are checked. Their
 * globs are the dialect of "ignore": "**" spans any number of directories, none included. */
static void test_srcls_json_include_and_exclude_shape_a_scan(void **state)
{
    (void)state;
    static const char broken[] = "{\"type\": ";
    write_file("scan/srcls.json", "{\"exclude\": [\"legacy\", \"gen/*\", \"archive/**\"], "
                                  "\"include\": [\"conf/**/*.conf\"]}");
    write_file("scan/keep.source.json", broken);
    write_file("scan/sub/legacy/old.source.json", broken);
    write_file("scan/gen/made.source.json", broken);
    write_file("scan/sub/gen/kept.source.json", broken); /* the gen glob is from scan/ only */
    write_file("scan/archive/2024/q1/made.source.json", broken);
    write_file("scan/conf/app.conf", broken);
    write_file("scan/conf/deep/er/app.conf", broken);
    write_file("scan/conf/notes.txt", "not json");
    static const char *const from[][2] = {{"scan", "scan/"}, {"./scan", "scan/"}};
    for (size_t k = 0; k < 2; k++) {
        struct run r = run_srcls(NULL, (const char *[]){"--check", from[k][0], NULL});
        assert_exit(&r, 1);
        char expected[5][96];
        snprintf(expected[0], 96, "%skeep.source.json:1:10: ", from[k][1]);
        snprintf(expected[1], 96, "%ssub/gen/kept.source.json:1:10: ", from[k][1]);
        snprintf(expected[2], 96, "%sconf/app.conf:1:10: ", from[k][1]);
        snprintf(expected[3], 96, "%sconf/app.conf:1:1: warning: ", from[k][1]);
        snprintf(expected[4], 96, "%sconf/deep/er/app.conf:1:10: ", from[k][1]);
        for (size_t i = 0; i < 5; i++) {
            if (strstr(r.out, expected[i]) == NULL)
                fail_msg("no \"%s\" in:\n%s", expected[i], r.out);
        }
        assert_null(strstr(r.out, "old.source.json"));
        assert_null(strstr(r.out, "made.source.json"));
        assert_null(strstr(r.out, "notes.txt"));
        assert_non_null(strstr(r.out, "\nchecked 4 files: "));
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "scan/gen/made.source.json", NULL});
    assert_non_null(strstr(r.out, "scan/gen/made.source.json:1:10: "));
    run_free(&r);

    /* a glob that is not a string is a mistake of the configuration, placed */
    write_file("scan/srcls.json", "{\"exclude\": \"legacy\"}");
    r = run_srcls(NULL, (const char *[]){"--check", "scan", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls.json:1:2: must be an array of globs (strings)\n"));
    run_free(&r);
}

static void test_named_file_that_is_not_a_document_gets_unknown_document(void **state)
{
    (void)state;
    write_file("plain.json", "{\"a\": 1}\n");
    struct run r = run_srcls(NULL, (const char *[]){"--check", "plain.json", NULL});
    assert_exit(&r, 0); /* a warning */
    static const char suffix[] = " [unknown-document]";
    const char *line = strstr(r.out, "plain.json:1:1: warning: ");
    const char *end = line ? strchr(line, '\n') : NULL;
    if (end == NULL || end - line < (ptrdiff_t)sizeof suffix ||
        memcmp(end - (sizeof suffix - 1), suffix, sizeof suffix - 1) != 0)
        fail_msg("no unknown-document warning at 1:1 in:\n%s", r.out);
    assert_line(&r, "checked 1 file: 0 errors, 1 warning, 0 information, 0 hints");
    run_free(&r);
}

static void test_usage_errors_exit_2_on_stderr(void **state)
{
    (void)state;
    write_file("plain.json", "{\"a\": 1}\n");
    static const char *const bad[][4] = {
        {"--check", "--format", "bogus", "plain.json"},
        {"--check", "--color", "sometimes", "plain.json"},
        {"--check", "--no-such-option", "plain.json", NULL},
        {"--check", NULL, NULL, NULL},
        {"plain.json", NULL, NULL, NULL},
        {"--stdio", "--check", "plain.json", NULL},
        {"--stdio", "plain.json", NULL, NULL},
        {"--stdio", "--list-kinds", NULL, NULL},
        {"--format", "json", NULL, NULL}, /* an option of --check without it */
        {"--fix", "--stdio", NULL, NULL},
        {"--check", "--jobs", "0", "plain.json"},
        {"--check", "--jobs", "x", "plain.json"},
        {"--jobs", "2", "plain.json", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *args[5] = {bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL};
        struct run r = run_srcls(NULL, args);
        assert_exit(&r, 2);
        assert_string_equal(r.out, "");
        if (strncmp(r.err, "srcls: ", 7) != 0 || strstr(r.err, "\nusage: srcls") == NULL)
            fail_msg("no usage message for %s %s:\n%s", bad[i][0], bad[i][1] ? bad[i][1] : "",
                     r.err);
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--format", "bogus", "x", NULL});
    assert_non_null(strstr(r.err, "'bogus'"));
    run_free(&r);
    /* getopt_long's conventions: a missing argument is named, options and paths mix, -- ends
     * the options */
    r = run_srcls(NULL, (const char *[]){"--check", "plain.json", "--format", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls: option '--format' requires an argument\n"));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"plain.json", "--check", "--format=json", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "\"version\": 1"));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--", "--format", NULL});
    assert_exit(&r, 2); /* "--format" is a path here: it cannot be read */
    assert_non_null(strstr(r.out, "--format: "));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "-z", "plain.json", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "srcls: unknown option '-z'\n"));
    run_free(&r);
}

/* What the option table (server/cli/options.c) decides: every option of --check without it is
 * named, the first one given; --NAME=VALUE for an option that takes none is said as such; the
 * value sets of the usage errors and of --generate-docs formats are the tables'. */
static void test_the_option_table_drives_the_command_line(void **state)
{
    (void)state;
    static const struct {
        const char *args[4];
        const char *err; /* the first line of stderr */
    } cases[] = {
        {{"--unsafe-fixes", NULL}, "srcls: --unsafe-fixes is an option of --check\n"},
        {{"--no-show-source", NULL}, "srcls: --no-show-source is an option of --check\n"},
        {{"--select", "security", "--fix", NULL}, "srcls: --select is an option of --check\n"},
        {{"--fix", "--select", "security", NULL}, "srcls: --fix is an option of --check\n"},
        {{"--format", "json", "--list-kinds", "-q"}, "srcls: --quiet is an option of --check\n"},
        {{"--check=x", NULL}, "srcls: option '--check' takes no argument\n"},
        {{"--quiet=1", NULL}, "srcls: option '--quiet' takes no argument\n"},
        {{"--check", "--fail-on", "off", "x.json"},
         "srcls: --fail-on takes error, warning, information or hint (got 'off')\n"},
        {{"--check", "--format", "xml", "x.json"},
         "srcls: --format takes text, json, sarif, github or gitlab (got 'xml')\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[5] = {cases[i].args[0], cases[i].args[1], cases[i].args[2],
                               cases[i].args[3], NULL};
        struct run r = run_srcls("", args);
        assert_exit(&r, 2);
        if (strncmp(r.err, cases[i].err, strlen(cases[i].err)) != 0)
            fail_msg("srcls %s ...: stderr\n%s\nnot\n%s", args[0], r.err, cases[i].err);
        run_free(&r);
    }
    struct run r = run_srcls(NULL, (const char *[]){"--generate-docs", "formats", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.out, "text\njson\nsarif\ngithub\ngitlab\n");
    run_free(&r);
}

/* A report that does not reach standard output (a full disk here; a closed pipe alike) is not
 * success: exit 2, and stderr says why. The same for the other actions' output. */
static void test_output_that_cannot_be_written_exits_2(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (full == NULL) {
        print_message("no /dev/full here: skipped\n");
        harness_skipped++;
        skip();
    }
    fclose(full);
    write_file("bad.source.json", "{\"type\": \"NO_SUCH_KIND\", \"config\": {}}\n");
    struct run_options options = {.stdout_path = "/dev/full"};
    static const char *const formats[] = {"text", "json", "sarif", "github"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        struct run r = run_srcls_with(
            &options, (const char *[]){"--check", "--format", formats[i], "bad.source.json", NULL});
        assert_exit(&r, 2);
        if (strstr(r.err, "srcls: cannot write the report: ") == NULL)
            fail_msg("--format %s to /dev/full; stderr:\n%s", formats[i], r.err);
        run_free(&r);
    }
    static const char *const actions[][3] = {
        {"--list-kinds", NULL, NULL}, {"--explain", "unknown-field", NULL}, {"--help", NULL, NULL}};
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
        struct run r = run_srcls_with(&options, actions[i]);
        assert_exit(&r, 2);
        if (strstr(r.err, "srcls: cannot write the output: ") == NULL)
            fail_msg("%s to /dev/full; stderr:\n%s", actions[i][0], r.err);
        run_free(&r);
    }
}

static void test_help_and_version(void **state)
{
    (void)state;
    struct run r = run_srcls(NULL, (const char *[]){"--help", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "--check"));
    assert_non_null(strstr(r.out, "--format"));
    assert_string_equal(r.err, "");
    run_free(&r);

    r = run_srcls(NULL, (const char *[]){"--version", NULL});
    assert_exit(&r, 0);
    if (strncmp(r.out, "srcls ", 6) != 0 || r.out[6] < '0' || r.out[6] > '9' ||
        strchr(r.out, '\n') != r.out + strlen(r.out) - 1)
        fail_msg("--version printed \"%s\"", r.out);
    run_free(&r);
}

/* --jobs 4 reports the same bytes, in the same order, with the same exit status as --jobs 1. */
static void test_jobs_give_the_same_output_as_one_thread(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "{\"a\": 1,}\n", "{\"kind\": 1, \"kind\": 2}\n", missing_comma, "[1, 2\n", "{\"a\": 1}\n",
    };
    char name[64];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "many/d%02d/f%03d.%s.json", i % 7, i, i % 3 ? "source" : "job");
        write_file(name, bodies[i % 5]);
    }
    static const char *const formats[] = {"text", "json", "sarif", "github"};
    for (size_t f = 0; f < 4; f++) {
        const char *one[] = {"--check", "--format", formats[f], "--jobs", "1", "many", NULL};
        const char *four[] = {"--check", "--format", formats[f], "--jobs=4", "many", NULL};
        struct run a = run_srcls(NULL, one), b = run_srcls(NULL, four);
        assert_int_equal(a.exit_status, 1);
        assert_int_equal(b.exit_status, a.exit_status);
        assert_string_equal(b.out, a.out);
        assert_string_equal(b.err, a.err);
        assert_true(strlen(a.out) > 1000);
        run_free(&a);
        run_free(&b);
    }
}

/* --color auto: FORCE_COLOR asks for color where stdout is no terminal (CI logs that show it),
 * and wins over NO_COLOR; NO_COLOR alone, or FORCE_COLOR=0, gives none. */
static void test_force_color_and_no_color(void **state)
{
    (void)state;
    write_file("bad.source.json", missing_comma);
    static const struct {
        const char *force, *no;
        bool colored;
    } cases[] = {
        {"1", NULL, true},  {"1", "1", true},    {NULL, "1", false},
        {"0", NULL, false}, {NULL, NULL, false}, /* not a terminal */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (cases[i].force)
            setenv("FORCE_COLOR", cases[i].force, 1);
        else
            unsetenv("FORCE_COLOR");
        if (cases[i].no)
            setenv("NO_COLOR", cases[i].no, 1);
        else
            unsetenv("NO_COLOR");
        struct run r = run_srcls(NULL, (const char *[]){"--check", "bad.source.json", NULL});
        assert_exit(&r, 1);
        if ((strstr(r.out, "\033[") != NULL) != cases[i].colored)
            fail_msg("FORCE_COLOR=%s NO_COLOR=%s: %s", cases[i].force ? cases[i].force : "-",
                     cases[i].no ? cases[i].no : "-", r.out);
        run_free(&r);
    }
    unsetenv("FORCE_COLOR");
    unsetenv("NO_COLOR");
}

/* --list-kinds --format json for scripts and editor extensions; an action takes no PATH. */
static void test_list_kinds_as_json_and_actions_take_no_path(void **state)
{
    (void)state;
    struct run r = run_srcls(NULL, (const char *[]){"--list-kinds", "--format", "json", NULL});
    assert_exit(&r, 0);
    assert_true(strncmp(r.out, "{\n  \"kinds\": [", strlen("{\n  \"kinds\": [")) == 0);
    unsigned kinds = 0;
    for (const char *p = r.out; (p = strstr(p, "\"number\": ")) != NULL; p++)
        kinds++;
    assert_int_equal(kinds, 25);
    assert_non_null(strstr(r.out, "\"HIVE_METASTORE_2\",\n        \"HIVE_METASTORE_3\""));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--list-kinds", "extra", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "take no PATH (got 'extra')"));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--list-kinds", "--format", "sarif", NULL});
    assert_exit(&r, 2);
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--list-kinds", "--fix", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--fix is an option of --check"));
    run_free(&r);
    /* --format is the one option of --check it takes: with another, that one is named */
    r = run_srcls(NULL, (const char *[]){"--list-kinds", "--format", "json", "--quiet", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--quiet is an option of --check"));
    run_free(&r);
}

/* The examples with an error (bad-object-storage) and only a hint (bad-no-type), side by side. */
static void write_two_examples(void)
{
    static const char *const names[] = {"bad-object-storage.source.json",
                                        "bad-no-type.source.json"};
    for (size_t i = 0; i < 2; i++) {
        char *text = example(names[i]);
        write_file(names[i], text);
        free(text);
    }
}

static void test_statistics_count_each_code_most_first(void **state)
{
    (void)state;
    write_two_examples();
    struct run r = run_srcls(NULL, (const char *[]){"--check", "--statistics",
                                                    "bad-object-storage.source.json",
                                                    "bad-no-type.source.json", NULL});
    assert_exit(&r, 1);
    assert_line(
        &r, "     1  conditional-required   a field required by another field's value is absent");
    assert_line(
        &r,
        "     1  kind-inferred          no \"type\": the kind was inferred from the config keys");
    assert_null(strstr(r.out, ".source.json:")); /* no diagnostic line */
    assert_non_null(strstr(r.out, "\nchecked 2 files: "));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--statistics", "--format", "json",
                                         "bad-no-type.source.json", NULL});
    assert_exit(&r, 2);
    run_free(&r);
}

static void test_quiet_leaves_out_the_summary(void **state)
{
    (void)state;
    write_two_examples();
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--quiet", "bad-no-type.source.json", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "bad-no-type.source.json:3:3: hint: "));
    assert_null(strstr(r.out, "checked "));
    run_free(&r);
}

static void test_fail_on_and_exit_zero_decide_the_status(void **state)
{
    (void)state;
    write_two_examples();
    static const struct {
        const char *option, *value, *file;
        int status;
    } cases[] = {
        {"--fail-on", "error", "bad-no-type.source.json", 0},
        {"--fail-on", "information", "bad-no-type.source.json", 0},
        {"--fail-on", "hint", "bad-no-type.source.json", 1},
        {"--fail-on", "warning", "bad-object-storage.source.json", 1},
        {"--exit-zero", NULL, "bad-object-storage.source.json", 0},
        {"--fail-on", "loud", "bad-no-type.source.json", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *args[6] = {"--check", cases[i].option};
        size_t n = 2;
        if (cases[i].value)
            args[n++] = cases[i].value;
        args[n++] = cases[i].file;
        args[n] = NULL;
        struct run r = run_srcls(NULL, args);
        if (r.exit_status != cases[i].status)
            fail_msg("%s %s %s: exit %d, not %d", cases[i].option,
                     cases[i].value ? cases[i].value : "", cases[i].file, r.exit_status,
                     cases[i].status);
        run_free(&r);
    }
    /* --exit-zero never hides an unreadable path */
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--exit-zero", "missing.json", NULL});
    assert_exit(&r, 2);
    run_free(&r);
}

static void test_output_file_takes_the_report(void **state)
{
    (void)state;
    write_two_examples();
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--format", "json", "--output-file",
                                         "report.json", "bad-no-type.source.json", NULL});
    assert_exit(&r, 0);
    assert_string_equal(r.out, "");
    char *report = read_all("report.json");
    assert_non_null(strstr(report, "\"kind-inferred\""));
    free(report);
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--output-file", "no/such/dir/report.txt",
                                         "bad-no-type.source.json", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "cannot write no/such/dir/report.txt"));
    run_free(&r);
}

/* --select and --ignore decide which codes are reported, over srcls.json. */
static void test_select_and_ignore_codes(void **state)
{
    (void)state;
    write_two_examples();
    write_file("srcls.json", "{\"rules\": {\"unknown-field\": \"error\"}}");
    struct run r = run_srcls(
        NULL, (const char *[]){"--check", "--select", "unknown-field,kind-inferred",
                               "bad-object-storage.source.json", "bad-no-type.source.json", NULL});
    assert_exit(&r, 1); /* unknown-field is an error here (srcls.json) */
    assert_non_null(strstr(r.out, "[unknown-field]"));
    assert_non_null(strstr(r.out, "[kind-inferred]"));
    assert_null(strstr(r.out, "[invalid-enum]"));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--ignore", "unknown-field",
                                         "bad-object-storage.source.json", NULL});
    assert_null(strstr(r.out, "[unknown-field]"));
    assert_non_null(strstr(r.out, "[invalid-enum]"));
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "--select", "unknown-field,nope",
                                         "bad-no-type.source.json", NULL});
    assert_exit(&r, 2);
    assert_non_null(strstr(r.err, "--select: unknown code 'nope'"));
    run_free(&r);
    remove("srcls.json");
}

/* --stdin-filename names standard input in the report and finds its srcls.json. */
static void test_stdin_filename_names_stdin_and_finds_its_config(void **state)
{
    (void)state;
    char *text = example("bad-no-type.source.json");
    write_file("sub/srcls.json", "{\"rules\": {\"kind-inferred\": \"error\"}}");
    struct run r = run_srcls(
        text, (const char *[]){"--check", "--stdin-filename", "sub/x.source.json", "-", NULL});
    assert_exit(&r, 1);
    assert_non_null(strstr(r.out, "sub/x.source.json:3:3: error: "));
    run_free(&r);
    r = run_srcls(text, (const char *[]){"--check", "-", NULL});
    assert_exit(&r, 0);
    assert_non_null(strstr(r.out, "<stdin>:3:3: hint: "));
    run_free(&r);
    free(text);
    remove("sub/srcls.json");
}

/* --show-source: the line and carets under the range, the related place too; a long line is
 * cut around the range; not on a terminal, one line each (the default here). */
static void test_show_source_draws_code_frames(void **state)
{
    (void)state;
    write_file("dup.source.json", "{\"type\": \"SEARCH_INDEX\",\n"
                                  " \"config\": {\"port\": 1,\n"
                                  "            \"port\": 2}}\n");
    struct run r =
        run_srcls(NULL, (const char *[]){"--check", "--show-source", "dup.source.json", NULL});
    assert_exit(&r, 1);
    const char *expected =
        "dup.source.json:3:13: error: duplicate key \"port\": it is already defined "
        "in this object, and only one of the two takes effect [duplicate-key]\n"
        "    3 |             \"port\": 2}}\n"
        "      |             ^^^^^^\n"
        "dup.source.json:2:13: note: first defined here\n"
        "    2 |  \"config\": {\"port\": 1,\n"
        "      |             ^^^^^^\n";
    if (strstr(r.out, expected) == NULL)
        fail_msg("no frame like\n%s\nin\n%s", expected, r.out);
    run_free(&r);
    r = run_srcls(NULL, (const char *[]){"--check", "dup.source.json", NULL});
    assert_null(strstr(r.out, " | ")); /* not a terminal: no frames */
    run_free(&r);

    char line[1200];
    int n = snprintf(line, sizeof line, "{\"type\": \"SEARCH_INDEX\", \"config\": {");
    for (int i = 0; i < 40; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, "\"k%02d\": %d, ", i, i);
    snprintf(line + n, sizeof line - (size_t)n, "\"hostname\": \"h\"}}");
    write_file("long.source.json", line);
    r = run_srcls(NULL, (const char *[]){"--check", "--show-source", "long.source.json", NULL});
    assert_non_null(strstr(r.out, "    1 | ..."));   /* cut before */
    assert_non_null(strstr(r.out, "...\n      | ")); /* and after */
    assert_non_null(strstr(r.out, "^^^^^\n"));       /* carets under "k20" */
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_show_source_draws_code_frames),
        cmocka_unit_test(test_stdin_filename_names_stdin_and_finds_its_config),
        cmocka_unit_test(test_select_and_ignore_codes),
        cmocka_unit_test(test_statistics_count_each_code_most_first),
        cmocka_unit_test(test_quiet_leaves_out_the_summary),
        cmocka_unit_test(test_fail_on_and_exit_zero_decide_the_status),
        cmocka_unit_test(test_output_file_takes_the_report),
        cmocka_unit_test(test_force_color_and_no_color),
        cmocka_unit_test(test_list_kinds_as_json_and_actions_take_no_path),
        cmocka_unit_test(test_valid_source_exits_0_with_a_summary),
        cmocka_unit_test(test_syntax_error_exits_1_with_a_located_line),
        cmocka_unit_test(test_duplicate_key_adds_a_note_at_the_first),
        cmocka_unit_test(test_json_format_describes_files_and_diagnostics),
        cmocka_unit_test(test_dash_reads_standard_input),
        cmocka_unit_test(test_missing_path_exits_2_and_reports_the_others),
        cmocka_unit_test(test_directory_is_searched_for_documents),
        cmocka_unit_test(test_exclude_skips_matching_entries_of_a_scan),
        cmocka_unit_test(test_shards_split_a_scan_and_cover_it),
        cmocka_unit_test(test_shard_usage_errors),
        cmocka_unit_test(test_scan_skips_what_git_ignores),
        cmocka_unit_test(test_srcls_json_include_and_exclude_shape_a_scan),
        cmocka_unit_test(test_named_file_that_is_not_a_document_gets_unknown_document),
        cmocka_unit_test(test_usage_errors_exit_2_on_stderr),
        cmocka_unit_test(test_the_option_table_drives_the_command_line),
        cmocka_unit_test(test_output_that_cannot_be_written_exits_2),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_jobs_give_the_same_output_as_one_thread),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
