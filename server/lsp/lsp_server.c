/* lsp_server: lifecycle, dispatch and documents of the language server.
 *
 * Messages read from stdin are queued and handled on the next loop turn, a batch at a time:
 * a $/cancelRequest that arrives in the same batch as its request cancels it. Requests are
 * answered synchronously (the core is fast enough); diagnostics are pushed after a short
 * debounce so that typing is not slowed by re-checking every keystroke. */
#include "lsp_server.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "complete.h"
#include "fix.h"
#include "format.h"
#include "hover.h"
#include "json_doc.h"
#include "lsp_protocol.h"
#include "symbols.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif
#ifndef SRCLS_DOCS_URL
#define SRCLS_DOCS_URL "https://github.com/srcls/srcls/blob/main/docs/rules.md"
#endif

#define DEBOUNCE_MS 75

/* ---- output ---- */

void lsp_send(struct lsp_server *s, struct json_writer *w)
{
    if (!w->failed)
        lsp_transport_send(&s->transport, w->buf, w->len);
}

static void begin_message(struct json_writer *w)
{
    json_writer_init(w, 0);
    json_write_object_begin(w);
    json_write_key(w, "jsonrpc");
    json_write_string(w, "2.0");
}

void lsp_begin_result(struct json_writer *w, const struct lsp_request *req)
{
    begin_message(w);
    json_write_key(w, "id");
    json_write_raw(w, req->id_text, req->id_len);
    json_write_key(w, "result");
}

void lsp_end_result(struct lsp_server *s, struct json_writer *w)
{
    json_write_object_end(w);
    bool failed = w->failed;
    lsp_send(s, w);
    json_writer_free(w);
    /* A response that could not be built still gets an answer. */
    if (failed && s->current != NULL && s->current->id_text != NULL)
        lsp_reply_error(s, s->current->id_text, s->current->id_len, LSP_INTERNAL_ERROR,
                        "the response could not be built (out of memory or nested too deeply)");
}

void lsp_reply_error(struct lsp_server *s, const char *id_text, size_t id_len, int code,
                     const char *message)
{
    struct json_writer w;
    begin_message(&w);
    json_write_key(&w, "id");
    if (id_text != NULL)
        json_write_raw(&w, id_text, id_len);
    else
        json_write_null(&w);
    json_write_key(&w, "error");
    json_write_object_begin(&w);
    json_write_key(&w, "code");
    json_write_int(&w, code);
    json_write_key(&w, "message");
    json_write_string(&w, message);
    json_write_object_end(&w);
    json_write_object_end(&w);
    lsp_send(s, &w);
    json_writer_free(&w);
}

void lsp_begin_notification(struct json_writer *w, const char *method)
{
    begin_message(w);
    json_write_key(w, "method");
    json_write_string(w, method);
    json_write_key(w, "params");
}

void lsp_log(struct lsp_server *s, int type, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    struct json_writer w;
    lsp_begin_notification(&w, "window/logMessage");
    json_write_object_begin(&w);
    json_write_key(&w, "type");
    json_write_int(&w, type);
    json_write_key(&w, "message");
    json_write_string(&w, message);
    json_write_object_end(&w);
    lsp_end_result(s, &w);
}

static void trace(struct lsp_server *s, const char *message, const char *verbose)
{
    if (s->trace == 0)
        return;
    struct json_writer w;
    lsp_begin_notification(&w, "$/logTrace");
    json_write_object_begin(&w);
    json_write_key(&w, "message");
    json_write_string(&w, message);
    if (s->trace == 2 && verbose != NULL) {
        json_write_key(&w, "verbose");
        json_write_string(&w, verbose);
    }
    json_write_object_end(&w);
    lsp_end_result(s, &w);
}

/* ---- documents ---- */

struct lsp_document *lsp_find_document(struct lsp_server *s, struct json_str uri)
{
    for (struct lsp_document *d = s->documents; d != NULL; d = d->next) {
        if (strlen(d->uri) == uri.len && memcmp(d->uri, uri.ptr, uri.len) == 0)
            return d;
    }
    return NULL;
}

void lsp_analyze(struct lsp_server *s, struct lsp_document *d)
{
    if (d->analyzed)
        return;
    analysis_free(&d->analysis);
    struct analysis_options options = {
        .report_unknown_document = true,
        .registry = &s->registry,
        .settings = &s->settings,
    };
    analysis_run(&d->analysis, d->text, d->len, &options);
    d->analyzed = true;
}

