/* check_ignored: what git ignores (.gitignore, .git/info/exclude, the global excludes file),
 * asked of git itself once per directory named on the command line — `git ls-files --others
 * --ignored --exclude-standard --directory -z` — so that its rules are git's exactly. Outside
 * a work tree, or without git, nothing is ignored; but the WebAssembly build, whose runner
 * starts git for it, does not check a work tree's directory without git (check_git_missing). */
#include "check_ignored.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_git.h"
#include "platform.h"

/* git's output for `dir`: malloc'd, NUL-separated names relative to `dir` (a directory with a
 * trailing '/'), or NULL when git is absent (`*status` -1), failed, or `dir` is in no work tree. */
static char *git_ignored(const char *dir, size_t *len, int *status)
{
    char *argv[] = {"git",      "-C",        (char *)dir,          "ls-files",
                    "--others", "--ignored", "--exclude-standard", "--directory",
                    "-z",       NULL};
    char *names = check_git_output(argv, len, status);
    if (*status != 0) {
        free(names);
        return NULL;
    }
    return names;
}

/* Whether `dir` may be in a git work tree: a ".git" (a directory, or the file of a linked work
 * tree or submodule) in it or above it, or $GIT_DIR set. Outside one, git is not started. The
 * walk goes up from `dir` made absolute (platform_realpath: ".." applied), so that "../x" is
 * known to be outside one without git, which the WebAssembly build cannot start. */
static bool maybe_in_work_tree(const char *dir)
{
    if (getenv("GIT_DIR") != NULL)
        return true;
    char path[PATH_MAX];
    if (platform_realpath(dir, path) == NULL)
        return true; /* let git say */
    for (;;) {
        size_t len = strlen(path);
        if (len + sizeof "/.git" > sizeof path)
            return true;
        memcpy(path + len, "/.git", sizeof "/.git");
        if (access(path, F_OK) == 0)
            return true;
        path[len] = '\0';
        char *slash = strrchr(path, '/');
        if (slash == NULL || len == 1)
            return false;
        slash[slash == path ? 1 : 0] = '\0'; /* the parent, "/" at the top */
    }
}

bool ignored_add_git(struct ignored *set, const char *dir)
{
    if (!maybe_in_work_tree(dir))
        return true;
    size_t len = 0;
    int status;
    char *names = git_ignored(dir, &len, &status);
    const char *missing = status < 0 ? check_git_missing() : NULL;
    if (missing != NULL) {
        fprintf(stderr, "srcls: %s: not checked: it is in a git work tree", dir);
        if (set->unavailable++ == 0)
            fprintf(stderr,
                    ", and the WebAssembly build cannot read what git ignores (%s); pass "
                    "--no-respect-gitignore to check every file in it, or use a native srcls "
                    "binary",
                    missing);
        fputc('\n', stderr);
        return false;
    }
    if (names == NULL)
        return true;
    walk_ignored_add(&set->set, dir, names, len); /* out of memory: a path fewer skipped */
    free(names);
    return true;
}

bool ignored_has(const struct ignored *set, const char *path)
{
    return walk_ignored_has(&set->set, path);
}

void ignored_free(struct ignored *set)
{
    walk_ignored_free(&set->set);
}
