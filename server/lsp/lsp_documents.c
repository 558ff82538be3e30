/* lsp_documents: open documents, their analysis, and publishing their diagnostics. */
#include "lsp_documents.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"
#include "lsp_position.h"
#include "project/project.h"
#include "base/base.h"

void lsp_documents_init(struct lsp_documents *store, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                        const struct schema_registry *registry, const struct settings *settings,
                        unsigned debounce_ms)
{
    *store = (struct lsp_documents){
        .loop = loop,
        .rpc = rpc,
        .registry = registry,
        .settings = settings,
        .encoding = POSITION_UTF16,
        .debounce_ms = debounce_ms,
        .max_diagnostics = LSP_MAX_DIAGNOSTICS_DEFAULT,
    };
    lsp_projects_init(&store->projects, loop, rpc, registry, settings);
    /* store->review: lsp_documents_review_init, by the server, once the store is made */
}

/* ---- positions, and the diagnostics in LSP form (each written by lsp_rendered) ---- */

void lsp_document_write_range(struct json_writer *w, const struct lsp_document *d, uint32_t start,
                              uint32_t end)
{
    line_index_write_range(w, &d->analysis.lines, start, end, d->store->encoding);
}

uint32_t lsp_document_offset(const struct lsp_document *d, struct text_position position)
{
    return line_index_offset(&d->analysis.lines, position, d->store->encoding);
}

void lsp_document_write_diagnostic(struct json_writer *w, const struct lsp_document *d,
                                   uint32_t index)
{
    lsp_diagnostic_write(w, &d->analysis, d->uri, d->store->encoding, index);
}

void lsp_document_result_id(const struct lsp_document *d, char *buf, size_t size)
{
    snprintf(buf, size, "%lld-%llu", (long long)d->version, (unsigned long long)d->result);
}

/* How many of the diagnostics are sent: srcls.maxDiagnostics at most. The first time a result
 * is cut, the client is told how many were left out. */
static uint32_t sent_count(struct lsp_document *d)
{
    uint32_t count = d->analysis.diags.count, max = d->store->max_diagnostics;
    if (max == 0 || count <= max)
        return count;
    if (d->cut_logged != d->result) {
        d->cut_logged = d->result;
        lsp_jsonrpc_log(d->store->rpc, LSP_MESSAGE_INFO,
                        "srcls: %s (version %lld): %u of %u diagnostics left out "
                        "(srcls.maxDiagnostics is %u)",
                        d->uri, (long long)d->version, count - max, count, max);
    }
    return max;
}

/* The first line diagnostic `index` names, for the cache of written diagnostics. */
static uint32_t first_line(const struct lsp_document *d, uint32_t index)
{
    struct diagnostic moved = analysis_diagnostic(&d->analysis, index);
    const struct diagnostic *diag = &moved;
    uint32_t offset = diag->start;
    if (diag->related_message != NULL && diag->related_start < offset)
        offset = diag->related_start;
    return line_index_position(&d->analysis.lines, offset, POSITION_UTF8).line;
}

void lsp_document_write_diagnostics(struct json_writer *w, struct lsp_document *d)
{
    uint32_t count = sent_count(d);
    /* the bytes of those written before, a comma each, and room for the message's end and a
     * few new ones: the message is allocated once */
    size_t known = 4096;
    for (uint32_t i = 0; i < count; i++) {
        const struct lsp_rendered_entry *done = lsp_rendered_get(&d->rendered, i);
        known += done != NULL ? done->len + 1 : 512;
    }
    json_writer_reserve(w, known);
    json_write_array_begin(w);
    for (uint32_t i = 0; i < count; i++) {
        const struct lsp_rendered_entry *done = lsp_rendered_get(&d->rendered, i);
        if (done != NULL) {
            json_write_raw(w, done->json, done->len);
            continue;
        }
        struct json_writer one;
        json_writer_init(&one, 0);
        lsp_document_write_diagnostic(&one, d, i);
        if (!one.failed) {
            lsp_rendered_set(&d->rendered, i, one.buf, one.len, first_line(d, i));
            json_write_raw(w, one.buf, one.len);
        } else {
            lsp_document_write_diagnostic(w, d, i);
        }
        json_writer_free(&one);
    }
    json_write_array_end(w);
}

/* ---- analysis and publishing ---- */

int lsp_document_retarget(struct lsp_document *d)
{
    lsp_projects_target_free(&d->target);
    d->retarget = lsp_projects_target(&d->store->projects, d->uri, &d->target) != 0;
    d->settings = d->target.settings;
    d->registry = d->target.registry;
    d->kind_schema = d->target.kind_schema;
    return d->retarget ? -1 : 0;
}

