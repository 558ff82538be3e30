/* lsp_hover: Markdown and the range it describes, or null. */
#include "lsp_hover.h"

#include "hover.h"

void lsp_hover_initialize(struct lsp_server *s, struct lsp_request *initialize,
                          struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "hoverProvider");
    json_write_bool(w, true);
}

static void write_hover(struct json_writer *w, const struct lsp_document *d, const char *markdown,
                        uint32_t start, uint32_t end)
{
    json_write_object_begin(w);
    json_write_key(w, "contents");
    json_write_object_begin(w);
    json_write_key(w, "kind");
    json_write_string(w, "markdown");
    json_write_key(w, "value");
    json_write_string(w, markdown);
    json_write_object_end(w);
    json_write_key(w, "range");
    lsp_document_write_range(w, d, start, end);
    json_write_object_end(w);
}

void lsp_hover_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t offset;
    if (!lsp_documents_target_offset(&s->documents, req, &d, &offset))
        return;
    struct arena arena;
    arena_init(&arena);
    uint32_t start = 0, end = 0;
    const char *markdown =
        hover_at(&d->analysis, &s->registry, &s->settings, offset, &arena, &start, &end);
    if (markdown == NULL) {
        lsp_jsonrpc_reply_null(&s->rpc, req);
    } else {
        struct json_writer w;
        lsp_jsonrpc_result_begin(&w, req);
        write_hover(&w, d, markdown, start, end);
        lsp_jsonrpc_finish(&s->rpc, &w);
    }
    arena_free(&arena);
}
