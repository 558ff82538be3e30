/* analysis_internal: what the two files of the analysis share (analysis.c: a whole analysis;
 * analysis_update.c: an edit's update). One module split for size: only these two files include
 * it. Each function is described where it is defined, in analysis.c. */
#ifndef SRCLS_ANALYSIS_INTERNAL_H
#define SRCLS_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "analysis.h"

int analysis__add_parse_errors_in(struct analysis *a, uint32_t from, uint32_t to);
void analysis__apply_severities(struct analysis *a, const struct analysis_options *options,
                                uint32_t first, bool whole);
int analysis__apply_baseline(struct analysis *a, const struct analysis_options *options,
                             uint32_t first, uint32_t element);
int analysis__check_rules(struct analysis *a, const struct analysis_options *options,
                          uint32_t element, uint32_t index);
int analysis__diagnose(struct analysis *a, const struct analysis_options *options);
/* Frees the elements' names and hashes of the whole analysis (a->element_names): an update
 * changes the tree they point into. */
void analysis__forget_names(struct analysis *a);
/* Applies the diagnostics' pending move to those before `upto`; `end`: where the pending ones
 * end (after them, an update may have added new ones). */
void analysis__settle_diagnostics(struct analysis *a, uint32_t upto, uint32_t end);

#endif
