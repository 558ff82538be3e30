/* analysis: parse, index, classify and check one document. */
#include "analysis_internal.h"

#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "duplicate_names.h"
#include "domain/domain.h"
#include "json/json.h"
#include "rules.h"
#include "base/base.h"

/* The innermost node whose value range holds `offset`, for the pointer of a syntax error. A
 * member whose key the parser recovered is not entered: its key may be the continuation of a
 * secret value, and a pointer would quote it. */
static uint32_t innermost_at(const struct json_doc *doc, uint32_t offset)
{
    uint32_t node = doc->root, found = JSON_NONE;
    while (node != JSON_NONE) {
        const struct json_node *n = &doc->nodes[node];
        uint32_t from = n->key_start != JSON_NONE ? n->key_start : n->start;
        if (offset < from || offset > n->end)
            break;
        found = node;
        uint32_t next = JSON_NONE;
        for (uint32_t c = n->first_child; c != JSON_NONE; c = doc->nodes[c].next) {
            const struct json_node *child = &doc->nodes[c];
            uint32_t child_from = child->key_start != JSON_NONE ? child->key_start : child->start;
            if (offset >= child_from && offset <= child->end &&
                !(child->flags & JSON_FLAG_KEY_RECOVERED)) {
                next = c;
                break;
            }
        }
        node = next;
    }
    return found;
}

/* The parse errors whose start is in [from, to] as diagnostics. */
int analysis__add_parse_errors_in(struct analysis *a, uint32_t from, uint32_t to)
{
    for (uint32_t i = 0; i < a->doc.error_count; i++) {
        const struct json_error *e = &a->doc.errors[i];
        if (e->start < from || e->start > to)
            continue;
        const char *pointer = json_pointer_of(&a->doc, innermost_at(&a->doc, e->start), &a->arena);
        enum diag_code code =
            e->code == JSON_ERROR_DUPLICATE_KEY ? CODE_DUPLICATE_KEY : CODE_JSON_SYNTAX;
        struct diagnostic d = {
            .code = code,
            .severity = code_info(code)->severity,
            .start = e->start,
            .end = e->end,
            .related_start = e->related_start,
            .related_end = e->related_end,
            .related_message = e->related_start == JSON_NONE         ? NULL
                               : e->code == JSON_ERROR_DUPLICATE_KEY ? "first defined here"
                                                                     : "opened here",
            .message = e->message,
            .pointer = pointer ? pointer : "",
            .node = JSON_NONE,
        };
        if (diag_list_add(&a->diags, &d) != 0)
            return -1;
    }
    return 0;
}

static int add_parse_errors(struct analysis *a)
{
    if (analysis__add_parse_errors_in(a, 0, UINT32_MAX) != 0)
        return -1;
    if (a->doc.errors_dropped > 0) {
        uint32_t at = a->doc.len;
        const char *message =
            arena_printf(&a->arena, "%u more syntax errors not shown", a->doc.errors_dropped);
        struct diagnostic d = {.code = CODE_JSON_SYNTAX,
                               .severity = code_info(CODE_JSON_SYNTAX)->severity,
                               .start = at,
                               .end = at,
                               .related_start = JSON_NONE,
                               .related_end = JSON_NONE,
                               .message = message ? message : "more syntax errors not shown",
                               .pointer = "",
                               .node = JSON_NONE};
        if (diag_list_add(&a->diags, &d) != 0)
            return -1;
    }
    return 0;
}

/* Whether an "ignore" entry of `settings` silences `d`; the entries that do are marked in
 * a->ignore_hits. `elements` (`count`): a bulk document's. */
static bool ignored(struct analysis *a, const struct settings *settings, const char *path,
                    const struct diagnostic *d, const uint32_t *elements, uint32_t count)
{
    bool silenced = false;
    for (uint32_t e = 0; e < settings->ignore_count; e++) {
        if (suppress_matches(&settings->ignores[e], d, path, &a->doc, elements, count)) {
            silenced = true;
            if (a->ignore_hits != NULL)
                a->ignore_hits[e] = 1;
        }
    }
    return silenced;
}

