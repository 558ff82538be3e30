/* test_analysis_update: an analysis kept up to date edit by edit (analysis_update, falling back
 * to analysis_run where it must, as the language server does) is the analysis of the final text:
 * random edit sequences on a bulk file, a source and a job, each step compared, tree, line index
 * and diagnostics, field by field, with a fresh analysis. The edits lean to what typing does
 * (inside strings, numbers, keys) and include what breaks and mends the syntax, so that both
 * paths run; the test checks that the incremental one carried most of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"
#include "analysed.h"
#include "json/json.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* ---- a seeded generator (xorshift64*), so a failure can be replayed ---- */

static uint64_t rng_state;

static uint32_t rng(uint32_t bound)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717u) >> 33) % (bound ? bound : 1);
}

/* ---- the documents ---- */

static char *read_example(const char *name, size_t *len)
{
    const char *root = getenv("SRCLS_SOURCE_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/examples/%s", root ? root : ".", name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot read %s (is SRCLS_SOURCE_ROOT set?)", path);
    char *text = malloc(1 << 16);
    assert_non_null(text);
    *len = fread(text, 1, (1 << 16) - 1, f);
    text[*len] = '\0';
    fclose(f);
    return text;
}

/* A growable text. */
struct text {
    char *s;
    size_t len, cap;
};

static void text_reserve(struct text *t, size_t len)
{
    if (len + 1 <= t->cap)
        return;
    t->cap = (len + 1) * 2;
    t->s = realloc(t->s, t->cap);
    assert_non_null(t->s);
}

static void text_append(struct text *t, const char *s, size_t len)
{
    text_reserve(t, t->len + len);
    memcpy(t->s + t->len, s, len);
    t->len += len;
    t->s[t->len] = '\0';
}

/* Bytes [start, end) become `with`. */
static void text_replace(struct text *t, uint32_t start, uint32_t end, const char *with, size_t len)
{
    size_t new_len = t->len - (end - start) + len;
    text_reserve(t, new_len);
    memmove(t->s + start + len, t->s + end, t->len - end);
    memcpy(t->s + start, with, len);
    t->len = new_len;
    t->s[new_len] = '\0';
}

/* ---- comparing two analyses ---- */

static void assert_same_string(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* Node `n` of `a` with the bytes it has now: through the move an update with `defer_moves` left
 * pending. */
static struct json_node moved_node(const struct analysis *a, uint32_t n)
{
    struct json_node c = a->doc.nodes[n];
    c.start = json_moved(&a->doc, n, c.start);
    c.end = json_moved(&a->doc, n, c.end);
    if (c.key_start != JSON_NONE) {
        c.key_start = json_moved(&a->doc, n, c.key_start);
        c.key_end = json_moved(&a->doc, n, c.key_end);
    }
    return c;
}

static void assert_same_analysis(const struct analysis *a, const struct analysis *b)
{
    assert_int_equal(a->doc.len, b->doc.len);
    assert_int_equal(a->doc.root, b->doc.root);
    assert_int_equal(a->doc.error_count, b->doc.error_count);
    assert_int_equal(a->doc.errors_dropped, b->doc.errors_dropped);
    for (uint32_t i = 0; i < a->doc.error_count; i++) {
        if (a->doc.errors[i].start != b->doc.errors[i].start) {
            for (uint32_t k = 0; k < a->doc.error_count; k++)
                print_message("  %u: updated %u %s | fresh %u %s\n", k, a->doc.errors[k].start,
                              a->doc.errors[k].message, b->doc.errors[k].start,
                              b->doc.errors[k].message);
            print_message("text: %.*s\n", (int)a->doc.len, a->doc.text);
        }
        const struct json_error *x = &a->doc.errors[i], *y = &b->doc.errors[i];
        assert_int_equal(x->code, y->code);
        assert_int_equal(x->start, y->start);
        assert_int_equal(x->end, y->end);
        assert_int_equal(x->related_start, y->related_start);
        assert_int_equal(x->related_end, y->related_end);
        assert_string_equal(x->message, y->message);
    }
    assert_int_equal(a->doc.node_count, b->doc.node_count);
    for (uint32_t i = 0; i < a->doc.node_count; i++) {
        struct json_node moved = moved_node(a, i);
        const struct json_node *x = &moved, *y = &b->doc.nodes[i];
        assert_int_equal(x->start, y->start);
        assert_int_equal(x->end, y->end);
        assert_int_equal(x->key_start, y->key_start);
        assert_int_equal(x->key_end, y->key_end);
        assert_int_equal(x->parent, y->parent);
        assert_int_equal(x->first_child, y->first_child);
        assert_int_equal(x->next, y->next);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->flags, y->flags);
    }
    assert_int_equal(a->lines.count, b->lines.count);
    for (uint32_t line = 0; line < a->lines.count; line++)
        assert_int_equal(line_index_start(&a->lines, line), line_index_start(&b->lines, line));
    assert_int_equal(a->document, b->document);
    assert_same_string(a->kind, b->kind);
    assert_int_equal(a->element_count, b->element_count);
    if (a->element_count > 0)
        assert_memory_equal(a->elements, b->elements, a->element_count * sizeof(uint32_t));
    if (a->diags.count != b->diags.count) {
        for (int which = 0; which < 2; which++) {
            const struct analysis *x = which ? b : a;
            print_message("%s:\n", which ? "fresh" : "updated");
            for (uint32_t i = 0; i < x->diags.count; i++)
                print_message("  %u-%u %s %s\n", x->diags.items[i].start, x->diags.items[i].end,
                              x->diags.items[i].pointer, x->diags.items[i].message);
        }
    }
    assert_int_equal(a->diags.count, b->diags.count);
    for (uint32_t i = 0; i < a->diags.count; i++) {
        struct diagnostic moved = analysis_diagnostic(a, i); /* through a pending move */
        const struct diagnostic *x = &moved, *y = &b->diags.items[i];
        assert_int_equal(x->code, y->code);
        assert_int_equal(x->severity, y->severity);
        assert_int_equal(x->start, y->start);
        assert_int_equal(x->end, y->end);
        assert_int_equal(x->related_start, y->related_start);
        assert_int_equal(x->related_end, y->related_end);
        assert_same_string(x->related_message, y->related_message);
        assert_same_string(x->message, y->message);
        assert_same_string(x->pointer, y->pointer);
        assert_int_equal(x->node, y->node);
        assert_ptr_equal(x->field, y->field);
        assert_same_string(x->suggestion, y->suggestion);
    }
}

/* ---- random edits ---- */

struct edit_log {
    uint32_t start;
    char removed[64];
    size_t removed_len, inserted_len;
};

/* A random node of `kind` (JSON_INVALID: any), or JSON_NONE. */
static uint32_t random_node(const struct analysis *a, int kind)
{
    if (a->doc.node_count == 0)
        return JSON_NONE;
    for (int tries = 0; tries < 20; tries++) {
        uint32_t n = rng(a->doc.node_count);
        if (kind == JSON_INVALID || a->doc.nodes[n].kind == kind)
            return n;
    }
    return JSON_NONE;
}

static const char *const SCALARS[] = {
    "true",
    "false",
    "null",
    "0",
    "65536",
    "-1",
    "1.5e3",
    "\"x\"",
    "\"ACCESS_KEY\"",
    "\"NONE\"",
    "\"$SERVICE_EXISTING_VALUE$\"",
    "\"data:,a:b\"",
    "\"data:;base64,@@\"",
    "{}",
    "[]",
    "[1, 2]",
    "{\"a\": 1}",
    "\"2024-01-01T00:00:00.000Z\"",
    "\"h\\u00e9\"",
};
static const char *const KEYS[] = {
    "\"accessKey\"", "\"credentialType\"", "\"hostname\"", "\"port\"",         "\"type\"",
    "\"config\"",    "\"hostnam\"",        "\"jobState\"", "\"errorMessage\"", "\"name\"",
};
static const char TYPED[] = "abcdefghijklmnopqrstuvwXYZ0123456789_-.:/ \"\\{}[],\xc3\xa9";
static const char *const BREAKS[] = {"\n", "\r\n", "\r", " ", "\t", "\n\n  "};

/* Chooses an edit of `t` as the analysis `a` of it sees the text: bytes [*start, *end) become
 * `with` (`*len` bytes). */
static void choose_edit(const struct analysis *a, const struct text *t, uint32_t *start,
                        uint32_t *end, char *with, size_t *len)
{
    uint32_t pick = rng(100), n;
    *len = 0;
    if (pick < 40 && (n = random_node(a, JSON_STRING)) != JSON_NONE) { /* type in a string */
        struct json_node s = moved_node(a, n);
        *start = *end = s.start + 1 + rng(s.end - s.start - 1);
        if (*start >= s.end)
            *start = *end = s.end - 1;
        size_t at = rng(sizeof TYPED - 1);
        with[(*len)++] = TYPED[at];
        if ((unsigned char)TYPED[at] == 0xc3)
            with[(*len)++] = TYPED[at + 1];
        return;
    }
    if (pick < 55 && (n = random_node(a, JSON_STRING)) != JSON_NONE) { /* delete in a string */
        struct json_node s = moved_node(a, n);
        *start = s.start + 1 + rng(s.end - s.start);
        *end = *start + 1 + rng(3);
        if (*end > s.end)
            *end = s.end;
        if (*start > *end)
            *start = *end;
        return;
    }
    if (pick < 68 && (n = random_node(a, JSON_INVALID)) != JSON_NONE &&
        a->doc.nodes[n].kind != JSON_OBJECT && a->doc.nodes[n].kind != JSON_ARRAY) {
        *start = moved_node(a, n).start; /* a scalar becomes another value */
        *end = moved_node(a, n).end;
        const char *v = SCALARS[rng(sizeof SCALARS / sizeof *SCALARS)];
        *len = strlen(v);
        memcpy(with, v, *len);
        return;
    }
    if (pick < 78 && (n = random_node(a, JSON_INVALID)) != JSON_NONE &&
        a->doc.nodes[n].key_start != JSON_NONE) { /* a key becomes another */
        *start = moved_node(a, n).key_start;
        *end = moved_node(a, n).key_end;
        const char *k = KEYS[rng(sizeof KEYS / sizeof *KEYS)];
        *len = strlen(k);
        memcpy(with, k, *len);
        return;
    }
    *start = rng((uint32_t)t->len + 1);
    if (*start > 0 && *start < t->len && ((unsigned char)t->s[*start] & 0xC0) == 0x80)
        *start = *start - 1; /* not inside a character (one step is enough for é) */
    *end = *start;
    if (pick < 90) { /* a line break or spaces, anywhere */
        const char *b = BREAKS[rng(sizeof BREAKS / sizeof *BREAKS)];
        *len = strlen(b);
        memcpy(with, b, *len);
        return;
    }
    with[(*len)++] = ",:{}[]\"x"[rng(8)]; /* punctuation, anywhere */
}

struct run_counts {
    unsigned incremental, whole, pending;
};

/* Applies `edits` random edits to `initial`, comparing after each; returns the counts. */
static struct run_counts run_edits(const char *initial, size_t initial_len, unsigned edits,
                                   const struct analysis_options *options)
{
    struct run_counts counts = {0, 0, 0};
    /* the text kept as the server keeps it: an edit moves the bytes on its shorter side, so the
     * old text is gone (an update that read it would read the new one) */
    struct text_buffer buffer = {0};
    char *into = text_buffer_reserve(&buffer, initial_len);
    assert_non_null(into);
    memcpy(into, initial, initial_len);
    text_buffer_set_length(&buffer, initial_len);
    struct text t = {into, initial_len, 0};
    struct analysis live;
    assert_int_equal(analysis_run(&live, t.s, t.len, options), 0);
    struct edit_log undo[8];
    unsigned undo_count = 0;
    for (unsigned step = 0; step < edits; step++) {
        uint32_t start, end;
        char with[64];
        size_t len;
        /* take back the last edit: often when it broke the syntax, as typing mends it */
        if (undo_count > 0 && rng(100) < (live.doc.error_count > 0 ? 60 : 10)) {
            struct edit_log *u = &undo[--undo_count];
            start = u->start;
            end = (uint32_t)(u->start + u->inserted_len);
            len = u->removed_len;
            memcpy(with, u->removed, len);
        } else {
            choose_edit(&live, &t, &start, &end, with, &len);
            if (end - start <= sizeof undo[0].removed) {
                if (undo_count == 8) {
                    memmove(undo, undo + 1, 7 * sizeof *undo);
                    undo_count = 7;
                }
                struct edit_log *u = &undo[undo_count++];
                u->start = start;
                u->removed_len = end - start;
                memcpy(u->removed, t.s + start, end - start);
                u->inserted_len = len;
            } else {
                undo_count = 0;
            }
        }
        assert_int_equal(text_buffer_splice(&buffer, start, end, with, len), 0);
        t.s = text_buffer_text(&buffer);
        t.len = buffer.len;
        struct json_edit edit = {start, end, (uint32_t)len};
        uint32_t before = live.diags.count;
        struct analysis_delta delta;
        int updated = analysis_update(&live, t.s, t.len, edit, options, &delta);
        if (getenv("DEBUG_UPDATE"))
            fprintf(stderr, "step %u: [%u,%u) '%.*s' -> %d\n", step, start, end, (int)len, with,
                    updated);
        assert_true(updated >= 0);
        if (updated == 1) {
            counts.incremental++;
            /* the delta accounts for every diagnostic, before and after */
            assert_true(delta.first + delta.removed <= before);
            assert_int_equal(before - delta.removed + delta.added, live.diags.count);
        } else {
            counts.whole++;
            analysis_free(&live);
            assert_int_equal(analysis_run(&live, t.s, t.len, options), 0);
        }
        struct analysis fresh;
        assert_int_equal(analysis_run(&fresh, t.s, t.len, options), 0);
        assert_same_analysis(&live, &fresh);
        counts.pending += live.doc.moved != 0 || live.diags_moved != 0;
        if (step + 1 == edits) { /* the pending move applied, the tree reads the same */
            analysis_settle_moves(&live);
            assert_int_equal(live.doc.moved, 0);
            assert_int_equal(live.diags_moved, 0);
            assert_same_analysis(&live, &fresh);
        }
        analysis_free(&fresh);
    }
    analysis_free(&live);
    text_buffer_free(&buffer);
    return counts;
}

/* ---- the cases ---- */

static const char *const BULK_EXAMPLES[] = {
    "01-search-service.source.json",
    "03-object-storage-a.source.json",
    "06-blob-storage.source.json",
    "bad-object-storage.source.json",
    "bad-no-type.source.json",
    "bad-peer-cluster.source.json",
    "12-hive-metastore.source.json",
    "22-versioned-catalog.source.json",
    "25-cloud-analytics-warehouse.source.json",
};

static struct text bulk_document(void)
{
    struct text t = {0};
    text_append(&t, "[\n", 2);
    for (size_t i = 0; i < sizeof BULK_EXAMPLES / sizeof *BULK_EXAMPLES; i++) {
        size_t len;
        char *one = read_example(BULK_EXAMPLES[i], &len);
        if (i > 0)
            text_append(&t, ",\n", 2);
        text_append(&t, one, len);
        free(one);
    }
    text_append(&t, "\n]\n", 3);
    return t;
}

static void check_sequences(const char *text, size_t len, const struct analysis_options *options,
                            uint64_t seed, unsigned sequences, unsigned edits,
                            unsigned min_incremental_percent)
{
    struct run_counts total = {0, 0, 0};
    const char *more = getenv("SRCLS_UPDATE_SEQUENCES"); /* a longer run, by hand */
    if (more != NULL && atoi(more) > 0)
        sequences = (unsigned)atoi(more);
    for (unsigned s = 0; s < sequences; s++) {
        rng_state = seed + s * 7919u;
        struct run_counts c = run_edits(text, len, edits, options);
        total.incremental += c.incremental;
        total.whole += c.whole;
        total.pending += c.pending;
    }
    unsigned all = total.incremental + total.whole;
    print_message("%u edits: %u incremental, %u whole, %u left a move pending\n", all,
                  total.incremental, total.whole, total.pending);
    /* with defer_moves, many do (a keystroke inside a string keeps the node count) */
    assert_true(options != NULL && options->defer_moves ? total.pending * 5 >= all
                                                        : total.pending == 0);
    assert_true(total.incremental * 100 >= min_incremental_percent * all);
    assert_true(total.whole > 0); /* the fallback ran too */
}

static void test_bulk_file_edits_agree_with_a_fresh_analysis(void **state)
{
    (void)state;
    struct text t = bulk_document();
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    check_sequences(t.s, t.len, &options, 12, 8, 150, 40);
    free(t.s);
}

/* The server's updates: the move of the nodes after the edited source is left pending, and the
 * tree read through it (json_moved, line_index_start) is the fresh analysis's at every step. */
static void test_bulk_file_edits_with_deferred_moves(void **state)
{
    (void)state;
    struct text t = bulk_document();
    struct analysis_options options = {
        .report_unknown_document = true, .registry = &analysed_schema, .defer_moves = true};
    check_sequences(t.s, t.len, &options, 77, 8, 150, 40);
    free(t.s);
}

static void test_bulk_file_edits_with_severity_overrides(void **state)
{
    (void)state;
    struct text t = bulk_document();
    struct settings settings;
    settings_init(&settings);
    const char *json = "{\"rules\": {\"unknown-field\": \"error\", \"kind-inferred\": \"off\", "
                       "\"invalid-enum\": \"hint\"}}";
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, json, strlen(json), NULL), 0);
    settings_read(&settings, &doc, doc.root, NULL, 0);
    struct analysis_options options = {
        .report_unknown_document = true, .registry = &analysed_schema, .settings = &settings};
    check_sequences(t.s, t.len, &options, 99, 4, 150, 40);
    json_doc_free(&doc);
    settings_free(&settings);
    free(t.s);
}

