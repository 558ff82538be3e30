/* lsp_diagnostics: a full document diagnostic report on request. */
#include "lsp_diagnostics.h"

void lsp_diagnostics_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "diagnosticProvider");
    json_write_object_begin(w);
    json_write_key(w, "identifier");
    json_write_string(w, "srcls");
    json_write_key(w, "interFileDependencies");
    json_write_bool(w, false);
    json_write_key(w, "workspaceDiagnostics");
    json_write_bool(w, false);
    json_write_object_end(w);
}

void lsp_diagnostics_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = lsp_documents_target_analyzed(&s->documents, req);
    if (d == NULL)
        return;
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "kind");
    json_write_string(&w, "full");
    json_write_key(&w, "items");
    lsp_document_write_diagnostics(&w, d);
    json_write_object_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
}