/* Severity overrides for the diagnostics from `first` on; "off" removes the diagnostic, and so
 * does an "ignore" entry that matches it. `whole`: the analysis of the whole document, whose
 * entries used are counted afresh (else they add to those counted: a door's findings added to an
 * analysis whose own were all silenced start at 0 too). */
void analysis__apply_severities(struct analysis *a, const struct analysis_options *options,
                                uint32_t first, bool whole)
{
    const struct settings *settings = options->settings;
    struct diag_list *diags = &a->diags;
    uint32_t count = 0, *elements = NULL;
    bool fresh = settings->ignore_count > 0 && a->ignore_hits == NULL;
    if (fresh)
        a->ignore_hits = arena_alloc(&a->arena, settings->ignore_count);
    if (a->ignore_hits != NULL && (fresh || whole))
        memset(a->ignore_hits, 0, settings->ignore_count);
    if (settings->ignore_count > 0 && a->doc.root != JSON_NONE &&
        a->doc.nodes[a->doc.root].kind == JSON_ARRAY &&
        (elements = malloc(((size_t)json_child_count(&a->doc, a->doc.root) + 1) *
                           sizeof *elements)) != NULL) /* without it: by index only */
        for (uint32_t e = a->doc.nodes[a->doc.root].first_child; e != JSON_NONE;
             e = a->doc.nodes[e].next)
            elements[count++] = e;
    uint32_t kept = first;
    for (uint32_t i = first; i < diags->count; i++) {
        struct diagnostic *d = &diags->items[i];
        d->severity = settings_severity(settings, d->code, d->severity);
        if (d->severity == DIAG_OFF ||
            (settings->ignore_count > 0 && ignored(a, settings, options->path, d, elements, count)))
            continue;
        diags->items[kept++] = *d;
    }
    diags->count = kept;
    free(elements);
}

/* The editor's baseline over the diagnostics from `first` on (sorted, as --check matches
 * them): one entry per finding, the entries of the document (`element` UINT32_MAX) or of its
 * bulk element `element` given back first; a finding held becomes a hint, or is left out. */
int analysis__apply_baseline(struct analysis *a, const struct analysis_options *options,
                             uint32_t first, uint32_t element)
{
    if (options->baseline == NULL || options->baseline_path == NULL)
        return 0;
    baseline_release(options->baseline, a, options->baseline_path, element);
    uint32_t kept = first;
    int status = 0;
    for (uint32_t i = first; i < a->diags.count; i++) {
        struct diagnostic *d = &a->diags.items[i];
        int held = baseline_take_finding(options->baseline, a, d, options->baseline_path);
        if (held < 0)
            status = -1;
        if (held > 0 && options->baseline_hide)
            continue;
        d->severity = held > 0 ? DIAG_HINT : d->severity;
        a->diags.items[kept++] = *d;
    }
    a->diags.count = kept;
    return status;
}

/* Reports a document that is neither a source nor a job, when asked to. */
static int add_unknown_document(struct analysis *a, const struct analysis_options *options)
{
    if (a->document != DOCUMENT_UNKNOWN || !options || !options->report_unknown_document ||
        a->doc.root == JSON_NONE)
        return 0;
    const struct json_node *root = &a->doc.nodes[a->doc.root];
    uint32_t end = root->start + 1 <= root->end ? root->start + 1 : root->end;
    struct diagnostic d = {
        .code = CODE_UNKNOWN_DOCUMENT,
        .severity = code_info(CODE_UNKNOWN_DOCUMENT)->severity,
        .start = root->start,
        .end = end,
        .related_start = JSON_NONE,
        .related_end = JSON_NONE,
        .message = "not a source or job document: a source has a \"" ENVELOPE_CONFIG
                   "\" object or a \"" ENVELOPE_TYPE "\" string at the top level, a job has "
                   "\"" ENVELOPE_JOB_STATE "\"",
        .pointer = "",
        .node = JSON_NONE,
    };
    return diag_list_add(&a->diags, &d);
}

/* The node of each element of a bulk document, for updates, and the node of its name; -1 when
 * memory ran out. */