static void test_source_and_job_edits_agree_with_a_fresh_analysis(void **state)
{
    (void)state;
    static const char *const names[] = {"bad-object-storage.source.json", "bad-job-failed.job.json",
                                        "08-external-catalog.source.json"};
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t len;
        char *text = read_example(names[i], &len);
        check_sequences(text, len, &options, 1000 + i, 4, 120, 30);
        free(text);
    }
}

/* Syntax only (no registry), and a text that starts broken. */
static void test_edits_without_a_registry_and_from_broken_text(void **state)
{
    (void)state;
    size_t len;
    char *text = read_example("bad-syntax.source.json", &len);
    check_sequences(text, len, NULL, 5, 4, 120, 0);
    struct text t = bulk_document();
    check_sequences(t.s, t.len, NULL, 6, 4, 120, 30);
    free(t.s);
    free(text);
}

/* A byte order mark is skipped at the start of a document only: inside a value it is an error,
 * after an update as in a fresh parse (a value parsed on its own would have skipped it). */
static void test_byte_order_mark_inside_a_value_is_an_error(void **state)
{
    (void)state;
    struct text t = {0};
    text_append(&t, "[{\"type\": \"SEARCH_INDEX\", \"config\": {\"hostname\": 1}}]", 52);
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    struct analysis live, fresh;
    assert_int_equal(analysis_run(&live, t.s, t.len, &options), 0);
    const char *at = strstr(t.s, "1}");
    uint32_t start = (uint32_t)(at - t.s);
    text_replace(&t, start, start, "\xEF\xBB\xBF", 3);
    struct json_edit edit = {start, start, 3};
    if (analysis_update(&live, t.s, t.len, edit, &options, NULL) != 1) {
        analysis_free(&live);
        assert_int_equal(analysis_run(&live, t.s, t.len, &options), 0);
    }
    assert_int_equal(analysis_run(&fresh, t.s, t.len, &options), 0);
    assert_true(fresh.doc.error_count > 0);
    assert_same_analysis(&live, &fresh);
    analysis_free(&live);
    analysis_free(&fresh);
    free(t.s);
}

