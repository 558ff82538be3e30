/* lsp_configuration: settings in, problems with them logged. */
#include "lsp_configuration.h"

#include <string.h>

#include "project/project.h"

/* The door's own setting: the most diagnostics sent per document. */
#define KEY_MAX_DIAGNOSTICS "maxDiagnostics"
/* The git revision open documents are reviewed against (lsp_review); absent: off. */
#define KEY_REVIEW_BASE "reviewBase"
/* What a finding the baseline holds becomes (hint, hide, show). */
#define KEY_BASELINE_FINDINGS "baselineFindings"

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

/* Reads srcls.reviewBase of `node`: a revision, or absent, null or "" for off. */
static void read_review_base(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    uint32_t base = lsp_jsonrpc_get(doc, node, KEY_REVIEW_BASE);
    const struct json_node *n = json_node_at(doc, base);
    if (n != NULL && n->kind == JSON_STRING) {
        struct json_str ref = json_node_string(doc, base);
        lsp_review_set(&s->documents.review, ref.ptr, ref.len);
        return;
    }
    if (n != NULL && n->kind != JSON_NULL)
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_WARNING,
                        "srcls settings: %s must be a git revision such as \"HEAD\" (review is "
                        "off)",
                        KEY_REVIEW_BASE);
    lsp_review_set(&s->documents.review, NULL, 0);
}

/* "hint" (the default), "hide" or "show": a finding the baseline holds. */
static void read_baseline_findings(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    static const char *const modes[] = {"hint", "hide", "show"};
    s->documents.baseline_mode = LSP_BASELINE_HINT;
    uint32_t mode = lsp_jsonrpc_get(doc, node, KEY_BASELINE_FINDINGS);
    for (int m = 0; mode != JSON_NONE && m < 3; m++) {
        if (json_node_string_equals(doc, mode, modes[m], strlen(modes[m]))) {
            s->documents.baseline_mode = (enum lsp_baseline_mode)m;
            return;
        }
    }
    if (mode != JSON_NONE)
        lsp_jsonrpc_log(
            &s->rpc, LSP_MESSAGE_WARNING,
            "srcls settings: %s must be \"hint\", \"hide\" or \"show\" (\"hint\" is used)",
            KEY_BASELINE_FINDINGS);
}

/* The keys of srcls.json that only srcls.json sets (a project's files and baseline, not a
 * person's editor): given in the editor's settings they are said to do nothing, not taken
 * silently. */
static void note_project_only(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    static const char *const keys[] = {SETTINGS_KEY_INCLUDE, SETTINGS_KEY_EXCLUDE,
                                       SETTINGS_KEY_SCHEMAS, SETTINGS_KEY_BASELINE};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        if (lsp_jsonrpc_get(doc, node, keys[k]) != JSON_NONE)
            lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_WARNING,
                            "srcls settings: \"%s\" is read from srcls.json only, not from the "
                            "editor's settings: it does nothing here (the editor takes \"rules\", "
                            "\"types\", \"placeholders\", \"ignore\", \"%s\", \"%s\" and "
                            "\"%s\")",
                            keys[k], KEY_MAX_DIAGNOSTICS, KEY_REVIEW_BASE, KEY_BASELINE_FINDINGS);
    }
}

/* Reads settings given as {"srcls": {...}} or as the inner object itself. */
static void read_settings(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    uint32_t inner = lsp_jsonrpc_get(doc, node, "srcls");
    if (inner != JSON_NONE)
        node = inner;
    char problems[1024] = "";
    static const char *const door_keys[] = {KEY_MAX_DIAGNOSTICS, KEY_REVIEW_BASE,
                                            KEY_BASELINE_FINDINGS, NULL};
    settings_read_door(&s->settings, doc, node, door_keys, problems, sizeof problems);
    if (problems[0] != '\0')
        lsp_jsonrpc_log(&s->rpc, LSP_MESSAGE_WARNING, "srcls settings: %s", problems);
    note_project_only(s, doc, node);
    /* read with the rest, but a project's alone: nothing of them is laid over srcls.json's */
    s->settings.include = s->settings.exclude = s->settings.schemas = (struct settings_strings){0};
    s->settings.baseline = NULL;
    read_max_diagnostics(s, doc, node);
    read_review_base(s, doc, node);
    read_baseline_findings(s, doc, node);
}