static int list_elements(struct analysis *a)
{
    analysis__forget_names(a);
    free(a->elements);
    a->elements = NULL;
    a->element_count = 0;
    if (a->document != DOCUMENT_BULK)
        return 0;
    size_t cap = 0;
    for (uint32_t e = a->doc.nodes[a->doc.root].first_child; e != JSON_NONE;
         e = a->doc.nodes[e].next) {
        uint32_t *grown =
            vector_grow(a->elements, &cap, (size_t)a->element_count + 1, sizeof *grown);
        if (grown == NULL)
            return -1;
        a->elements = grown;
        a->elements[a->element_count++] = e;
    }
    if (a->element_count == 0)
        return 0;
    a->element_names = malloc((size_t)a->element_count * sizeof *a->element_names);
    a->element_hashes = malloc((size_t)a->element_count * sizeof *a->element_hashes);
    if (a->element_names == NULL || a->element_hashes == NULL) {
        analysis__forget_names(a);
        return -1;
    }
    for (uint32_t i = 0; i < a->element_count; i++) {
        uint32_t name = duplicate_names_node(&a->doc, a->elements[i]);
        a->element_names[i] = name;
        a->element_hashes[i] =
            name != JSON_NONE ? duplicate_names_hash(json_node_string(&a->doc, name)) : 0;
    }
    return 0;
}

void analysis__forget_names(struct analysis *a)
{
    free(a->element_names);
    free(a->element_hashes);
    a->element_names = NULL;
    a->element_hashes = NULL;
}

/* The names of a bulk document's sources, counted for updates; -1 when memory ran out. */
static int count_names(struct analysis *a)
{
    if (a->names != NULL)
        duplicate_names_counts_free(a->names);
    free(a->names);
    a->names = NULL;
    if (a->document != DOCUMENT_BULK)
        return 0;
    a->names = calloc(1, sizeof *a->names);
    return a->names != NULL ? duplicate_names_count(a, a->names) : -1;
}

/* A document of nothing but whitespace (an editor's new file, before anything is typed) has
 * nothing wrong in it yet: its one syntax error becomes a hint. Where a document is expected
 * (options->empty_is_error), it stays an error and says what the file should hold. */