/* A document with no diagnostic at all (its list never allocated) takes an update too. */
static void test_update_of_a_document_without_diagnostics(void **state)
{
    (void)state;
    struct text t = {0};
    const char *clean =
        "[{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/x\"}}]";
    text_append(&t, clean, strlen(clean));
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    struct analysis live, fresh;
    assert_int_equal(analysis_run(&live, t.s, t.len, &options), 0);
    assert_int_equal(live.diags.count, 0);
    uint32_t at = (uint32_t)(strstr(t.s, "/x") - t.s) + 1;
    text_replace(&t, at, at, "y", 1);
    struct json_edit edit = {at, at, 1};
    assert_int_equal(analysis_update(&live, t.s, t.len, edit, &options, NULL), 1);
    assert_int_equal(analysis_run(&fresh, t.s, t.len, &options), 0);
    assert_same_analysis(&live, &fresh);
    analysis_free(&live);
    analysis_free(&fresh);
    free(t.s);
}

/* ---- edits typed where a key has no value ----
 *
 * A member whose key has nothing after it gets a placeholder value (an empty JSON_INVALID). When
 * that key follows a string value without a ',', the parser says nothing about it (the key may
 * be the rest of that string, and the missing ',' reported there says all). Typing a value at the
 * placeholder makes the member's parse report the missing ':': the placeholder must not be
 * parsed again on its own, which would give the value without that error. */

