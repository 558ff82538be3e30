/* main: the command line of srcls. It reads the options through the table of the CLI door
 * (options.h) and hands the work over: --check and the reference actions to the CLI door
 * (command.h), no action or --stdio to the language server. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "help.h"
#include "lsp_server.h"
#include "options.h"
#include "platform.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif

enum parse_outcome { PARSE_RUN, PARSE_DONE, PARSE_FAILED };

/* getopt_long's value of the table's row `i`: its short form, or past every character. */
#define LONG_ONLY_VALUE(i) (256 + (int)(i))

/* getopt_long's tables, from the option table: `long_options` (count + 1 rows, owned) and the
 * short forms (":hVq"). NULL when out of memory. */
static struct option *getopt_tables(char *letters, size_t size)
{
    size_t count, n = 0;
    const struct cli_option *table = cli_option_table(&count);
    struct option *long_options = calloc(count + 1, sizeof *long_options);
    letters[n++] = ':'; /* a missing argument is ':', not '?' */
    for (size_t i = 0; long_options != NULL && i < count; i++) {
        static const int has_arg[] = {[OPTION_NO_ARGUMENT] = no_argument,
                                      [OPTION_REQUIRED] = required_argument,
                                      [OPTION_OPTIONAL] = optional_argument};
        long_options[i] = (struct option){table[i].name, has_arg[table[i].argument_kind], NULL,
                                          table[i].letter ? table[i].letter : LONG_ONLY_VALUE(i)};
        if (table[i].letter != 0 && n + 3 < size) {
            letters[n++] = table[i].letter;
            if (table[i].argument_kind != OPTION_NO_ARGUMENT)
                letters[n++] = ':';
        }
    }
    letters[n] = '\0';
    return long_options;
}

/* The row getopt_long's `value` stands for. */
static size_t row_of(int value)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    for (size_t i = 0; i < count; i++) {
        if (value == (table[i].letter ? table[i].letter : LONG_ONLY_VALUE(i)))
            return i;
    }
    return count;
}

/* Records the option of row `i` with its argument `value` where the row says; an action keeps
 * a different one given before it in first_action. */
static void take_option(struct cli_options *o, size_t i, const char *value)
{
    size_t count;
    const struct cli_option *row = &cli_option_table(&count)[i];
    void *field = (char *)o + row->field; /* offsetof the member: aligned as it is */
    bool seen = false;
    for (int k = 0; row->section == OPTION_OF_CHECK && k < o->of_check_count; k++)
        seen = seen || o->of_check[k] == i;
    if (row->section == OPTION_OF_CHECK && !seen)
        o->of_check[o->of_check_count++] = (unsigned char)i;
    switch (row->effect) {
    case OPTION_SETS_TRUE: *(bool *)field = true; break;
    case OPTION_SETS_INT: *(int *)field = row->set; break;
    case OPTION_TAKES: *(const char **)field = value; break;
    case OPTION_APPENDS: {
        struct cli_option_list *list = field;
        list->items[list->count++] = value;
        break;
    }
    case OPTION_ACTION:
        if (o->action != NULL && strcmp(o->action, row->name) != 0)
            o->first_action = o->action;
        o->action = row->name;
        o->action_arg = value;
        break;
    case OPTION_PRINTS_HELP:
    case OPTION_PRINTS_VERSION: break;
    }
}

/* Reads argv into `o` with getopt_long (options and paths in any order, `--opt=value` or `--opt
 * value`, `--` ends the options, `-` is a path); PARSE_DONE after --help or --version,
 * PARSE_FAILED after a usage error (already reported). */
