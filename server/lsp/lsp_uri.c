/* lsp_uri: percent-decoding and encoding of file URIs. */
#include "lsp_uri.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

char *lsp_uri_to_path(const char *uri, size_t len)
{
    static const char scheme[] = "file://", localhost[] = "localhost";
    if (len < sizeof scheme - 1 || strncmp(uri, scheme, sizeof scheme - 1) != 0)
        return NULL;
    size_t at = sizeof scheme - 1;
    if (len - at >= sizeof localhost - 1 && strncmp(uri + at, localhost, sizeof localhost - 1) == 0)
        at += sizeof localhost - 1;
    if (at >= len || uri[at] != '/')
        return NULL; /* a host other than localhost, or no path */
    char *path = malloc(len - at + 1);
    if (path == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = at; i < len; i++) {
        char c = uri[i];
        if (c == '?' || c == '#')
            break;
        if (c == '%') {
            int high = i + 2 < len ? json_hex_value((unsigned char)uri[i + 1]) : -1;
            int low = i + 2 < len ? json_hex_value((unsigned char)uri[i + 2]) : -1;
            if (high < 0 || low < 0 || (high == 0 && low == 0)) {
                free(path);
                return NULL;
            }
            c = (char)(high * 16 + low);
            i += 2;
        }
        path[n++] = c;
    }
    path[n] = '\0';
    return path;
}

static bool unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '/';
}

char *lsp_uri_from_path(const char *path)
{
    static const char scheme[] = "file://";
    size_t len = strlen(path);
    char *uri = malloc(sizeof scheme + len * 3);
    if (uri == NULL)
        return NULL;
    memcpy(uri, scheme, sizeof scheme - 1);
    size_t n = sizeof scheme - 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)path[i];
        if (unreserved(c)) {
            uri[n++] = (char)c;
        } else {
            uri[n++] = '%';
            uri[n++] = "0123456789ABCDEF"[c >> 4];
            uri[n++] = "0123456789ABCDEF"[c & 15];
        }
    }
    uri[n] = '\0';
    return uri;
}
