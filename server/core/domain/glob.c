/* glob: the one glob dialect of srcls.json and the command line (see glob.h). */
#include "glob.h"

#include <string.h>

/* The longest path glob_match_from builds (twice Linux's PATH_MAX). */
#define GLOB_PATH_MAX 8192

/* '*' and '?' within a segment, "**" as a whole segment for any number of them, '\\' before a
 * character for that character itself; [p, pe) and [s, se) are the rest of the pattern and of
 * the text, segments separated by '/'; `glob` is where the pattern starts (a "**" counts only
 * at the start of a segment). */
static bool glob_at(const char *glob, const char *p, const char *pe, const char *s, const char *se)
{
    while (p < pe) {
        if (*p == '\\' && pe - p >= 2) { /* escaped: compared as it is */
            if (s == se || p[1] != *s)
                return false;
            p += 2;
            s++;
            continue;
        }
        if (pe - p >= 2 && p[0] == '*' && p[1] == '*' && (pe - p == 2 || p[2] == '/') &&
            (p == glob || p[-1] == '/')) {
            const char *rest = p + 2 + (pe - p > 2); /* after the "**" and its slash */
            for (const char *at = s;; at++) {        /* "**" takes whole segments */
                if ((at == s || at[-1] == '/') && glob_at(glob, rest, pe, at, se))
                    return true;
                if (at == se)
                    return p + 2 == pe; /* a trailing "**" takes the rest */
            }
        }
        if (*p == '*') {
            for (const char *at = s;; at++) {
                if (glob_at(glob, p + 1, pe, at, se))
                    return true;
                if (at == se || *at == '/')
                    return false;
            }
        }
        if (s == se || (*p == '?' ? *s == '/' : *p != *s))
            return false;
        p++;
        s++;
    }
    return s == se;
}

bool glob_match(const char *glob, const char *path)
{
    if (strchr(glob, '/') == NULL) { /* against the file's name */
        const char *slash = strrchr(path, '/');
        path = slash != NULL ? slash + 1 : path;
    }
    while (glob[0] == '.' && glob[1] == '/')
        glob += 2;
    return glob_at(glob, glob, glob + strlen(glob), path, path + strlen(path));
}

bool glob_match_from(const char *glob, const char *from, const char *path)
{
    size_t from_len = from != NULL ? strlen(from) : 0, len = strlen(path);
    char whole[GLOB_PATH_MAX];
    if (from_len == 0 || strchr(glob, '/') == NULL) /* a name is matched at any depth */
        return glob_match(glob, path);
    if (from_len + len >= sizeof whole)
        return false;
    memcpy(whole, from, from_len);
    memcpy(whole + from_len, path, len + 1);
    return glob_match(glob, whole);
}

const char *glob_literal(struct arena *arena, const char *path)
{
    size_t len = strlen(path), out = 0;
    char *glob = arena_alloc(arena, 2 * len + 1);
    for (size_t i = 0; glob != NULL && i < len; i++) {
        if (path[i] == '*' || path[i] == '?' || path[i] == '\\')
            glob[out++] = '\\';
        glob[out++] = path[i];
    }
    if (glob != NULL)
        glob[out] = '\0';
    return glob;
}
