/* lsp_handlers: text synchronisation and the features, each a thin translation between LSP
 * (URIs, positions, JSON) and a core function (documents, byte offsets, structs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "fix.h"
#include "format.h"
#include "hover.h"
#include "lsp_protocol.h"
#include "symbols.h"

/* ---- params ---- */

uint32_t lsp_get(struct json_doc *doc, uint32_t node, const char *key)
{
    if (node == JSON_NONE || doc->nodes[node].kind != JSON_OBJECT)
        return JSON_NONE;
    return json_object_get(doc, node, key, strlen(key));
}

void lsp_write_range(struct json_writer *w, const struct line_index *lines, uint32_t start,
                     uint32_t end, enum position_encoding encoding)
{
    struct text_position a = line_index_position(lines, start, encoding);
    struct text_position b = line_index_position(lines, end, encoding);
    json_write_object_begin(w);
    json_write_key(w, "start");
    json_write_object_begin(w);
    json_write_key(w, "line");
    json_write_int(w, a.line);
    json_write_key(w, "character");
    json_write_int(w, a.character);
    json_write_object_end(w);
    json_write_key(w, "end");
    json_write_object_begin(w);
    json_write_key(w, "line");
    json_write_int(w, b.line);
    json_write_key(w, "character");
    json_write_int(w, b.character);
    json_write_object_end(w);
    json_write_object_end(w);
}

static bool read_uint(struct json_doc *doc, uint32_t node, uint32_t *out)
{
    int64_t value;
    if (!json_node_int64(doc, node, &value) || value < 0 || value > UINT32_MAX)
        return false;
    *out = (uint32_t)value;
    return true;
}

static bool read_position(struct json_doc *doc, uint32_t node, struct text_position *out)
{
    return read_uint(doc, lsp_get(doc, node, "line"), &out->line) &&
           read_uint(doc, lsp_get(doc, node, "character"), &out->character);
}

/* The document named by params.textDocument.uri; replies InvalidParams for requests when
 * the params are malformed. NULL when not found. */
static struct lsp_document *target_document(struct lsp_server *s, struct lsp_request *req,
                                            bool reply)
{
    uint32_t uri = lsp_get(req->doc, lsp_get(req->doc, req->params, "textDocument"), "uri");
    if (uri == JSON_NONE || req->doc->nodes[uri].kind != JSON_STRING) {
        if (reply)
            lsp_reply_error(s, req->id_text, req->id_len, LSP_INVALID_PARAMS,
                            "params.textDocument.uri is missing");
        return NULL;
    }
    struct lsp_document *d = lsp_find_document(s, json_node_string(req->doc, uri));
    if (d == NULL && reply)
        lsp_reply_error(s, req->id_text, req->id_len, LSP_INVALID_PARAMS,
                        "the document is not open");
    return d;
}

/* The same, analysed: for the features, which read the tree. */
static struct lsp_document *analysed_document(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = target_document(s, req, true);
    if (d != NULL)
        lsp_analyze(s, d);
    return d;
}

/* The document and the byte offset of params.position, or false after replying. */
static bool target_offset(struct lsp_server *s, struct lsp_request *req, struct lsp_document **doc,
                          uint32_t *offset)
{
    struct text_position pos;
    if (!read_position(req->doc, lsp_get(req->doc, req->params, "position"), &pos)) {
        lsp_reply_error(s, req->id_text, req->id_len, LSP_INVALID_PARAMS,
                        "params.position must be {line, character}");
        return false;
    }
    *doc = analysed_document(s, req);
    if (*doc == NULL)
        return false;
    *offset = line_index_offset(&(*doc)->analysis.lines, pos, s->encoding);
    return true;
}

static void reply_null(struct lsp_server *s, struct lsp_request *req)
{
    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_null(&w);
    lsp_end_result(s, &w);
}

/* ---- text synchronisation ---- */

void lsp_handle_did_open(struct lsp_server *s, struct lsp_request *req)
{
    uint32_t item = lsp_get(req->doc, req->params, "textDocument");
    uint32_t uri = lsp_get(req->doc, item, "uri");
    uint32_t text = lsp_get(req->doc, item, "text");
    int64_t version = 0;
    json_node_int64(req->doc, lsp_get(req->doc, item, "version"), &version);
    if (uri == JSON_NONE || text == JSON_NONE || req->doc->nodes[text].kind != JSON_STRING) {
        lsp_log(s, 1, "srcls: didOpen without textDocument.uri and text: ignored");
        return;
    }
    struct json_str body = json_node_string(req->doc, text);
    struct lsp_document *d =
        lsp_open_document(s, json_node_string(req->doc, uri), body.ptr, body.len, version);
    if (d != NULL)
        lsp_document_changed(s, d, true);
}