/* Bytes [start, old_end) of the text become `inserted` (`len` bytes, NULs included). */
struct typed {
    uint32_t start, old_end;
    const char *inserted;
    size_t len;
};
#define TYPED(s) (s), sizeof(s) - 1

/* Applies `edits` to `initial` as the language server does (the update, or a whole analysis
 * where it declines), comparing each step with a fresh analysis of the text; returns how many
 * steps the update carried, and leaves the last analysis in `*live` and its text in `*t`. */
static unsigned replay_edits(const char *initial, size_t initial_len, const struct typed *edits,
                             size_t count, const struct analysis_options *options,
                             struct analysis *live, struct text *t)
{
    unsigned incremental = 0;
    *t = (struct text){0};
    text_append(t, initial, initial_len);
    assert_int_equal(analysis_run(live, t->s, t->len, options), 0);
    for (size_t i = 0; i < count; i++) {
        const struct typed *e = &edits[i];
        assert_true(e->start <= e->old_end && e->old_end <= t->len);
        text_replace(t, e->start, e->old_end, e->inserted, e->len);
        struct json_edit edit = {e->start, e->old_end, (uint32_t)e->len};
        int updated = analysis_update(live, t->s, t->len, edit, options, NULL);
        assert_true(updated >= 0);
        if (updated == 1) {
            incremental++;
        } else {
            analysis_free(live);
            assert_int_equal(analysis_run(live, t->s, t->len, options), 0);
        }
        struct analysis fresh;
        assert_int_equal(analysis_run(&fresh, t->s, t->len, options), 0);
        assert_same_analysis(live, &fresh);
        analysis_free(&fresh);
    }
    return incremental;
}

