/* lsp_review_wasi: srcls.reviewBase in the WebAssembly build, which cannot start a process:
 * the setting is said to be ignored, once (see lsp_review.h). */
#include "lsp_review.h"

#include <stdlib.h>

#include "lsp_jsonrpc.h"

void lsp_review_init(struct lsp_review *review, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                     struct lsp_review_hooks hooks)
{
    *review = (struct lsp_review){.loop = loop, .rpc = rpc, .hooks = hooks};
}

void lsp_review_close(struct lsp_review *review)
{
    free(review->base);
    review->base = NULL;
}

void lsp_review_set(struct lsp_review *review, const char *ref, size_t len)
{
    if (ref == NULL || len == 0 || review->shown)
        return;
    review->shown = true;
    lsp_jsonrpc_log(review->rpc, LSP_MESSAGE_WARNING,
                    "%s is ignored: the WebAssembly server cannot run git (use the native server "
                    "or srcls --check --base)",
                    "srcls.reviewBase");
}

void lsp_review_fetch(struct lsp_review *review, const char *uri)
{
    (void)review;
    (void)uri;
}
