/* lsp_code_action: fixes as code actions with workspace edits. */
#include "lsp_code_action.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "assist/assist.h"
#include "check/check.h"
#include "lsp_position.h"
#include "lsp_uri.h"
#include "json/json.h"
#include "project/project.h"

#define KIND_QUICKFIX "quickfix"
#define KIND_FIX_ALL "source.fixAll.srcls"

void lsp_code_action_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                struct json_writer *w)
{
    /* A srcls.json to create needs documentChanges with a create operation. */
    struct json_doc *doc = initialize->doc;
    uint32_t edit = lsp_jsonrpc_capability(doc, initialize->params, "workspace.workspaceEdit");
    uint32_t changes = lsp_jsonrpc_get(doc, edit, "documentChanges");
    uint32_t operations = lsp_jsonrpc_get(doc, edit, "resourceOperations");
    s->create_files = false;
    s->snippet_edits =
        lsp_jsonrpc_get(doc, edit, "snippetEditSupport") != JSON_NONE &&
        doc->nodes[lsp_jsonrpc_get(doc, edit, "snippetEditSupport")].kind == JSON_TRUE;
    for (uint32_t o = operations != JSON_NONE && doc->nodes[operations].kind == JSON_ARRAY
                          ? doc->nodes[operations].first_child
                          : JSON_NONE;
         o != JSON_NONE; o = doc->nodes[o].next) {
        if (json_node_string_equals(doc, o, JSON_LITERAL("create")))
            s->create_files = changes != JSON_NONE && doc->nodes[changes].kind == JSON_TRUE;
    }
    json_write_key(w, "codeActionProvider");
    json_write_object_begin(w);
    json_write_key(w, "codeActionKinds");
    json_write_array_begin(w);
    json_write_string(w, KIND_QUICKFIX);
    json_write_string(w, KIND_FIX_ALL);
    json_write_array_end(w);
    json_write_object_end(w);
}

/* Writes "edit": a WorkspaceEdit with the fixes' edits to the document. */
static void write_edit(struct json_writer *w, const struct lsp_document *d, const struct fix *fixes,
                       uint32_t count)
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
        lsp_document_write_range(w, d, fixes[i].edit.start, fixes[i].edit.end);
        json_write_key(w, "newText");
        json_write_string(w, fixes[i].edit.text);
        json_write_object_end(w);
    }
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
}

/* Whether the client's `only` (JSON_NONE: everything) asks for `kind`. */
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

static int compare_edits(const void *x, const void *y)
{
    const struct fix *f = *(const struct fix *const *)x, *g = *(const struct fix *const *)y;
    if (f->edit.start != g->edit.start)
        return f->edit.start < g->edit.start ? -1 : 1;
    if (f->edit.end != g->edit.end)
        return f->edit.end < g->edit.end ? -1 : 1;
    int c = strcmp(f->edit.text, g->edit.text);
    if (c == 0)
        c = strcmp(f->title, g->title);
    return c != 0 ? c : f < g ? -1 : f > g; /* the earlier fix first */
}

/* Marks in `repeated` (one per fix) each fix that makes the same edit under the same title as an
 * earlier one: several diagnostics can share a fix (the missing fields of one object, a
 * misspelled key that is a missing field), and the action is offered once. NULL: memory. */
static bool *repeated_fixes(const struct fix_list *list)
{
    bool *repeated = calloc((size_t)list->count + 1, sizeof *repeated);
    const struct fix **order = calloc((size_t)list->count + 1, sizeof *order);
    if (repeated == NULL || order == NULL) {
        free(order);
        free(repeated);
        return NULL;
    }
    for (uint32_t i = 0; i < list->count; i++)
        order[i] = &list->items[i];
    qsort(order, list->count, sizeof *order, compare_edits);
    for (uint32_t i = 1; i < list->count; i++) {
        const struct fix *f = order[i], *g = order[i - 1];
        if (f->edit.start == g->edit.start && f->edit.end == g->edit.end &&
            strcmp(f->edit.text, g->edit.text) == 0 && strcmp(f->title, g->title) == 0)
            repeated[f - list->items] = true;
    }
    free(order);
    return repeated;
}

/* The kind an unknown `type` should stand for: the one its config's keys identify, or NULL. */
static const struct schema_kind *kind_to_map(const struct lsp_document *d, struct json_doc *doc,
                                             uint32_t source)
{
    uint32_t config = envelope_config(doc, source);
    const struct schema_kind *best[2];
    if (config == JSON_NONE || doc->nodes[config].kind != JSON_OBJECT ||
        kind_resolve_infer(doc, d->registry, config, best, 2) != 1)
        return NULL;
    return best[0];
}

