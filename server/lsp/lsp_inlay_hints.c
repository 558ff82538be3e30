/* lsp_inlay_hints: hints in the requested range, with their positions in the client's encoding. */
#include "lsp_inlay_hints.h"

#include "assist/assist.h"
#include "lsp_position.h"

/* LSP's InlayHintKind. */
enum lsp_inlay_hint_kind {
    LSP_INLAY_TYPE = 1,
    LSP_INLAY_PARAMETER = 2,
};

void lsp_inlay_hints_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "inlayHintProvider");
    json_write_bool(w, true);
}

static void write_hint(struct json_writer *w, const struct lsp_document *d,
                       const struct inlay_hint *hint)
{
    json_write_object_begin(w);
    json_write_key(w, "position");
    line_index_write_position(w, &d->analysis.lines, hint->offset, d->store->encoding);
    json_write_key(w, "label");
    json_write_string(w, hint->label);
    json_write_key(w, "kind");
    json_write_int(w, hint->kind == INLAY_KIND ? LSP_INLAY_TYPE : LSP_INLAY_PARAMETER);
    if (hint->tooltip != NULL) {
        json_write_key(w, "tooltip");
        json_write_string(w, hint->tooltip);
    }
    json_write_key(w, hint->kind == INLAY_KIND ? "paddingLeft" : "paddingRight");
    json_write_bool(w, true);
    json_write_object_end(w);
}

void lsp_inlay_hints_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t start, end;
    if (!lsp_documents_target_range(&s->documents, req, &d, &start, &end))
        return;
    struct inlay_list hints;
    if (inlay_hints(&d->analysis, d->registry, &s->settings, start, end, &hints) != 0) {
        inlay_list_free(&hints);
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_array_begin(&w);
    for (uint32_t i = 0; i < hints.count; i++)
        write_hint(&w, d, &hints.items[i]);
    json_write_array_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
    inlay_list_free(&hints);
}
