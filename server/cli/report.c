/* report: choosing an output format by name, and whether it has color; the path every format
 * shows; counting what is reported. */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

/* Applies the "." and ".." steps of `path` in place, as cd does ("//" is "/"): a ".." above a
 * relative path's start stays, one above "/" goes. */
static void apply_steps(char *path)
{
    bool absolute = path[0] == '/';
    size_t out = 0, kept = 0; /* kept: the bytes of the leading "../" a relative path keeps */
    for (const char *p = path; *p != '\0';) {
        while (*p == '/')
            p++;
        const char *end = p;
        while (*end != '\0' && *end != '/')
            end++;
        size_t len = (size_t)(end - p);
        if (len == 2 && p[0] == '.' && p[1] == '.' && (absolute || out > kept)) {
            while (out > kept && path[out - 1] != '/')
                out--; /* the last step and its '/' (absolute) or the '/' after it (relative) */
            if (out > kept)
                out--;
        } else if (len > 0 && !(len == 1 && p[0] == '.')) {
            bool up = len == 2 && p[0] == '.' && p[1] == '.';
            if (absolute || out > 0)
                path[out++] = '/';
            memmove(path + out, p, len);
            out += len;
            if (up)
                kept = out;
        }
        p = end;
    }
    if (out == 0)
        path[out++] = absolute ? '/' : '.';
    path[out] = '\0';
}

/* What of `full` follows the directory `dir` and a '/', or NULL when it is not below `dir`. */
static const char *below(const char *full, const char *dir)
{
    size_t n = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
    if (strncmp(full, dir, n) != 0 || full[n] != '/' || full[n + 1] == '\0')
        return NULL;
    return full + n + 1;
}

const char *report_path(const char *path, char *buf, size_t size)
{
    char cwd[PATH_MAX], full[PATH_MAX], real[PATH_MAX];
    if (strcmp(path, "<stdin>") == 0 || getcwd(cwd, sizeof cwd) == NULL)
        return path;
    int n = path[0] == '/' ? snprintf(full, sizeof full, "%s", path)
                           : snprintf(full, sizeof full, "%s/%s", cwd, path);
    if (n < 0 || (size_t)n >= sizeof full)
        return path;
    apply_steps(full);
    const char *shown = below(full, cwd);
    if (shown == NULL && platform_realpath(full, real) != NULL)
        shown = below(real, cwd);
    if (shown != NULL || path[0] == '/') {
        snprintf(buf, size, "%s", shown != NULL ? shown : full);
        return buf;
    }
    snprintf(buf, size, "%s", path); /* outside, named relative: as named, its steps applied */
    apply_steps(buf);
    return buf;
}

/* Every format's `file`: the path as report_path shows it. */
static void file_as_shown(struct reporter *self, const struct checked_file *file)
{
    char buf[PATH_MAX];
    struct checked_file shown = *file;
    shown.path = report_path(file->path, buf, sizeof buf);
    self->format_file(self, &shown);
}

/* The formats of --check, in the order help, the man page and the completion list them. */
static const struct {
    const char *name;
    void (*init)(struct reporter *);
} formats[] = {
    {"text", report_text_init},     {"json", report_json_init},     {"sarif", report_sarif_init},
    {"github", report_github_init}, {"gitlab", report_gitlab_init},
};

const char *report_format_name(size_t i)
{
    return i < sizeof formats / sizeof formats[0] ? formats[i].name : NULL;
}

bool report_select(struct reporter *reporter, const char *name, FILE *out, bool color)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(name, formats[i].name) == 0) {
            memset(reporter, 0, sizeof *reporter);
            reporter->out = out;
            reporter->color = color;
            formats[i].init(reporter);
            reporter->format_file = reporter->file;
            reporter->file = file_as_shown;
            return true;
        }
    }
    return false;
}

/* Counts the findings of `a` that are new (not `baselined`, which may be NULL). */
void report_count(struct report_summary *s, const struct analysis *a,
                  const unsigned char *baselined)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        switch (baselined != NULL && baselined[i] ? DIAG_OFF : a->diags.items[i].severity) {
        case DIAG_ERROR: s->errors++; break;
        case DIAG_WARNING: s->warnings++; break;
        case DIAG_INFORMATION: s->information++; break;
        case DIAG_HINT: s->hints++; break;
        case DIAG_OFF: break;
        }
    }
}

/* --color auto: FORCE_COLOR (set, and not "0") asks for color, as CI systems that show it
 * set it; else NO_COLOR (set and not empty) asks for none; else color on a terminal. */
static bool color_wanted(void)
{
    const char *force = getenv("FORCE_COLOR");
    if (force != NULL && strcmp(force, "0") != 0 && strcmp(force, "false") != 0)
        return true;
    const char *no = getenv("NO_COLOR");
    if (no != NULL && no[0] != '\0')
        return false;
    return isatty(STDOUT_FILENO);
}

int report_color_mode(const char *when)
{
    if (strcmp(when, "always") == 0)
        return 1;
    if (strcmp(when, "never") == 0)
        return 0;
    if (strcmp(when, "auto") == 0)
        return color_wanted();
    return -1;
}

int report_flush(struct reporter *reporter)
{
    errno = 0;
    bool written = fflush(reporter->out) == 0 && !ferror(reporter->out);
    if (written && !reporter->failed)
        return 0;
    fprintf(stderr, "srcls: cannot write %s: %s\n",
            reporter->out_name ? reporter->out_name : "the report",
            reporter->failed ? "out of memory"
            : errno != 0     ? strerror(errno)
                             : "write error");
    return -1;
}