static void write_range(struct lsp_server *s, struct json_writer *w, const struct line_index *lines,
                        uint32_t start, uint32_t end)
{
    lsp_write_range(w, lines, start, end, s->encoding);
}

void lsp_write_diagnostic(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                          uint32_t i)
{
    const struct analysis *a = &d->analysis;
    const struct diagnostic *diag = &a->diags.items[i];
    json_write_object_begin(w);
    json_write_key(w, "range");
    write_range(s, w, &a->lines, diag->start, diag->end);
    json_write_key(w, "severity");
    json_write_int(w, diag->severity);
    json_write_key(w, "code");
    json_write_string(w, code_name(diag->code));
    json_write_key(w, "codeDescription");
    json_write_object_begin(w);
    json_write_key(w, "href");
    char href[256];
    snprintf(href, sizeof href, "%s#%s", SRCLS_DOCS_URL, code_name(diag->code));
    json_write_string(w, href);
    json_write_object_end(w);
    json_write_key(w, "source");
    json_write_string(w, "srcls");
    json_write_key(w, "message");
    json_write_string(w, diag->message);
    if (diag->related_message != NULL && diag->related_start != UINT32_MAX) {
        json_write_key(w, "relatedInformation");
        json_write_array_begin(w);
        json_write_object_begin(w);
        json_write_key(w, "location");
        json_write_object_begin(w);
        json_write_key(w, "uri");
        json_write_string(w, d->uri);
        json_write_key(w, "range");
        write_range(s, w, &a->lines, diag->related_start, diag->related_end);
        json_write_object_end(w);
        json_write_key(w, "message");
        json_write_string(w, diag->related_message);
        json_write_object_end(w);
        json_write_array_end(w);
    }
    json_write_key(w, "data");
    json_write_object_begin(w);
    json_write_key(w, "pointer");
    json_write_string(w, diag->pointer);
    json_write_object_end(w);
    json_write_object_end(w);
}

void lsp_write_diagnostics(struct lsp_server *s, struct json_writer *w, struct lsp_document *d)
{
    json_write_array_begin(w);
    for (uint32_t i = 0; i < d->analysis.diags.count; i++)
        lsp_write_diagnostic(s, w, d, i);
    json_write_array_end(w);
}

static void publish(struct lsp_server *s, struct lsp_document *d, bool clear)
{
    struct json_writer w;
    lsp_begin_notification(&w, "textDocument/publishDiagnostics");
    json_write_object_begin(&w);
    json_write_key(&w, "uri");
    json_write_string(&w, d->uri);
    if (!clear) {
        lsp_analyze(s, d);
        json_write_key(&w, "version");
        json_write_int(&w, d->version);
        json_write_key(&w, "diagnostics");
        lsp_write_diagnostics(s, &w, d);
    } else {
        json_write_key(&w, "diagnostics");
        json_write_array_begin(&w);
        json_write_array_end(&w);
    }
    json_write_object_end(&w);
    lsp_end_result(s, &w);
}

static void on_debounce(uv_timer_t *timer)
{
    struct lsp_document *d = timer->data;
    publish(d->server, d, false);
}

void lsp_document_changed(struct lsp_server *s, struct lsp_document *d, bool now)
{
    d->analyzed = false;
    if (now) {
        uv_timer_stop(&d->debounce);
        publish(s, d, false);
        return;
    }
    uv_timer_start(&d->debounce, on_debounce, s->debounce_ms, 0);
}

struct lsp_document *lsp_open_document(struct lsp_server *s, struct json_str uri, const char *text,
                                       size_t len, int64_t version)
{
    struct lsp_document *d = lsp_find_document(s, uri);
    if (d == NULL) {
        d = calloc(1, sizeof *d);
        if (d == NULL)
            return NULL;
        d->server = s;
        d->uri = malloc(uri.len + 1);
        if (d->uri == NULL) {
            free(d);
            return NULL;
        }
        memcpy(d->uri, uri.ptr, uri.len);
        d->uri[uri.len] = '\0';
        uv_timer_init(s->loop, &d->debounce);
        d->debounce.data = d;
        d->timer_open = true;
        d->next = s->documents;
        s->documents = d;
    }
    if (lsp_document_set_text(d, text, len) != 0)
        return NULL;
    d->version = version;
    return d;
}