/* The diagnostic at byte `at` whose message starts with `prefix`, or NULL. */
static const struct diagnostic *diagnostic_starting_at(const struct analysis *a, uint32_t at,
                                                       const char *prefix)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if (d->start == at && strncmp(d->message, prefix, strlen(prefix)) == 0)
            return d;
    }
    return NULL;
}

/* The smallest case: `"b"` stands alone after the string "x" (no ',' between), then a value is
 * typed right after it. The editor must show the missing ':' there, as a fresh analysis does
 * (the update used to give the value and drop that error). */
/* A source (checked again whole on each edit) with srcls.json "ignore" entries: the update kept
 * a pointer to the entries' hits in the arena it had just freed, and zeroed them there, over the
 * new diagnostic's message ("unknown field" published with an empty message; the faults sweep's
 * editor session found it). */
static void test_source_update_with_ignore_entries(void **state)
{
    (void)state;
    struct settings settings;
    settings_init(&settings);
    const char *json = "{\"ignore\": [{\"files\": \"old.json\", \"codes\": [\"unknown-field\"], "
                       "\"reason\": \"read by the old loader\"}]}";
    struct json_doc doc;
    assert_int_equal(json_parse(&doc, json, strlen(json), NULL), 0);
    settings_read(&settings, &doc, doc.root, NULL, 0);
    struct text t = {0};
    const char *source = "{\"name\": \"lake\", \"type\": \"NETWORK_ATTACHED_STORAGE\", "
                         "\"config\": {\"path\": \"/x\"}}";
    text_append(&t, source, strlen(source));
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema,
                                       .settings = &settings,
                                       .path = "lake.json"};
    struct analysis live, fresh;
    assert_int_equal(analysis_run(&live, t.s, t.len, &options), 0);
    uint32_t at = (uint32_t)(strstr(t.s, "\"path\"") - t.s);
    static const char field[] = "\"port\": 1, ";
    text_replace(&t, at, at, field, sizeof field - 1);
    struct json_edit edit = {at, at, sizeof field - 1};
    assert_int_equal(analysis_update(&live, t.s, t.len, edit, &options, NULL), 1);
    assert_int_equal(analysis_run(&fresh, t.s, t.len, &options), 0);
    assert_true(fresh.diags.count > 0);
    assert_same_analysis(&live, &fresh);
    analysis_free(&live);
    analysis_free(&fresh);
    json_doc_free(&doc);
    settings_free(&settings);
    free(t.s);
}