void lsp_configuration_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                  struct json_writer *capabilities)
{
    (void)capabilities;
    struct json_doc *doc = initialize->doc;
    uint32_t options = lsp_jsonrpc_get(doc, initialize->params, "initializationOptions");
    if (options != JSON_NONE)
        read_settings(s, doc, options);
    uint32_t dynamic = lsp_jsonrpc_capability(
        doc, initialize->params, "workspace.didChangeWatchedFiles.dynamicRegistration");
    s->watch_projects = dynamic != JSON_NONE && doc->nodes[dynamic].kind == JSON_TRUE;
}

void lsp_configuration_initialized(struct lsp_server *s, struct lsp_request *req)
{
    (void)req;
    if (!s->watch_projects)
        return;
    /* client/registerCapability: tell us when a srcls.json is created, changed or deleted */
    struct json_writer w;
    lsp_jsonrpc_request_begin(&s->rpc, &w, "client/registerCapability");
    json_write_key(&w, "params");
    json_write_object_begin(&w);
    json_write_key(&w, "registrations");
    json_write_array_begin(&w);
    json_write_object_begin(&w);
    json_write_key(&w, "id");
    json_write_string(&w, "srcls-project-files");
    json_write_key(&w, "method");
    json_write_string(&w, "workspace/didChangeWatchedFiles");
    json_write_key(&w, "registerOptions");
    json_write_object_begin(&w);
    json_write_key(&w, "watchers");
    json_write_array_begin(&w);
    json_write_object_begin(&w);
    json_write_key(&w, "globPattern");
    json_write_string(&w, "**/" PROJECT_FILE_NAME);
    json_write_object_end(&w);
    /* and the kind files of srcls.json's "schemas" (told apart in watched_files) */
    json_write_object_begin(&w);
    json_write_key(&w, "globPattern");
    json_write_string(&w, "**/*.json");
    json_write_object_end(&w);
    json_write_array_end(&w);
    json_write_object_end(&w);
    json_write_object_end(&w);
    json_write_array_end(&w);
    json_write_object_end(&w);
    lsp_jsonrpc_send(&s->rpc, &w);
}

/* When the file of the URI string `uri` (a node of `doc`) is one the projects read (a
 * srcls.json, a file one extends, a kind file): the projects are read again and every document
 * checked again; true then. */
static bool project_file_changed(struct lsp_server *s, struct json_doc *doc, uint32_t uri)
{
    if (uri == JSON_NONE || doc->nodes[uri].kind != JSON_STRING)
        return false;
    struct json_str text = json_node_string(doc, uri);
    if (!lsp_projects_watches(&s->documents.projects, text.ptr, text.len))
        return false;
    lsp_documents_projects_changed(&s->documents);
    return true;
}

void lsp_configuration_watched_files(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    uint32_t changes = lsp_jsonrpc_get(doc, req->params, "changes");
    if (changes == JSON_NONE || doc->nodes[changes].kind != JSON_ARRAY)
        return;
    for (uint32_t c = doc->nodes[changes].first_child; c != JSON_NONE; c = doc->nodes[c].next) {
        if (project_file_changed(s, doc, lsp_jsonrpc_get(doc, c, "uri")))
            return; /* once for all of them */
    }
}

void lsp_configuration_did_save(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    uint32_t td = lsp_jsonrpc_get(doc, req->params, "textDocument");
    if (!s->watch_projects && td != JSON_NONE) /* a watching client says it through its watcher */
        project_file_changed(s, doc, lsp_jsonrpc_get(doc, td, "uri"));
}

void lsp_configuration_did_change(struct lsp_server *s, struct lsp_request *req)
{
    uint32_t settings = lsp_jsonrpc_get(req->doc, req->params, "settings");
    if (settings == JSON_NONE)
        return;
    read_settings(s, req->doc, settings);
    lsp_documents_republish_all(&s->documents);
}
