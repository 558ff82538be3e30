/* check_exclude: --exclude GLOB for directory scans. A glob without '/' is matched against each
 * entry's name (`--exclude 'legacy*'`), one with '/' against the path as the scan reaches it,
 * without a leading "./" (`--exclude sources/old`), with fnmatch's shell rules. */
#include <fnmatch.h>
#include <string.h>

#include "check.h"

bool check_excluded(const struct check_options *options, const char *path, const char *name)
{
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    for (int i = 0; i < options->exclude_count; i++) {
        const char *glob = options->excludes[i];
        bool whole = strchr(glob, '/') != NULL;
        if (fnmatch(glob, whole ? path : name, whole ? FNM_PATHNAME : 0) == 0)
            return true;
    }
    return false;
}
