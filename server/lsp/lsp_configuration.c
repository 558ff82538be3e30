/* lsp_configuration: settings in, problems with them logged. */
#include "lsp_configuration.h"

/* The door's own setting: the most diagnostics sent per document. */
#define KEY_MAX_DIAGNOSTICS "maxDiagnostics"

/* Reads srcls.maxDiagnostics of `node`: the default when it is absent or not a count. */
static void read_max_diagnostics(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    s->documents.max_diagnostics = LSP_MAX_DIAGNOSTICS_DEFAULT;
    uint32_t max = lsp_jsonrpc_get(doc, node, KEY_MAX_DIAGNOSTICS);
    int64_t value;
    if (max == JSON_NONE)
        return;
    if (json_node_int64(doc, max, &value) && value >= 0 && value <= UINT32_MAX)
        s->documents.max_diagnostics = (uint32_t)value;
    else
        lsp_jsonrpc_log(
            &s->rpc, LSP_MESSAGE_WARNING,
            "srcls settings: %s must be a whole number, 0 for no limit (the default, %u, is used)",
            KEY_MAX_DIAGNOSTICS, LSP_MAX_DIAGNOSTICS_DEFAULT);
}

/* Reads settings given as {"srcls": {...}} or as the inner object itself. */
static void read_settings(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    uint32_t inner = lsp_jsonrpc_get(doc, node, "srcls");
    if (inner != JSON_NONE)
        node = inner;
    char problems[1024] = "";
    settings_read_door(&s->settings, doc, node, KEY_MAX_DIAGNOSTICS, problems, sizeof problems);
    if (problems[0] != '\0')
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_WARNING, "srcls settings: %s", problems);
    read_max_diagnostics(s, doc, node);
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
