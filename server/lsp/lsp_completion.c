/* lsp_completion: completion items, with the text edit that inserts each: a TextEdit over the
 * whole token under the cursor, quotes and text after the cursor included. No InsertReplaceEdit:
 * an insertion that kept the rest of a JSON token would leave it broken (`"NONE"NE"`), so
 * inserting and replacing are the same edit. */
#include "lsp_completion.h"

#include "project/project.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assist/assist.h"

/* LSP's InsertTextFormat: how the client reads an item's newText. */
enum insert_text_format {
    INSERT_TEXT_PLAIN = 1,
    INSERT_TEXT_SNIPPET = 2, /* with tab stops and placeholders: ${1:value} */
};

/* LSP's InsertTextMode asIs: a text of several lines is inserted with its own indentation. */
#define INSERT_TEXT_MODE_AS_IS 1
/* LSP's CompletionItemTag Deprecated: how a field that would not apply is shown. */
#define COMPLETION_ITEM_TAG_DEPRECATED 1

/* The members of LSP's CompletionItemKind that srcls uses (the client picks the icon). */
enum completion_item_kind {
    COMPLETION_ITEM_TEXT = 1,
    COMPLETION_ITEM_MODULE = 9,
    COMPLETION_ITEM_PROPERTY = 10,
    COMPLETION_ITEM_VALUE = 12,
    COMPLETION_ITEM_SNIPPET = 15,
    COMPLETION_ITEM_ENUM_MEMBER = 20,
};

void lsp_completion_initialize(struct lsp_server *s, struct lsp_request *initialize,
                               struct json_writer *w)
{
    struct json_doc *doc = initialize->doc;
    uint32_t item =
        lsp_jsonrpc_capability(doc, initialize->params, "textDocument.completion.completionItem");
    s->snippets = lsp_jsonrpc_is_true(doc, lsp_jsonrpc_get(doc, item, "snippetSupport"));
    s->deprecated_tag = lsp_jsonrpc_array_has_int(
        doc, lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, item, "tagSupport"), "valueSet"),
        COMPLETION_ITEM_TAG_DEPRECATED);
    s->completion_markup =
        lsp_jsonrpc_prefers_markdown(doc, lsp_jsonrpc_get(doc, item, "documentationFormat"))
            ? TEXT_MARKDOWN
            : TEXT_PLAIN;

    json_write_key(w, "completionProvider");
    json_write_object_begin(w);
    json_write_key(w, "triggerCharacters");
    json_write_array_begin(w);
    json_write_string(w, "\"");
    json_write_string(w, ":");
    json_write_array_end(w);
    json_write_key(w, "resolveProvider");
    json_write_bool(w, false);
    json_write_object_end(w);
}

static enum completion_item_kind item_kind(enum completion_kind kind)
{
    switch (kind) {
    case COMPLETION_KEY: return COMPLETION_ITEM_PROPERTY;
    case COMPLETION_ENUM: return COMPLETION_ITEM_ENUM_MEMBER;
    case COMPLETION_KIND_ID: return COMPLETION_ITEM_MODULE;
    case COMPLETION_SNIPPET: return COMPLETION_ITEM_SNIPPET;
    case COMPLETION_HINT: return COMPLETION_ITEM_TEXT;
    case COMPLETION_VALUE: break;
    }
    return COMPLETION_ITEM_VALUE;
}

/* Appends `text` to `out` with a backslash before each byte of `special`; returns the end. */
static char *escape(char *out, const char *text, size_t len, const char *special)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\0' && strchr(special, text[i]) != NULL)
            *out++ = '\\';
        *out++ = text[i];
    }
    return out;
}

