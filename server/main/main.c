/* main: the command line of srcls. It parses options and hands the work to the CLI door
 * (check, list-kinds, explain) or, without arguments or with --stdio, to the language server. */
#define _XOPEN_SOURCE 700 /* realpath */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "domain/domain.h"
#include "export_schema.h"
#include "help.h"
#include "lsp_server.h"
#include "platform.h"
#include "reference.h"
#include "report.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif

static int usage_error(const char *format, const char *arg)
{
    fputs("srcls: ", stderr);
    fprintf(stderr, format, arg);
    fputs("\n", stderr);
    fputs(help_usage, stderr);
    fputs("Try 'srcls --help' for more.\n", stderr);
    return 2;
}

static int run_reference(const char *action, const char *arg, const char *format)
{
    if (strcmp(action, "explain") == 0) {
        if (arg[0] == '\0')
            return usage_error("%s", "--explain needs a CODE (see docs/rules.md)");
        return reference_explain(arg, stdout);
    }
    static const struct { /* what the code and format tables alone generate */
        const char *what;
        void (*print)(FILE *out);
    } from_codes[] = {{"rules", reference_docs_rules},
                      {"man-codes", reference_docs_man_codes},
                      {"completion-codes", reference_docs_completion_codes},
                      {"completion-formats", reference_docs_completion_formats}};
    for (size_t i = 0;
         strcmp(action, "generate-docs") == 0 && i < sizeof from_codes / sizeof *from_codes; i++) {
        if (strcmp(arg, from_codes[i].what) == 0) {
            from_codes[i].print(stdout);
            return 0;
        }
    }
    struct schema_registry registry;
    char error[512];
    if (schema_registry_load_embedded(&registry, error, sizeof error) != 0) {
        fprintf(stderr, "srcls: the built-in schema does not load: %s\n", error);
        return 2;
    }
    int status = 0;
    /* --list-kinds and --export-json-schema: with the kinds of the srcls.json that governs the
     * current directory (its "schemas") */
    struct check_configs configs;
    check_configs_init(&configs, &registry, NULL, NULL);
    struct check_target target = {.registry = &registry};
    bool listing = strcmp(action, "list-kinds") == 0;
    bool exporting = strcmp(action, "export-json-schema") == 0;
    if ((listing || exporting) && !check_configs_for(&configs, NULL, &target))
        status = 2; /* its mistakes are said on stderr */
    else if (exporting)
        status =
            arg[0] == '\0'
                ? usage_error("%s", "--export-json-schema needs a DIR")
                : export_json_schema_templated(target.registry, target.settings->placeholders,
                                               target.settings->placeholder_count, arg, stderr);
    else if (listing && format != NULL && strcmp(format, "json") == 0)
        status = reference_list_kinds_json(target.registry, stdout);
    else if (listing && format != NULL && strcmp(format, "text") != 0)
        status = usage_error("--list-kinds --format takes text or json (got '%s')", format);
    else if (listing)
        reference_list_kinds(target.registry, stdout);
    else if (strcmp(arg, "kinds") == 0)
        reference_docs_kinds(&registry, stdout);
    else
        status = usage_error("--generate-docs: no such WHAT '%s' (docs/cli.md)", arg);
    check_configs_free(&configs);
    schema_registry_free(&registry);
    return status;
}

/* What the command line asks for. */
struct cli_options {
    bool check, fix, diff, no_gitignore, unsafe_fixes;
    bool quiet, statistics, exit_zero, no_baseline; /* --quiet, ..., --no-baseline */
    int show_source;                              /* --show-source 1, --no-show-source 0, else -1 */
    const char *fail_on, *output_file;            /* --fail-on SEVERITY, --output-file FILE */
    const char *select, *ignore;                  /* --select CODE,..., --ignore CODE,... */
    const char *base, *baseline, *write_baseline; /* --base REF, --(write-)baseline FILE */
    const char *stdin_name;                       /* --stdin-filename PATH */
    const char **excludes;                        /* --exclude GLOB, each (owned array) */
    int exclude_count;
    const char **envs; /* --env FILE, each (owned array) */
    int env_count;
    bool stdio; /* --stdio: the language server, said explicitly */
    const char *config_path;
    const char *action, *action_arg; /* --list-kinds, --explain CODE, --generate-docs WHAT,
                                        --export-json-schema DIR */
    const char *first_action;        /* another action given before it, or NULL */
    const char *format, *color;      /* NULL when not given */
    const char *jobs;                /* --jobs N, NULL when not given */
    const char **paths;              /* owned */
    int path_count;
};

