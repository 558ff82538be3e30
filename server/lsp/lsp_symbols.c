/* lsp_symbols: the outline, nested. */
#include "lsp_symbols.h"

#include "assist/assist.h"

/* The members of LSP's SymbolKind that srcls uses (the client picks the icon). */
enum lsp_symbol_kind {
    LSP_SYMBOL_MODULE = 2,
    LSP_SYMBOL_PROPERTY = 7,
    LSP_SYMBOL_STRING = 15,
    LSP_SYMBOL_NUMBER = 16,
    LSP_SYMBOL_BOOLEAN = 17,
    LSP_SYMBOL_ARRAY = 18,
    LSP_SYMBOL_OBJECT = 19,
    LSP_SYMBOL_NULL = 21,
};

void lsp_symbols_initialize(struct lsp_server *s, struct lsp_request *initialize,
                            struct json_writer *w)
{
    (void)s;
    (void)initialize;
    json_write_key(w, "documentSymbolProvider");
    json_write_bool(w, true);
}

static enum lsp_symbol_kind symbol_kind(enum symbol_kind kind)
{
    switch (kind) {
    case SYMBOL_KIND_OBJECT: return LSP_SYMBOL_OBJECT;
    case SYMBOL_KIND_ARRAY: return LSP_SYMBOL_ARRAY;
    case SYMBOL_KIND_STRING: return LSP_SYMBOL_STRING;
    case SYMBOL_KIND_NUMBER: return LSP_SYMBOL_NUMBER;
    case SYMBOL_KIND_BOOLEAN: return LSP_SYMBOL_BOOLEAN;
    case SYMBOL_KIND_NULL: return LSP_SYMBOL_NULL;
    case SYMBOL_KIND_CONFIG: return LSP_SYMBOL_MODULE; /* the config of a known kind */
    case SYMBOL_KIND_INVALID: break;
    }
    return LSP_SYMBOL_PROPERTY; /* a member whose value is missing or malformed */
}

static void write_symbols(struct json_writer *w, const struct lsp_document *d,
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
        json_write_int(w, symbol_kind(sym->kind));
        json_write_key(w, "range");
        lsp_document_write_range(w, d, sym->start, sym->end);
        json_write_key(w, "selectionRange");
        lsp_document_write_range(w, d, sym->selection_start, sym->selection_end);
        if (sym->child_count > 0) {
            json_write_key(w, "children");
            write_symbols(w, d, sym->children, sym->child_count);
        }
        json_write_object_end(w);
    }
    json_write_array_end(w);
}

void lsp_symbols_request(struct lsp_server *s, struct lsp_request *req)
{
    struct lsp_document *d = lsp_documents_target_analyzed(&s->documents, req);
    if (d == NULL)
        return;
    struct arena arena;
    arena_init(&arena);
    uint32_t count = 0;
    struct symbol *list = symbols_of(&d->analysis, d->registry, &s->settings, &arena, &count);
    if (arena.failed) { /* a part of the outline is missing */
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        arena_free(&arena);
        return;
    }
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    write_symbols(&w, d, list, count);
    lsp_jsonrpc_finish(&s->rpc, &w);
    arena_free(&arena);
}
