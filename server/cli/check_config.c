/* check_config: srcls.json found per file, read through the core's project analysis. */
#include "check_config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "project.h"

/* The largest configuration file read: far above any real srcls.json. */
#define CONFIG_MAX_SIZE (1u << 20)

struct check_config {
    char *path;  /* the srcls.json (absolute), or "" for the defaults (no srcls.json) */
    bool usable; /* read, without a mistake */
    struct settings settings; /* its own, with the overlay laid over them */
    struct check_config *next;
};

void check_configs_init(struct check_configs *configs, const struct schema_registry *registry,
                        const struct settings *overlay, const char *fixed_path)
{
    *configs = (struct check_configs){registry, overlay, fixed_path, NULL, NULL, false};
    char here[PATH_MAX];
    configs->cwd = getcwd(here, sizeof here) ? strdup(here) : NULL;
}

void check_configs_free(struct check_configs *configs)
{
    while (configs->first != NULL) {
        struct check_config *c = configs->first;
        configs->first = c->next;
        settings_free(&c->settings);
        free(c->path);
        free(c);
    }
    free(configs->cwd);
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

/* Reads `path` into `c` (its settings when usable); mistakes go to stderr. */
static void read_config(struct check_configs *configs, struct check_config *c, const char *shown)
{
    static char text[CONFIG_MAX_SIZE + 1];
    FILE *f = fopen(c->path, "rb");
    if (f == NULL) {
        fprintf(stderr, "srcls: cannot read the configuration %s: %s\n", shown, strerror(errno));
        return;
    }
    size_t len = fread(text, 1, sizeof text, f);
    bool failed = ferror(f) != 0 || len == sizeof text;
    fclose(f);
    if (failed) {
        fprintf(stderr, "srcls: cannot read the configuration %s: %s\n", shown,
                len == sizeof text ? "larger than 1 MiB" : "read error");
        return;
    }
    struct analysis a;
    struct settings own;
    settings_init(&own);
    int read = project_analyze(&a, text, len, configs->registry, &own);
    if (read == 1)
        c->usable = settings_merge(&c->settings, &own, configs->overlay) == 0;
    else if (read == 0)
        report_mistakes(shown, &a);
    else
        fprintf(stderr, "srcls: %s: out of memory\n", shown);
    analysis_free(&a);
    settings_free(&own);
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
        return NULL;
    }
    settings_init(&c->settings);
    if (path[0] == '\0')
        c->usable = settings_merge(&c->settings, NULL, configs->overlay) == 0;
    else
        read_config(configs, c, shown);
    configs->reported |= !c->usable;
    c->next = configs->first;
    configs->first = c;
    return c;
}

/* The nearest srcls.json upwards from the directory of `path` into `out` ("" when none). */
static void nearest(const struct check_configs *configs, const char *path, char *out, size_t size)
{
    char dir[PATH_MAX];
    out[0] = '\0';
    if (path == NULL || path[0] != '/')
        snprintf(dir, sizeof dir, "%s/%s", configs->cwd ? configs->cwd : ".", path ? path : "-");
    else
        snprintf(dir, sizeof dir, "%s", path);
    for (char *slash = strrchr(dir, '/'); slash != NULL; slash = strrchr(dir, '/')) {
        *slash = '\0'; /* the directory above */
        snprintf(out, size, "%s/%s", dir, PROJECT_FILE_NAME);
        if (access(out, F_OK) == 0)
            return;
    }
    out[0] = '\0';
}

const struct settings *check_configs_for(struct check_configs *configs, const char *path)
{
    char found[PATH_MAX + sizeof "/" PROJECT_FILE_NAME];
    const char *shown = configs->fixed_path;
    if (shown == NULL) {
        nearest(configs, path, found, sizeof found);
        shown = found;
    }
    struct check_config *c = config_at(configs, shown, shown);
    return c != NULL && c->usable ? &c->settings : NULL;
}