enum parse_outcome { PARSE_RUN, PARSE_DONE, PARSE_FAILED };

/* The long options that have no short form, as getopt_long's values. */
enum option_id {
    OPT_CHECK = 256,
    OPT_STDIO,
    OPT_LIST_KINDS,
    OPT_EXPLAIN,
    OPT_GENERATE_DOCS,
    OPT_FIX,
    OPT_CONFIG,
    OPT_FORMAT,
    OPT_JOBS,
    OPT_COLOR,
    OPT_STATISTICS,
    OPT_EXIT_ZERO,
    OPT_FAIL_ON,
    OPT_OUTPUT_FILE,
    OPT_STDIN_FILENAME,
    OPT_SELECT,
    OPT_IGNORE,
    OPT_SHOW_SOURCE,
    OPT_NO_SHOW_SOURCE,
    OPT_EXCLUDE,
    OPT_DIFF,
    OPT_UNSAFE_FIXES,
    OPT_NO_GITIGNORE,
    OPT_EXPORT_JSON_SCHEMA,
    OPT_BASE,
    OPT_BASELINE,
    OPT_WRITE_BASELINE,
    OPT_NO_BASELINE,
    OPT_ENV,
};

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"quiet", no_argument, NULL, 'q'},
    {"check", no_argument, NULL, OPT_CHECK},
    {"stdio", no_argument, NULL, OPT_STDIO},
    {"list-kinds", no_argument, NULL, OPT_LIST_KINDS},
    {"explain", required_argument, NULL, OPT_EXPLAIN},
    {"generate-docs", required_argument, NULL, OPT_GENERATE_DOCS},
    {"export-json-schema", required_argument, NULL, OPT_EXPORT_JSON_SCHEMA},
    {"fix", no_argument, NULL, OPT_FIX},
    {"diff", no_argument, NULL, OPT_DIFF},
    {"unsafe-fixes", no_argument, NULL, OPT_UNSAFE_FIXES},
    {"no-respect-gitignore", no_argument, NULL, OPT_NO_GITIGNORE},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"color", required_argument, NULL, OPT_COLOR},
    {"statistics", no_argument, NULL, OPT_STATISTICS},
    {"exit-zero", no_argument, NULL, OPT_EXIT_ZERO},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"output-file", required_argument, NULL, OPT_OUTPUT_FILE},
    {"stdin-filename", required_argument, NULL, OPT_STDIN_FILENAME},
    {"select", required_argument, NULL, OPT_SELECT},
    {"ignore", required_argument, NULL, OPT_IGNORE},
    {"show-source", no_argument, NULL, OPT_SHOW_SOURCE},
    {"no-show-source", no_argument, NULL, OPT_NO_SHOW_SOURCE},
    {"exclude", required_argument, NULL, OPT_EXCLUDE},
    {"base", required_argument, NULL, OPT_BASE},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"write-baseline", required_argument, NULL, OPT_WRITE_BASELINE},
    {"no-baseline", no_argument, NULL, OPT_NO_BASELINE},
    {"env", required_argument, NULL, OPT_ENV},
    {NULL, 0, NULL, 0},
};

/* An action of the command line; one of two different ones is kept in first_action. */
static void take_action(struct cli_options *o, const char *action, const char *value)
{
    if (o->action != NULL && strcmp(o->action, action) != 0)
        o->first_action = o->action;
    o->action = action;
    o->action_arg = value;
}

