/* lsp_review: what the review does whatever the platform: a base's comparison, its memory. The
 * git side is lsp_review_git.c, or lsp_review_wasi.c in the WebAssembly build (meson picks). */
#include "lsp_review.h"

#include <stdlib.h>

#include "review.h"

void lsp_review_base_free(struct lsp_review_base *base)
{
    analysis_free(&base->analysis);
    free(base->text);
    *base = (struct lsp_review_base){0};
}

int lsp_review_compare(const struct lsp_review *review, struct lsp_review_base *base,
                       struct analysis *now, const struct analysis_options *options)
{
    if (base->text == NULL || review->base == NULL)
        return 0;
    if (!base->analyzed) {
        analysis_free(&base->analysis);
        if (analysis_run(&base->analysis, base->text, base->len, options) != 0) {
            analysis_free(&base->analysis);
            return -1;
        }
        base->analyzed = true;
    }
    return review_compare(now, &base->analysis, review->base);
}
