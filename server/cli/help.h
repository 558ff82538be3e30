/* help: the texts of `srcls --help` around its option lists (options.h prints those), and the
 * usage a usage error prints. */
#ifndef SRCLS_HELP_H
#define SRCLS_HELP_H

extern const char help_usage[];  /* the synopsis, also after a usage error */
extern const char help_title[];  /* --help's first lines, before the actions */
extern const char help_status[]; /* --help's end: exit status, where to read more */

/* "srcls: " and `format` with `arg`, then the usage, on stderr; returns 2 (the exit status). */
int help_usage_error(const char *format, const char *arg);

#endif
