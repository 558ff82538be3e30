/* lsp_rendered: a cache of written diagnostics that follows the analysis through its updates. */
#include "lsp_rendered.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

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
