/* platform_posix: the native side of platform.h. */
#define _XOPEN_SOURCE 700 /* realpath */

#include "platform.h"

#include <stdlib.h>

const char platform_version_suffix[] = "";
const bool platform_has_threads = true;

void platform_start(void)
{
}

char *platform_realpath(const char *path, char *resolved)
{
    return realpath(path, resolved);
}
