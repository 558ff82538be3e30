/* lsp_hover: the schema's words about what is under the cursor, as MarkupContent in the format
 * the client takes, and the range they are about; or null. */
#include "lsp_hover.h"

#include "hover.h"

void lsp_hover_initialize(struct lsp_server *s, struct lsp_request *initialize,
                          struct json_writer *w)
{
    struct json_doc *doc = initialize->doc;
    uint32_t client = lsp_jsonrpc_get(doc, initialize->params, "capabilities");
    uint32_t hover = lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, client, "textDocument"), "hover");
    s->hover_markup =
        lsp_jsonrpc_prefers_markdown(doc, lsp_jsonrpc_get(doc, hover, "contentFormat"))
            ? TEXT_MARKDOWN
            : TEXT_PLAIN;
    json_write_key(w, "hoverProvider");
    json_write_bool(w, true);
}

static void write_hover(struct json_writer *w, const struct lsp_document *d,
                        enum text_markup markup, const char *text, uint32_t start, uint32_t end)
{
    json_write_object_begin(w);
    json_write_key(w, "contents");
    json_write_object_begin(w);
    json_write_key(w, "kind");
    json_write_string(w, markup == TEXT_MARKDOWN ? "markdown" : "plaintext");
    json_write_key(w, "value");
    json_write_string(w, text);
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
    const char *text = hover_at(&d->analysis, &s->registry, &s->settings, offset, s->hover_markup,
                                &arena, &start, &end);
    if (text == NULL) {
        lsp_jsonrpc_reply_null(&s->rpc, req);
    } else {
        struct json_writer w;
        lsp_jsonrpc_result_begin(&w, req);
        write_hover(&w, d, s->hover_markup, text, start, end);
        lsp_jsonrpc_finish(&s->rpc, &w);
    }
    arena_free(&arena);
}
