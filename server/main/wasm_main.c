/* wasm_main: the entry point of srcls built as WebAssembly (WASI), run by srcls-wasm.mjs under
 * Node's WASI. Only the language server is built in: the command line's --check needs threads,
 * git and file rewriting, which the native binaries have. */
#include <stdio.h>
#include <string.h>

#include "lsp_server.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif

static const char usage[] =
    "usage: srcls-wasm [--stdio]   run the language server on stdin/stdout (LSP 3.17)\n"
    "       srcls-wasm --version | --help\n"
    "This is srcls built as WebAssembly: it has the language server only. --check, --fix,\n"
    "--list-kinds and --explain need the native srcls binary.\n";

int main(int argc, char **argv)
{
    if (argc == 1 || (argc == 2 && strcmp(argv[1], "--stdio") == 0))
        return lsp_server_run();
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("srcls %s (wasm32-wasi)\n", SRCLS_VERSION);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    fprintf(stderr, "srcls-wasm: '%s' is not available in the WebAssembly build\n%s", argv[1],
            usage);
    return 2;
}
