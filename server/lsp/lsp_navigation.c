/* lsp_navigation: folding ranges (whole lines) and selection ranges (nested, innermost first). */
#include "lsp_navigation.h"

#include <stdlib.h>

#include "lsp_position.h"
#include "assist/assist.h"

/* Folds sent when the client gives no rangeLimit. */
#define FOLDS_DEFAULT_LIMIT 5000u
/* The most selection ranges per position: the document's nesting bounds them anyway. */
#define SELECTION_MAX 1100u

void lsp_navigation_folding_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                       struct json_writer *w)
{
    struct json_doc *doc = initialize->doc;
    uint32_t folding = lsp_jsonrpc_capability(doc, initialize->params, "textDocument.foldingRange");
    uint32_t limit = FOLDS_DEFAULT_LIMIT;
    if (lsp_jsonrpc_get_uint(doc, lsp_jsonrpc_get(doc, folding, "rangeLimit"), &limit) &&
        limit == 0)
        limit = FOLDS_DEFAULT_LIMIT;
    s->fold_limit = limit;
    json_write_key(w, "foldingRangeProvider");
    json_write_bool(w, true);
}

void lsp_navigation_folding_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = lsp_documents_target_analyzed(&s->documents, req);
    if (d == NULL)
        return;
    struct byte_range *folds;
    int64_t count = navigation_folds(&d->analysis, s->fold_limit, &folds);
    if (count < 0) {
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    const struct line_index *lines = &d->analysis.lines;
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_array_begin(&w);
    for (int64_t i = 0; i < count; i++) {
        /* From the opening bracket's line to the line before the closing one, so that the
         * closing bracket stays visible, as the JSON servers fold. */
        uint32_t first = line_index_position(lines, folds[i].start, POSITION_UTF8).line;
        uint32_t closing = line_index_position(lines, folds[i].end - 1, POSITION_UTF8).line;
        uint32_t last = closing - 1 > first ? closing - 1 : closing;
        json_write_object_begin(&w);
        json_write_key(&w, "startLine");
        json_write_int(&w, first);
        json_write_key(&w, "endLine");
        json_write_int(&w, last);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
    free(folds);
}

void lsp_navigation_selection_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                         struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "selectionRangeProvider");
    json_write_bool(w, true);
}

/* A SelectionRange: ranges[0] with its parents ranges[1..], nested. */
static void write_selection(struct json_writer *w, const struct lsp_document *d,
                            const struct byte_range *ranges, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        json_write_object_begin(w);
        json_write_key(w, "range");
        lsp_document_write_range(w, d, ranges[i].start, ranges[i].end);
        if (i + 1 < count)
            json_write_key(w, "parent");
    }
    for (uint32_t i = 0; i < count; i++)
        json_write_object_end(w);
}

void lsp_navigation_selection_request(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    uint32_t positions = lsp_jsonrpc_get(doc, req->params, "positions");
    if (positions == JSON_NONE || doc->nodes[positions].kind != JSON_ARRAY) {
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INVALID_PARAMS,
                                "params.positions must be an array of positions");
        return;
    }
    struct lsp_document *d = lsp_documents_target_analyzed(&s->documents, req);
    if (d == NULL)
        return;
    struct byte_range ranges[SELECTION_MAX];
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_array_begin(&w);
    for (uint32_t p = doc->nodes[positions].first_child; p != JSON_NONE; p = doc->nodes[p].next) {
        struct text_position position = {0, 0};
        lsp_position_read(doc, p, &position);
        uint32_t offset = lsp_document_offset(d, position);
        uint32_t count = navigation_selection(&d->analysis, offset, ranges, SELECTION_MAX);
        if (count == 0) /* an empty document: the cursor itself */
            ranges[count++] = (struct byte_range){offset, offset};
        write_selection(&w, d, ranges, count);
    }
    json_write_array_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
}
