/* check_gate: the srcls.json and baseline files reviewed under --base (see check_gate.h). */
#include "check_gate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_command.h"
#include "check_read.h"
#include "check/check.h"
#include "project/project.h"
#include "base/base.h"

/* A file kept to report at the end: a srcls.json with its findings, or a baseline file. */
struct gate_file {
    char *path;    /* absolute */
    char *text;    /* a srcls.json's text now (owned; the analysis reads it) */
    bool config;   /* a srcls.json (else a baseline file, read at the end) */
    bool analysed; /* `analysis` holds something to free */
    bool taken;    /* its findings went out with the file checked as a document (named) */
    struct analysis analysis;
    struct gate_file *next;
};

/* The settings of the files that another srcls.json governed at REF (check_gate_then). */
struct gate_strict {
    char *config; /* the srcls.json that governs them now ("" none) */
    char *then;   /* the one that governed them at REF, from the work tree's top */
    struct settings settings;
    struct gate_strict *next;
};

struct check_gate {
    struct gate_file *first, **last;
    struct gate_strict *stricts;
};

/* More severe first: error 1 ... hint 4, off last. */
static enum diag_severity stricter(enum diag_severity a, enum diag_severity b)
{
    int rank_a = a == DIAG_OFF ? DIAG_HINT + 1 : (int)a,
        rank_b = b == DIAG_OFF ? DIAG_HINT + 1 : (int)b;
    return rank_a <= rank_b ? a : b;
}

/* What is kept for the run, made on first use (NULL when memory ran out). */
static struct check_gate **gate_of(struct check_review *base)
{
    struct check_gate **gate = check_review_gate(base);
    if (*gate == NULL && (*gate = calloc(1, sizeof **gate)) != NULL)
        (*gate)->last = &(*gate)->first;
    return *gate != NULL ? gate : NULL;
}

/* A new entry for `path` at the end of the list (NULL when memory ran out, or when a baseline
 * file is kept already). */
static struct gate_file *keep(struct check_review *base, const char *path, bool config)
{
    struct check_gate **gate = gate_of(base);
    if (gate == NULL)
        return NULL;
    for (struct gate_file *f = (*gate)->first; !config && f != NULL; f = f->next) {
        if (!f->config && strcmp(f->path, path) == 0)
            return NULL;
    }
    struct gate_file *f = calloc(1, sizeof *f);
    if (f == NULL || (f->path = strdup(path)) == NULL) {
        free(f);
        return NULL;
    }
    f->config = config;
    *(*gate)->last = f;
    (*gate)->last = &f->next;
    return f;
}

/* `applied` with the security group at the stricter of its own severities and those of
 * `old_own` (REF's srcls.json's own settings; empty: the defaults) with `overlay`, and each of
 * its "ignore" entries that REF's lack silencing no security code. False when memory ran out. */
static bool at_stricter(struct settings *applied, const struct settings *old_own,
                        const struct settings *overlay)
{
    struct settings old_applied, strict;
    settings_init(&old_applied);
    settings_init(&strict);
    bool ok = settings_merge(&old_applied, old_own, overlay) == 0 &&
              settings_stricter(&strict, applied, &old_applied, CODE_GROUP_SECURITY) == 0 &&
              settings_merge(applied, &strict, NULL) == 0;
    if (ok)
        project_review_ignores(applied, &old_applied);
    settings_free(&old_applied);
    settings_free(&strict);
    return ok;
}

/* The project_reader of REF: a srcls.json another extends, as it was at REF. */
static int read_at_ref(void *context, const char *path, char **text, size_t *len, char *why,
                       size_t why_size)
{
    int found = check_review_read(context, path, text, len);
    if (found == 2) { /* unchanged since REF: as it is now */
        *text = check_read_config(path, len);
        found = *text != NULL ? 1 : errno == ENOMEM ? -1 : 0;
    }
    if (found == 0)
        snprintf(why, why_size, "not there at the base");
    return found;
}

/* The srcls.json at `path` (absolute) as it was at REF (`text`), analysed with what it extended
 * then into `out` and `own`: as project_analyze. */
