/* command: `srcls --check` prepared and run, and the reference actions, as main.c hands them
 * over (command.h). */
#define _XOPEN_SOURCE 700 /* sysconf */

#include "command.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_command.h"
#include "domain/domain.h"
#include "export_schema.h"
#include "help.h"
#include "platform.h"
#include "reference.h"
#include "report.h"

/* What --generate-docs prints: from the code, format and option tables alone, or (kinds, with no
 * `print`) from the registry. */
static const struct {
    const char *what;
    void (*print)(FILE *out);
} docs[] = {{"rules", reference_docs_rules},         {"kinds", NULL},
            {"man-codes", reference_docs_man_codes}, {"man-options", options_docs_man},
            {"completion", options_docs_completion}, {"cli-synopsis", options_docs_synopsis},
            {"formats", options_docs_formats}};

const char *command_docs_name(size_t i)
{
    return i < sizeof docs / sizeof *docs ? docs[i].what : NULL;
}

/* The usage error of --NAME given a value `got` outside its value set (the table's). */
static int takes_error(const char *name, const char *got)
{
    char words[256], format[320];
    options_value_words(options_find(name), words, sizeof words);
    snprintf(format, sizeof format, "--%s takes %s (got '%%s')", name, words);
    return help_usage_error(format, got);
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
            help_usage_error(why, name);
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

/* --shard I/N into `shard` (I-1) and `count` (N): 1 <= I <= N <= 1024; false when it is not. */
static bool parse_shard(const char *value, unsigned *shard, unsigned *count)
{
    char *end;
    errno = 0;
    unsigned long i = strtoul(value, &end, 10);
    if (value[0] < '0' || value[0] > '9' || *end != '/' || errno != 0)
        return false;
    const char *rest = end + 1;
    unsigned long n = strtoul(rest, &end, 10);
    if (rest[0] < '0' || rest[0] > '9' || *end != '\0' || errno != 0 || i < 1 || i > n || n > 1024)
        return false;
    *shard = (unsigned)(i - 1);
    *count = (unsigned)n;
    return true;
}

/* --fix with '-' among the paths: standard output carries the fixed document. */
static bool fixes_stdin(const struct cli_options *o)
{
    for (int i = 0; o->fix && i < o->paths.count; i++) {
        if (strcmp(o->paths.items[i], "-") == 0)
            return true;
    }
    return false;
}

/* Whether --statistics and --diff go with the rest; false after a usage error. */
static bool outputs_combine(const struct cli_options *o, const char *format)
{
    if (o->statistics && strcmp(format, "text") != 0)
        return help_usage_error("--statistics is a text output (got --format %s)", format) == 0;
    if (o->diff && (o->fix || o->statistics || strcmp(format, "text") != 0))
        return help_usage_error("%s", "--diff prints a diff: it takes no --fix, --statistics or "
                                      "--format") == 0;
    if (o->unsafe_fixes && !o->fix && !o->diff)
        return help_usage_error("%s", "--unsafe-fixes goes with --fix or --diff") == 0;
    if (o->envs.count > 0 && (o->fix || o->diff))
        return help_usage_error("%s",
                                "--env checks the documents as rendered: it takes no --fix or "
                                "--diff (they would write the values into the templates)") == 0;
    return true;
}

/* The walk of `srcls --check` with what command_check prepared; --base REF opened first (a REF
 * that cannot be read checks nothing: 2). */
static int run_walk(const struct cli_options *o, struct reporter *reporter,
                    const struct schema_registry *registry, struct check_configs *configs,
                    unsigned jobs, enum diag_severity fail_on)
{
    unsigned shard = 0, shard_count = 0; /* checked by command_check */
    if (o->shard != NULL)
        parse_shard(o->shard, &shard, &shard_count);
    struct check_review *base = NULL;
    struct check_baseline *baseline = NULL;
    struct check_env env = {0};
    int status = 2;
    for (int i = 0; i < o->envs.count; i++) {
        if (check_env_read(&env, o->envs.items[i]) != 0)
            goto done;
    }
    check_env_finish(&env);
    if ((o->base != NULL && (base = check_review_open(o->base, o->baseline)) == NULL) ||
        check_baseline_open(o->baseline, o->write_baseline, o->diff, o->no_baseline, configs,
                            &baseline) != 0)
        goto done;
    for (int i = 0; base != NULL && o->stdin_name == NULL && i < o->paths.count; i++) {
        if (strcmp(o->paths.items[i], "-") == 0) { /* no path: no version at REF to compare with */
            fprintf(stderr,
                    "srcls: --base %s: standard input is not compared (name its file "
                    "with --stdin-filename PATH to compare it with PATH at %s)\n",
                    o->base, o->base);
            break;
        }
    }
    struct check_options options = {.paths = o->paths.items,
                                    .path_count = o->paths.count,
                                    .reporter = reporter,
                                    .registry = registry,
                                    .configs = configs,
                                    .stdin_name = o->stdin_name,
                                    .excludes = o->excludes.items,
                                    .exclude_count = o->excludes.count,
                                    .jobs = jobs,
                                    .shard = shard,
                                    .shard_count = shard_count,
                                    .fix = o->fix,
                                    .diff = o->diff,
                                    .unsafe_fixes = o->unsafe_fixes,
                                    .no_gitignore = o->no_gitignore,
                                    .base = base,
                                    .baseline = baseline,
                                    .env = o->envs.count > 0 ? &env : NULL,
                                    .exit_zero = o->exit_zero,
                                    .fail_on = fail_on};
    status = check_baseline_end(baseline, check_run(&options));
done:
    check_baseline_close(baseline);
    check_review_close(base);
    check_env_free(&env);
    return status;
}

/* `srcls --check`: the output format, the schema, the configuration, then the walk. */
int command_check(const struct cli_options *o)
{
    if (o->paths.count == 0)
        return help_usage_error("%s", "--check needs at least one PATH ('-' for stdin)");
    const char *color = o->color ? o->color : "auto";
    const char *format = o->format ? o->format : "text";
    int use_color = report_color_mode(color);
    if (use_color < 0)
        return takes_error("color", color);
    unsigned jobs = parse_jobs(o->jobs);
    if (jobs == 0)
        return help_usage_error("--jobs takes a positive integer up to 1024 (got '%s')", o->jobs);
    unsigned shard, shards;
    if (o->shard != NULL && !parse_shard(o->shard, &shard, &shards))
        return help_usage_error("--shard takes I/N, whole numbers with 1 <= I <= N <= 1024 "
                                "(got '%s')",
                                o->shard);
    if (o->shard != NULL && o->write_baseline != NULL)
        return help_usage_error("%s", "--write-baseline records the findings of the whole run: "
                                      "give it without --shard");
    if (o->jobs != NULL && jobs > 1 && !platform_has_threads)
        fprintf(stderr, "srcls: --jobs %u: the WebAssembly build checks one file at a time\n",
                jobs);
    int fail_on = o->fail_on ? diag_severity_parse(o->fail_on) : DIAG_ERROR;
    if (fail_on <= DIAG_OFF)
        return takes_error("fail-on", o->fail_on);
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
        return takes_error("format", format);
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

int command_reference(const char *action, const char *arg, const char *format)
{
    if (strcmp(action, "explain") == 0) {
        if (arg[0] == '\0')
            return help_usage_error("%s", "--explain needs a CODE (see docs/rules.md)");
        return reference_explain(arg, stdout);
    }
    for (size_t i = 0; strcmp(action, "generate-docs") == 0 && i < sizeof docs / sizeof *docs;
         i++) {
        if (docs[i].print != NULL && strcmp(arg, docs[i].what) == 0) {
            docs[i].print(stdout);
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
                ? help_usage_error("%s", "--export-json-schema needs a DIR")
                : export_json_schema_templated(target.registry, target.settings->placeholders,
                                               target.settings->placeholder_count, arg, stderr);
    else if (listing && format != NULL && strcmp(format, "json") == 0)
        status = reference_list_kinds_json(target.registry, stdout);
    else if (listing && format != NULL && strcmp(format, "text") != 0)
        status = help_usage_error("--list-kinds --format takes text or json (got '%s')", format);
    else if (listing)
        reference_list_kinds(target.registry, stdout);
    else if (strcmp(arg, "kinds") == 0)
        reference_docs_kinds(&registry, stdout);
    else
        status = help_usage_error("--generate-docs: no such WHAT '%s' (docs/cli.md)", arg);
    check_configs_free(&configs);
    schema_registry_free(&registry);
    return status;
}