/* Replaces bytes [start, end) of the document with `text`. */
static int splice(struct lsp_document *d, uint32_t start, uint32_t end, const char *text,
                  size_t len)
{
    size_t new_len = d->len - (end - start) + len;
    if (new_len + 1 > d->cap) {
        size_t cap = new_len + 1 + new_len / 4;
        char *grown = realloc(d->text, cap);
        if (grown == NULL)
            return -1;
        d->text = grown;
        d->cap = cap;
    }
    memmove(d->text + start + len, d->text + end, d->len - end);
    memcpy(d->text + start, text, len);
    d->len = new_len;
    d->text[new_len] = '\0';
    return 0;
}

void lsp_handle_did_change(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    struct lsp_document *d = target_document(s, req, false);
    uint32_t changes = lsp_get(doc, req->params, "contentChanges");
    if (d == NULL || changes == JSON_NONE || doc->nodes[changes].kind != JSON_ARRAY) {
        lsp_log(s, 1, "srcls: didChange for a document that is not open, or without changes");
        return;
    }
    for (uint32_t c = doc->nodes[changes].first_child; c != JSON_NONE; c = doc->nodes[c].next) {
        uint32_t text = lsp_get(doc, c, "text");
        uint32_t range = lsp_get(doc, c, "range");
        if (text == JSON_NONE || doc->nodes[text].kind != JSON_STRING)
            continue;
        struct json_str body = json_node_string(doc, text);
        if (range == JSON_NONE) {
            lsp_document_set_text(d, body.ptr, body.len);
            continue;
        }
        struct text_position a, b;
        if (!read_position(doc, lsp_get(doc, range, "start"), &a) ||
            !read_position(doc, lsp_get(doc, range, "end"), &b)) {
            lsp_log(s, 1, "srcls: didChange with a malformed range: ignored");
            continue;
        }
        struct line_index lines;
        if (line_index_build(&lines, d->text, d->len) != 0)
            return;
        uint32_t start = line_index_offset(&lines, a, s->encoding);
        uint32_t end = line_index_offset(&lines, b, s->encoding);
        line_index_free(&lines);
        if (end < start) {
            uint32_t t = start;
            start = end;
            end = t;
        }
        splice(d, start, end, body.ptr, body.len);
    }
    int64_t version = d->version;
    json_node_int64(doc, lsp_get(doc, lsp_get(doc, req->params, "textDocument"), "version"),
                    &version);
    d->version = version;
    lsp_document_changed(s, d, false);
}

void lsp_handle_did_close(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = target_document(s, req, false);
    if (d != NULL)
        lsp_close_document(s, d);
}

void lsp_read_settings(struct lsp_server *s, struct json_doc *doc, uint32_t node)
{
    uint32_t inner = lsp_get(doc, node, "srcls");
    char problems[1024] = "";
    settings_read(&s->settings, doc, inner != JSON_NONE ? inner : node, problems, sizeof problems);
    if (problems[0] != '\0')
        lsp_log(s, 2, "srcls settings: %s", problems);
}

void lsp_handle_did_change_configuration(struct lsp_server *s, struct lsp_request *req)
{
    uint32_t settings = lsp_get(req->doc, req->params, "settings");
    if (settings == JSON_NONE)
        return;
    lsp_read_settings(s, req->doc, settings);
    lsp_republish_all(s);
}

/* ---- diagnostics ---- */

void lsp_handle_pull_diagnostics(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = analysed_document(s, req);
    if (d == NULL)
        return;
    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "kind");
    json_write_string(&w, "full");
    json_write_key(&w, "items");
    lsp_write_diagnostics(s, &w, d);
    json_write_object_end(&w);
    lsp_end_result(s, &w);
}

/* ---- completion ---- */

static int completion_item_kind(enum completion_kind kind)
{
    switch (kind) {
    case COMPLETION_KEY: return 10;    /* Property */
    case COMPLETION_ENUM: return 20;   /* EnumMember */
    case COMPLETION_KIND_ID: return 9; /* Module */
    case COMPLETION_VALUE: break;
    }
    return 12; /* Value */
}

