/* fuzz_analysis: the whole core on arbitrary bytes, the way an editor drives it — analysis
 * against the embedded schema (loaded once), then completion and hover at every offset of a
 * small document (an even sample of a larger one), every quick fix applied alone and the safe
 * fix set applied together (each result analysed again), formatting in three styles, and the
 * outline. The input is the document itself, so any JSON file is a seed.
 *
 * Invariants checked, besides memory safety and leaks: diagnostics, completion, hover, fixes
 * and symbols only name ranges inside the text; diagnostics are sorted; the safe fix set is
 * sorted and does not overlap; a fix never breaks the syntax of a document that had none (the
 * safe set not even with a duplicate key); formatting succeeds exactly on documents without
 * errors, gives a document with the same tree, and is idempotent:
 * format(format(x)) == format(x). */
#include <stdbool.h>
#include <string.h>

#include "check/check.h"
#include "assist/assist.h"
#include "json/json.h"
#include "fuzz.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* Offsets at which completion and hover run: every one up to this many, a sample beyond. */
#define MAX_PROBES 257u
/* Diagnostics whose fixes are collected, applied one by one and re-analysed. */
#define MAX_FIXED_DIAGNOSTICS 16u

static struct settings custom_settings;

/* Loads one set of user settings, once per process. */
static void setup(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    /* Severity overrides (one turned off), an extra type identifier and placeholders: the
     * settings paths of the rules, completion and hover. */
    static const char text[] = "{\"rules\": {\"unknown-field\": \"error\", \"kind-inferred\": "
                               "\"off\", \"type-mismatch\": \"hint\"}, \"types\": {\"MY_ID\": "
                               "\"CLOUDA_OBJECT_STORAGE\", \"LEGACY\": \"CLOUDA_WAREHOUSE\"}, "
                               "\"placeholders\": [\"${NAME}\", \"{{ NAME }}\"]}";
    struct json_doc doc;
    FUZZ_CHECK(json_parse(&doc, text, sizeof text - 1, NULL) == 0 && doc.error_count == 0);
    settings_init(&custom_settings);
    settings_read(&custom_settings, &doc, doc.root, NULL, 0);
    json_doc_free(&doc);
}

static uint32_t probe_offset(uint32_t len, uint32_t count, uint32_t i)
{
    return count <= 1 ? 0 : (uint32_t)((uint64_t)i * len / (count - 1));
}

static bool range_inside(uint32_t start, uint32_t end, uint32_t len)
{
    return start <= end && end <= len;
}

static int analyse(struct analysis *a, const char *text, size_t len,
                   const struct settings *settings)
{
    struct analysis_options options = {
        .report_unknown_document = true,
        .registry = fuzz_registry(),
        .settings = settings,
    };
    return analysis_run(a, text, len, &options);
}

static bool has_error(const struct json_doc *doc, enum json_error_code code)
{
    for (uint32_t i = 0; i < doc->error_count; i++) {
        if (doc->errors[i].code == code)
            return true;
    }
    return false;
}

static void check_diagnostics(const struct analysis *a, uint32_t len)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        FUZZ_CHECK(d->message != NULL && d->pointer != NULL);
        FUZZ_CHECK(d->severity >= DIAG_ERROR && d->severity <= DIAG_HINT);
        FUZZ_CHECK(range_inside(d->start, d->end, len));
        if (d->related_start != UINT32_MAX)
            FUZZ_CHECK(range_inside(d->related_start, d->related_end, len));
        FUZZ_CHECK(d->node == JSON_NONE || d->node < a->doc.node_count);
        if (i > 0)
            FUZZ_CHECK(a->diags.items[i - 1].start <= d->start);
    }
}