/* Records one option of `o` (getopt_long's value `id`, its argument `value`). */
static void take_option(struct cli_options *o, int id, const char *value)
{
    switch (id) {
    case 'q': o->quiet = true; break;
    case OPT_CHECK: o->check = true; break;
    case OPT_STDIO: o->stdio = true; break;
    case OPT_LIST_KINDS: take_action(o, "list-kinds", NULL); break;
    case OPT_EXPLAIN: take_action(o, "explain", value); break;
    case OPT_GENERATE_DOCS: take_action(o, "generate-docs", value); break;
    case OPT_EXPORT_JSON_SCHEMA: take_action(o, "export-json-schema", value); break;
    case OPT_FIX: o->fix = true; break;
    case OPT_DIFF: o->diff = true; break;
    case OPT_UNSAFE_FIXES: o->unsafe_fixes = true; break;
    case OPT_NO_GITIGNORE: o->no_gitignore = true; break;
    case OPT_CONFIG: o->config_path = value; break;
    case OPT_FORMAT: o->format = value; break;
    case OPT_JOBS: o->jobs = value; break;
    case OPT_COLOR: o->color = value; break;
    case OPT_STATISTICS: o->statistics = true; break;
    case OPT_EXIT_ZERO: o->exit_zero = true; break;
    case OPT_FAIL_ON: o->fail_on = value; break;
    case OPT_OUTPUT_FILE: o->output_file = value; break;
    case OPT_STDIN_FILENAME: o->stdin_name = value; break;
    case OPT_SELECT: o->select = value; break;
    case OPT_IGNORE: o->ignore = value; break;
    case OPT_BASE: o->base = value; break;
    case OPT_BASELINE: o->baseline = value; break;
    case OPT_WRITE_BASELINE: o->write_baseline = value; break;
    case OPT_NO_BASELINE: o->no_baseline = true; break;
    case OPT_SHOW_SOURCE: o->show_source = 1; break;
    case OPT_NO_SHOW_SOURCE: o->show_source = 0; break;
    case OPT_EXCLUDE: o->excludes[o->exclude_count++] = value; break;
    case OPT_ENV: o->envs[o->env_count++] = value; break;
    default: break;
    }
}

/* Reads argv into `o` with getopt_long (options and paths in any order, `--opt=value` or `--opt
 * value`, `--` ends the options, `-` is a path); PARSE_DONE after --help or --version,
 * PARSE_FAILED after a usage error (already reported). */
static enum parse_outcome parse_options(int argc, char **argv, struct cli_options *o)
{
    opterr = 0; /* the messages are srcls's, with its usage */
    int id;
    while ((id = getopt_long(argc, argv, ":hVq", long_options, NULL)) != -1) {
        const char *arg = argv[optind - 1];
        if (id == 'h') {
            fputs(help_actions, stdout);
            fputs(help_options, stdout);
            fputs(help_status, stdout);
            return PARSE_DONE;
        }
        if (id == 'V') {
            printf("srcls %s%s\n", SRCLS_VERSION, platform_version_suffix);
            return PARSE_DONE;
        }
        if (id == ':') {
            usage_error("option '%s' requires an argument", arg);
            return PARSE_FAILED;
        }
        if (id == '?') {
            char shown[3] = {'-', (char)optopt, '\0'};
            usage_error("unknown option '%s'", optopt != 0 ? shown : arg);
            return PARSE_FAILED;
        }
        take_option(o, id, optarg);
    }
    for (int i = optind; i < argc; i++)
        o->paths[o->path_count++] = argv[i];
    return PARSE_RUN;
}

/* Refuses what the command line combines but cannot mean: --stdio with anything that is not the
 * server, two actions, an option of --check without --check. PARSE_FAILED after a usage
 * error. */
