/* options: the one table of srcls's command-line options, and what the command line asks for.
 * main.c builds getopt_long's table from it and stores each option where its row says; --help's
 * lists, the man page's OPTIONS, the bash completion and docs/cli.md's synopsis are printed from
 * it (options_docs.c). Adding an option: one row in options.c (and its field in struct
 * cli_options, and what reads that field). */
#ifndef SRCLS_OPTIONS_H
#define SRCLS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A list an option may be given for many times (--exclude, --env). */
struct cli_option_list {
    const char **items; /* owned array, room for every argument */
    int count;
};

/* More rows than the table can hold (options.c checks it). */
#define CLI_OPTIONS_MAX 64

/* What the command line asks for (filled by main.c from the table). */
struct cli_options {
    bool check, fix, diff, no_gitignore, unsafe_fixes;
    bool quiet, statistics, exit_zero, no_baseline; /* --quiet, ..., --no-baseline */
    int show_source;                              /* --show-source 1, --no-show-source 0, else -1 */
    const char *fail_on, *output_file;            /* --fail-on SEVERITY, --output-file FILE */
    const char *select, *ignore;                  /* --select CODE,..., --ignore CODE,... */
    const char *base, *baseline, *write_baseline; /* --base REF, --(write-)baseline FILE */
    const char *stdin_name;                       /* --stdin-filename PATH */
    struct cli_option_list excludes, envs;        /* --exclude GLOB, --env FILE, each */
    bool stdio; /* --stdio: the language server, said explicitly */
    const char *config_path;
    const char *action, *action_arg; /* --list-kinds, --explain CODE, --generate-docs WHAT,
                                        --export-json-schema DIR */
    const char *first_action;        /* another action given before it, or NULL */
    const char *format, *color;      /* NULL when not given */
    const char *jobs;                /* --jobs N, NULL when not given */
    const char *shard;               /* --shard I/N, NULL when not given */
    struct cli_option_list paths;
    /* the rows of the options of --check given, each once, in the order first given */
    unsigned char of_check[CLI_OPTIONS_MAX];
    int of_check_count;
};

/* What an option does to struct cli_options. */
enum cli_option_effect {
    OPTION_SETS_TRUE, /* the bool at `field` */
    OPTION_SETS_INT,  /* the int at `field`, to `set` */
    OPTION_TAKES,     /* the const char * at `field`: its argument (the last one given) */
    OPTION_APPENDS,   /* the struct cli_option_list at `field`: each argument */
    OPTION_ACTION,    /* an action: `action` and `action_arg` (its argument, or NULL) */
    OPTION_PRINTS_HELP,
    OPTION_PRINTS_VERSION,
};

enum cli_option_argument { OPTION_NO_ARGUMENT, OPTION_REQUIRED, OPTION_OPTIONAL };

/* Where the values of an argument come from (what the completion offers). */
enum cli_option_values {
    VALUES_NONE,       /* nothing to offer */
    VALUES_WORDS,      /* the row's `words` */
    VALUES_FORMATS,    /* the formats of --check (report.c's table) */
    VALUES_SEVERITIES, /* error, warning, information, hint */
    VALUES_CODE,       /* one code or group (the code table) */
    VALUES_CODE_LIST,  /* codes and groups, comma-separated */
    VALUES_GIT_REF,    /* a git revision */
    VALUES_FILE,
    VALUES_DIR,
    VALUES_DOCS, /* what --generate-docs prints (command.c's table) */
};

/* --help's sections: the actions (what srcls is asked to do), then the options of --check. */
enum cli_option_section { OPTION_IS_ACTION, OPTION_OF_CHECK };

struct cli_option {
    const char *name; /* without "--" */
    char letter;      /* the short form (-q), or 0 */
    enum cli_option_section section;
    enum cli_option_effect effect;
    size_t field; /* offsetof(struct cli_options, ...), for the effects that store */
    int set;      /* OPTION_SETS_INT's value */
    enum cli_option_argument argument_kind;
    const char *argument;      /* its name in capitals ("FILE"); NULL when it takes none */
    const char *help_argument; /* --help's shorter name, when the column asks for one */
    enum cli_option_values values;
    const char *words;       /* VALUES_WORDS: space-separated */
    const char *also_action; /* an action that takes this option of --check too */
    const char *alternative; /* the option it is written with in a synopsis: [--a|--b] */
    const char *synopsis;    /* an action's usage after "srcls " when it is not --NAME ARG */
    const char *help;        /* --help's lines, '\n' between them; NULL: another's text says it */
    const char *man;         /* the man page's roff; NULL: not in OPTIONS (DESCRIPTION says it) */
};

/* The table, in --help's order; `count` rows. */
const struct cli_option *cli_option_table(size_t *count);

/* --help: the actions, the options of --check (from the table), the exit status. */
void options_print_help(FILE *out);
/* The words of `row`'s value set as "a, b or c" into `out` (size bytes), for usage errors. */
const char *options_value_words(const struct cli_option *row, char *out, size_t size);
/* The table's row of --NAME, or NULL. */
const struct cli_option *options_find(const char *name);

/* What --generate-docs prints from the table: the man page's OPTIONS entries (man-options),
 * the bash completion's `case "$prev"` and option words (completion), docs/cli.md's synopsis
 * block (cli-synopsis), the names of --check's formats, one a line (formats). */
void options_docs_man(FILE *out);
void options_docs_completion(FILE *out);
void options_docs_synopsis(FILE *out);
void options_docs_formats(FILE *out);

#endif