int lsp_document_set_text(struct lsp_document *d, const char *text, size_t len)
{
    if (len + 1 > d->cap) {
        size_t cap = len + 1 + len / 4;
        char *grown = realloc(d->text, cap);
        if (grown == NULL)
            return -1;
        d->text = grown;
        d->cap = cap;
    }
    memmove(d->text, text, len);
    d->text[len] = '\0';
    d->len = len;
    d->analyzed = false;
    return 0;
}

static void free_document(uv_handle_t *handle)
{
    struct lsp_document *d = handle->data;
    analysis_free(&d->analysis);
    free(d->text);
    free(d->uri);
    free(d);
}

void lsp_close_document(struct lsp_server *s, struct lsp_document *d)
{
    for (struct lsp_document **p = &s->documents; *p != NULL; p = &(*p)->next) {
        if (*p == d) {
            *p = d->next;
            break;
        }
    }
    uv_timer_stop(&d->debounce);
    publish(s, d, true);
    uv_close((uv_handle_t *)&d->debounce, free_document);
}

void lsp_republish_all(struct lsp_server *s)
{
    for (struct lsp_document *d = s->documents; d != NULL; d = d->next)
        lsp_document_changed(s, d, true);
}

/* ---- lifecycle ---- */

static void handle_initialize(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    uint32_t caps = lsp_get(doc, req->params, "capabilities");
    uint32_t encodings = lsp_get(doc, lsp_get(doc, caps, "general"), "positionEncodings");
    s->encoding = POSITION_UTF16;
    for (uint32_t e = encodings != JSON_NONE && doc->nodes[encodings].kind == JSON_ARRAY
                          ? doc->nodes[encodings].first_child
                          : JSON_NONE;
         e != JSON_NONE; e = doc->nodes[e].next) {
        if (json_node_string_equals(doc, e, "utf-8", 5))
            s->encoding = POSITION_UTF8;
    }
    uint32_t completion = lsp_get(doc, lsp_get(doc, caps, "textDocument"), "completion");
    uint32_t snippet = lsp_get(doc, lsp_get(doc, completion, "completionItem"), "snippetSupport");
    s->snippets = snippet != JSON_NONE && doc->nodes[snippet].kind == JSON_TRUE;
    uint32_t trace_value = lsp_get(doc, req->params, "trace");
    s->trace = json_node_string_equals(doc, trace_value, "verbose", 7)    ? 2
               : json_node_string_equals(doc, trace_value, "messages", 8) ? 1
                                                                          : 0;
    uint32_t options = lsp_get(doc, req->params, "initializationOptions");
    if (options != JSON_NONE)
        lsp_read_settings(s, doc, options);

    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "capabilities");
    json_write_object_begin(&w);
    json_write_key(&w, "positionEncoding");
    json_write_string(&w, s->encoding == POSITION_UTF8 ? "utf-8" : "utf-16");
    json_write_key(&w, "textDocumentSync");
    json_write_object_begin(&w);
    json_write_key(&w, "openClose");
    json_write_bool(&w, true);
    json_write_key(&w, "change");
    json_write_int(&w, 2);
    json_write_object_end(&w);
    json_write_key(&w, "completionProvider");
    json_write_object_begin(&w);
    json_write_key(&w, "triggerCharacters");
    json_write_array_begin(&w);
    json_write_string(&w, "\"");
    json_write_string(&w, ":");
    json_write_array_end(&w);
    json_write_key(&w, "resolveProvider");
    json_write_bool(&w, false);
    json_write_object_end(&w);
    json_write_key(&w, "hoverProvider");
    json_write_bool(&w, true);
    json_write_key(&w, "codeActionProvider");
    json_write_object_begin(&w);
    json_write_key(&w, "codeActionKinds");
    json_write_array_begin(&w);
    json_write_string(&w, "quickfix");
    json_write_string(&w, "source.fixAll.srcls");
    json_write_array_end(&w);
    json_write_object_end(&w);
    json_write_key(&w, "documentSymbolProvider");
    json_write_bool(&w, true);
    json_write_key(&w, "documentFormattingProvider");
    json_write_bool(&w, true);
    json_write_key(&w, "diagnosticProvider");
    json_write_object_begin(&w);
    json_write_key(&w, "identifier");
    json_write_string(&w, "srcls");
    json_write_key(&w, "interFileDependencies");
    json_write_bool(&w, false);
    json_write_key(&w, "workspaceDiagnostics");
    json_write_bool(&w, false);
    json_write_object_end(&w);
    json_write_object_end(&w);
    json_write_key(&w, "serverInfo");
    json_write_object_begin(&w);
    json_write_key(&w, "name");
    json_write_string(&w, "srcls");
    json_write_key(&w, "version");
    json_write_string(&w, SRCLS_VERSION);
    json_write_object_end(&w);
    json_write_object_end(&w);
    lsp_end_result(s, &w);
    s->state = LSP_STATE_INITIALIZED;
}