void lsp_handle_completion(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t offset;
    if (!target_offset(s, req, &d, &offset))
        return;
    struct completion_list list;
    complete_at(&d->analysis, &s->registry, &s->settings, offset, &list);
    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "isIncomplete");
    json_write_bool(&w, false);
    json_write_key(&w, "items");
    json_write_array_begin(&w);
    for (uint32_t i = 0; i < list.count; i++) {
        const struct completion_item *item = &list.items[i];
        bool snippet = s->snippets && item->snippet != NULL;
        json_write_object_begin(&w);
        json_write_key(&w, "label");
        json_write_string(&w, item->label);
        json_write_key(&w, "kind");
        json_write_int(&w, completion_item_kind(item->kind));
        if (item->detail != NULL) {
            json_write_key(&w, "detail");
            json_write_string(&w, item->detail);
        }
        if (item->documentation != NULL) {
            json_write_key(&w, "documentation");
            json_write_object_begin(&w);
            json_write_key(&w, "kind");
            json_write_string(&w, "markdown");
            json_write_key(&w, "value");
            json_write_string(&w, item->documentation);
            json_write_object_end(&w);
        }
        json_write_key(&w, "sortText");
        json_write_string(&w, item->sort);
        json_write_key(&w, "filterText");
        json_write_string(&w, item->kind == COMPLETION_KEY
                                  ? arena_printf(&list.arena, "\"%s\"", item->label)
                                  : item->text);
        json_write_key(&w, "insertTextFormat");
        json_write_int(&w, snippet ? 2 : 1);
        json_write_key(&w, "textEdit");
        json_write_object_begin(&w);
        json_write_key(&w, "range");
        lsp_write_range(&w, &d->analysis.lines, item->start, item->end, s->encoding);
        json_write_key(&w, "newText");
        json_write_string(&w, snippet ? item->snippet : item->text);
        json_write_object_end(&w);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    json_write_object_end(&w);
    lsp_end_result(s, &w);
    completion_list_free(&list);
}

/* ---- hover ---- */

void lsp_handle_hover(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t offset;
    if (!target_offset(s, req, &d, &offset))
        return;
    struct arena arena;
    arena_init(&arena);
    uint32_t start = 0, end = 0;
    const char *markdown =
        hover_at(&d->analysis, &s->registry, &s->settings, offset, &arena, &start, &end);
    if (markdown == NULL) {
        reply_null(s, req);
    } else {
        struct json_writer w;
        lsp_begin_result(&w, req);
        json_write_object_begin(&w);
        json_write_key(&w, "contents");
        json_write_object_begin(&w);
        json_write_key(&w, "kind");
        json_write_string(&w, "markdown");
        json_write_key(&w, "value");
        json_write_string(&w, markdown);
        json_write_object_end(&w);
        json_write_key(&w, "range");
        lsp_write_range(&w, &d->analysis.lines, start, end, s->encoding);
        json_write_object_end(&w);
        lsp_end_result(s, &w);
    }
    arena_free(&arena);
}

/* ---- code actions ---- */

static void write_edit(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                       const struct fix *fixes, uint32_t count)
{
    json_write_key(w, "edit");
    json_write_object_begin(w);
    json_write_key(w, "changes");
    json_write_object_begin(w);
    json_write_key(w, d->uri);
    json_write_array_begin(w);
    for (uint32_t i = 0; i < count; i++) {
        json_write_object_begin(w);
        json_write_key(w, "range");
        lsp_write_range(w, &d->analysis.lines, fixes[i].edit.start, fixes[i].edit.end, s->encoding);
        json_write_key(w, "newText");
        json_write_string(w, fixes[i].edit.text);
        json_write_object_end(w);
    }
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
}

/* Whether the client asked only for kinds that do not include `kind`. */
static bool kind_wanted(struct json_doc *doc, uint32_t only, const char *kind)
{
    if (only == JSON_NONE || doc->nodes[only].kind != JSON_ARRAY)
        return true;
    for (uint32_t e = doc->nodes[only].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        struct json_str k = json_node_string(doc, e);
        /* "source" covers "source.fixAll.srcls": a prefix up to a dot. */
        if (k.len <= strlen(kind) && memcmp(kind, k.ptr, k.len) == 0 &&
            (kind[k.len] == '\0' || kind[k.len] == '.'))
            return true;
    }
    return false;
}