/* One placeholder as a tab stop: ${n:value}, $n when it is empty, ${n|a,b|} with choices. */
static char *write_tab_stop(char *out, const char *text, const struct completion_placeholder *p,
                            unsigned number)
{
    static const char special[] = "$}\\";
    static const char special_in_choice[] = "$}\\,|";
    if (p->choice_count > 0) {
        out += sprintf(out, "${%u|", number);
        for (uint32_t i = 0; i < p->choice_count; i++) {
            if (i > 0)
                *out++ = ',';
            out = escape(out, p->choices[i], strlen(p->choices[i]), special_in_choice);
        }
        return out + sprintf(out, "|}");
    }
    if (p->start == p->end)
        return out + sprintf(out, "$%u", number);
    out += sprintf(out, "${%u:", number);
    out = escape(out, text + p->start, p->end - p->start, special);
    return out + sprintf(out, "}");
}

/* The item's text as a snippet whose tab stops are its placeholders, in order. In `arena`;
 * NULL when memory ran out. */
static const char *snippet_of(const struct completion_item *item, struct arena *arena)
{
    static const char special_in_text[] = "$\\";
    const char *text = item->text;
    size_t len = strlen(text);
    size_t size = 2 * len + 1;
    for (uint32_t k = 0; k < item->placeholder_count; k++) {
        size += sizeof "${9999||}";
        for (uint32_t i = 0; i < item->placeholders[k].choice_count; i++)
            size += 2 * strlen(item->placeholders[k].choices[i]) + 1;
    }
    char *snippet = arena_alloc(arena, size);
    if (snippet == NULL)
        return NULL;
    char *out = snippet;
    uint32_t at = 0;
    for (uint32_t k = 0; k < item->placeholder_count; k++) {
        const struct completion_placeholder *p = &item->placeholders[k];
        out = escape(out, text + at, p->start - at, special_in_text);
        out = write_tab_stop(out, text, p, k + 1);
        at = p->end;
    }
    out = escape(out, text + at, len - at, special_in_text);
    *out = '\0';
    return snippet;
}

static void write_edit(struct json_writer *w, const struct lsp_document *d,
                       const struct completion_item *item, const char *new_text)
{
    json_write_key(w, "textEdit");
    json_write_object_begin(w);
    json_write_key(w, "range");
    lsp_document_write_range(w, d, item->start, item->end);
    json_write_key(w, "newText");
    json_write_string(w, new_text);
    json_write_object_end(w);
}

static void write_documentation(struct lsp_server *s, struct json_writer *w,
                                const struct completion_item *item)
{
    if (item->documentation == NULL)
        return;
    json_write_key(w, "documentation");
    json_write_object_begin(w);
    json_write_key(w, "kind");
    json_write_string(w, s->completion_markup == TEXT_MARKDOWN ? "markdown" : "plaintext");
    json_write_key(w, "value");
    json_write_string(w, item->documentation);
    json_write_object_end(w);
}

/* What the client matches against the text in the edit's range before the cursor: a key with
 * its quotes; a skeleton's label, after a quote when the range starts with one; a value itself. */
static const char *filter_text(const struct lsp_document *d, struct completion_list *list,
                               const struct completion_item *item)
{
    switch (item->kind) {
    case COMPLETION_KEY: return arena_printf(&list->arena, "\"%s\"", item->label);
    case COMPLETION_SNIPPET:
    case COMPLETION_HINT: {
        bool quote = item->start < item->end && d->analysis.doc.text[item->start] == '"';
        return quote ? arena_printf(&list->arena, "\"%s", item->label) : item->label;
    }
    case COMPLETION_VALUE:
    case COMPLETION_ENUM:
    case COMPLETION_KIND_ID: break;
    }
    return item->text;
}