static void test_value_typed_after_a_lone_key_after_a_string(void **state)
{
    (void)state;
    static const char doc[] = "{\"a\": \"x\" \"b\"}";
    static const struct typed edits[] = {{13, 13, TYPED("1")}};
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    struct analysis live;
    struct text t;
    replay_edits(doc, sizeof doc - 1, edits, 1, &options, &live, &t);
    assert_string_equal(t.s, "{\"a\": \"x\" \"b\"1}");
    assert_non_null(diagnostic_starting_at(&live, 9, "expected ',' or '}' after the value"));
    assert_non_null(diagnostic_starting_at(&live, 13, "expected ':' after the key"));
    analysis_free(&live);
    free(t.s);
}

/* A member typed piece by piece at the end of a source, its ',' last: while the key stands
 * alone, and as its value is typed with and without the ':', every step is the fresh analysis
 * of the text; once the ',' is in, the source is clean again. */
static void test_member_typed_before_its_comma(void **state)
{
    (void)state;
    static const char doc[] = "{\n"
                              "  \"type\": \"NETWORK_ATTACHED_STORAGE\",\n"
                              "  \"name\": \"files\"\n"
                              "}\n";
    static const struct typed edits[] = {
        {57, 57, TYPED("\n  \"")},    /* "files"\n  "                    */
        {61, 61, TYPED("config")},    /* "files"\n  "config              */
        {67, 67, TYPED("\"")},        /* "files"\n  "config"             */
        {68, 68, TYPED("{")},         /* "files"\n  "config"{            */
        {69, 69, TYPED("\"path\"")},  /* "files"\n  "config"{"path"      */
        {68, 68, TYPED(": ")},        /* "files"\n  "config": {"path"    */
        {77, 77, TYPED(": \"/x\"}")}, /* "files"\n  "config": {"path": "/x"} */
        {57, 57, TYPED(",")},         /* "files",\n  "config": ...       */
    };
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    struct analysis live;
    struct text t;
    replay_edits(doc, sizeof doc - 1, edits, sizeof edits / sizeof *edits, &options, &live, &t);
    assert_string_equal(t.s, "{\n"
                             "  \"type\": \"NETWORK_ATTACHED_STORAGE\",\n"
                             "  \"name\": \"files\",\n"
                             "  \"config\": {\"path\": \"/x\"}\n"
                             "}\n");
    assert_int_equal(live.doc.error_count, 0);
    analysis_free(&live);
    free(t.s);
}

