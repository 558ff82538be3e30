/* check_config: srcls.json found per file, read through the core's project analysis. */
#include "check_config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_gate.h"
#include "check_read.h"
#include "check_suppress.h"
#include "check/check.h"
#include "project/project.h"
#include "base/base.h"

/* The largest configuration file read: far above any real srcls.json. */

struct check_config {
    char *path;  /* the srcls.json (absolute), or "" for the defaults (no srcls.json) */
    bool usable; /* read, without a mistake */
    struct settings settings;     /* its own, with the overlay laid over them */
    struct project_schema schema; /* its own kinds ("schemas") */
    char *baseline;               /* "baseline", absolute, or NULL (owned) */
    unsigned char *hits;          /* per "ignore" entry, 1 when it matched a finding (owned) */
    /* With mistakes: their analysis and its text (owned), reported once in the report */
    struct analysis *mistakes;
    char *mistakes_text;
    bool mistakes_reported;
    struct check_config *next;
};

void check_configs_init(struct check_configs *configs, const struct schema_registry *registry,
                        const struct settings *overlay, const char *fixed_path)
{
    *configs =
        (struct check_configs){.registry = registry, .overlay = overlay, .fixed_path = fixed_path};
    char here[PATH_MAX];
    configs->cwd = getcwd(here, sizeof here) ? strdup(here) : NULL;
}

void check_configs_free(struct check_configs *configs)
{
    while (configs->first != NULL) {
        struct check_config *c = configs->first;
        configs->first = c->next;
        settings_free(&c->settings);
        project_schema_free(&c->schema);
        free(c->baseline);
        free(c->hits);
        if (c->mistakes != NULL)
            analysis_free(c->mistakes);
        free(c->mistakes);
        free(c->mistakes_text);
        free(c->path);
        free(c);
    }
    free(configs->cwd);
    free(configs->last_dir);
    free(configs->last_found);
    free(configs->last_named);
}

/* Each diagnostic of a configuration's analysis as "srcls: PATH:LINE:COL: message". */
static void report_mistakes(const char *path, const struct analysis *a)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        struct text_position at = line_index_position(&a->lines, d->start, POSITION_UTF32);
        fprintf(stderr, "srcls: %s:%u:%u: %s\n", path, at.line + 1, at.character + 1, d->message);
    }
}

/* `path` (as named: absolute, or relative to the current directory) made absolute in `out`,
 * with its "." and ".." steps applied ("../x" from /r/sub is /r/x), so that the srcls.json
 * found upwards and the path the "files" globs see are the file's. */
static void absolute(const struct check_configs *configs, const char *path, char *out, size_t size)
{
    char *normal = configs->cwd != NULL ? check_path_absolute(configs->cwd, path) : NULL;
    if (normal != NULL)
        snprintf(out, size, "%s", normal);
    else if (path[0] != '/')
        snprintf(out, size, "%s/%s", configs->cwd ? configs->cwd : ".", path);
    else
        snprintf(out, size, "%s", path);
    free(normal);
}

/* `path` without its "/./" steps ("./x" as named, or a srcls.json found from it). */
static void without_dots(char *path)
{
    for (char *dot; (dot = strstr(path, "/./")) != NULL;)
        memmove(dot, dot + 2, strlen(dot + 2) + 1);
}

