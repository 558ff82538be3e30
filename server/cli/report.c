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

/* The working directory, read once: srcls never changes it while it reports (a read per file
 * was a system call per file). NULL when it cannot be read. */
static const char *working_directory(void)
{
    static char cwd[PATH_MAX];
    static int state; /* 0: not read yet, 1: read, -1: unreadable */
    if (state == 0)
        state = getcwd(cwd, sizeof cwd) != NULL ? 1 : -1;
    return state > 0 ? cwd : NULL;
}

/* `full` (absolute, its steps applied) with the symbolic links of its directory resolved, into
 * `real` (PATH_MAX bytes). The last directory resolved is kept: the files of one directory cost
 * one realpath, not one each (a readlink per component per file). */
static bool resolve(const char *full, char *real)
{
    static char last_dir[PATH_MAX], last_real[PATH_MAX];
    const char *slash = strrchr(full, '/');
    size_t dir_len = (size_t)(slash - full);
    if (dir_len == 0 || dir_len >= sizeof last_dir)
        return platform_realpath(full, real) != NULL;
    if (strlen(last_dir) != dir_len || memcmp(last_dir, full, dir_len) != 0) {
        char dir[PATH_MAX];
        memcpy(dir, full, dir_len);
        dir[dir_len] = '\0';
        if (platform_realpath(dir, last_real) == NULL) {
            last_dir[0] = '\0';
            return false;
        }
        memcpy(last_dir, dir, dir_len + 1);
    }
    int n = snprintf(real, PATH_MAX, "%s%s", strcmp(last_real, "/") == 0 ? "" : last_real, slash);
    return n > 0 && n < PATH_MAX;
}

const char *report_path(const char *path, char *buf, size_t size)
{
    char full[PATH_MAX], real[PATH_MAX];
    const char *cwd = strcmp(path, "<stdin>") == 0 ? NULL : working_directory();
    if (cwd == NULL)
        return path;
    size_t head = path[0] == '/' ? 0 : strlen(cwd), tail = strlen(path);
    if (head + 1 + tail >= sizeof full)
        return path;
    memcpy(full, cwd, head); /* cwd "/" path, or path */
    full[head] = '/';
    memcpy(full + head + (head > 0), path, tail + 1);
    apply_steps(full);
    const char *shown = below(full, cwd);
    if (shown == NULL && resolve(full, real))
        shown = below(real, cwd);
    if (shown != NULL || path[0] == '/') {
        const char *text = shown != NULL ? shown : full;
        size_t len = strlen(text);
        if (len >= size)
            len = size - 1;
        memcpy(buf, text, len);
        buf[len] = '\0';
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

/* The formats of --check, each defined in its file, in the order help, the man page and the
 * completion list them. */
extern const struct report_format report_format_text, report_format_json, report_format_sarif,
    report_format_github, report_format_gitlab;
static const struct report_format *const formats[] = {
    &report_format_text,   &report_format_json,   &report_format_sarif,
    &report_format_github, &report_format_gitlab,
};

const char *report_format_name(size_t i)
{
    return i < sizeof formats / sizeof formats[0] ? formats[i]->name : NULL;
}

bool report_select(struct reporter *reporter, const char *name, FILE *out, bool color)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(name, formats[i]->name) == 0) {
            memset(reporter, 0, sizeof *reporter);
            reporter->out = out;
            reporter->color = color;
            formats[i]->init(reporter);
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