/* A quick fix for the diagnostic `index` of `d` that edits the srcls.json at `uri` (`text`,
 * `len` bytes: [start, end) becomes `edit`), or creates it first (`create`). Out of memory, `w`
 * fails. */
static void write_config_action(struct json_writer *w, struct lsp_document *d, uint32_t index,
                                bool create, const char *uri, const char *text, size_t len,
                                uint32_t start, uint32_t end, const char *edit, bool snippet,
                                const char *title)
{
    struct line_index lines;
    if (title == NULL || line_index_build(&lines, text ? text : "", len) != 0) {
        w->failed = true; /* out of memory: the response is answered so */
        return;
    }
    json_write_object_begin(w);
    json_write_key(w, "title");
    json_write_string(w, title);
    json_write_key(w, "kind");
    json_write_string(w, KIND_QUICKFIX);
    json_write_key(w, "diagnostics");
    json_write_array_begin(w);
    lsp_document_write_diagnostic(w, d, index);
    json_write_array_end(w);
    json_write_key(w, "edit");
    json_write_object_begin(w);
    json_write_key(w, "documentChanges");
    json_write_array_begin(w);
    if (create) {
        json_write_object_begin(w);
        json_write_key(w, "kind");
        json_write_string(w, "create");
        json_write_key(w, "uri");
        json_write_string(w, uri);
        json_write_object_end(w);
    }
    json_write_object_begin(w);
    json_write_key(w, "textDocument");
    json_write_object_begin(w);
    json_write_key(w, "uri");
    json_write_string(w, uri);
    json_write_key(w, "version");
    json_write_null(w);
    json_write_object_end(w);
    json_write_key(w, "edits");
    json_write_array_begin(w);
    json_write_object_begin(w);
    json_write_key(w, "range");
    line_index_write_range(w, &lines, start, end, d->store->encoding);
    json_write_key(w, snippet ? "snippet" : "newText"); /* a SnippetTextEdit (LSP 3.18) */
    if (snippet) {
        json_write_object_begin(w);
        json_write_key(w, "kind");
        json_write_string(w, "snippet");
        json_write_key(w, "value");
    }
    json_write_string(w, edit);
    if (snippet)
        json_write_object_end(w);
    json_write_object_end(w);
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
    line_index_free(&lines);
}

/* "Map ID to KIND in srcls.json" for the unknown-kind diagnostic `index`: an edit of the
 * srcls.json that applies to the document, or the creation of one beside it. */
static int write_map_action(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                            uint32_t index)
{
    struct json_doc *doc = &d->analysis.doc;
    uint32_t source = analysis_source_at(&d->analysis, d->analysis.diags.items[index].start);
    uint32_t type = source != JSON_NONE ? envelope_type(doc, source) : JSON_NONE;
    const struct schema_kind *kind = type != JSON_NONE ? kind_to_map(d, doc, source) : NULL;
    if (kind == NULL || doc->nodes[type].kind != JSON_STRING)
        return 0;
    struct json_str id = json_node_string(doc, type);
    char *path = NULL, *text = NULL;
    size_t len = 0;
    errno = 0;
    int found = lsp_projects_config_text(&s->documents.projects, d->uri, &path, &text, &len);
    if (found < 0)
        return errno == ENOMEM ? -1 : 0;
    struct arena arena;
    arena_init(&arena);
    const char *id_text = arena_strndup(&arena, id.ptr, id.len);
    uint32_t start = 0, end = 0;
    const char *edit =
        (found == 0 && !s->create_files) || id_text == NULL || memchr(id.ptr, '\0', id.len) != NULL
            ? NULL
            : project_map_type(text ? text : "", len, id_text, kind->types[0], &arena, &start,
                               &end);
    char *uri = edit != NULL ? lsp_uri_from_path(path) : NULL;
    const char *title =
        arena_printf(&arena, "Map \"%s\" to %s in %s", id_text, kind->types[0], PROJECT_FILE_NAME);
    int status = arena.failed || (edit != NULL && uri == NULL) ? -1 : 0;
    if (uri != NULL && status == 0)
        write_config_action(w, d, index, found == 0, uri, text, len, start, end, edit, false,
                            title);
    free(uri);
    free(path);
    free(text);
    arena_free(&arena);
    return status;
}

