/* lsp_documents_target: the open document a request names (params.textDocument.uri), its
 * analysis and the offsets of the params' position or range; a request on a document that is not
 * open, or whose text was lost for memory, is answered here. Part of the document store, in a
 * file of its own. */
#include "lsp_documents.h"

#include "lsp_position.h"

struct lsp_document *lsp_documents_target(struct lsp_documents *store,
                                          const struct lsp_request *req, bool reply)
{
    struct json_doc *doc = req->doc;
    uint32_t uri = lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, req->params, "textDocument"), "uri");
    if (uri == JSON_NONE || doc->nodes[uri].kind != JSON_STRING) {
        if (reply)
            lsp_jsonrpc_reply_error(store->rpc, req, LSP_INVALID_PARAMS,
                                    "params.textDocument.uri is missing");
        return NULL;
    }
    struct lsp_document *d = lsp_documents_find(store, json_node_string(doc, uri));
    if (!reply)
        return d;
    if (d == NULL && store->open_lost)
        lsp_jsonrpc_reply_error(store->rpc, req, LSP_INTERNAL_ERROR,
                                "out of memory: the document could not be opened");
    else if (d == NULL)
        lsp_jsonrpc_reply_error(store->rpc, req, LSP_INVALID_PARAMS, "the document is not open");
    else if (d->lost)
        lsp_jsonrpc_reply_error(
            store->rpc, req, LSP_INTERNAL_ERROR,
            "out of memory: the document's text was lost (close and reopen it)");
    return d != NULL && !d->lost ? d : NULL;
}

/* The target, analysed by `analyze`. */
static struct lsp_document *target_analyzed(struct lsp_documents *store,
                                            const struct lsp_request *req,
                                            int (*analyze)(struct lsp_document *d))
{
    struct lsp_document *d = lsp_documents_target(store, req, true);
    if (d != NULL && analyze(d) != 0) {
        lsp_jsonrpc_reply_error(store->rpc, req, LSP_INTERNAL_ERROR,
                                "the document could not be analysed (out of memory)");
        return NULL;
    }
    return d;
}

struct lsp_document *lsp_documents_target_analyzed(struct lsp_documents *store,
                                                   const struct lsp_request *req)
{
    return target_analyzed(store, req, lsp_document_analyze);
}

struct lsp_document *lsp_documents_target_diagnosed(struct lsp_documents *store,
                                                    const struct lsp_request *req)
{
    return target_analyzed(store, req, lsp_document_diagnose);
}

bool lsp_documents_target_offset(struct lsp_documents *store, const struct lsp_request *req,
                                 struct lsp_document **d, uint32_t *offset)
{
    struct text_position position;
    if (!lsp_position_read(req->doc, lsp_jsonrpc_get(req->doc, req->params, "position"),
                           &position)) {
        lsp_jsonrpc_reply_error(store->rpc, req, LSP_INVALID_PARAMS,
                                "params.position must be {line, character}");
        return false;
    }
    *d = lsp_documents_target_analyzed(store, req);
    if (*d == NULL)
        return false;
    *offset = lsp_document_offset(*d, position);
    return true;
}

bool lsp_documents_target_range(struct lsp_documents *store, const struct lsp_request *req,
                                struct lsp_document **d, uint32_t *start, uint32_t *end)
{
    struct text_position a, b;
    if (!lsp_position_read_range(req->doc, lsp_jsonrpc_get(req->doc, req->params, "range"), &a,
                                 &b)) {
        lsp_jsonrpc_reply_error(store->rpc, req, LSP_INVALID_PARAMS,
                                "params.range must be {start, end}");
        return false;
    }
    *d = lsp_documents_target_analyzed(store, req);
    if (*d == NULL)
        return false;
    *start = lsp_document_offset(*d, a);
    *end = lsp_document_offset(*d, b);
    return true;
}
