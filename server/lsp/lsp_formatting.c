/* lsp_formatting: re-indenting with the client's options. */
#include "lsp_formatting.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "lsp_position.h"

/* FormattingOptions.tabSize when the client sends none, and the largest one taken (a larger one
 * is clamped: nobody indents by more, and the output must stay bounded). */
#define DEFAULT_TAB_SIZE 2
#define MAX_TAB_SIZE 16

void lsp_formatting_initialize(struct lsp_server *s, struct lsp_request *initialize,
                               struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "documentFormattingProvider");
    json_write_bool(w, true);
    json_write_key(w, "documentRangeFormattingProvider");
    json_write_bool(w, true);
}

/* The document formatted with the request's FormattingOptions (malloc'd), or NULL when it has
 * syntax errors or memory ran out. */
static char *formatted_text(const struct lsp_document *d, const struct lsp_request *req,
                            size_t *len)
{
    uint32_t options = lsp_jsonrpc_get(req->doc, req->params, "options");
    uint32_t tab_size = DEFAULT_TAB_SIZE;
    lsp_jsonrpc_get_uint(req->doc, lsp_jsonrpc_get(req->doc, options, "tabSize"), &tab_size);
    uint32_t spaces = lsp_jsonrpc_get(req->doc, options, "insertSpaces");
    bool tabs = spaces != JSON_NONE && req->doc->nodes[spaces].kind == JSON_FALSE;
    if (tab_size > MAX_TAB_SIZE)
        tab_size = MAX_TAB_SIZE;
    return format_document(&d->analysis.doc, tab_size, tabs, len);
}

void lsp_formatting_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = lsp_documents_target_analyzed(&s->documents, req);
    if (d == NULL)
        return;
    size_t len = 0;
    errno = 0; /* ENOMEM after a NULL: out of memory, not syntax errors */
    char *formatted = formatted_text(d, req, &len);
    if (formatted == NULL && errno == ENOMEM) {
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_array_begin(&w);
    if (formatted != NULL && (len != d->len || memcmp(formatted, d->text, len) != 0)) {
        json_write_object_begin(&w);
        json_write_key(&w, "range");
        lsp_document_write_range(&w, d, 0, (uint32_t)d->len);
        json_write_key(&w, "newText");
        json_write_string_n(&w, formatted, len);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
    free(formatted);
}

void lsp_formatting_range_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t start, end;
    if (!lsp_documents_target_range(&s->documents, req, &d, &start, &end))
        return;
    size_t len = 0;
    errno = 0;
    char *formatted = formatted_text(d, req, &len);
    struct format_edit *edits = NULL;
    int64_t count =
        formatted == NULL ? 0 : format_edits(d->text, d->len, formatted, len, start, end, &edits);
    if ((formatted == NULL && errno == ENOMEM) || count < 0) { /* -1: memory (never more) */
        free(formatted);
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_array_begin(&w);
    for (int64_t i = 0; i < count; i++) {
        json_write_object_begin(&w);
        json_write_key(&w, "range");
        lsp_document_write_range(&w, d, edits[i].start, edits[i].end);
        json_write_key(&w, "newText");
        json_write_string_n(&w, edits[i].text, edits[i].len);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
    free(edits);
    free(formatted);
}