static enum parse_outcome check_combination(const struct cli_options *o)
{
    /* --format last: it is the one --list-kinds also takes */
    const char *check_option = o->fix                ? "--fix"
                               : o->diff             ? "--diff"
                               : o->no_gitignore     ? "--no-respect-gitignore"
                               : o->color            ? "--color"
                               : o->jobs             ? "--jobs"
                               : o->config_path      ? "--config"
                               : o->quiet            ? "--quiet"
                               : o->statistics       ? "--statistics"
                               : o->exit_zero        ? "--exit-zero"
                               : o->fail_on          ? "--fail-on"
                               : o->output_file      ? "--output-file"
                               : o->select           ? "--select"
                               : o->ignore           ? "--ignore"
                               : o->stdin_name       ? "--stdin-filename"
                               : o->exclude_count    ? "--exclude"
                               : o->base             ? "--base"
                               : o->baseline         ? "--baseline"
                               : o->write_baseline   ? "--write-baseline"
                               : o->no_baseline      ? "--no-baseline"
                               : o->env_count        ? "--env"
                               : o->show_source >= 0 ? "--show-source"
                               : o->format           ? "--format"
                                                     : NULL;
    char two_actions[96]; /* "--A cannot be combined with --%s" */
    snprintf(two_actions, sizeof two_actions, "--%s cannot be combined with --%%s",
             o->first_action ? o->first_action : "");
    bool kinds_format = check_option != NULL && strcmp(check_option, "--format") == 0 &&
                        o->action != NULL && strcmp(o->action, "list-kinds") == 0;
    if (o->stdio && (o->check || o->action != NULL || o->path_count > 0))
        usage_error("%s", "--stdio runs the language server: it takes no --check, PATH or action");
    else if (o->action != NULL && o->check)
        usage_error("--%s cannot be combined with --check", o->action);
    else if (o->first_action != NULL)
        usage_error(two_actions, o->action);
    else if (o->action != NULL && o->path_count > 0)
        usage_error("the actions take no PATH (got '%s')", o->paths[0]);
    else if (!o->check && check_option != NULL && !kinds_format)
        usage_error("%s is an option of --check", check_option);
    else
        return PARSE_RUN;
    return PARSE_FAILED;
}

/* Marks in `on` the codes of a comma-separated list of codes and groups ("security"); false
 * (after a usage error) when one is neither. */
static bool parse_codes(const char *option, const char *list, bool on[CODE_COUNT])
{
    for (const char *at = list; *at != '\0';) {
        size_t len = strcspn(at, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, at);
        int code = code_parse(name);
        for (int c = 0; c < CODE_COUNT; c++)
            on[c] = on[c] || c == code || code_in_group((enum diag_code)c, name);
        if (code < 0 && !code_group_known(name)) {
            char why[128];
            snprintf(why, sizeof why, "%s: unknown code '%%s' (docs/rules.md lists them)", option);
            usage_error(why, name);
            return false;
        }
        at += len + (at[len] == ',');
    }
    return true;
}

/* --select and --ignore as settings laid over the configuration's: a code not selected, or
 * ignored, is off. False after a usage error. */
static bool select_codes(const struct cli_options *o, struct settings *settings)
{
    if (o->select == NULL && o->ignore == NULL)
        return true;
    bool selected[CODE_COUNT] = {false}, ignored[CODE_COUNT] = {false};
    if ((o->select && !parse_codes("--select", o->select, selected)) ||
        (o->ignore && !parse_codes("--ignore", o->ignore, ignored)))
        return false;
    struct settings cli;
    settings_init(&cli);
    cli.severities = arena_alloc(&cli.arena, CODE_COUNT * sizeof *cli.severities);
    for (int c = 0; cli.severities != NULL && c < CODE_COUNT; c++) {
        if ((o->select && !selected[c]) || ignored[c])
            cli.severities[cli.severity_count++] =
                (struct settings_severity){(enum diag_code)c, DIAG_OFF};
    }
    struct settings merged;
    settings_init(&merged);
    bool ok = cli.severities != NULL && settings_merge(&merged, settings, &cli) == 0;
    settings_free(&cli);
    settings_free(settings);
    *settings = merged;
    if (!ok)
        fputs("srcls: out of memory\n", stderr);
    return ok;
}

/* The default of --jobs: the CPUs online, at most 8. */
#define DEFAULT_JOBS_MAX 8