/* What tests/fuzz/regressions/fuzz_update/value-typed-after-a-lone-key-after-a-string-full
 * encodes (found by fuzz_update): a source, then the 16 edits the fuzz target applies. Edit 12
 * types '"' after the lone key "auth" of `"billing",\n    "auth"\n  }`; the update dropped the
 * missing ':' there. */
static const char FINDING_TEXT[] = "{\n"
                                   "  \"name\": \"billing-postgres\",\n"
                                   "  \"type\": \"OPEN_RELATIONAL_DB_B\",\n"
                                   "  \"confi }\n"
                                   "}\n";
static const struct typed FINDING_EDITS[] = {
    {14, 14, TYPED("x")},
    {14, 80,
     TYPED("\": {\n"
           "    \"hostname\": \"billing-db.internal.example.com\",\n"
           "    \"port\": 5432,\n"
           "e\": \"billing\",\n"
           "    \"authenticationType\": \"ANONYMOUSPEN_RELATIONAL_DB_B\",\n"
           "  \"confi }\n"
           "}\n")},
    {14, 14, TYPED("x")},
    {14, 117,
     TYPED("\": {\n"
           "    \"hostname\": \"billing-db.internal.example.com\",\n"
           "    \"port\": 5432,\n"
           "e\": \"billing\",\n"
           "    \"authenticationType\": \"ANONYMOUS\"\n"
           "  }\n"
           "}\n")},
    {14, 14, TYPED("x")},
    {14, 15, TYPED("")},
    {112, 112, TYPED("\"")},
    {187, 201,
     TYPED("\x00\x00"
           "x")},
    {14, 15, TYPED("")},
    {112, 146,
     TYPED("\n"
           "  }\n"
           "}\n")},
    {14, 14, TYPED("x")},
    {14, 15, TYPED("")},
    {112, 112, TYPED("\"")},
    {158, 168,
     TYPED("\x00\x00"
           "x")},
    {14, 15, TYPED("")},
    {112, 112, TYPED("\"")},
};

