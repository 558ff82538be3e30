/* lsp_diagnostics: a document diagnostic report on request: full, or unchanged when the client
 * names the current resultId. */
#include "lsp_diagnostics.h"

#include <string.h>

void lsp_diagnostics_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *w)
{
    /* A client that pulls gets no pushes: it would show both (vscode-languageclient keeps two
     * collections), as sourcekit-lsp and the JSON server also decide. It is told to pull again
     * when the settings change the diagnostics, if it can be. */
    struct json_doc *doc = initialize->doc;
    uint32_t pull = lsp_jsonrpc_capability(doc, initialize->params, "textDocument.diagnostic");
    uint32_t refresh =
        lsp_jsonrpc_capability(doc, initialize->params, "workspace.diagnostics.refreshSupport");
    s->documents.pull = pull != JSON_NONE && doc->nodes[pull].kind == JSON_OBJECT;
    s->documents.refresh = refresh != JSON_NONE && doc->nodes[refresh].kind == JSON_TRUE;
    json_write_key(w, "diagnosticProvider");
    json_write_object_begin(w);
    json_write_key(w, "identifier");
    json_write_string(w, "srcls");
    json_write_key(w, "interFileDependencies");
    json_write_bool(w, false);
    json_write_key(w, "workspaceDiagnostics");
    json_write_bool(w, true);
    json_write_object_end(w);
}

/* Whether the request's previousResultId is `id`: the client has these diagnostics already. */
static bool unchanged(const struct lsp_request *req, const char *id)
{
    uint32_t previous = lsp_jsonrpc_get(req->doc, req->params, "previousResultId");
    if (previous == JSON_NONE || req->doc->nodes[previous].kind != JSON_STRING)
        return false;
    struct json_str text = json_node_string(req->doc, previous);
    return text.len == strlen(id) && memcmp(text.ptr, id, text.len) == 0;
}

void lsp_diagnostics_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = lsp_documents_target(&s->documents, req, true);
    if (d == NULL)
        return;
    char id[48];
    lsp_document_result_id(d, id, sizeof id);
    bool same = unchanged(req, id);
    if (!same && lsp_documents_target_diagnosed(&s->documents, req) == NULL)
        return;
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "kind");
    json_write_string(&w, same ? "unchanged" : "full");
    json_write_key(&w, "resultId");
    json_write_string(&w, id);
    if (!same) {
        json_write_key(&w, "items");
        lsp_document_write_diagnostics(&w, d);
    }
    json_write_object_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
}