/* --jobs: a positive integer (or, not given, the default). 0 when it is not one. */
static unsigned parse_jobs(const char *value)
{
    if (value == NULL) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        return cpus < 1 ? 1u : cpus > DEFAULT_JOBS_MAX ? DEFAULT_JOBS_MAX : (unsigned)cpus;
    }
    char *end;
    errno = 0;
    unsigned long n = strtoul(value, &end, 10);
    if (value[0] < '0' || value[0] > '9' || *end != '\0' || errno != 0 || n == 0 || n > 1024)
        return 0;
    return (unsigned)n;
}

/* --fix with '-' among the paths: standard output carries the fixed document. */
static bool fixes_stdin(const struct cli_options *o)
{
    for (int i = 0; o->fix && i < o->path_count; i++) {
        if (strcmp(o->paths[i], "-") == 0)
            return true;
    }
    return false;
}

/* Whether --statistics and --diff go with the rest; false after a usage error. */
static bool outputs_combine(const struct cli_options *o, const char *format)
{
    if (o->statistics && strcmp(format, "text") != 0)
        return usage_error("--statistics is a text output (got --format %s)", format) == 0;
    if (o->diff && (o->fix || o->statistics || strcmp(format, "text") != 0))
        return usage_error("%s", "--diff prints a diff: it takes no --fix, --statistics or "
                                 "--format") == 0;
    if (o->unsafe_fixes && !o->fix && !o->diff)
        return usage_error("%s", "--unsafe-fixes goes with --fix or --diff") == 0;
    if (o->env_count > 0 && (o->fix || o->diff))
        return usage_error("%s", "--env checks the documents as rendered: it takes no --fix or "
                                 "--diff (they would write the values into the templates)") == 0;
    return true;
}

/* The walk of `srcls --check` with what run_check prepared; --base REF opened first (a REF that
 * cannot be read checks nothing: 2). */
static int run_walk(const struct cli_options *o, struct reporter *reporter,
                    const struct schema_registry *registry, struct check_configs *configs,
                    unsigned jobs, enum diag_severity fail_on)
{
    struct check_base *base = NULL;
    struct check_baseline *baseline = NULL;
    struct check_env env = {0};
    int status = 2;
    for (int i = 0; i < o->env_count; i++) {
        if (check_env_read(&env, o->envs[i]) != 0)
            goto done;
    }
    check_env_finish(&env);
    if ((o->base != NULL && (base = check_base_open(o->base, o->baseline)) == NULL) ||
        check_baseline_open(o->baseline, o->write_baseline, o->diff, o->no_baseline, configs,
                            &baseline) != 0)
        goto done;
    for (int i = 0; base != NULL && o->stdin_name == NULL && i < o->path_count; i++) {
        if (strcmp(o->paths[i], "-") == 0) { /* no path: no version at REF to compare with */
            fprintf(stderr,
                    "srcls: --base %s: standard input is not compared (name its file "
                    "with --stdin-filename PATH to compare it with PATH at %s)\n",
                    o->base, o->base);
            break;
        }
    }
    struct check_options options = {.paths = o->paths,
                                    .path_count = o->path_count,
                                    .reporter = reporter,
                                    .registry = registry,
                                    .configs = configs,
                                    .stdin_name = o->stdin_name,
                                    .excludes = o->excludes,
                                    .exclude_count = o->exclude_count,
                                    .jobs = jobs,
                                    .fix = o->fix,
                                    .diff = o->diff,
                                    .unsafe_fixes = o->unsafe_fixes,
                                    .no_gitignore = o->no_gitignore,
                                    .base = base,
                                    .baseline = baseline,
                                    .env = o->env_count > 0 ? &env : NULL,
                                    .exit_zero = o->exit_zero,
                                    .fail_on = fail_on};
    status = check_baseline_end(baseline, check_run(&options));
done:
    check_baseline_close(baseline);
    check_base_close(base);
    check_env_free(&env);
    return status;
}