static struct analysis_options analysis_options_of(const struct lsp_document *d)
{
    struct analysis_options options = lsp_projects_options(&d->target, d->store->baseline_mode);
    options.report_unknown_document = !d->target.baseline_file;
    options.settings = d->settings != NULL ? d->settings : d->store->settings;
    return options;
}

int lsp_document_analyze(struct lsp_document *d)
{
    if (lsp_document_diagnose(d) != 0)
        return -1;
    analysis_settle_moves(&d->analysis);
    return 0;
}

int lsp_document_diagnose(struct lsp_document *d)
{
    if (d->analyzed)
        return 0;
    if (d->lost || (d->retarget && lsp_document_retarget(d) != 0))
        return -1;
    analysis_free(&d->analysis);
    struct analysis_options options = analysis_options_of(d);
    int status = d->project_file || d->kind_schema != NULL
                     ? lsp_projects_analyze(&d->store->projects, d->uri, d->text, d->len,
                                            d->kind_schema, &d->analysis)
                     : analysis_run(&d->analysis, d->text, d->len, &options);
    if (status == 0 && d->kind_schema == NULL) /* srcls.reviewBase (srcls.json: the gate's) */
        status = lsp_review_compare(&d->store->review, &d->review, &d->analysis, &options,
                                    d->target.baseline_file);
    if (status != 0) {
        analysis_free(&d->analysis); /* half an analysis (no line index, say) must not be read */
        return -1;
    }
    lsp_rendered_reset(&d->rendered, d->analysis.diags.count);
    d->analyzed = true;
    return 0;
}

/* Whether the message in `w` is the one published last for `d` (same version, same
 * diagnostics); if not, it becomes the last. Compared with a copy of that message, not a hash of
 * it: after an edit the two differ by their version, near the start, and a copy costs a fraction
 * of hashing every byte of a thousand diagnostics. */
static bool published_already(struct lsp_document *d, const struct json_writer *w, bool clear)
{
    if (clear || w->failed) {
        d->published = false;
        return false;
    }
    if (d->published && d->published_len == w->len &&
        memcmp(d->published_text, w->buf, w->len) == 0)
        return true;
    /* room for a few more bytes: the next message is as long, or a digit of its version longer */
    char *copy = d->published_cap >= w->len
                     ? d->published_text
                     : vector_grow(d->published_text, &d->published_cap, w->len + 4096, 1);
    d->published = copy != NULL; /* without a copy, the next is sent even if the same */
    if (copy != NULL) {
        d->published_text = copy;
        memcpy(copy, w->buf, w->len);
        d->published_len = w->len;
    }
    return false;
}

/* textDocument/publishDiagnostics: the document's diagnostics, or none when `clear`. A document
 * that cannot be analysed keeps the diagnostics published before, and the client is told. The
 * message published last for the same version is not sent again. */
static void publish(struct lsp_document *d, bool clear)
{
    if (d->store->pull || (d->lost && !clear))
        return; /* the client asks when it wants them; a lost text has none */
    if (!clear && lsp_document_diagnose(d) != 0) {
        lsp_jsonrpc_log(d->store->rpc, LSP_MESSAGE_ERROR,
                        "srcls: out of memory: %s could not be checked", d->uri);
        return;
    }
    struct json_writer w;
    lsp_jsonrpc_notification_begin(d->store->rpc, &w, "textDocument/publishDiagnostics");
    json_write_object_begin(&w);
    json_write_key(&w, "uri");
    json_write_string(&w, d->uri);
    if (!clear) {
        json_write_key(&w, "version");
        json_write_int(&w, d->version);
        json_write_key(&w, "diagnostics");
        lsp_document_write_diagnostics(&w, d);
    } else {
        json_write_key(&w, "diagnostics");
        json_write_array_begin(&w);
        json_write_array_end(&w);
    }
    json_write_object_end(&w);
    if (published_already(d, &w, clear)) {
        d->store->rpc->sending = NULL; /* not sent */
        json_writer_free(&w);
        return;
    }
    if (!lsp_jsonrpc_send(d->store->rpc, &w))
        d->published = false; /* not sent: the next is, even if the same */
}

static void on_debounce(uv_timer_t *timer)
{
    publish(timer->data, false);
}