static void handle_shutdown(struct lsp_server *s, struct lsp_request *req)
{
    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_null(&w);
    lsp_end_result(s, &w);
    s->state = LSP_STATE_SHUT_DOWN;
}

static void stop(struct lsp_server *s, int code)
{
    if (s->exiting)
        return;
    s->exiting = true;
    s->exit_code = code;
    uv_idle_stop(&s->idle);
    while (s->documents != NULL) {
        struct lsp_document *d = s->documents;
        s->documents = d->next;
        uv_timer_stop(&d->debounce);
        uv_close((uv_handle_t *)&d->debounce, free_document);
    }
    lsp_transport_close(&s->transport);
    uv_close((uv_handle_t *)&s->idle, NULL);
}

/* ---- dispatch ---- */

struct method {
    const char *name;
    void (*handler)(struct lsp_server *s, struct lsp_request *req);
};

static const struct method requests[] = {
    {"initialize", handle_initialize},
    {"shutdown", handle_shutdown},
    {"textDocument/diagnostic", lsp_handle_pull_diagnostics},
    {"textDocument/completion", lsp_handle_completion},
    {"textDocument/hover", lsp_handle_hover},
    {"textDocument/codeAction", lsp_handle_code_action},
    {"textDocument/documentSymbol", lsp_handle_document_symbol},
    {"textDocument/formatting", lsp_handle_formatting},
};

static const struct method notifications[] = {
    {"textDocument/didOpen", lsp_handle_did_open},
    {"textDocument/didChange", lsp_handle_did_change},
    {"textDocument/didClose", lsp_handle_did_close},
    {"workspace/didChangeConfiguration", lsp_handle_did_change_configuration},
};

static const struct method *find_method(const struct method *table, size_t count,
                                        struct json_str name)
{
    for (size_t i = 0; i < count; i++) {
        if (strlen(table[i].name) == name.len && memcmp(table[i].name, name.ptr, name.len) == 0)
            return &table[i];
    }
    return NULL;
}

static bool is_cancelled(struct lsp_server *s, const char *id, size_t id_len,
                         const struct lsp_message *batch, size_t count);

