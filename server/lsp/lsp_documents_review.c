/* lsp_documents_review: the open documents as srcls.reviewBase's review sees them (see
 * lsp_documents_review.h; lsp_review reads their bases through git). */
#include "lsp_documents_review.h"

#include <string.h>

#include "lsp_review.h"

static struct lsp_document *open_document(struct lsp_documents *store, const char *uri)
{
    return lsp_documents_find(store, (struct json_str){uri, strlen(uri)});
}

static struct lsp_review_base *base_of(void *context, const char *uri)
{
    struct lsp_document *d = open_document(context, uri);
    return d != NULL ? &d->review : NULL;
}

/* The base changed: the document is analysed and published again (a client that pulls is
 * asked to, when it takes workspace/diagnostic/refresh). */
static void changed(void *context, const char *uri)
{
    struct lsp_documents *store = context;
    struct lsp_document *d = open_document(store, uri);
    if (d == NULL)
        return;
    d->analyzed = false;
    lsp_document_changed(d, true);
    if (store->pull && store->refresh) {
        struct json_writer w;
        lsp_jsonrpc_request_begin(store->rpc, &w, "workspace/diagnostic/refresh");
        lsp_jsonrpc_send(store->rpc, &w);
    }
}

static void refetch(void *context, bool drop)
{
    struct lsp_documents *store = context;
    for (struct lsp_document *d = store->first; d != NULL; d = d->next) {
        if (drop && d->review.text != NULL) {
            lsp_review_base_free(&d->review);
            d->analyzed = false; /* published again by whoever changed the setting */
        }
        if (d->kind_schema == NULL) /* a srcls.json too: what its change does to the gate */
            lsp_review_fetch(&store->review, d->uri);
    }
}

void lsp_documents_review_init(struct lsp_documents *store)
{
    lsp_review_init(&store->review, store->loop, store->rpc,
                    (struct lsp_review_hooks){store, base_of, changed, refetch});
}