void lsp_document_changed(struct lsp_document *d, bool now)
{
    d->result = ++d->store->results;
    /* An analysis kept up to date by the edits costs nothing more to publish; a whole one waits
     * for the typing to pause, unless it stands in for an update that ran out of memory. */
    if (now || d->analyzed || d->update_failed) {
        d->update_failed = false;
        uv_timer_stop(&d->debounce);
        publish(d, false);
        return;
    }
    if (uv_timer_start(&d->debounce, on_debounce, d->store->debounce_ms, 0) != 0)
        publish(d, false); /* without a timer, at once */
}

void lsp_document_opened(struct lsp_document *d)
{
    if (d->kind_schema == NULL)
        lsp_review_fetch(&d->store->review, d->uri);
    d->result = ++d->store->results;
    if (uv_timer_start(&d->debounce, on_debounce, 0, 0) != 0)
        publish(d, false); /* without a timer, at once */
}

void lsp_documents_projects_changed(struct lsp_documents *store)
{
    lsp_projects_forget(&store->projects);
    for (struct lsp_document *d = store->first; d != NULL; d = d->next)
        lsp_document_retarget(d);
    lsp_documents_republish_all(store);
}

void lsp_documents_republish_all(struct lsp_documents *store)
{
    store->settings_changes++;
    if (lsp_projects_editor_changed(&store->projects) != 0) { /* read them again */
        lsp_projects_forget(&store->projects);
        for (struct lsp_document *d = store->first; d != NULL; d = d->next)
            lsp_document_retarget(d);
    }
    for (struct lsp_document *d = store->first; d != NULL; d = d->next) {
        d->analyzed = false;
        d->review.analyzed = false; /* analysed with the settings too */
        lsp_document_changed(d, true);
    }
    if (store->pull && store->refresh && store->first != NULL) {
        struct json_writer w;
        lsp_jsonrpc_request_begin(store->rpc, &w, "workspace/diagnostic/refresh");
        lsp_jsonrpc_send(store->rpc, &w);
    }
}

void lsp_documents_publish_pending(struct lsp_documents *store)
{
    for (struct lsp_document *d = store->first; d != NULL; d = d->next) {
        if (uv_is_active((uv_handle_t *)&d->debounce)) {
            uv_timer_stop(&d->debounce);
            publish(d, false);
        }
    }
}

/* ---- text ---- */

int lsp_document_set_text(struct lsp_document *d, struct json_str body, bool escaped)
{
    char *text = text_buffer_reserve(&d->buffer, body.len);
    if (text == NULL)
        return -1;
    if (!escaped)
        memmove(text, body.ptr, body.len);
    /* decoding never lengthens the text */
    text_buffer_set_length(&d->buffer,
                           escaped ? json_string_decode(body.ptr, body.len, text) : body.len);
    d->text = text;
    d->len = d->buffer.len;
    d->analyzed = false;
    d->lost = false;
    d->result = ++d->store->results;
    return 0;
}

void lsp_document_lose(struct lsp_document *d, const char *what)
{
    lsp_jsonrpc_log(d->store->rpc, LSP_MESSAGE_ERROR,
                    "srcls: out of memory: %s, so the text of %s is not the editor's: it is not "
                    "checked until it is closed and opened again",
                    what, d->uri);
    d->lost = true;
    uv_timer_stop(&d->debounce);
    analysis_free(&d->analysis);
    d->analyzed = false;
    d->result = ++d->store->results;
    publish(d, true); /* the diagnostics of another text would mislead */
}

/* Replaces bytes [start, end) of the text with `text`: the bytes on the shorter side of the
 * edit move (text_buffer), not all those after it. */
static int splice(struct lsp_document *d, uint32_t start, uint32_t end, const char *text,
                  size_t len)
{
    if (text_buffer_splice(&d->buffer, start, end, text, len) != 0)
        return -1;
    d->text = text_buffer_text(&d->buffer);
    d->len = d->buffer.len;
    return 0;
}

/* Brings the analysis up to date with an edit when it was of the text before it; otherwise,
 * or when that takes a whole analysis, it is run when next needed. */