static void handle_message(struct lsp_server *s, const char *body, size_t len,
                           const struct lsp_message *batch, size_t count)
{
    struct json_doc doc;
    json_parse(&doc, body, len, NULL);
    struct lsp_request req = {.doc = &doc, .params = JSON_NONE, .server = s};
    if (doc.error_count > 0 || doc.root == JSON_NONE) {
        lsp_reply_error(s, NULL, 0, LSP_PARSE_ERROR, "the message body is not valid JSON");
        goto done;
    }
    uint32_t root = doc.root;
    uint32_t id = JSON_NONE, method = JSON_NONE;
    if (doc.nodes[root].kind == JSON_OBJECT) {
        id = json_object_get(&doc, root, "id", 2);
        method = json_object_get(&doc, root, "method", 6);
        req.params = json_object_get(&doc, root, "params", 6);
    }
    if (id != JSON_NONE && doc.nodes[id].kind != JSON_NUMBER && doc.nodes[id].kind != JSON_STRING)
        id = JSON_NONE;
    if (id != JSON_NONE) {
        req.id_text = doc.text + doc.nodes[id].start;
        req.id_len = doc.nodes[id].end - doc.nodes[id].start;
    }
    if (method == JSON_NONE || doc.nodes[method].kind != JSON_STRING) {
        bool response = doc.nodes[root].kind == JSON_OBJECT &&
                        (json_object_get(&doc, root, "result", 6) != JSON_NONE ||
                         json_object_get(&doc, root, "error", 5) != JSON_NONE);
        if (!response) /* responses to our (no) requests are ignored */
            lsp_reply_error(s, req.id_text, req.id_len, LSP_INVALID_REQUEST,
                            "not a JSON-RPC request or notification: \"method\" is missing");
        goto done;
    }
    struct json_str name = json_node_string(&doc, method);
    req.method = name;
    char method_text[128];
    snprintf(method_text, sizeof method_text, "%.*s", (int)(name.len < 100 ? name.len : 100),
             name.ptr);
    trace(s, method_text, NULL);

    if (id == JSON_NONE) {
        /* A notification. */
        if (strcmp(method_text, "exit") == 0) {
            stop(s, s->state == LSP_STATE_SHUT_DOWN ? 0 : 1);
        } else if (strcmp(method_text, "$/setTrace") == 0) {
            uint32_t value = lsp_get(&doc, req.params, "value");
            s->trace = json_node_string_equals(&doc, value, "verbose", 7)    ? 2
                       : json_node_string_equals(&doc, value, "messages", 8) ? 1
                                                                             : 0;
        } else if (s->state == LSP_STATE_INITIALIZED) {
            const struct method *m =
                find_method(notifications, sizeof notifications / sizeof notifications[0], name);
            if (m != NULL)
                m->handler(s, &req);
        }
        goto done;
    }
    if (s->state == LSP_STATE_NEW && strcmp(method_text, "initialize") != 0) {
        lsp_reply_error(s, req.id_text, req.id_len, LSP_SERVER_NOT_INITIALIZED,
                        "the server is not initialized yet: send initialize first");
        goto done;
    }
    if (s->state == LSP_STATE_SHUT_DOWN) {
        lsp_reply_error(s, req.id_text, req.id_len, LSP_INVALID_REQUEST,
                        "the server is shut down: only exit is accepted");
        goto done;
    }
    if (s->state == LSP_STATE_INITIALIZED && strcmp(method_text, "initialize") == 0) {
        lsp_reply_error(s, req.id_text, req.id_len, LSP_INVALID_REQUEST,
                        "initialize was already received");
        goto done;
    }
    if (is_cancelled(s, req.id_text, req.id_len, batch, count)) {
        lsp_reply_error(s, req.id_text, req.id_len, LSP_REQUEST_CANCELLED,
                        "the request was cancelled");
        goto done;
    }
    const struct method *m = find_method(requests, sizeof requests / sizeof requests[0], name);
    if (m == NULL) {
        char message[200];
        snprintf(message, sizeof message, "unknown method \"%s\"", method_text);
        lsp_reply_error(s, req.id_text, req.id_len, LSP_METHOD_NOT_FOUND, message);
        goto done;
    }
    if (req.params != JSON_NONE && doc.nodes[req.params].kind != JSON_OBJECT &&
        doc.nodes[req.params].kind != JSON_ARRAY) {
        lsp_reply_error(s, req.id_text, req.id_len, LSP_INVALID_PARAMS, "params must be an object");
        goto done;
    }
    s->current = &req;
    m->handler(s, &req);
    s->current = NULL;
done:
    json_doc_free(&doc);
}

/* Whether a $/cancelRequest in the batch names `id`. */
static bool is_cancelled(struct lsp_server *s, const char *id, size_t id_len,
                         const struct lsp_message *batch, size_t count)
{
    (void)s;
    static const char marker[] = "$/cancelRequest";
    for (size_t i = 0; i < count; i++) {
        if (batch[i].body == NULL || batch[i].len > 4096 ||
            strstr(batch[i].body, marker) == NULL) /* bodies are NUL-terminated copies */
            continue;
        struct json_doc doc;
        json_parse(&doc, batch[i].body, batch[i].len, NULL);
        uint32_t params = lsp_get(&doc, doc.root, "params");
        uint32_t target = lsp_get(&doc, params, "id");
        bool match = false;
        if (target != JSON_NONE) {
            const struct json_node *t = &doc.nodes[target];
            match = t->end - t->start == id_len && memcmp(doc.text + t->start, id, id_len) == 0;
        }
        json_doc_free(&doc);
        if (match)
            return true;
    }
    return false;
}

static void on_idle(uv_idle_t *idle)
{
    struct lsp_server *s = idle->data;
    struct lsp_message *batch = s->queue;
    size_t count = s->queue_len;
    s->queue = NULL;
    s->queue_len = s->queue_cap = 0;
    uv_idle_stop(idle);
    for (size_t i = 0; i < count; i++) {
        if (!s->exiting)
            handle_message(s, batch[i].body, batch[i].len, batch + i + 1, count - i - 1);
        free(batch[i].body);
    }
    free(batch);
}