/* The text of an "ignore" entry for the diagnostic `index` of `d`, the document at `relative`
 * from the srcls.json's directory: its file, its pointer (a bulk source by its name, so that
 * the entry follows it in the array), its code, and the reason as the byte \1 (replaced by the
 * caller). In `arena`; NULL when out of memory. */
static const char *ignore_entry(struct lsp_document *d, uint32_t index, const char *relative,
                                struct arena *arena)
{
    const struct diagnostic *diag = &d->analysis.diags.items[index];
    const char *pointer = diag->pointer != NULL ? diag->pointer : "";
    struct analysis *a = &d->analysis;
    if (a->document == DOCUMENT_BULK && pointer[0] == '/') {
        char *rest;
        unsigned long element = strtoul(pointer + 1, &rest, 10);
        uint32_t name = element < a->element_count ? json_object_get(&a->doc, a->elements[element],
                                                                     JSON_LITERAL(ENVELOPE_NAME))
                                                   : JSON_NONE;
        struct json_str n = name != JSON_NONE && a->doc.nodes[name].kind == JSON_STRING
                                ? json_node_string(&a->doc, name)
                                : (struct json_str){0};
        const char *head = n.ptr != NULL && memchr(n.ptr, '\0', n.len) == NULL
                               ? json_pointer_append(arena, "", n.ptr, n.len)
                               : NULL;
        if (head != NULL && rest != pointer + 1 && (*rest == '/' || *rest == '\0'))
            pointer = arena_printf(arena, "%s%s", head, rest);
    }
    const char *glob = glob_literal(arena, relative); /* "a*b" is no pattern */
    if (glob == NULL)
        return NULL;
    /* One line with a space after each ':' and ',', as a person writes an entry (and the docs
     * show it): the values escaped one after the other (no separator at the top level). */
    struct json_writer w;
    json_writer_init(&w, 0);
    json_write_string(&w, glob);
    size_t files = w.len;
    json_write_string(&w, pointer != NULL ? pointer : "");
    size_t at = w.len;
    json_write_string(&w, code_name(diag->code));
    const char *entry =
        w.failed ? NULL
                 : arena_printf(arena,
                                "{\"files\": %.*s, \"pointer\": %.*s, \"codes\": [%.*s], "
                                "\"reason\": \"\1\"}",
                                (int)files, w.buf, (int)(at - files), w.buf + files,
                                (int)(w.len - at), w.buf + at);
    json_writer_free(&w);
    return entry;
}

/* `edit` with the reason's mark made a snippet placeholder (`snippet`: the rest escaped for a
 * snippet) or left empty; in `arena`. */
static const char *with_reason(const char *edit, bool snippet, struct arena *arena)
{
    static const char placeholder[] = "${1:why this finding is accepted}";
    size_t len = strlen(edit), out = 0;
    char *text = arena_alloc(arena, 2 * len + sizeof placeholder);
    for (size_t i = 0; text != NULL && i < len; i++) {
        if (edit[i] == '\1') {
            if (snippet) {
                memcpy(text + out, placeholder, sizeof placeholder - 1);
                out += sizeof placeholder - 1;
            }
            continue;
        }
        if (snippet && (edit[i] == '$' || edit[i] == '}' || edit[i] == '\\'))
            text[out++] = '\\';
        text[out++] = edit[i];
    }
    if (text != NULL)
        text[out] = '\0';
    return text;
}

/* -1 when memory ran out (the action would be missing), else 0: written, or none to offer. */
static int write_ignore_action(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                               uint32_t index)
{
    char *path = NULL, *text = NULL;
    size_t len = 0;
    errno = 0; /* a NULL for memory says ENOMEM; one for a URI that is no file, nothing */
    char *file = lsp_uri_to_path(d->uri, strlen(d->uri));
    int found = file != NULL
                    ? lsp_projects_config_text(&s->documents.projects, d->uri, &path, &text, &len)
                    : -1;
    if (found < 0) {
        free(file);
        return errno == ENOMEM ? -1 : 0;
    }
    size_t dir = path != NULL ? strlen(path) - strlen(PROJECT_FILE_NAME) : 0;
    struct arena arena;
    arena_init(&arena);
    uint32_t start = 0, end = 0;
    bool offered = (found == 1 || s->create_files) && strncmp(file, path, dir) == 0;
    const char *entry = offered ? ignore_entry(d, index, file + dir, &arena) : NULL;
    const char *edit = entry != NULL
                           ? suppress_add_entry(text ? text : "", len, entry, &arena, &start, &end)
                           : NULL;
    edit = edit != NULL ? with_reason(edit, s->snippet_edits, &arena) : NULL;
    char *uri = edit != NULL ? lsp_uri_from_path(path) : NULL;
    const char *title =
        arena_printf(&arena, "Ignore %s here in %s", code_name(d->analysis.diags.items[index].code),
                     PROJECT_FILE_NAME);
    int status =
        arena.failed || (offered && entry == NULL) || (edit != NULL && uri == NULL) ? -1 : 0;
    if (uri != NULL && status == 0)
        write_config_action(w, d, index, found == 0, uri, text, len, start, end, edit,
                            s->snippet_edits, title);
    free(uri);
    free(path);
    free(text);
    free(file);
    arena_free(&arena);
    return status;
}