static void check_features_at(struct analysis *a, const struct settings *settings, uint32_t offset,
                              uint32_t len)
{
    struct completion_list list;
    struct completion_options options = {offset % 2 ? TEXT_MARKDOWN : TEXT_PLAIN,
                                         "2024-05-01T12:30:00.000Z", NULL, 0};
    FUZZ_CHECK(complete_at(a, fuzz_registry(), settings, offset, &options, &list) == 0);
    for (uint32_t i = 0; i < list.count; i++) {
        const struct completion_item *item = &list.items[i];
        FUZZ_CHECK(item->label != NULL && item->text != NULL);
        FUZZ_CHECK(range_inside(item->start, item->end, len));
        FUZZ_CHECK(memchr(item->sort, '\0', sizeof item->sort) != NULL);
        uint32_t at = 0;
        for (uint32_t k = 0; k < item->placeholder_count; k++) {
            const struct completion_placeholder *p = &item->placeholders[k];
            FUZZ_CHECK(at <= p->start);
            FUZZ_CHECK(range_inside(p->start, p->end, (uint32_t)strlen(item->text)));
            at = p->end;
        }
    }
    completion_list_free(&list);

    struct arena arena;
    arena_init(&arena);
    uint32_t start = 0, end = 0;
    const char *markdown = hover_at(a, fuzz_registry(), settings, offset,
                                    offset % 2 ? TEXT_MARKDOWN : TEXT_PLAIN, &arena, &start, &end);
    if (markdown != NULL)
        FUZZ_CHECK(range_inside(start, end, len));
    arena_free(&arena);
}

/* Applies `fixes`, analyses the result and checks what a fix promises. */
static void check_applied(const char *text, size_t len, const struct analysis *before,
                          const struct fix_list *fixes, bool safe_set,
                          const struct settings *settings)
{
    size_t expected = len;
    for (uint32_t i = 0; i < fixes->count; i++) {
        const struct text_edit *e = &fixes->items[i].edit;
        expected += strlen(e->text) - (e->end - e->start);
    }
    size_t out_len = 0;
    char *out = fix_apply(text, len, fixes, &out_len);
    FUZZ_CHECK(out != NULL);
    FUZZ_CHECK(out_len == expected);
    struct analysis after;
    FUZZ_CHECK(analyse(&after, out, out_len, settings) == 0);
    check_diagnostics(&after, (uint32_t)out_len);
    if (before->doc.error_count == 0) {
        FUZZ_CHECK(!has_error(&after.doc, JSON_ERROR_SYNTAX));
        if (safe_set)
            FUZZ_CHECK(after.doc.error_count == 0);
    }
    analysis_free(&after);
    free(out);
}

static void check_fixes(struct analysis *a, const char *text, uint32_t len,
                        const struct settings *settings)
{
    uint32_t diagnostics =
        a->diags.count < MAX_FIXED_DIAGNOSTICS ? a->diags.count : MAX_FIXED_DIAGNOSTICS;
    for (uint32_t i = 0; i < diagnostics; i++) {
        struct fix_list fixes;
        fix_list_init(&fixes);
        FUZZ_CHECK(fix_collect(a, i, &fixes) == 0);
        for (uint32_t k = 0; k < fixes.count; k++) {
            const struct fix *f = &fixes.items[k];
            FUZZ_CHECK(f->title != NULL && f->edit.text != NULL);
            FUZZ_CHECK(f->diagnostic == i);
            FUZZ_CHECK(range_inside(f->edit.start, f->edit.end, len));
            struct fix_list one = {.items = &fixes.items[k], .count = 1, .cap = 1};
            check_applied(text, len, a, &one, false, settings);
        }
        fix_list_free(&fixes);
    }

    struct fix_list safe;
    fix_list_init(&safe);
    FUZZ_CHECK(fix_collect_safe(a, &safe, false, NULL) == 0);
    for (uint32_t k = 0; k < safe.count; k++) {
        const struct fix *f = &safe.items[k];
        FUZZ_CHECK(f->safe);
        FUZZ_CHECK(range_inside(f->edit.start, f->edit.end, len));
        if (k > 0)
            FUZZ_CHECK(f->edit.start >= safe.items[k - 1].edit.end);
    }
    if (safe.count > 0)
        check_applied(text, len, a, &safe, true, settings);
    fix_list_free(&safe);
}