static int analyze_at_ref(struct check_review *base, const char *path, const char *text, size_t len,
                          struct analysis *out, struct settings *own)
{
    char *dir = strdup(path);
    if (dir == NULL) {
        *out = (struct analysis){0}; /* as project_analyze leaves it: freeing it does no harm */
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (slash != NULL)
        *slash = '\0';
    struct project_reader reader = {NULL, read_at_ref, base};
    int status =
        project_analyze_schema(out, text, len, NULL, slash != NULL ? dir : ".", &reader, own, NULL);
    free(dir);
    return status;
}

/* Whether a file `own` extends changed since REF (-1: git or memory failed). */
static int extended_changed(struct check_review *base, const struct settings *own)
{
    for (uint32_t i = 0; i < own->extended.count; i++) {
        char *text = NULL;
        size_t len;
        int found = check_review_read(base, own->extended.items[i], &text, &len);
        free(text);
        if (found != 2)
            return found < 0 ? -1 : 1;
    }
    return 0;
}

char *check_gate_config_then(struct check_review *base, const char *path, const char *config)
{
    if (base == NULL || path == NULL || !check_review_configs_moved(base))
        return NULL; /* the same srcls.json governs each file as at REF */
    char *rel = check_review_relative(base, path);
    char *now = rel != NULL && config[0] != '\0' ? check_review_relative(base, config) : NULL;
    const char *top = check_review_top(base);
    size_t size = rel != NULL ? strlen(top) + strlen(rel) + sizeof "//" PROJECT_FILE_NAME : 0;
    char *candidate = rel != NULL ? malloc(size) : NULL, *whole = rel != NULL ? malloc(size) : NULL;
    char *then = NULL;
    bool failed = rel != NULL && (candidate == NULL || whole == NULL);
    const char *slash = rel != NULL ? strrchr(rel, '/') : NULL;
    size_t dir =
        slash != NULL ? (size_t)(slash - rel) : 0; /* rel[0, dir): a directory, 0 the top */
    for (bool more = candidate != NULL && whole != NULL; more;) {
        snprintf(candidate, size, "%.*s%s" PROJECT_FILE_NAME, (int)dir, rel, dir > 0 ? "/" : "");
        snprintf(whole, size, "%s/%s", top, candidate);
        bool added = check_review_added(base, candidate);
        if (now != NULL && strcmp(candidate, now) == 0 && !added)
            break; /* the one that governs it now governed it then */
        if (check_review_gone(base, candidate) ||
            (!added && (now == NULL || strcmp(candidate, now) != 0) && access(whole, F_OK) == 0)) {
            failed = (then = strdup(candidate)) == NULL;
            break;
        }
        more = dir > 0;
        while (dir > 0 && rel[dir - 1] != '/')
            dir--;
        dir -= dir > 0; /* the directory above, without its slash */
    }
    if (failed) /* memory: the run must not pass with the settings of the wrong srcls.json */
        check_review_fail(base, path);
    free(candidate);
    free(whole);
    free(now);
    free(rel);
    return then;
}

bool check_gate_config(struct check_review *base, const char *path, const char *text, size_t len,
                       const struct settings *own, const struct settings *overlay,
                       struct settings *applied, const char *baseline, bool nearest)
{
    if (baseline != NULL)
        check_gate_baseline(base, baseline);
    char *old_text;
    size_t old_len = 0;
    int found = check_review_read(base, path, &old_text, &old_len);
    int extended = found == 2 ? extended_changed(base, own) : 0;
    if (found == 2 && extended == 0)
        return true; /* unchanged since REF with what it extends, or outside the work tree */
    if (extended < 0) {
        check_review_fail(base, path);
        return false;
    }
    if (found == 2) { /* itself unchanged: what it extends changed */
        found = (old_text = malloc(len + 1)) != NULL ? 1 : -1;
        if (old_text != NULL)
            memcpy(old_text, text, len);
        old_len = len;
    }
    /* new since REF where another srcls.json governed its directory: compared with that one */
    char *then = found == 0 && nearest ? check_gate_config_then(base, path, path) : NULL;
    if (then != NULL) {
        free(old_text);
        found = check_review_read_rel(base, then, then, &old_text, &old_len);
        free(then);
    }
    if (found < 0)
        return false;
    struct analysis old;
    struct settings old_own;
    settings_init(&old_own);
    /* a srcls.json with mistakes at REF checked nothing there: the defaults stand for it */
    bool ok = found == 0 || analyze_at_ref(base, path, old_text, old_len, &old, &old_own) >= 0;
    ok = ok && at_stricter(applied, &old_own, overlay);
    struct gate_file *f = ok ? keep(base, path, true) : NULL;
    struct settings now_own;
    settings_init(&now_own);
    bool analysed = false;
    if (f != NULL && (f->text = malloc(len + 1)) != NULL) {
        memcpy(f->text, text, len);
        f->text[len] = '\0';
        f->analysed = true; /* freed with the list, whatever the outcome */
        analysed = project_analyze(&f->analysis, f->text, len, NULL, &now_own) >= 0;
    }
    enum diag_severity severity =
        settings_severity(applied, CODE_RISKY_CHANGE, code_info(CODE_RISKY_CHANGE)->severity);
    ok = analysed &&
         project_review(&f->analysis, own, found == 1 ? &old : NULL, found == 1 ? &old_own : NULL,
                        check_review_name(base), severity) == 0;
    settings_free(&now_own);
    if (found == 1)
        analysis_free(&old);
    settings_free(&old_own);
    free(old_text);
    if (!ok && found >= 0)
        check_review_fail(base, path);
    return ok;
}

const struct settings *check_gate_then(struct check_review *base, const char *config,
                                       const char *then, const struct settings *applied,
                                       const struct settings *overlay)
{
    struct check_gate **gate = gate_of(base);
    for (struct gate_strict *s = gate != NULL ? (*gate)->stricts : NULL; s != NULL; s = s->next) {
        if (strcmp(s->config, config) == 0 && strcmp(s->then, then) == 0)
            return &s->settings;
    }
    struct gate_strict *s = gate != NULL ? calloc(1, sizeof *s) : NULL;
    if (s == NULL) {
        check_review_fail(base, then);
        return NULL;
    }
    settings_init(&s->settings);
    char *text;
    size_t len = 0;
    int found = check_review_read_rel(base, then, then, &text, &len);
    struct analysis old;
    struct settings old_own;
    settings_init(&old_own);
    /* with mistakes at REF it checked nothing there: the defaults stand for it */
    bool ok = found >= 0 && (s->config = strdup(config)) != NULL &&
              (s->then = strdup(then)) != NULL && settings_merge(&s->settings, applied, NULL) == 0;
    if (ok && found == 1) {
        char *whole = malloc(strlen(check_review_top(base)) + strlen(then) + 2);
        if (whole != NULL)
            sprintf(whole, "%s/%s", check_review_top(base), then);
        ok = whole != NULL && analyze_at_ref(base, whole, text, len, &old, &old_own) >= 0;
        free(whole);
        analysis_free(&old);
    }
    ok = ok && at_stricter(&s->settings, &old_own, overlay);
    settings_free(&old_own);
    free(text);
    if (!ok) {
        if (found >= 0)
            check_review_fail(base, then);
        settings_free(&s->settings);
        free(s->config);
        free(s->then);
        free(s);
        return NULL;
    }
    s->next = (*gate)->stricts;
    (*gate)->stricts = s;
    return &s->settings;
}

struct analysis *check_gate_held(struct check_review *base, const char *path)
{
    struct check_gate *gate = base != NULL ? *check_review_gate(base) : NULL;
    for (struct gate_file *f = gate != NULL ? gate->first : NULL; f != NULL; f = f->next) {
        if (f->config && f->analysed && !f->taken && strcmp(f->path, path) == 0)
            return &f->analysis;
    }
    return NULL;
}

int check_gate_take(struct check_review *base, const char *path, struct analysis *into)
{
    struct check_gate *gate = *check_review_gate(base);
    char *rel = gate != NULL ? check_review_relative(base, path) : NULL;
    int status = 0;
    for (struct gate_file *f = rel != NULL ? gate->first : NULL; f != NULL; f = f->next) {
        char *kept =
            f->config && f->analysed && !f->taken ? check_review_relative(base, f->path) : NULL;
        bool same = kept != NULL && strcmp(kept, rel) == 0;
        free(kept);
        if (!same)
            continue;
        f->taken = true; /* its strings live in its arena until the end of the run */
        for (uint32_t i = 0; status == 0 && i < f->analysis.diags.count; i++)
            status = diag_list_add(&into->diags, &f->analysis.diags.items[i]);
        diag_list_sort(&into->diags);
        break;
    }
    free(rel);
    return status;
}

void check_gate_baseline(struct check_review *base, const char *path)
{
    keep(base, path, false);
}

enum diag_severity check_gate_severity(struct check_configs *configs, const char *path)
{
    struct check_target target;
    enum diag_severity fallback = code_info(CODE_RISKY_CHANGE)->severity;
    enum diag_severity severity = fallback;
    if (check_configs_for(configs, path, &target))
        severity = settings_severity(target.settings, CODE_RISKY_CHANGE, fallback);
    free(target.path);
    free(target.kind_file_name);
    return severity;
}

/* Reports `a` (the file `shown`) when it holds a finding. */
static void report(const struct check_options *options, const char *shown, struct analysis *a,
                   bool deleted, struct report_summary *summary)
{
    if (a->diags.count == 0)
        return;
    struct checked_file file = {.path = shown, .analysis = a, .deleted = deleted};
    summary->files++;
    report_count(summary, a, NULL);
    options->reporter->file(options->reporter, &file);
}

/* The whole of the file `path`, malloc'd, or NULL. */
static char *read_now(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *text = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
                     ? read_descriptor(fd, (size_t)st.st_size, len)
                     : NULL;
    close(fd);
    return text;
}

/* The own settings of the srcls.json that governs `path` now (none: the defaults; one with
 * mistakes checks nothing: the defaults too) into `own`. False when memory ran out. */
static bool settings_now(struct check_configs *configs, const char *path, struct settings *own)
{
    const char *config = check_configs_path(configs, path);
    size_t len = 0;
    char *text = config != NULL && config[0] != '\0' ? read_now(config, &len) : NULL;
    struct analysis a;
    bool ok = config != NULL && (text == NULL || project_analyze(&a, text, len, NULL, own) >= 0);
    if (text != NULL)
        analysis_free(&a);
    free(text);
    return ok;
}

void check_gate_deleted(struct check_review *base, const struct check_options *options,
                        const char *rel, const char *shown, struct report_summary *summary)
{
    char *text;
    size_t len = 0;
    if (check_review_read_rel(base, rel, shown, &text, &len) != 1) {
        free(text);
        return;
    }
    struct analysis old, gone;
    struct settings old_own, now_own;
    settings_init(&old_own);
    settings_init(&now_own);
    bool ok = project_analyze(&old, text, len, NULL, &old_own) >= 0 &&
              settings_now(options->configs, shown, &now_own);
    enum diag_severity severity = stricter(
        check_gate_severity(options->configs, shown),
        settings_severity(&old_own, CODE_RISKY_CHANGE, code_info(CODE_RISKY_CHANGE)->severity));
    if (ok) {
        struct settings none;
        settings_init(&none);
        ok = project_analyze(&gone, "", 0, NULL, &none) >= 0;
        settings_free(&none);
        gone.diags.count = 0; /* an empty text's syntax error */
        /* its directory is governed now by the srcls.json above it, or by the defaults */
        ok = ok && project_review(&gone, &now_own, &old, &old_own, check_review_name(base),
                                  severity) == 0;
        if (ok)
            report(options, shown, &gone, true, summary);
        analysis_free(&gone);
    }
    if (!ok)
        check_review_fail(base, shown);
    analysis_free(&old);
    settings_free(&old_own);
    settings_free(&now_own);
    free(text);
}

/* Reviews the baseline file of `f` and reports it, shown as `shown`. */
static void report_baseline(struct check_review *base, const struct check_options *options,
                            struct gate_file *f, const char *shown, struct report_summary *summary)
{
    size_t len = 0, old_len = 0;
    char *old_text = NULL;
    char *text = read_now(f->path, &len);
    int found = text != NULL ? check_review_read(base, f->path, &old_text, &old_len) : 2;
    struct analysis_options analysis_options = {.registry = options->registry};
    if (found != 2 && found >= 0) {
        f->analysed = true;
        bool ok = analysis_run(&f->analysis, text, len, &analysis_options) == 0;
        f->analysis.diags.count = 0; /* a baseline file is no document */
        ok = ok && project_review_baseline(&f->analysis, text, len, found == 1 ? old_text : NULL,
                                           old_len, check_review_name(base),
                                           check_gate_severity(options->configs, f->path)) == 0;
        if (ok)
            report(options, shown, &f->analysis, false, summary);
        else
            check_review_fail(base, shown);
    }
    free(old_text);
    free(text); /* reported: the analysis is no longer read */
}

void check_gate_report(struct check_review *base, const struct check_options *options,
                       struct report_summary *summary)
{
    struct check_gate *gate = *check_review_gate(base);
    char here[PATH_MAX];
    const char *cwd = getcwd(here, sizeof here);
    for (struct gate_file *f = gate != NULL ? gate->first : NULL; f != NULL; f = f->next) {
        char *whole = cwd != NULL ? check_path_absolute(cwd, f->path) : NULL;
        char *relative = whole != NULL ? baseline_relative(cwd, whole) : NULL;
        const char *shown = relative != NULL ? relative : f->path;
        if (!check_shard_owns(options->shard, options->shard_count,
                              shown)) /* --shard: another shard's file */
            ;
        else if (!f->config)
            report_baseline(base, options, f, shown, summary);
        else if (!f->taken) /* else reported with the file named */
            report(options, shown, &f->analysis, false, summary);
        free(whole);
        free(relative);
    }
}

void check_gate_free(struct check_gate *gate)
{
    while (gate != NULL && gate->stricts != NULL) {
        struct gate_strict *s = gate->stricts;
        gate->stricts = s->next;
        settings_free(&s->settings);
        free(s->config);
        free(s->then);
        free(s);
    }
    while (gate != NULL && gate->first != NULL) {
        struct gate_file *f = gate->first;
        gate->first = f->next;
        if (f->analysed)
            analysis_free(&f->analysis);
        free(f->text);
        free(f->path);
        free(f);
    }
    free(gate);
}
