/* check_ignored: the paths git ignores below the directories a `--check` scan is given. */
#ifndef SRCLS_CHECK_IGNORED_H
#define SRCLS_CHECK_IGNORED_H

#include <stdbool.h>
#include <stddef.h>

#include "walk/walk.h"

/* Paths as the walk names them (the directory named on the command line, '/', the rest): the
 * set both doors read git's answer into (walk_ignored). */
struct ignored {
    struct walk_ignored set;
    unsigned unavailable; /* directories not to check: what git ignores cannot be known */
};

/* Adds what git ignores below `dir`; nothing when git is absent or `dir` is in no work tree.
 * False, after saying on stderr that `dir` is not to be checked (and, the first time, why and
 * what to do), when `dir` may be in a work tree but this build cannot start git (WebAssembly):
 * checking it with what git would skip would report files the user excluded. */
bool ignored_add_git(struct ignored *set, const char *dir);
bool ignored_has(const struct ignored *set, const char *path);
/* Frees the paths; `unavailable` stays, for the exit status. */
void ignored_free(struct ignored *set);

#endif