static enum parse_outcome parse_options(int argc, char **argv, struct cli_options *o)
{
    char letters[2 * CLI_OPTIONS_MAX];
    struct option *long_options = getopt_tables(letters, sizeof letters);
    if (long_options == NULL) {
        fputs("srcls: out of memory\n", stderr);
        return PARSE_FAILED;
    }
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    enum parse_outcome outcome = PARSE_RUN;
    opterr = 0; /* the messages are srcls's, with its usage */
    int value;
    while (outcome == PARSE_RUN &&
           (value = getopt_long(argc, argv, letters, long_options, NULL)) != -1) {
        const char *arg = argv[optind - 1];
        size_t i = row_of(value);
        char shown[3] = {'-', (char)optopt, '\0'};
        if (value == ':') {
            outcome = PARSE_FAILED;
            help_usage_error("option '%s' requires an argument", arg);
        } else if (value == '?' && row_of(optopt) < count && strncmp(arg, "--", 2) == 0) {
            outcome = PARSE_FAILED; /* --NAME=VALUE for an option that takes none */
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
            help_usage_error("option '%s' takes no argument", name);
        } else if (value == '?' || i == count) {
            outcome = PARSE_FAILED;
            help_usage_error("unknown option '%s'", optopt != 0 ? shown : arg);
        } else if (table[i].effect == OPTION_PRINTS_HELP) {
            outcome = PARSE_DONE;
            options_print_help(stdout);
        } else if (table[i].effect == OPTION_PRINTS_VERSION) {
            outcome = PARSE_DONE;
            printf("srcls %s%s\n", SRCLS_VERSION, platform_version_suffix);
        } else {
            take_option(o, i, optarg);
        }
    }
    free(long_options);
    for (int i = optind; outcome == PARSE_RUN && i < argc; i++)
        o->paths.items[o->paths.count++] = argv[i];
    return outcome;
}

/* Refuses what the command line combines but cannot mean: --stdio with anything that is not the
 * server, two actions, an option of --check without --check (the first given is named; one an
 * action takes too, as --list-kinds --format, is not). PARSE_FAILED after a usage error. */
static enum parse_outcome check_combination(const struct cli_options *o)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    const char *check_option = NULL;
    for (int k = 0; check_option == NULL && k < o->of_check_count; k++) {
        const struct cli_option *row = &table[o->of_check[k]];
        if (row->also_action == NULL || o->action == NULL || strcmp(row->also_action, o->action))
            check_option = row->name;
    }
    char two_actions[96]; /* "--A cannot be combined with --%s" */
    snprintf(two_actions, sizeof two_actions, "--%s cannot be combined with --%%s",
             o->first_action ? o->first_action : "");
    if (o->stdio && (o->check || o->action != NULL || o->paths.count > 0))
        help_usage_error("%s",
                         "--stdio runs the language server: it takes no --check, PATH or action");
    else if (o->action != NULL && o->check)
        help_usage_error("--%s cannot be combined with --check", o->action);
    else if (o->first_action != NULL)
        help_usage_error(two_actions, o->action);
    else if (o->action != NULL && o->paths.count > 0)
        help_usage_error("the actions take no PATH (got '%s')", o->paths.items[0]);
    else if (!o->check && check_option != NULL)
        help_usage_error("--%s is an option of --check", check_option);
    else
        return PARSE_RUN;
    return PARSE_FAILED;
}

/* Output that did not reach standard output (a full disk, a closed pipe) is a failure, not
 * success: `status`, or 2 after saying why on stderr. */
static int output_status(int status)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    fprintf(stderr, "srcls: cannot write the output: %s\n",
            errno != 0 ? strerror(errno) : "write error");
    return 2;
}

int main(int argc, char **argv)
{
    platform_start();
    struct cli_options o = {.show_source = -1};
    o.paths.items = calloc((size_t)argc + 1, sizeof *o.paths.items);
    o.excludes.items = calloc((size_t)argc + 1, sizeof *o.excludes.items);
    o.envs.items = calloc((size_t)argc + 1, sizeof *o.envs.items);
    int status = 0;
    enum parse_outcome outcome = PARSE_FAILED;
    if (o.paths.items == NULL || o.excludes.items == NULL || o.envs.items == NULL)
        fputs("srcls: out of memory\n", stderr);
    else
        outcome = parse_options(argc, argv, &o);
    if (outcome == PARSE_RUN)
        outcome = check_combination(&o);
    switch (outcome) {
    case PARSE_DONE: status = output_status(0); break;
    case PARSE_FAILED: status = 2; break;
    case PARSE_RUN:
        if (o.action != NULL)
            status = output_status(command_reference(o.action, o.action_arg, o.format));
        else if (o.check)
            status = command_check(&o); /* it says itself when the report cannot be written */
        else if (o.paths.count > 0)
            status = help_usage_error("paths need --check (got '%s')", o.paths.items[0]);
        else
            status = lsp_server_run();
        break;
    }
    free(o.paths.items);
    free(o.excludes.items);
    free(o.envs.items);
    return status;
}
