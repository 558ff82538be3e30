/* lsp_review: what the review does whatever the platform: a base's comparison, its memory. The
 * git side is lsp_review_git.c, or lsp_review_wasi.c in the WebAssembly build (meson picks). */
#include "lsp_review.h"

#include <stdlib.h>

#include "check/check.h"
#include "project/project.h"

void lsp_review_base_free(struct lsp_review_base *base)
{
    analysis_free(&base->analysis);
    free(base->text);
    *base = (struct lsp_review_base){0};
}

/* The severity of risky-change on a srcls.json: in the stricter (for the security group) of
 * its settings now and at the base, each with the editor's `editor` over it. */
static int project_severity(const struct settings *own, const struct settings *base_own,
                            const struct settings *editor, enum diag_severity *severity)
{
    struct settings now, then, strict;
    settings_init(&now);
    settings_init(&then);
    settings_init(&strict);
    int status = settings_merge(&now, own, editor) == 0 &&
                         settings_merge(&then, base_own, editor) == 0 &&
                         settings_stricter(&strict, &now, &then, CODE_GROUP_SECURITY) == 0
                     ? 0
                     : -1;
    *severity =
        settings_severity(&strict, CODE_RISKY_CHANGE, code_info(CODE_RISKY_CHANGE)->severity);
    settings_free(&now);
    settings_free(&then);
    settings_free(&strict);
    return status;
}

static int compare_project(const struct lsp_review *review, struct lsp_review_base *base,
                           struct analysis *now, const struct analysis_options *options)
{
    struct settings own, base_own;
    struct analysis old;
    settings_init(&own);
    settings_init(&base_own);
    settings_read(&own, &now->doc, now->doc.root, NULL, 0);
    enum diag_severity severity;
    int status = project_analyze(&old, base->text, base->len, NULL, &base_own) < 0 ? -1 : 0;
    if (status == 0)
        status = project_severity(&own, &base_own, options->settings, &severity);
    if (status == 0)
        status = project_review(now, &own, &old, &base_own, review->base, severity);
    analysis_free(&old);
    settings_free(&own);
    settings_free(&base_own);
    return status;
}

int lsp_review_compare(const struct lsp_review *review, struct lsp_review_base *base,
                       struct analysis *now, const struct analysis_options *options,
                       bool baseline_file)
{
    if (base->text == NULL || review->base == NULL)
        return 0;
    if (base->project)
        return compare_project(review, base, now, options);
    if (baseline_file) /* a baseline file is no document: the entries it gained */
        return project_review_baseline(now, now->doc.text, now->doc.len, base->text, base->len,
                                       review->base,
                                       settings_severity(options->settings, CODE_RISKY_CHANGE,
                                                         code_info(CODE_RISKY_CHANGE)->severity));
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