static void write_item(struct lsp_server *s, struct json_writer *w, const struct lsp_document *d,
                       struct completion_list *list, const struct completion_item *item)
{
    const char *snippet =
        s->snippets && item->placeholder_count > 0 ? snippet_of(item, &list->arena) : NULL;
    json_write_object_begin(w);
    json_write_key(w, "label");
    json_write_string(w, item->label);
    json_write_key(w, "kind");
    json_write_int(w, item_kind(item->kind));
    if (item->rank == COMPLETION_RANK_NOT_APPLICABLE && s->deprecated_tag) {
        json_write_key(w, "tags");
        json_write_array_begin(w);
        json_write_int(w, COMPLETION_ITEM_TAG_DEPRECATED);
        json_write_array_end(w);
    }
    if (item->detail != NULL) {
        json_write_key(w, "detail");
        json_write_string(w, item->detail);
    }
    write_documentation(s, w, item);
    json_write_key(w, "sortText");
    json_write_string(w, item->sort);
    json_write_key(w, "filterText");
    json_write_string(w, filter_text(d, list, item));
    json_write_key(w, "insertTextFormat");
    json_write_int(w, snippet != NULL ? INSERT_TEXT_SNIPPET : INSERT_TEXT_PLAIN);
    if (strchr(item->text, '\n') != NULL) {
        json_write_key(w, "insertTextMode");
        json_write_int(w, INSERT_TEXT_MODE_AS_IS);
    }
    write_edit(w, d, item, snippet != NULL ? snippet : item->text);
    json_write_object_end(w);
}

/* The time now as the rule engine writes a timestamp (UTC, milliseconds, Z), into `out`; NULL
 * when the clock cannot be read. */
static const char *now_text(char *out, size_t size)
{
    uv_timeval64_t now;
    if (uv_gettimeofday(&now) != 0)
        return NULL;
    time_t seconds = (time_t)now.tv_sec;
    struct tm utc;
    if (gmtime_r(&seconds, &utc) == NULL)
        return NULL;
    size_t len = strftime(out, size, "%Y-%m-%dT%H:%M:%S", &utc);
    if (len == 0)
        return NULL;
    snprintf(out + len, size - len, ".%03dZ", (int)(now.tv_usec / 1000));
    return out;
}

/* The variables of the placeholders in the other open documents checked with the same settings
 * (the same srcls.json), offered beside the document's own; in `arena`, *names malloc'd. */
static int open_variables(struct lsp_server *s, const struct lsp_document *d, struct arena *arena,
                          const char ***names, uint32_t *count)
{
    const struct settings *set = d->settings;
    size_t cap = 0;
    for (struct lsp_document *o = s->documents.first;
         set != NULL && set->placeholder_count > 0 && o != NULL; o = o->next) {
        if (o != d && !o->lost && o->settings == set && !o->project_file &&
            o->kind_schema == NULL &&
            placeholder_names(set->placeholders, set->placeholder_count, o->text, o->len, arena,
                              names, count, &cap) != 0)
            return -1;
    }
    return 0;
}

void lsp_completion_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t offset;
    if (!lsp_documents_target_offset(&s->documents, req, &d, &offset))
        return;
    char now[64];
    const char **variables = NULL;
    uint32_t variable_count = 0;
    struct arena arena;
    arena_init(&arena);
    struct completion_options options = {s->completion_markup, now_text(now, sizeof now), NULL, 0};
    struct completion_list list = {0};
    int status = open_variables(s, d, &arena, &variables, &variable_count);
    options.variables = variables;
    options.variable_count = variable_count;
    if (status == 0)
        status = d->project_file
                     ? project_complete(&d->analysis, d->registry, offset, options.markup, &list)
                 : d->kind_schema != NULL
                     ? project_kind_file_complete(&d->analysis, d->registry, offset, &list)
                     : complete_at(&d->analysis, d->registry, d->settings, offset, &options, &list);
    free(variables);
    arena_free(&arena);
    if (status != 0 || list.arena.failed) { /* an item may lack a part */
        completion_list_free(&list);
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR,
                                "the completion could not be built (out of memory)");
        return;
    }
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "isIncomplete");
    json_write_bool(&w, false);
    json_write_key(&w, "items");
    json_write_array_begin(&w);
    for (uint32_t i = 0; i < list.count; i++)
        write_item(s, &w, d, &list, &list.items[i]);
    json_write_array_end(&w);
    json_write_object_end(&w);
    lsp_jsonrpc_finish(&s->rpc, &w);
    completion_list_free(&list);
}