static void update_analysis(struct lsp_document *d, uint32_t start, uint32_t end, size_t len,
                            uint32_t edit_line)
{
    if (!d->analyzed)
        return;
    /* small, and checked whole; or compared with its base (srcls.reviewBase): again */
    if (d->project_file || d->kind_schema != NULL || d->review.text != NULL) {
        analysis_free(&d->analysis);
        d->analyzed = false;
        return;
    }
    struct analysis_options options = analysis_options_of(d);
    options.defer_moves = true; /* lsp_document_analyze settles them for the features */
    struct json_edit edit = {start, end, (uint32_t)len};
    struct analysis_delta delta;
    uint32_t lines = d->analysis.lines.count;
    int updated = len < UINT32_MAX
                      ? analysis_update(&d->analysis, d->text, d->len, edit, &options, &delta)
                      : 0;
    if (updated != 1) {
        analysis_free(&d->analysis);
        d->analyzed = false;
        d->update_failed = updated < 0;
        return;
    }
    lsp_rendered_update(&d->rendered, &delta, edit_line, d->analysis.lines.count != lines);
}

int lsp_document_replace(struct lsp_document *d, struct text_position a, struct text_position b,
                         const char *text, size_t len)
{
    /* The positions are in the text as the edits before this one left it: the analysed text
     * when the analysis is up to date, else the index is built for them. */
    struct line_index built;
    const struct line_index *lines = &d->analysis.lines;
    if (!d->analyzed) {
        if (line_index_build(&built, d->text, d->len) != 0)
            return -1;
        lines = &built;
    }
    uint32_t start = line_index_offset(lines, a, d->store->encoding);
    uint32_t end = line_index_offset(lines, b, d->store->encoding);
    if (end < start) {
        uint32_t t = start;
        start = end;
        end = t;
    }
    uint32_t edit_line = line_index_position(lines, end, POSITION_UTF8).line;
    if (lines == &built)
        line_index_free(&built);
    if (splice(d, start, end, text, len) != 0)
        return -1;
    d->result = ++d->store->results;
    update_analysis(d, start, end, len, edit_line);
    return 0;
}

/* ---- the store ---- */

struct lsp_document *lsp_documents_find(struct lsp_documents *store, struct json_str uri)
{
    for (struct lsp_document *d = store->first; d != NULL; d = d->next) {
        if (strlen(d->uri) == uri.len && memcmp(d->uri, uri.ptr, uri.len) == 0)
            return d;
    }
    return NULL;
}

/* A new document, not in the store yet; NULL when memory ran out. */
static struct lsp_document *new_document(struct lsp_documents *store, struct json_str uri,
                                         struct json_str body, bool escaped)
{
    struct lsp_document *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    d->store = store;
    d->uri = malloc(uri.len + 1);
    /* the timer last: once initialised, only uv_close may free it */
    if (d->uri == NULL || uv_timer_init(store->loop, &d->debounce) != 0) {
        free(d->uri);
        free(d);
        return NULL;
    }
    d->lost = lsp_document_set_text(d, body, escaped) != 0; /* told by the caller */
    memcpy(d->uri, uri.ptr, uri.len);
    d->uri[uri.len] = '\0';
    d->project_file = project_is_config(d->uri, uri.len);
    lsp_document_retarget(d);
    d->debounce.data = d;
    return d;
}

struct lsp_document *lsp_documents_open(struct lsp_documents *store, struct json_str uri,
                                        struct json_str body, bool escaped, int64_t version)
{
    struct lsp_document *d = lsp_documents_find(store, uri);
    if (d != NULL) {
        d->lost = lsp_document_set_text(d, body, escaped) != 0;
    } else {
        d = new_document(store, uri, body, escaped);
        if (d == NULL) {
            store->open_lost = true;
            return NULL;
        }
        d->next = store->first;
        store->first = d;
    }
    d->version = version;
    return d;
}

static void free_document(uv_handle_t *handle)
{
    struct lsp_document *d = handle->data;
    analysis_free(&d->analysis);
    lsp_review_base_free(&d->review);
    lsp_rendered_free(&d->rendered);
    text_buffer_free(&d->buffer);
    free(d->published_text);
    free(d->uri);
    lsp_projects_target_free(&d->target);
    free(d);
}

void lsp_documents_close(struct lsp_documents *store, struct lsp_document *d)
{
    for (struct lsp_document **p = &store->first; *p != NULL; p = &(*p)->next) {
        if (*p == d) {
            *p = d->next;
            break;
        }
    }
    uv_timer_stop(&d->debounce);
    publish(d, true);
    uv_close((uv_handle_t *)&d->debounce, free_document);
}

void lsp_documents_close_all(struct lsp_documents *store)
{
    lsp_projects_free(&store->projects);
    lsp_review_close(&store->review);
    while (store->first != NULL) {
        struct lsp_document *d = store->first;
        store->first = d->next;
        uv_timer_stop(&d->debounce);
        uv_close((uv_handle_t *)&d->debounce, free_document);
    }
}