/* The project_reader of the command line: the kind files of `dir`, with POSIX calls. */
static int read_kind_dir(void *context, const char *dir, struct project_schema *schema, char *why,
                         size_t why_size)
{
    (void)context;
    DIR *d = opendir(dir);
    if (d == NULL) {
        snprintf(why, why_size, "%s", check_strerror(errno));
        return -1;
    }
    int status = 0;
    for (struct dirent *e; status == 0 && (e = readdir(d)) != NULL;) {
        struct stat st;
        if (!project_is_kind_file_name(e->d_name) || fstatat(dirfd(d), e->d_name, &st, 0) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        size_t size = strlen(dir) + strlen(e->d_name) + 2, len;
        char *path = malloc(size), *text = NULL;
        if (path != NULL) {
            snprintf(path, size, "%s/%s", dir, e->d_name);
            text = check_read_config(path, &len);
        }
        if (path != NULL && text == NULL && errno != ENOMEM) /* else "out of memory", below */
            snprintf(why, why_size, "cannot read %s: %s", path,
                     errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
        if (text == NULL)
            free(path);
        /* project_schema_add takes both over, and frees them when it fails */
        if (text == NULL || project_schema_add(schema, path, text, len) != 0)
            status = -1;
    }
    closedir(d);
    if (status != 0 && why[0] == '\0')
        snprintf(why, why_size, "out of memory");
    return status;
}

/* The project_reader's srcls.json that another extends. */
static int read_extended(void *context, const char *path, char **text, size_t *len, char *why,
                         size_t why_size)
{
    (void)context;
    *text = check_read_config(path, len);
    if (*text == NULL && errno != ENOMEM)
        snprintf(why, why_size, "%s", errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
    return *text != NULL ? 1 : errno == ENOMEM ? -1 : 0;
}

/* Reads `path` into `c` (its settings and kinds when usable); mistakes go to stderr. A kind file
 * with a mistake does not make the configuration unusable: it is left out, and said. */
static void read_config(struct check_configs *configs, struct check_config *c, const char *shown)
{
    size_t len;
    char *text = check_read_config(c->path, &len);
    if (text == NULL && errno == ENOMEM) {
        configs->out_of_memory = true;
        fprintf(stderr, "srcls: %s: out of memory\n", shown);
        return;
    } else if (text == NULL) {
        fprintf(stderr, "srcls: cannot read the configuration %s: %s\n", shown,
                errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
        return;
    }
    char dir[2 * PATH_MAX];
    absolute(configs, c->path, dir, sizeof dir); /* --config's is as named */
    without_dots(dir);
    *strrchr(dir, '/') = '\0';
    struct analysis a;
    struct settings own;
    settings_init(&own);
    struct project_reader reader = {read_kind_dir, read_extended, NULL};
    int read =
        project_analyze_schema(&a, text, len, configs->registry, dir, &reader, &own, &c->schema);
    c->baseline = read == 1 ? settings_baseline_path(&own, dir) : NULL;
    if (read == 1 && (own.baseline == NULL || c->baseline != NULL))
        c->usable = !own.arena.failed && /* out of memory: a setting may be missing */
                    settings_merge(&c->settings, &own, configs->overlay) == 0 &&
                    !c->settings.arena.failed &&
                    (c->hits = calloc(own.ignore_count + 1, 1)) != NULL;
    else if (read == 0)
        report_mistakes(shown, &a);
    if (read != 0 && !c->usable) { /* the rest fails only for memory */
        configs->out_of_memory = true;
        fprintf(stderr, "srcls: %s: out of memory\n", shown);
    }
    if (c->usable && configs->base != NULL) /* --base: after the overlay, before any use */
        check_gate_config(configs->base, c->path, text, len, &own, configs->overlay, &c->settings,
                          c->baseline, configs->fixed_path == NULL);
    if (read == 0 && (c->mistakes = malloc(sizeof *c->mistakes)) != NULL) {
        *c->mistakes = a; /* kept, with its text, for the report */
        c->mistakes->settings = NULL;
        struct diag_list *found = &c->mistakes->diags; /* empty: a hint only while typing */
        for (uint32_t i = 0; c->mistakes->doc.root == JSON_NONE && i < found->count; i++)
            found->items[i].severity = DIAG_ERROR;
        c->mistakes_text = text;
        a = (struct analysis){0};
        text = NULL;
    }
    size_t cwd = configs->cwd != NULL ? strlen(configs->cwd) : 0;
    configs->kind_dirs |= c->usable && c->schema.dir_count > 0;
    for (size_t i = 0; c->usable && i < c->schema.problems.count; i++) {
        const char *line = c->schema.problems.items[i].text; /* shown from the current dir */
        if (cwd > 0 && strncmp(line, configs->cwd, cwd) == 0 && line[cwd] == '/')
            line += cwd + 1;
        fprintf(stderr, "srcls: %s (left out: the other kinds are loaded)\n", line);
    }
    if (text != NULL)
        analysis_free(&a);
    settings_free(&own);
    free(text);
}

/* The entry for the configuration at `path` ("" for none), read on first use. */
static struct check_config *config_at(struct check_configs *configs, const char *path,
                                      const char *shown)
{
    for (struct check_config *c = configs->first; c != NULL; c = c->next) {
        if (strcmp(c->path, path) == 0)
            return c;
    }
    struct check_config *c = calloc(1, sizeof *c);
    if (c == NULL || (c->path = strdup(path)) == NULL) {
        free(c);
        configs->out_of_memory = true;
        return NULL;
    }
    settings_init(&c->settings);
    if (path[0] == '\0')
        configs->out_of_memory |=
            !(c->usable = settings_merge(&c->settings, NULL, configs->overlay) == 0);
    else
        read_config(configs, c, shown);
    configs->reported |= !c->usable;
    c->next = configs->first;
    configs->first = c;
    return c;
}

/* Whether the file `path` exists (project_config_find's question). */
static bool exists(void *ctx, const char *path)
{
    (void)ctx;
    return access(path, F_OK) == 0;
}

/* The directory part of a path as named (`len` bytes of `named`) that nearest() last answered
 * for; forgotten when memory runs out (then it is asked again). */
static void remember_named(struct check_configs *configs, const char *named, size_t len)
{
    free(configs->last_named);
    configs->last_named = malloc(len + 1);
    if (configs->last_named != NULL) {
        memcpy(configs->last_named, named, len);
        configs->last_named[len] = '\0';
    }
}

/* The nearest srcls.json upwards from the directory of `path` into `out` ("" when none). The
 * last directory's answer is kept: a scan asks for every entry of a directory in a row. */
static void nearest(struct check_configs *configs, const char *path, char *out, size_t size)
{
    char dir[PATH_MAX];
    out[0] = '\0';
    /* the directory as named, the current directory being the same all run: the files of one
     * directory cost one comparison, not an absolute path each (the walk's path strings) */
    const char *named = path != NULL ? path : "-", *slash = strrchr(named, '/');
    size_t named_len = slash != NULL ? (size_t)(slash - named) : 0;
    if (configs->last_named != NULL && strlen(configs->last_named) == named_len &&
        memcmp(configs->last_named, named, named_len) == 0) {
        size_t len = strlen(configs->last_found); /* the answer, as snprintf would copy it */
        len = len < size ? len : size - 1;
        memcpy(out, configs->last_found, len);
        out[len] = '\0';
        return;
    }
    absolute(configs, named, dir, sizeof dir);
    char *last = strrchr(dir, '/');
    if (last == NULL)
        return;
    *last = '\0';
    if (configs->last_dir != NULL && strcmp(configs->last_dir, dir) == 0) {
        snprintf(out, size, "%s", configs->last_found);
        remember_named(configs, named, named_len);
        return;
    }
    char *asked = strdup(dir), *config = NULL;
    if (project_config_find(dir, exists, NULL, &config) < 0) {
        configs->out_of_memory = true; /* not "no srcls.json": nothing kept, nothing governs */
        free(asked);
        return;
    }
    snprintf(out, size, "%s", config != NULL ? config : "");
    free(config);
    char *found = asked != NULL ? strdup(out) : NULL;
    if (found != NULL) {
        free(configs->last_dir);
        free(configs->last_found);
        configs->last_dir = asked;
        configs->last_found = found;
        remember_named(configs, named, named_len);
    } else {
        free(asked);
    }
}

/* The configuration that governs `path` (NULL: standard input): --config's, or the nearest;
 * NULL when memory ran out. `shown` receives its path. */
static struct check_config *governing(struct check_configs *configs, const char *path, char *shown,
                                      size_t size)
{
    if (configs->fixed_path != NULL)
        snprintf(shown, size, "%s", configs->fixed_path);
    else
        nearest(configs, path, shown, size);
    return configs->out_of_memory ? NULL : config_at(configs, shown, shown);
}

/* The configuration, among those read, one of whose "schemas" directories holds `path`. */
static const struct check_config *kind_file_owner(const struct check_configs *configs,
                                                  const char *path)
{
    char whole[2 * PATH_MAX];
    absolute(configs, path, whole, sizeof whole);
    for (const struct check_config *c = configs->first; c != NULL; c = c->next) {
        if (c->usable && project_schema_has(&c->schema, whole))
            return c;
    }
    return NULL;
}

const char *check_configs_path(struct check_configs *configs, const char *path)
{
    char shown[PATH_MAX + sizeof "/" PROJECT_FILE_NAME];
    struct check_config *c = governing(configs, path, shown, sizeof shown);
    return c != NULL ? c->path : NULL;
}

const char *check_configs_refusal(const struct check_configs *configs)
{
    return configs->out_of_memory ? "not checked: out of memory"
                                  : "not checked: its srcls.json has mistakes";
}

bool check_configs_for(struct check_configs *configs, const char *path, struct check_target *target)
{
    char shown[PATH_MAX + sizeof "/" PROJECT_FILE_NAME];
    struct check_config *c = governing(configs, path, shown, sizeof shown);
    *target = (struct check_target){0};
    if (c == NULL || !c->usable)
        return false;
    target->settings = &c->settings;
    /* --base: another srcls.json that governed the file at REF keeps its security settings */
    char *then =
        configs->fixed_path == NULL ? check_gate_config_then(configs->base, path, c->path) : NULL;
    if (then != NULL)
        target->settings =
            check_gate_then(configs->base, c->path, then, &c->settings, configs->overlay);
    free(then);
    if (target->settings == NULL)
        return false;
    target->baseline = c->baseline;
    target->ignore_hits = c->hits;
    target->ignore_count = c->settings.ignore_count;
    if (c->settings.ignore_count > 0 && path != NULL && c->path[0] != '\0') {
        char whole[2 * PATH_MAX], config[2 * PATH_MAX];
        absolute(configs, path, whole, sizeof whole);
        without_dots(whole);
        snprintf(config, sizeof config, "%s", c->path);
        without_dots(config);
        size_t dir = (size_t)(strrchr(config, '/') - config);
        if (strncmp(whole, config, dir) == 0 && whole[dir] == '/' &&
            (target->path = strdup(whole + dir + 1)) == NULL) {
            configs->out_of_memory = true;
            return false;
        }
    }
    target->registry = project_schema_registry(&c->schema, configs->registry);
    const struct check_config *owner =
        path != NULL && configs->kind_dirs ? kind_file_owner(configs, path) : NULL;
    if (owner != NULL) {
        char whole[2 * PATH_MAX];
        absolute(configs, path, whole, sizeof whole);
        target->schema = &owner->schema;
        target->kind_file_name = strdup(whole);
        configs->out_of_memory |= target->kind_file_name == NULL;
        return target->kind_file_name != NULL;
    }
    return true;
}

enum walk_scan check_configs_scan(struct check_configs *configs, const char *path)
{
    char shown[PATH_MAX + sizeof "/" PROJECT_FILE_NAME];
    struct check_config *c = governing(configs, path, shown, sizeof shown);
    const struct settings_strings *include = c != NULL ? &c->settings.include : NULL;
    const struct settings_strings *exclude = c != NULL ? &c->settings.exclude : NULL;
    if (c == NULL || !c->usable || include->count + exclude->count == 0)
        return WALK_SCAN_DEFAULT;
    /* both absolute, so that the configuration's directory is a prefix of the entry's path */
    char dir[2 * PATH_MAX], whole[2 * PATH_MAX];
    absolute(configs, shown, dir, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (slash != NULL)
        slash[1] = '\0';
    absolute(configs, path, whole, sizeof whole);
    without_dots(dir);
    without_dots(whole);
    size_t prefix = strncmp(whole, dir, strlen(dir)) == 0 ? strlen(dir) : 0;
    return walk_scan_entry(&c->settings, whole + prefix);
}

/* Whether every file below the directory of the srcls.json at `config` was checked: a path
 * named is a directory that holds it. */
static bool covered(struct check_configs *configs, const char *path, const char *const *paths,
                    int count)
{
    char config[2 * PATH_MAX];
    snprintf(config, sizeof config, "%s", path);
    without_dots(config);
    size_t dir = (size_t)(strrchr(config, '/') - config);
    for (int i = 0; i < count; i++) {
        char whole[2 * PATH_MAX];
        struct stat st;
        if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        absolute(configs, paths[i], whole, sizeof whole);
        strcat(whole, "/");
        without_dots(whole);
        size_t len = strlen(whole);
        if (len - 1 <= dir + 1 && strncmp(config, whole, len) == 0)
            return true;
    }
    return false;
}

/* The entries of the srcls.json `c` that another srcls.json of the run extends and used there,
 * marked used in c->hits. */
static void hits_where_extended(struct check_configs *configs, struct check_config *c)
{
    char path[2 * PATH_MAX];
    absolute(configs, c->path, path, sizeof path);
    without_dots(path);
    for (struct check_config *o = configs->first; o != NULL; o = o->next) {
        for (uint32_t i = 0; o != c && o->usable && i < o->settings.ignore_inherited; i++) {
            const struct settings_ignore *e = &o->settings.ignores[i];
            uint32_t own = c->settings.ignore_inherited + e->origin_index;
            if (o->hits[i] && own < c->settings.ignore_count && strcmp(e->origin, path) == 0)
                c->hits[own] = 1;
        }
    }
}

void check_configs_report_unused(struct check_configs *configs, const char *const *paths, int count,
                                 struct reporter *reporter, struct report_summary *summary)
{
    for (struct check_config *c = configs->first; c != NULL; c = c->next) {
        if (!c->usable || c->settings.ignore_count == 0 || !covered(configs, c->path, paths, count))
            continue;
        hits_where_extended(configs, c);
        for (uint32_t i = 0; i < c->settings.ignore_count; i++) /* its codes not checked */
            c->hits[i] |= !suppress_codes_checked(&c->settings.ignores[i], &c->settings);
        /* --base: reviewed too, its findings are one entry of the report with these */
        struct analysis *held = check_gate_held(configs->base, c->path);
        uint32_t inherited = c->settings.ignore_inherited; /* said of its own file's entries */
        if (held != NULL && check_suppress_add(held, c->hits + inherited,
                                               c->settings.ignore_count - inherited) == 0)
            continue;
        size_t len;
        /* from the current directory ("../srcls.json" when found from "../x") */
        char *whole = configs->cwd != NULL ? check_path_absolute(configs->cwd, c->path) : NULL;
        char *relative = whole != NULL ? baseline_relative(configs->cwd, whole) : NULL;
        free(whole);
        char *text = check_read_config(c->path, &len);
        check_suppress_report(relative != NULL ? relative : c->path, text, len, c->hits + inherited,
                              c->settings.ignore_count - inherited, reporter, summary);
        free(text);
        free(relative);
    }
}

bool check_configs_report_mistakes(struct check_configs *configs, const char *path,
                                   struct reporter *reporter, struct report_summary *summary)
{
    char shown[PATH_MAX + sizeof "/" PROJECT_FILE_NAME];
    struct check_config *c = governing(configs, path, shown, sizeof shown);
    if (c == NULL || c->mistakes == NULL)
        return false;
    char whole[2 * PATH_MAX], config[2 * PATH_MAX];
    absolute(configs, path != NULL ? path : ".", whole, sizeof whole);
    without_dots(whole);
    absolute(configs, c->path, config, sizeof config);
    without_dots(config);
    bool itself = strcmp(whole, config) == 0;
    if (c->mistakes_reported)
        return itself;
    c->mistakes_reported = true;
    /* from the current directory ("../srcls.json" when found from "../x") */
    char *full = configs->cwd != NULL ? check_path_absolute(configs->cwd, c->path) : NULL;
    char *relative = full != NULL ? baseline_relative(configs->cwd, full) : NULL;
    free(full);
    struct checked_file file = {.path = relative != NULL ? relative : c->path,
                                .analysis = c->mistakes};
    summary->files++;
    report_count(summary, c->mistakes, NULL);
    reporter->file(reporter, &file);
    free(relative);
    return itself;
}

bool check_configs_fixed_mistaken(struct check_configs *configs)
{
    char shown[PATH_MAX + sizeof "/" PROJECT_FILE_NAME];
    struct check_config *c =
        configs->fixed_path != NULL ? governing(configs, NULL, shown, sizeof shown) : NULL;
    return c != NULL && c->mistakes != NULL;
}
