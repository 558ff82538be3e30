/* lsp_uri: file URIs <-> paths (RFC 8089 `file:` URIs with percent-encoding, RFC 3986), for the
 * requests that read files the client has not opened. */
#ifndef SRCLS_LSP_URI_H
#define SRCLS_LSP_URI_H

#include <stddef.h>

/* The path of a `file:` URI (`file:///p` or `file://localhost/p`), percent-decoded, malloc'd;
 * NULL for another scheme, a host, a bad escape, an encoded NUL, or when memory ran out. */
char *lsp_uri_to_path(const char *uri, size_t len);
/* The `file:` URI of an absolute path, every byte but unreserved ones and '/' percent-encoded
 * (as VS Code writes them), malloc'd; NULL when memory ran out. */
char *lsp_uri_from_path(const char *path);

#endif
