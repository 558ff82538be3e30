/* lsp_completion: completion items, with the text edit that inserts each. */
#include "lsp_completion.h"

#include <string.h>

#include "complete.h"

/* LSP's InsertTextFormat: how the client reads an item's newText. */
enum insert_text_format {
    INSERT_TEXT_PLAIN = 1,
    INSERT_TEXT_SNIPPET = 2, /* with tab stops and placeholders: ${1:value} */
};

/* The members of LSP's CompletionItemKind that srcls uses (the client picks the icon). */
enum completion_item_kind {
    COMPLETION_ITEM_MODULE = 9,
    COMPLETION_ITEM_PROPERTY = 10,
    COMPLETION_ITEM_VALUE = 12,
    COMPLETION_ITEM_ENUM_MEMBER = 20,
};

void lsp_completion_initialize(struct lsp_server *s, struct lsp_request *initialize,
                               struct json_writer *w)
{
    struct json_doc *doc = initialize->doc;
    uint32_t client = lsp_jsonrpc_get(doc, initialize->params, "capabilities");
    uint32_t completion =
        lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, client, "textDocument"), "completion");
    uint32_t snippet =
        lsp_jsonrpc_get(doc, lsp_jsonrpc_get(doc, completion, "completionItem"), "snippetSupport");
    s->snippets = snippet != JSON_NONE && doc->nodes[snippet].kind == JSON_TRUE;

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

static char *append(char *out, const char *text)
{
    size_t len = strlen(text);
    memcpy(out, text, len);
    return out + len;
}

/* The item's text as a snippet whose tab stop 1 is the placeholder: ${1:value}, $1 when it is
 * empty, ${1|a,b|} with choices. In `arena`; NULL when memory ran out. */
static const char *snippet_of(const struct completion_item *item, struct arena *arena)
{
    /* What a snippet's grammar gives a meaning to: in text, in a placeholder, in a choice. */
    static const char special_in_text[] = "$\\";
    static const char special[] = "$}\\";
    static const char special_in_choice[] = "$}\\,|";
    const struct completion_placeholder *p = &item->placeholder;
    const char *text = item->text;
    size_t len = strlen(text);
    size_t size = 2 * len + sizeof "${1||}";
    for (uint32_t i = 0; i < p->choice_count; i++)
        size += 2 * strlen(p->choices[i]) + 1;
    char *snippet = arena_alloc(arena, size);
    if (snippet == NULL)
        return NULL;
    char *out = escape(snippet, text, p->start, special_in_text);
    if (p->choice_count > 0) {
        out = append(out, "${1|");
        for (uint32_t i = 0; i < p->choice_count; i++) {
            if (i > 0)
                *out++ = ',';
            out = escape(out, p->choices[i], strlen(p->choices[i]), special_in_choice);
        }
        out = append(out, "|}");
    } else if (p->start == p->end) {
        out = append(out, "$1");
    } else {
        out = append(out, "${1:");
        out = escape(out, text + p->start, p->end - p->start, special);
        out = append(out, "}");
    }
    out = escape(out, text + p->end, len - p->end, special_in_text);
    *out = '\0';
    return snippet;
}

static void write_item(struct lsp_server *s, struct json_writer *w, const struct lsp_document *d,
                       struct completion_list *list, const struct completion_item *item)
{
    const char *snippet =
        s->snippets && item->has_placeholder ? snippet_of(item, &list->arena) : NULL;
    json_write_object_begin(w);
    json_write_key(w, "label");
    json_write_string(w, item->label);
    json_write_key(w, "kind");
    json_write_int(w, item_kind(item->kind));
    if (item->detail != NULL) {
        json_write_key(w, "detail");
        json_write_string(w, item->detail);
    }
    if (item->documentation != NULL) {
        json_write_key(w, "documentation");
        json_write_object_begin(w);
        json_write_key(w, "kind");
        json_write_string(w, "markdown");
        json_write_key(w, "value");
        json_write_string(w, item->documentation);
        json_write_object_end(w);
    }
    json_write_key(w, "sortText");
    json_write_string(w, item->sort);
    json_write_key(w, "filterText");
    json_write_string(w, item->kind == COMPLETION_KEY
                             ? arena_printf(&list->arena, "\"%s\"", item->label)
                             : item->text);
    json_write_key(w, "insertTextFormat");
    json_write_int(w, snippet != NULL ? INSERT_TEXT_SNIPPET : INSERT_TEXT_PLAIN);
    json_write_key(w, "textEdit");
    json_write_object_begin(w);
    json_write_key(w, "range");
    lsp_document_write_range(w, d, item->start, item->end);
    json_write_key(w, "newText");
    json_write_string(w, snippet != NULL ? snippet : item->text);
    json_write_object_end(w);
    json_write_object_end(w);
}

void lsp_completion_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t offset;
    if (!lsp_documents_target_offset(&s->documents, req, &d, &offset))
        return;
    struct completion_list list;
    if (complete_at(&d->analysis, &s->registry, &s->settings, offset, &list) != 0) {
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