static void on_message(void *context, const char *body, size_t len)
{
    struct lsp_server *s = context;
    if (s->exiting)
        return;
    if (s->queue_len == s->queue_cap) {
        size_t cap = s->queue_cap ? s->queue_cap * 2 : 16;
        struct lsp_message *grown = realloc(s->queue, cap * sizeof *grown);
        if (grown == NULL)
            return;
        s->queue = grown;
        s->queue_cap = cap;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return;
    memcpy(copy, body, len);
    copy[len] = '\0';
    s->queue[s->queue_len++] = (struct lsp_message){copy, len};
    uv_idle_start(&s->idle, on_idle);
}

static void on_framing_error(void *context, const char *message)
{
    struct lsp_server *s = context;
    lsp_log(s, 1, "srcls: %s", message);
}

static void on_eof(void *context)
{
    struct lsp_server *s = context;
    /* The client went away: handle what was read, then stop. */
    if (s->queue_len > 0)
        on_idle(&s->idle);
    stop(s, s->state == LSP_STATE_SHUT_DOWN ? 0 : 1);
}

int lsp_server_run(void)
{
    signal(SIGPIPE, SIG_IGN);
    struct lsp_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return 1;
    s->loop = uv_default_loop();
    s->debounce_ms = DEBOUNCE_MS;
    const char *debounce = getenv("SRCLS_DEBOUNCE_MS");
    if (debounce != NULL)
        s->debounce_ms = (unsigned)atoi(debounce);
    settings_init(&s->settings);
    char error[512];
    if (schema_registry_load_embedded(&s->registry, error, sizeof error) != 0) {
        fprintf(stderr, "srcls: the built-in schema does not load: %s\n", error);
        free(s);
        return 1;
    }
    uv_idle_init(s->loop, &s->idle);
    s->idle.data = s;
    struct lsp_framing_sink sink = {on_message, on_framing_error, s};
    int status = lsp_transport_start(&s->transport, s->loop, 0, 1, &sink, on_eof, s);
    if (status != 0) {
        fprintf(stderr, "srcls: cannot use stdin/stdout: %s\n", uv_strerror(status));
        s->exit_code = 1;
    } else {
        uv_run(s->loop, UV_RUN_DEFAULT);
    }
    for (size_t i = 0; i < s->queue_len; i++)
        free(s->queue[i].body);
    free(s->queue);
    int code = s->exit_code;
    lsp_transport_free(&s->transport);
    uv_loop_close(s->loop);
    schema_registry_free(&s->registry);
    settings_free(&s->settings);
    free(s);
    return code;
}

/* ---- in memory (tests, fuzzing) ---- */

struct lsp_server *
lsp_server_new_in_memory(uv_loop_t *loop, const struct schema_registry *registry,
                         void (*write)(void *context, const char *data, size_t len), void *context)
{
    struct lsp_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->loop = loop;
    s->debounce_ms = DEBOUNCE_MS;
    settings_init(&s->settings);
    char error[512];
    if (registry != NULL) {
        /* A shallow copy: the handlers only read the registry. */
        s->registry = *registry;
        s->registry_borrowed = true;
    } else if (schema_registry_load_embedded(&s->registry, error, sizeof error) != 0) {
        free(s);
        return NULL;
    }
    uv_idle_init(loop, &s->idle);
    s->idle.data = s;
    /* The transport is never started: no fds, and lsp_transport_close has nothing to close. */
    lsp_framing_init(&s->transport.framing, 0);
    s->transport.sink = (struct lsp_framing_sink){on_message, on_framing_error, s};
    s->transport.reading = true;
    s->transport.capture = write;
    s->transport.capture_context = context;
    return s;
}

void lsp_server_feed(struct lsp_server *s, const char *data, size_t len)
{
    lsp_framing_feed(&s->transport.framing, data, len, &s->transport.sink);
    if (s->queue_len > 0)
        on_idle(&s->idle);
    for (struct lsp_document *d = s->documents; d != NULL; d = d->next) {
        if (uv_is_active((uv_handle_t *)&d->debounce)) {
            uv_timer_stop(&d->debounce);
            publish(s, d, false);
        }
    }
}

int lsp_server_free_in_memory(struct lsp_server *s)
{
    on_eof(s);
    uv_run(s->loop, UV_RUN_DEFAULT); /* the close callbacks free the documents */
    for (size_t i = 0; i < s->queue_len; i++)
        free(s->queue[i].body);
    free(s->queue);
    int code = s->exit_code;
    lsp_transport_free(&s->transport);
    if (!s->registry_borrowed)
        schema_registry_free(&s->registry);
    settings_free(&s->settings);
    free(s);
    return code;
}