/* The two trees hold the same values: same kinds, keys and scalar texts, node by node (the
 * parser numbers nodes in document order, which formatting keeps). */
static void check_same_tree(const struct json_doc *a, const struct json_doc *b)
{
    FUZZ_CHECK(a->node_count == b->node_count);
    for (uint32_t i = 0; i < a->node_count; i++) {
        const struct json_node *x = &a->nodes[i], *y = &b->nodes[i];
        FUZZ_CHECK(x->kind == y->kind && x->parent == y->parent);
        FUZZ_CHECK((x->key_start == JSON_NONE) == (y->key_start == JSON_NONE));
        if (x->key_start != JSON_NONE)
            FUZZ_CHECK(x->key_end - x->key_start == y->key_end - y->key_start &&
                       memcmp(a->text + x->key_start, b->text + y->key_start,
                              x->key_end - x->key_start) == 0);
        if (x->kind != JSON_OBJECT && x->kind != JSON_ARRAY)
            FUZZ_CHECK(x->end - x->start == y->end - y->start &&
                       memcmp(a->text + x->start, b->text + y->start, x->end - x->start) == 0);
    }
}

static void check_format(const struct json_doc *doc, unsigned indent, bool tabs)
{
    size_t len = 0;
    char *once = format_document(doc, indent, tabs, &len);
    FUZZ_CHECK((once != NULL) == (doc->error_count == 0 && doc->root != JSON_NONE));
    if (once == NULL)
        return;
    FUZZ_CHECK(strlen(once) == len);
    struct json_doc reparsed;
    FUZZ_CHECK(json_parse(&reparsed, once, len, NULL) == 0);
    FUZZ_CHECK(reparsed.error_count == 0);
    check_same_tree(doc, &reparsed);
    size_t len2 = 0;
    char *twice = format_document(&reparsed, indent, tabs, &len2);
    /* Idempotence: formatting a formatted document changes nothing. */
    FUZZ_CHECK(twice != NULL && len2 == len && memcmp(once, twice, len) == 0);
    free(twice);
    json_doc_free(&reparsed);
    free(once);
}

static void check_symbols(const struct symbol *list, uint32_t count, uint32_t len, unsigned depth)
{
    FUZZ_CHECK(depth <= JSON_DEFAULT_MAX_DEPTH);
    for (uint32_t i = 0; i < count; i++) {
        const struct symbol *s = &list[i];
        FUZZ_CHECK(s->name != NULL);
        FUZZ_CHECK(range_inside(s->start, s->end, len));
        FUZZ_CHECK(range_inside(s->selection_start, s->selection_end, len));
        FUZZ_CHECK(s->child_count == 0 || s->children != NULL);
        check_symbols(s->children, s->child_count, len, depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > UINT32_MAX / 2)
        return 0;
    setup();
    const char *text = (const char *)data;
    uint32_t len = (uint32_t)size;
    /* Half the inputs (by length, so that the choice does not change the document) run with
     * the user settings. */
    const struct settings *settings = size % 2 ? &custom_settings : NULL;

    struct analysis a;
    FUZZ_CHECK(analyse(&a, text, len, settings) == 0);
    check_diagnostics(&a, len);

    uint32_t probes = len + 1 <= MAX_PROBES ? len + 1 : MAX_PROBES;
    for (uint32_t i = 0; i < probes; i++)
        check_features_at(&a, settings, probe_offset(len, probes, i), len);

    check_fixes(&a, text, len, settings);

    check_format(&a.doc, 2, false);
    check_format(&a.doc, 0, false);
    check_format(&a.doc, 1, true);

    struct arena arena;
    arena_init(&arena);
    uint32_t count = 0;
    struct symbol *symbols = symbols_of(&a, fuzz_registry(), settings, &arena, &count);
    FUZZ_CHECK(count == 0 || symbols != NULL);
    check_symbols(symbols, count, len, 0);
    arena_free(&arena);

    analysis_free(&a);
    return 0;
}