static void soften_empty_document(struct analysis *a, const struct analysis_options *options)
{
    if (a->doc.root != JSON_NONE || a->doc.error_count != 1 || a->doc.errors_dropped > 0 ||
        a->diags.count != 1 || a->doc.errors[0].code != JSON_ERROR_SYNTAX)
        return;
    uint32_t i = a->doc.len >= 3 && memcmp(a->doc.text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (; i < a->doc.len; i++) {
        char c = a->doc.text[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
    }
    if (options != NULL && options->empty_is_error) {
        a->diags.items[0].message =
            options->empty_expected == DOCUMENT_SOURCE
                ? "the file is empty: a source document must be a JSON object (a bulk file, an "
                  "array of them)"
            : options->empty_expected == DOCUMENT_JOB
                ? "the file is empty: a job document must be a JSON object"
                : "the file is empty: a source or job document must be a JSON object";
        return;
    }
    a->diags.items[0].severity = DIAG_HINT;
    a->diags.items[0].message = "the document is empty: start a source or a job with '{', a bulk "
                                "file with '[' (completion offers a skeleton)";
}

/* The rules over the whole document (`element` JSON_NONE: the kind found is kept), or over
 * element `index` of a bulk file (node `element`). */
int analysis__check_rules(struct analysis *a, const struct analysis_options *options,
                          uint32_t element, uint32_t index)
{
    struct rules_target t = {.doc = &a->doc,
                             .document = a->document,
                             .diags = &a->diags,
                             .arena = &a->arena,
                             .kind = a->kind,
                             .values_unquoted = a->values_unquoted};
    if (element != JSON_NONE)
        return rules_check_element(&t, options->registry, options->settings, element, index);
    int status = rules_check(&t, options->registry, options->settings);
    a->kind = t.kind;
    return status;
}

/* Everything after the parse and the line index: classification and diagnostics. */
int analysis__diagnose(struct analysis *a, const struct analysis_options *options)
{
    int status = 0;
    if (add_parse_errors(a) != 0)
        status = -1;
    soften_empty_document(a, options);
    a->document = envelope_classify(&a->doc);
    a->kind = NULL;
    if (add_unknown_document(a, options) != 0)
        status = -1;
    if (options && options->registry && a->document != DOCUMENT_UNKNOWN &&
        analysis__check_rules(a, options, JSON_NONE, 0) != 0)
        status = -1;
    /* the elements and their names first: every pass over the names reads them */
    if (list_elements(a) != 0 || count_names(a) != 0 ||     /* before the baseline's entries, */
        duplicate_names_check(a, &a->duplicate_names) != 0) /* which name bulk sources */
        status = -1;
    if (options && options->settings)
        analysis__apply_severities(a, options, 0, true);
    diag_list_sort(&a->diags);
    if (options && analysis__apply_baseline(a, options, 0, UINT32_MAX) != 0)
        status = -1;
    if (a->arena.failed || a->doc.arena.failed) /* a message or a pointer missing */
        status = -1;
    a->settled_arena = a->arena.total;
    a->settled_doc_arena = a->doc.arena.total;
    return status;
}

int analysis_run(struct analysis *out, const char *text, size_t len,
                 const struct analysis_options *options)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    out->registry = options ? options->registry : NULL;
    out->settings = options ? options->settings : NULL;
    out->values_unquoted = options && options->values_unquoted;
    int status = json_parse(&out->doc, text, len, options ? options->parse : NULL);
    if (status != 0 || line_index_build(&out->lines, text, out->doc.len) != 0 ||
        analysis__diagnose(out, options) != 0) {
        analysis_free(out); /* half an analysis is never read */
        return -1;
    }
    return 0;
}

void analysis_free(struct analysis *analysis)
{
    json_doc_free(&analysis->doc);
    line_index_free(&analysis->lines);
    diag_list_free(&analysis->diags);
    arena_free(&analysis->arena);
    analysis__forget_names(analysis);
    free(analysis->elements);
    analysis->elements = NULL;
    analysis->element_count = 0;
    if (analysis->names != NULL)
        duplicate_names_counts_free(analysis->names);
    free(analysis->names);
    analysis->names = NULL;
}

void analysis_settle_moves(struct analysis *analysis)
{
    json_doc_settle(&analysis->doc, JSON_NONE);
    analysis__settle_diagnostics(analysis, analysis->diags.count, analysis->diags.count);
}

void analysis__settle_diagnostics(struct analysis *a, uint32_t upto, uint32_t end)
{
    for (uint32_t i = a->diags_moved_from; a->diags_moved != 0 && i < upto; i++) {
        struct diagnostic *d = &a->diags.items[i];
        d->start += a->diags_moved;
        d->end += a->diags_moved;
        if (d->related_start != JSON_NONE) {
            d->related_start += a->diags_moved;
            d->related_end += a->diags_moved;
        }
    }
    if (upto > a->diags_moved_from)
        a->diags_moved_from = upto;
    if (upto >= end)
        a->diags_moved = 0;
}

struct diagnostic analysis_diagnostic(const struct analysis *a, uint32_t index)
{
    struct diagnostic d = a->diags.items[index];
    if (index >= a->diags_moved_from && a->diags_moved != 0) {
        d.start += a->diags_moved;
        d.end += a->diags_moved;
        if (d.related_start != JSON_NONE) {
            d.related_start += a->diags_moved;
            d.related_end += a->diags_moved;
        }
    }
    return d;
}

void analysis_settle(struct analysis *a, const struct analysis_options *options, uint32_t first)
{
    analysis_settle_moves(a);
    if (first >= a->diags.count)
        return;
    if (options != NULL && options->settings != NULL)
        analysis__apply_severities(a, options, first, false);
    diag_list_sort(&a->diags);
}

uint32_t analysis_source_at(const struct analysis *a, uint32_t offset)
{
    if (a->document == DOCUMENT_SOURCE)
        return a->doc.root;
    if (a->document != DOCUMENT_BULK || a->element_count == 0)
        return JSON_NONE;
    uint32_t lo = 0, hi = a->element_count; /* the last element that starts at or before */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t e = a->elements[mid];
        if (json_moved(&a->doc, e, a->doc.nodes[e].start) <= offset)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t e = a->elements[lo];
    uint32_t start = json_moved(&a->doc, e, a->doc.nodes[e].start);
    uint32_t end = json_moved(&a->doc, e, a->doc.nodes[e].end);
    return offset >= start && offset <= end ? e : JSON_NONE;
}
