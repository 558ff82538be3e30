/* glob: the one glob dialect of srcls, for every glob key of srcls.json ("include", "exclude",
 * "ignore"'s "files") and for --exclude. A glob with '/' is matched against a relative path, one
 * without against the path's last segment (a file or directory name at any depth); a leading
 * "./" in the glob is dropped. '*' is any run of characters and '?' any one character, never a
 * '/'; "**" as a whole segment is any number of segments, none included (last in a glob, it
 * takes the rest of the path; alone, everything); '\' before a character makes it plain
 * ("a\*b" is the name a*b alone). Nothing else is special: no brackets, no braces. */
#ifndef SRCLS_GLOB_H
#define SRCLS_GLOB_H

#include <stdbool.h>

#include "base/base.h"

/* Whether the glob `glob` matches `path` (a path with '/' between its segments). */
bool glob_match(const char *glob, const char *path);
/* glob_match for a glob written in another srcls.json (one that the settings' own extends):
 * `from` is the path from that file's directory to the settings' own directory, with a trailing
 * '/' ("sub/", "../app/"; NULL or "": the same directory), and `path` is relative to the
 * settings' own directory: the glob is matched against `from` + `path`, the file's path from the
 * directory of the srcls.json that wrote it. False when that path is longer than any file
 * system's. */
bool glob_match_from(const char *glob, const char *from, const char *path);
/* The glob that matches `path` alone: each '*', '?' and backslash with a backslash before it
 * (in `arena`; NULL when memory ran out). */
const char *glob_literal(struct arena *arena, const char *path);

#endif
