/* check_ignored: the paths git ignores below the directories a `--check` scan is given. */
#ifndef SRCLS_CHECK_IGNORED_H
#define SRCLS_CHECK_IGNORED_H

#include <stdbool.h>
#include <stddef.h>

/* Paths as the walk names them (the directory named on the command line, '/', the rest), a
 * directory without its trailing '/': sorted, for bsearch. */
struct ignored {
    char **paths;
    size_t count, cap;
};

/* Adds what git ignores below `dir`; nothing when git is absent or `dir` is in no work tree. */
void ignored_add_git(struct ignored *set, const char *dir);
bool ignored_has(const struct ignored *set, const char *path);
void ignored_free(struct ignored *set);

#endif