static void write_actions(struct lsp_server *s, struct json_writer *w, struct lsp_document *d,
                          const struct fix_list *quick, const bool *repeated,
                          const struct fix_list *all, uint32_t start, uint32_t end, bool quickfix)
{
    json_write_array_begin(w);
    for (uint32_t i = 0; i < quick->count; i++) {
        const struct fix *f = &quick->items[i];
        if (repeated[i])
            continue;
        json_write_object_begin(w);
        json_write_key(w, "title");
        json_write_string(w, f->title);
        json_write_key(w, "kind");
        json_write_string(w, KIND_QUICKFIX);
        json_write_key(w, "isPreferred");
        json_write_bool(w, f->preferred);
        json_write_key(w, "diagnostics");
        json_write_array_begin(w);
        lsp_document_write_diagnostic(w, d, f->diagnostic);
        json_write_array_end(w);
        write_edit(w, d, f, 1);
        json_write_object_end(w);
    }
    for (uint32_t i = 0; quickfix && i < d->analysis.diags.count; i++) {
        const struct diagnostic *diag = &d->analysis.diags.items[i];
        if (diag->code == CODE_UNKNOWN_KIND && diag->end >= start && diag->start <= end)
            if (write_map_action(s, w, d, i) != 0)
                w->failed = true; /* the response is answered "out of memory" */
    }
    for (uint32_t i = 0;
         quickfix && !d->project_file && d->kind_schema == NULL && i < d->analysis.diags.count;
         i++) {
        const struct diagnostic *diag = &d->analysis.diags.items[i];
        if (diag->code != CODE_JSON_SYNTAX && diag->code != CODE_PROJECT_CONFIG &&
            diag->end >= start && diag->start <= end)
            if (write_ignore_action(s, w, d, i) != 0)
                w->failed = true; /* the response is answered "out of memory" */
    }
    if (all->count > 0) {
        json_write_object_begin(w);
        json_write_key(w, "title");
        json_write_string(w, "Fix all safe srcls problems");
        json_write_key(w, "kind");
        json_write_string(w, KIND_FIX_ALL);
        write_edit(w, d, all->items, all->count);
        json_write_object_end(w);
    }
    json_write_array_end(w);
}

void lsp_code_action_request(struct lsp_server *s, struct lsp_request *req)
{
    struct json_doc *doc = req->doc;
    struct lsp_document *d;
    uint32_t start, end;
    if (!lsp_documents_target_range(&s->documents, req, &d, &start, &end))
        return;
    uint32_t only = lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, req->params, "context"), "only");
    struct fix_list quick, all;
    fix_list_init(&quick);
    fix_list_init(&all);
    int status = 0;
    if (kind_wanted(doc, only, KIND_QUICKFIX)) {
        for (uint32_t i = 0; i < d->analysis.diags.count && status == 0; i++) {
            const struct diagnostic *diag = &d->analysis.diags.items[i];
            if (diag->end >= start && diag->start <= end)
                status = fix_collect(&d->analysis, i, &quick);
        }
    }
    if (status == 0 && kind_wanted(doc, only, KIND_FIX_ALL))
        status = fix_collect_safe(&d->analysis, &all, false, NULL); /* never the unsafe ones */
    bool *repeated = status == 0 ? repeated_fixes(&quick) : NULL;
    if (repeated == NULL) {
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR,
                                "the code actions could not be built (out of memory)");
    } else {
        struct json_writer w;
        lsp_jsonrpc_result_begin(&w, req);
        write_actions(s, &w, d, &quick, repeated, &all, start, end,
                      kind_wanted(doc, only, KIND_QUICKFIX));
        lsp_jsonrpc_finish(&s->rpc, &w);
    }
    free(repeated);
    fix_list_free(&quick);
    fix_list_free(&all);
}
