/* lsp_text_sync: the client's copy of each document, mirrored. */
#include "lsp_text_sync.h"

#include "lsp_position.h"

/* LSP's TextDocumentSyncKind: how the client sends changes. srcls takes incremental changes
 * (ranges), which also allows whole texts. */
enum text_document_sync_kind {
    TEXT_DOCUMENT_SYNC_NONE = 0,
    TEXT_DOCUMENT_SYNC_FULL = 1,
    TEXT_DOCUMENT_SYNC_INCREMENTAL = 2,
};

void lsp_text_sync_initialize(struct lsp_server *s, struct lsp_request *initialize,
                              struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "textDocumentSync");
    json_write_object_begin(w);
    json_write_key(w, "openClose");
    json_write_bool(w, true);
    json_write_key(w, "change");
    json_write_int(w, TEXT_DOCUMENT_SYNC_INCREMENTAL);
    json_write_key(w, "save"); /* a srcls.json saved, for clients that watch no files */
    json_write_object_begin(w);
    json_write_key(w, "includeText");
    json_write_bool(w, false);
    json_write_object_end(w);
    json_write_object_end(w);
}

void lsp_text_sync_did_open(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    uint32_t item = lsp_jsonrpc_get(doc, req->params, "textDocument");
    uint32_t uri = lsp_jsonrpc_get(doc, item, "uri");
    uint32_t text = lsp_jsonrpc_get(doc, item, "text");
    int64_t version = 0;
    json_node_int64(doc, lsp_jsonrpc_get(doc, item, "version"), &version);
    if (uri == JSON_NONE || text == JSON_NONE || doc->nodes[text].kind != JSON_STRING) {
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_ERROR,
                        "srcls: didOpen without textDocument.uri and text: ignored");
        return;
    }
    bool escaped;
    struct json_str body = json_node_string_body(doc, text, &escaped);
    struct lsp_document *d =
        lsp_documents_open(&s->documents, json_node_string(doc, uri), body, escaped, version);
    if (d == NULL) { /* requests on a document not open are answered "out of memory" now */
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_ERROR,
                        "srcls: out of memory: a document could not be opened");
        return;
    }
    if (d->lost)
        lsp_document_lose(d, "its text could not be kept");
    else
        lsp_document_opened(d);
}

/* Applies one TextDocumentContentChangeEvent; -1 when memory ran out. */
static int apply_change(struct lsp_server *s, struct lsp_document *d, struct json_doc *doc,
                        uint32_t change)
{
    uint32_t text = lsp_jsonrpc_get(doc, change, "text");
    uint32_t range = lsp_jsonrpc_get(doc, change, "range");
    if (text == JSON_NONE || doc->nodes[text].kind != JSON_STRING)
        return 0;
    if (range == JSON_NONE) { /* the whole text, decoded straight into the document's */
        bool escaped;
        struct json_str whole = json_node_string_body(doc, text, &escaped);
        return lsp_document_set_text(d, whole, escaped);
    }
    if (d->lost)
        return 0; /* a range of a text that is not known */
    struct json_str body = json_node_string(doc, text);
    if (doc->arena.failed)
        return -1; /* out of memory: the text was not decoded */
    struct text_position start, end;
    if (!lsp_position_read_range(doc, range, &start, &end)) {
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_ERROR,
                        "srcls: didChange with a malformed range: ignored");
        return 0;
    }
    return lsp_document_replace(d, start, end, body.ptr, body.len);
}

void lsp_text_sync_did_change(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    struct lsp_document *d = lsp_documents_target(&s->documents, req, false);
    uint32_t changes = lsp_jsonrpc_get(doc, req->params, "contentChanges");
    if (d == NULL || changes == JSON_NONE || doc->nodes[changes].kind != JSON_ARRAY) {
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_ERROR,
                        "srcls: didChange for a document that is not open, or without changes");
        return;
    }
    for (uint32_t c = doc->nodes[changes].first_child; c != JSON_NONE; c = doc->nodes[c].next) {
        if (apply_change(s, d, doc, c) != 0) {
            lsp_document_lose(d, "a change could not be applied");
            return;
        }
    }
    if (d->lost)
        return; /* until its whole text arrives */
    int64_t version = d->version;
    json_node_int64(
        doc, lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, req->params, "textDocument"), "version"),
        &version);
    d->version = version;
    lsp_document_changed(d, false);
}

void lsp_text_sync_did_close(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = lsp_documents_target(&s->documents, req, false);
    if (d != NULL)
        lsp_documents_close(&s->documents, d);
}