/* `srcls --check`: the output format, the schema, the configuration, then the walk. */
static int run_check(const struct cli_options *o)
{
    if (o->path_count == 0)
        return usage_error("%s", "--check needs at least one PATH ('-' for stdin)");
    const char *color = o->color ? o->color : "auto";
    const char *format = o->format ? o->format : "text";
    int use_color = report_color_mode(color);
    if (use_color < 0)
        return usage_error("--color takes auto, always or never (got '%s')", color);
    unsigned jobs = parse_jobs(o->jobs);
    if (jobs == 0)
        return usage_error("--jobs takes a positive integer up to 1024 (got '%s')", o->jobs);
    if (o->jobs != NULL && jobs > 1 && !platform_has_threads)
        fprintf(stderr, "srcls: --jobs %u: the WebAssembly build checks one file at a time\n",
                jobs);
    int fail_on = o->fail_on ? diag_severity_parse(o->fail_on) : DIAG_ERROR;
    if (fail_on <= DIAG_OFF)
        return usage_error("--fail-on takes error, warning, information or hint (got '%s')",
                           o->fail_on);
    if (!outputs_combine(o, format))
        return 2;
    FILE *out = fixes_stdin(o) ? stderr : stdout; /* stdout carries the fixed document */
    if (o->output_file != NULL && (out = fopen(o->output_file, "w")) == NULL) {
        fprintf(stderr, "srcls: cannot write %s: %s\n", o->output_file, strerror(errno));
        return 2;
    }
    if (o->output_file != NULL)
        use_color = strcmp(color, "always") == 0; /* a file is no terminal */
    struct reporter reporter;
    if (!report_select(&reporter, format, out, use_color == 1)) {
        if (o->output_file != NULL)
            fclose(out);
        return usage_error("--format takes text, json, sarif, github or gitlab (got '%s')", format);
    }
    reporter.quiet = o->quiet;
    reporter.out_name = o->output_file;
    /* code frames: asked for, or on a terminal (not into a file) */
    reporter.show_source =
        o->show_source >= 0 ? o->show_source == 1 : out == stdout && isatty(STDOUT_FILENO);
    if (o->statistics && !report_statistics_init(&reporter)) {
        fputs("srcls: out of memory\n", stderr);
        return 2;
    }
    struct schema_registry registry;
    char error[512];
    if (schema_registry_load_embedded(&registry, error, sizeof error) != 0) {
        fprintf(stderr, "srcls: the built-in schema does not load: %s\n", error);
        return 2;
    }
    struct settings overlay; /* --select and --ignore, over each file's srcls.json */
    settings_init(&overlay);
    struct check_configs configs;
    check_configs_init(&configs, &registry, &overlay, o->config_path);
    struct check_target target;
    int status = 2;
    /* --config FILE governs every file: when it cannot be read, nothing is checked; its
     * mistakes are reported with the documents it leaves unchecked */
    if (select_codes(o, &overlay) &&
        (o->config_path == NULL || check_configs_for(&configs, NULL, &target) ||
         check_configs_fixed_mistaken(&configs)))
        status = run_walk(o, &reporter, &registry, &configs, jobs, (enum diag_severity)fail_on);
    if (o->output_file != NULL && fclose(out) != 0 && status != 2) {
        fprintf(stderr, "srcls: cannot write %s: %s\n", o->output_file, strerror(errno));
        status = 2;
    }
    check_configs_free(&configs);
    settings_free(&overlay);
    schema_registry_free(&registry);
    return status;
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
    o.paths = calloc((size_t)argc + 1, sizeof *o.paths);
    o.excludes = calloc((size_t)argc + 1, sizeof *o.excludes);
    o.envs = calloc((size_t)argc + 1, sizeof *o.envs);
    int status = 0;
    enum parse_outcome outcome = PARSE_FAILED;
    if (o.paths == NULL || o.excludes == NULL || o.envs == NULL)
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
            status = output_status(run_reference(o.action, o.action_arg, o.format));
        else if (o.check)
            status = run_check(&o); /* check_run says itself when the report cannot be written */
        else if (o.path_count > 0)
            status = usage_error("paths need --check (got '%s')", o.paths[0]);
        else
            status = lsp_server_run();
        break;
    }
    free(o.paths);
    free(o.excludes);
    free(o.envs);
    return status;
}