static void test_fuzz_update_finding_edit_sequence(void **state)
{
    (void)state;
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = &analysed_schema};
    struct analysis live;
    struct text t;
    replay_edits(FINDING_TEXT, sizeof FINDING_TEXT - 1, FINDING_EDITS,
                 sizeof FINDING_EDITS / sizeof *FINDING_EDITS, &options, &live, &t);
    analysis_free(&live);
    free(t.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bulk_file_edits_agree_with_a_fresh_analysis),
        cmocka_unit_test(test_bulk_file_edits_with_deferred_moves),
        cmocka_unit_test(test_bulk_file_edits_with_severity_overrides),
        cmocka_unit_test(test_source_and_job_edits_agree_with_a_fresh_analysis),
        cmocka_unit_test(test_edits_without_a_registry_and_from_broken_text),
        cmocka_unit_test(test_byte_order_mark_inside_a_value_is_an_error),
        cmocka_unit_test(test_update_of_a_document_without_diagnostics),
        cmocka_unit_test(test_source_update_with_ignore_entries),
        cmocka_unit_test(test_value_typed_after_a_lone_key_after_a_string),
        cmocka_unit_test(test_member_typed_before_its_comma),
        cmocka_unit_test(test_fuzz_update_finding_edit_sequence),
    };
    int failed = cmocka_run_group_tests(tests, analysed_setup, analysed_teardown);
    return failed;
}
