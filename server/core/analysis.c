/* analysis: parse, index, classify and check one document. */
#include "analysis.h"

#include <string.h>

#include "codes.h"
#include "envelope.h"
#include "json_pointer.h"
#include "rules.h"
#include "settings.h"

enum document_kind analysis_classify(struct json_doc *doc)
{
    const struct json_node *root = json_node_at(doc, doc->root);
    if (root == NULL)
        return DOCUMENT_UNKNOWN;
    if (root->kind == JSON_OBJECT) {
        if (envelope_is_job(doc, doc->root))
            return DOCUMENT_JOB;
        return envelope_is_source(doc, doc->root) ? DOCUMENT_SOURCE : DOCUMENT_UNKNOWN;
    }
    if (root->kind == JSON_ARRAY && root->first_child != JSON_NONE) {
        for (uint32_t e = root->first_child; e != JSON_NONE; e = doc->nodes[e].next) {
            if (!envelope_is_source(doc, e))
                return DOCUMENT_UNKNOWN;
        }
        return DOCUMENT_BULK;
    }
    return DOCUMENT_UNKNOWN;
}

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

static int add_parse_errors(struct analysis *a)
{
    for (uint32_t i = 0; i < a->doc.error_count; i++) {
        const struct json_error *e = &a->doc.errors[i];
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

/* Severity overrides; "off" removes the diagnostic. */
static void apply_severities(struct diag_list *diags, const struct settings *settings)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < diags->count; i++) {
        struct diagnostic *d = &diags->items[i];
        d->severity = settings_severity(settings, d->code, d->severity);
        if (d->severity != DIAG_OFF)
            diags->items[kept++] = *d;
    }
    diags->count = kept;
}

int analysis_run(struct analysis *out, const char *text, size_t len,
                 const struct analysis_options *options)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    int status = json_parse(&out->doc, text, len, options ? options->parse : NULL);
    if (line_index_build(&out->lines, text, out->doc.len) != 0)
        return -1;
    if (add_parse_errors(out) != 0)
        status = -1;
    out->document = analysis_classify(&out->doc);
    if (out->document == DOCUMENT_UNKNOWN && options && options->report_unknown_document &&
        out->doc.root != JSON_NONE) {
        const struct json_node *root = &out->doc.nodes[out->doc.root];
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
        if (diag_list_add(&out->diags, &d) != 0)
            status = -1;
    }
    if (options && options->registry && out->document != DOCUMENT_UNKNOWN &&
        rules_check(out, options->registry, options->settings) != 0)
        status = -1;
    if (options && options->settings)
        apply_severities(&out->diags, options->settings);
    diag_list_sort(&out->diags);
    return status;
}

void analysis_free(struct analysis *analysis)
{
    json_doc_free(&analysis->doc);
    line_index_free(&analysis->lines);
    diag_list_free(&analysis->diags);
    arena_free(&analysis->arena);
}

const char *document_kind_name(enum document_kind kind)
{
    switch (kind) {
    case DOCUMENT_SOURCE:
    case DOCUMENT_BULK: return "source";
    case DOCUMENT_JOB: return "job";
    case DOCUMENT_UNKNOWN: break;
    }
    return "unknown";
}
