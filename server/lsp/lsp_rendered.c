/* lsp_rendered: a diagnostic as LSP JSON, and a cache of written diagnostics that follows the
 * analysis through its updates. */
#include "lsp_rendered.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "domain/domain.h"
#include "json/json.h"

/* Where docs/ is published (meson option docs_url). */
#ifndef SRCLS_DOCS_URL
#define SRCLS_DOCS_URL "https://github.com/srcls/srcls/blob/main/docs"
#endif

/* LSP's DiagnosticSeverity. */
enum lsp_diagnostic_severity {
    LSP_SEVERITY_ERROR = 1,
    LSP_SEVERITY_WARNING = 2,
    LSP_SEVERITY_INFORMATION = 3,
    LSP_SEVERITY_HINT = 4,
};

static enum lsp_diagnostic_severity diagnostic_severity(enum diag_severity severity)
{
    switch (severity) {
    case DIAG_ERROR: return LSP_SEVERITY_ERROR;
    case DIAG_WARNING: return LSP_SEVERITY_WARNING;
    case DIAG_INFORMATION: return LSP_SEVERITY_INFORMATION;
    case DIAG_HINT: return LSP_SEVERITY_HINT;
    case DIAG_OFF: break; /* never reported */
    }
    return LSP_SEVERITY_HINT;
}

void lsp_diagnostic_write(struct json_writer *w, const struct analysis *a, const char *uri,
                          enum position_encoding encoding, uint32_t index)
{
    struct diagnostic moved = analysis_diagnostic(a, index); /* the tree may be unsettled */
    const struct diagnostic *diag = &moved;
    json_write_object_begin(w);
    json_write_key(w, "range");
    line_index_write_range(w, &a->lines, diag->start, diag->end, encoding);
    json_write_key(w, "severity");
    json_write_int(w, diagnostic_severity(diag->severity));
    json_write_key(w, "code");
    json_write_string(w, code_name(diag->code));
    json_write_key(w, "codeDescription");
    json_write_object_begin(w);
    json_write_key(w, "href");
    char href[256];
    snprintf(href, sizeof href, "%s/rules.md#%s", SRCLS_DOCS_URL, code_name(diag->code));
    json_write_string(w, href);
    json_write_object_end(w);
    json_write_key(w, "source");
    json_write_string(w, "srcls");
    json_write_key(w, "message");
    json_write_string(w, diag->message);
    if (code_info(diag->code)->unnecessary) {
        /* DiagnosticTag.Unnecessary: written whatever the client declared, which the
         * specification allows (a client ignores tags it does not support). */
        json_write_key(w, "tags");
        json_write_array_begin(w);
        json_write_int(w, 1);
        json_write_array_end(w);
    }
    if (diag->related_message != NULL && diag->related_start != UINT32_MAX) {
        json_write_key(w, "relatedInformation");
        json_write_array_begin(w);
        json_write_object_begin(w);
        json_write_key(w, "location");
        json_write_object_begin(w);
        json_write_key(w, "uri");
        json_write_string(w, uri);
        json_write_key(w, "range");
        line_index_write_range(w, &a->lines, diag->related_start, diag->related_end, encoding);
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

static void forget(struct lsp_rendered_entry *entry)
{
    free(entry->json);
    *entry = (struct lsp_rendered_entry){NULL, 0, 0};
}

void lsp_rendered_free(struct lsp_rendered *rendered)
{
    for (uint32_t i = 0; i < rendered->count; i++)
        free(rendered->items[i].json);
    free(rendered->items);
    *rendered = (struct lsp_rendered){NULL, 0, 0};
}

int lsp_rendered_reset(struct lsp_rendered *rendered, uint32_t count)
{
    for (uint32_t i = 0; i < rendered->count; i++)
        forget(&rendered->items[i]);
    rendered->count = 0;
    if (count == 0)
        return 0;
    struct lsp_rendered_entry *items =
        vector_grow(rendered->items, &rendered->cap, count, sizeof *items);
    if (items == NULL)
        return -1;
    rendered->items = items;
    memset(items, 0, (size_t)count * sizeof *items);
    rendered->count = count;
    return 0;
}

int lsp_rendered_update(struct lsp_rendered *rendered, const struct analysis_delta *delta,
                        uint32_t edit_line, bool lines_moved)
{
    uint32_t old = rendered->count;
    if (delta->first > old || delta->removed > old - delta->first)
        return lsp_rendered_reset(rendered, old - delta->removed + delta->added);
    uint32_t after = old - delta->first - delta->removed;
    uint32_t count = delta->first + delta->added + after;
    for (uint32_t i = delta->first; i < delta->first + delta->removed; i++)
        forget(&rendered->items[i]);
    if (count == 0) {
        rendered->count = 0;
        return 0;
    }
    struct lsp_rendered_entry *items =
        vector_grow(rendered->items, &rendered->cap, count, sizeof *items);
    if (items == NULL) {
        lsp_rendered_reset(rendered, 0);
        return -1;
    }
    rendered->items = items;
    memmove(items + delta->first + delta->added, items + delta->first + delta->removed,
            (size_t)after * sizeof *items);
    memset(items + delta->first, 0, (size_t)delta->added * sizeof *items);
    rendered->count = count;
    for (uint32_t i = delta->first + delta->added; i < count; i++) {
        if (items[i].json != NULL && (lines_moved || items[i].first_line <= edit_line))
            forget(&items[i]);
    }
    return 0;
}

const struct lsp_rendered_entry *lsp_rendered_get(const struct lsp_rendered *rendered,
                                                  uint32_t index)
{
    if (index >= rendered->count || rendered->items[index].json == NULL)
        return NULL;
    return &rendered->items[index];
}

void lsp_rendered_set(struct lsp_rendered *rendered, uint32_t index, const char *json, size_t len,
                      uint32_t first_line)
{
    if (index >= rendered->count)
        return;
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return;
    memcpy(copy, json, len);
    copy[len] = '\0';
    forget(&rendered->items[index]);
    rendered->items[index] = (struct lsp_rendered_entry){copy, len, first_line};
}
