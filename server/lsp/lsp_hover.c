/* lsp_hover: the schema's words about what is under the cursor, as MarkupContent in the format
 * the client takes, and the range they are about; or null. */
#include "lsp_hover.h"

#include <ctype.h>
#include <stdio.h>

#include "assist/assist.h"
#include "check/check.h"
#include "project/project.h"

/* Where docs/ is published (meson option docs_url). */
#ifndef SRCLS_DOCS_URL
#define SRCLS_DOCS_URL "https://github.com/srcls/srcls/blob/main/docs"
#endif

void lsp_hover_initialize(struct lsp_server *s, struct lsp_request *initialize,
                          struct json_writer *w)
{
    struct json_doc *doc = initialize->doc;
    uint32_t hover = lsp_jsonrpc_capability(doc, initialize->params, "textDocument.hover");
    s->hover_markup =
        lsp_jsonrpc_prefers_markdown(doc, lsp_jsonrpc_get(doc, hover, "contentFormat"))
            ? TEXT_MARKDOWN
            : TEXT_PLAIN;
    json_write_key(w, "hoverProvider");
    json_write_bool(w, true);
}

static void write_hover(struct json_writer *w, const struct lsp_document *d,
                        enum text_markup markup, const char *text, uint32_t start, uint32_t end)
{
    json_write_object_begin(w);
    json_write_key(w, "contents");
    json_write_object_begin(w);
    json_write_key(w, "kind");
    json_write_string(w, markup == TEXT_MARKDOWN ? "markdown" : "plaintext");
    json_write_key(w, "value");
    json_write_string(w, text);
    json_write_object_end(w);
    json_write_key(w, "range");
    lsp_document_write_range(w, d, start, end);
    json_write_object_end(w);
}

/* The kind's section of docs/kinds.md: its heading "N. Title" as GitHub anchors it (lower case,
 * punctuation dropped, spaces as '-'). */
static void kind_link(const struct schema_kind *kind, char *out, size_t size)
{
    char heading[256], anchor[256];
    snprintf(heading, sizeof heading, "%d. %s", kind->number, kind->title);
    size_t n = 0;
    for (const char *c = heading; *c != '\0' && n + 1 < sizeof anchor; c++) {
        unsigned char ch = (unsigned char)*c;
        if (isalnum(ch))
            anchor[n++] = (char)tolower(ch);
        else if (ch == ' ' || ch == '-')
            anchor[n++] = '-';
    }
    anchor[n] = '\0';
    snprintf(out, size, "%s/kinds.md#%s", SRCLS_DOCS_URL, anchor);
}

/* The hover text with, when the cursor is in a source of a known kind, a link to the kind's
 * section of the docs (in `arena`). */
static const char *with_kind_link(struct lsp_server *s, struct lsp_document *d, uint32_t offset,
                                  const char *text, struct arena *arena)
{
    uint32_t source = analysis_source_at(&d->analysis, offset);
    if (source == JSON_NONE)
        return text;
    const struct schema_kind *kind =
        kind_resolve_source(&d->analysis.doc, source, d->registry, &s->settings);
    if (kind == NULL)
        return text;
    char link[512];
    kind_link(kind, link, sizeof link);
    const char *with =
        s->hover_markup == TEXT_MARKDOWN
            ? arena_printf(arena, "%s\n\n[%s in the srcls docs](%s)", text, kind->title, link)
            : arena_printf(arena, "%s\n\nDocs: %s", text, link);
    return with ? with : text;
}

void lsp_hover_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d;
    uint32_t offset;
    if (!lsp_documents_target_offset(&s->documents, req, &d, &offset))
        return;
    struct arena arena;
    arena_init(&arena);
    uint32_t start = 0, end = 0;
    const char *text = d->project_file ? project_hover(&d->analysis, d->registry, offset,
                                                       s->hover_markup, &arena, &start, &end)
                       : d->kind_schema != NULL
                           ? project_kind_file_hover(&d->analysis, d->registry, offset,
                                                     s->hover_markup, &arena, &start, &end)
                           : hover_at(&d->analysis, d->registry, d->settings, offset,
                                      s->hover_markup, &arena, &start, &end);
    if (text != NULL)
        text = with_kind_link(s, d, offset, text, &arena);
    if (arena.failed) { /* a part of the text is missing */
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
    } else if (text == NULL) {
        lsp_jsonrpc_reply_null(&s->rpc, req);
    } else {
        struct json_writer w;
        lsp_jsonrpc_result_begin(&w, req);
        write_hover(&w, d, s->hover_markup, text, start, end);
        lsp_jsonrpc_finish(&s->rpc, &w);
    }
    arena_free(&arena);
}