void lsp_handle_code_action(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    uint32_t range = lsp_get(doc, req->params, "range");
    struct text_position a, b;
    if (!read_position(doc, lsp_get(doc, range, "start"), &a) ||
        !read_position(doc, lsp_get(doc, range, "end"), &b)) {
        lsp_reply_error(s, req->id_text, req->id_len, LSP_INVALID_PARAMS,
                        "params.range must be {start, end}");
        return;
    }
    struct lsp_document *d = analysed_document(s, req);
    if (d == NULL)
        return;
    uint32_t start = line_index_offset(&d->analysis.lines, a, s->encoding);
    uint32_t end = line_index_offset(&d->analysis.lines, b, s->encoding);
    uint32_t only = lsp_get(doc, lsp_get(doc, req->params, "context"), "only");
    struct fix_list fixes;
    fix_list_init(&fixes);
    if (kind_wanted(doc, only, "quickfix")) {
        for (uint32_t i = 0; i < d->analysis.diags.count; i++) {
            const struct diagnostic *diag = &d->analysis.diags.items[i];
            if (diag->end >= start && diag->start <= end)
                fix_collect(&d->analysis, i, &fixes);
        }
    }
    struct fix_list all;
    fix_list_init(&all);
    if (kind_wanted(doc, only, "source.fixAll.srcls"))
        fix_collect_safe(&d->analysis, &all);

    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_array_begin(&w);
    for (uint32_t i = 0; i < fixes.count; i++) {
        const struct fix *f = &fixes.items[i];
        json_write_object_begin(&w);
        json_write_key(&w, "title");
        json_write_string(&w, f->title);
        json_write_key(&w, "kind");
        json_write_string(&w, "quickfix");
        json_write_key(&w, "isPreferred");
        json_write_bool(&w, f->preferred);
        json_write_key(&w, "diagnostics");
        json_write_array_begin(&w);
        lsp_write_diagnostic(s, &w, d, f->diagnostic);
        json_write_array_end(&w);
        write_edit(s, &w, d, f, 1);
        json_write_object_end(&w);
    }
    if (all.count > 0) {
        json_write_object_begin(&w);
        json_write_key(&w, "title");
        json_write_string(&w, "Fix all safe srcls problems");
        json_write_key(&w, "kind");
        json_write_string(&w, "source.fixAll.srcls");
        write_edit(s, &w, d, all.items, all.count);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    lsp_end_result(s, &w);
    fix_list_free(&fixes);
    fix_list_free(&all);
}

/* ---- outline ---- */

static void write_symbols(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                          const struct symbol *list, uint32_t count)
{
    json_write_array_begin(w);
    for (uint32_t i = 0; i < count; i++) {
        const struct symbol *sym = &list[i];
        json_write_object_begin(w);
        json_write_key(w, "name");
        json_write_string(w, sym->name);
        if (sym->detail != NULL) {
            json_write_key(w, "detail");
            json_write_string(w, sym->detail);
        }
        json_write_key(w, "kind");
        json_write_int(w, sym->kind);
        json_write_key(w, "range");
        lsp_write_range(w, &d->analysis.lines, sym->start, sym->end, s->encoding);
        json_write_key(w, "selectionRange");
        lsp_write_range(w, &d->analysis.lines, sym->selection_start, sym->selection_end,
                        s->encoding);
        if (sym->child_count > 0) {
            json_write_key(w, "children");
            write_symbols(s, w, d, sym->children, sym->child_count);
        }
        json_write_object_end(w);
    }
    json_write_array_end(w);
}

void lsp_handle_document_symbol(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = analysed_document(s, req);
    if (d == NULL)
        return;
    struct arena arena;
    arena_init(&arena);
    uint32_t count = 0;
    struct symbol *list = symbols_of(&d->analysis, &s->registry, &s->settings, &arena, &count);
    struct json_writer w;
    lsp_begin_result(&w, req);
    write_symbols(s, &w, d, list, count);
    lsp_end_result(s, &w);
    arena_free(&arena);
}

/* ---- formatting ---- */

void lsp_handle_formatting(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = analysed_document(s, req);
    if (d == NULL)
        return;
    uint32_t options = lsp_get(req->doc, req->params, "options");
    uint32_t tab_size = 2;
    read_uint(req->doc, lsp_get(req->doc, options, "tabSize"), &tab_size);
    uint32_t spaces = lsp_get(req->doc, options, "insertSpaces");
    bool tabs = spaces != JSON_NONE && req->doc->nodes[spaces].kind == JSON_FALSE;
    if (tab_size > 16)
        tab_size = 16;
    size_t len = 0;
    char *formatted = format_document(&d->analysis.doc, tab_size, tabs, &len);
    struct json_writer w;
    lsp_begin_result(&w, req);
    json_write_array_begin(&w);
    if (formatted != NULL && (len != d->len || memcmp(formatted, d->text, len) != 0)) {
        json_write_object_begin(&w);
        json_write_key(&w, "range");
        lsp_write_range(&w, &d->analysis.lines, 0, (uint32_t)d->len, s->encoding);
        json_write_key(&w, "newText");
        json_write_string_n(&w, formatted, len);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    lsp_end_result(s, &w);
    free(formatted);
}
