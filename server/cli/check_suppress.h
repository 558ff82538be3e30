/* check_suppress: what --check says of srcls.json's "ignore" entries after a run — an entry that
 * silenced no finding in the files it could match is reported (project-config, a warning, as
 * ESLint reports an unused disable directive), so that the list shrinks as findings are fixed. */
#ifndef SRCLS_CHECK_SUPPRESS_H
#define SRCLS_CHECK_SUPPRESS_H

#include <stdint.h>

#include "report.h"

struct analysis;
/* Adds to `a` (an analysis of the srcls.json's text) a project-config warning on each entry of
 * its "ignore" whose `hits` (`count` of them) is 0, sorted in. 0, or -1 when memory ran out. */
int check_suppress_add(struct analysis *a, const unsigned char *hits, uint32_t count);
/* Reports the entries of the srcls.json `shown` (its `text`, read again: NULL when it could
 * not be) whose `hits` (`count` of them) are 0, as one checked file through `reporter`,
 * counted in `summary`. */
void check_suppress_report(const char *shown, const char *text, size_t len,
                           const unsigned char *hits, uint32_t count, struct reporter *reporter,
                           struct report_summary *summary);

#endif
