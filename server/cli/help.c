/* help: the texts of `srcls --help` around its option lists (printed from the table of
 * options.c), and the usage a usage error prints. */
#include "help.h"

#include <stdio.h>

const char help_usage[] =
    "usage: srcls [--stdio]                      run the language server on stdin/stdout\n"
    "       srcls --check [OPTIONS] PATH...      lint files and directories ('-' reads stdin)\n"
    "       srcls --list-kinds | --explain CODE | --export-json-schema DIR | --version | --help\n";

const char help_title[] =
    "srcls - language server and linter for query-engine source and job documents\n"
    "\n"
    "Usage:\n";

const char help_status[] =
    "\n"
    "Exit status of --check:\n"
    "  0  no diagnostic of severity error (or of --fail-on's), or --exit-zero; with a\n"
    "     baseline, only the findings it does not hold count\n"
    "  1  at least one error (or a diagnostic at least as severe as --fail-on)\n"
    "  2  usage error, a path that could not be read, or a file --fix could not rewrite\n"
    "     (the others are still checked); or a report that could not be written (a full\n"
    "     disk, a closed pipe), which stderr names\n"
    "\n"
    "More: man srcls (installed with srcls), and in the srcls source tree docs/cli.md (this\n"
    "command line), docs/lsp.md (the server), docs/rules.md (every code); srcls --explain CODE\n"
    "explains one code.\n";

int help_usage_error(const char *format, const char *arg)
{
    fputs("srcls: ", stderr);
    fprintf(stderr, format, arg);
    fputs("\n", stderr);
    fputs(help_usage, stderr);
    fputs("Try 'srcls --help' for more.\n", stderr);
    return 2;
}
