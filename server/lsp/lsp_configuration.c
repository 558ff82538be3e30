/* lsp_configuration: settings in, problems with them logged. */
#include "lsp_configuration.h"

/* Reads settings given as {"srcls": {...}} or as the inner object itself. */
static void read_settings(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    uint32_t inner = lsp_jsonrpc_get(doc, node, "srcls");
    char problems[1024] = "";
    settings_read(&s->settings, doc, inner != JSON_NONE ? inner : node, problems, sizeof problems);
    if (problems[0] != '\0')
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_WARNING, "srcls settings: %s", problems);
}

void lsp_configuration_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                  struct json_writer *capabilities)
{
    (void)capabilities;
    uint32_t options =
        lsp_jsonrpc_get(initialize->doc, initialize->params, "initializationOptions");
    if (options != JSON_NONE)
        read_settings(s, initialize->doc, options);
}

void lsp_configuration_did_change(struct lsp_server *s, struct lsp_request *req)
{
    uint32_t settings = lsp_jsonrpc_get(req->doc, req->params, "settings");
    if (settings == JSON_NONE)
        return;
    read_settings(s, req->doc, settings);
    lsp_documents_republish_all(&s->documents);
}
