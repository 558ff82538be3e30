/* help: the texts of `srcls --help` and of the usage a usage error prints. */
#ifndef SRCLS_HELP_H
#define SRCLS_HELP_H

extern const char help_usage[];   /* the synopsis, also after a usage error */
extern const char help_actions[]; /* --help's first part: the synopsis and the actions */
extern const char help_options[]; /* --help's second: the options of --check */
extern const char help_status[];  /* --help's second half: exit status, where to read more */

#endif
