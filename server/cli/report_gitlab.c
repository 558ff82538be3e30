/* report_gitlab: GitLab Code Quality — a JSON array of issues, each with `description`,
 * `check_name` (the code), `fingerprint` (unique in the report and stable: the file's path, the
 * code, the JSON Pointer and how many times that pair came before in the file, not the line),
 * `severity` (error: major, warning: minor, the rest: info) and `location.path` and
 * `location.lines.begin`. An unreadable path is an issue too (check_name `unreadable`). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "domain/domain.h"
#include "json/json.h"
#include "report.h"

static const char *gitlab_severity(enum diag_severity severity)
{
    switch (severity) {
    case DIAG_ERROR: return "major";
    case DIAG_WARNING: return "minor";
    default: return "info";
    }
}

/* The hash of the parts, each followed by a 0xff byte: a separator no text holds. */
static uint64_t hash(const char *const *parts, size_t count)
{
    uint64_t h = HASH_START;
    for (size_t p = 0; p < count; p++) {
        h = hash_bytes(h, parts[p], strlen(parts[p]));
        h = hash_bytes(h, "\xff", 1);
    }
    return h;
}

static void write_issue(struct reporter *self, struct json_writer *w, const char *path,
                        const char *code, const char *description, const char *severity,
                        unsigned line, const char *pointer, unsigned repeat)
{
    char repeated[16], print[24];
    snprintf(repeated, sizeof repeated, "%u", repeat);
    const char *parts[] = {path, code, pointer, repeated};
    snprintf(print, sizeof print, "%016llx", (unsigned long long)hash(parts, 4));
    if (self->files_seen++ > 0)
        json_write_bytes(w, ",\n  ", 4);
    json_write_object_begin(w);
    json_write_key(w, "description");
    json_write_string(w, description);
    json_write_key(w, "check_name");
    json_write_string(w, code);
    json_write_key(w, "fingerprint");
    json_write_string(w, print);
    json_write_key(w, "severity");
    json_write_string(w, severity);
    json_write_key(w, "location");
    json_write_object_begin(w);
    json_write_key(w, "path");
    json_write_string(w, path);
    json_write_key(w, "lines");
    json_write_object_begin(w);
    json_write_key(w, "begin");
    json_write_int(w, line);
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
}

static void gitlab_begin(struct reporter *self)
{
    fputs("[\n  ", self->out);
}

/* The diagnostics of `a` in order of code, pointer and place, for repeats_of (qsort has no
 * context: the analysis being sorted is this one; the reporters run on one thread). */
static const struct analysis *sorting;

static int by_code_pointer(const void *x, const void *y)
{
    uint32_t i = *(const uint32_t *)x, k = *(const uint32_t *)y;
    const struct diagnostic *a = &sorting->diags.items[i], *b = &sorting->diags.items[k];
    if (a->code != b->code)
        return a->code < b->code ? -1 : 1;
    int pointer = strcmp(a->pointer, b->pointer);
    return pointer != 0 ? pointer : (i > k) - (i < k);
}

/* Per diagnostic of `a`, how many with the same code at the same pointer come before it in the
 * file (malloc'd; NULL when memory ran out or there is none): sorted, not compared pairwise, so
 * that a file of many findings costs n log n, not n squared. */
static unsigned *repeats_of(const struct analysis *a)
{
    uint32_t n = a->diags.count;
    uint32_t *order = n > 0 ? malloc(n * sizeof *order) : NULL;
    unsigned *repeats = order != NULL ? malloc(n * sizeof *repeats) : NULL;
    if (repeats == NULL) {
        free(order);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    sorting = a;
    qsort(order, n, sizeof *order, by_code_pointer);
    for (uint32_t j = 0; j < n; j++) {
        const struct diagnostic *d = &a->diags.items[order[j]];
        const struct diagnostic *before = j > 0 ? &a->diags.items[order[j - 1]] : NULL;
        bool same =
            before != NULL && before->code == d->code && strcmp(before->pointer, d->pointer) == 0;
        repeats[order[j]] = same ? repeats[order[j - 1]] + 1 : 0;
    }
    free(order);
    return repeats;
}

static void gitlab_file(struct reporter *self, const struct checked_file *file)
{
    const char *path = file->path; /* as report_path shows it: no "./" */
    struct json_writer w;
    json_writer_init(&w, 0);
    const struct analysis *a = file->analysis;
    if (file->read_error != NULL || a == NULL) {
        fprintf(stderr, "srcls: %s: %s\n", file->path, file->read_error);
        write_issue(self, &w, path, "unreadable", file->read_error, "blocker", 1, "", 0);
    }
    unsigned *repeats = a != NULL ? repeats_of(a) : NULL;
    if (a != NULL && a->diags.count > 0 && repeats == NULL)
        w.failed = true; /* out of memory: the report is not whole */
    for (uint32_t i = report_next_new(file, 0); repeats != NULL && i < a->diags.count;
         i = report_next_new(file, i + 1)) {
        const struct diagnostic *d = &a->diags.items[i];
        struct text_position at = line_index_position(&a->lines, d->start, POSITION_UTF16);
        write_issue(self, &w, path, code_name(d->code), d->message, gitlab_severity(d->severity),
                    at.line + 1, d->pointer, repeats[i]);
    }
    free(repeats);
    if (w.failed)
        self->failed = true;
    else if (w.len > 0)
        fwrite(w.buf, 1, w.len, self->out);
    json_writer_free(&w);
}

static void gitlab_end(struct reporter *self, const struct report_summary *summary)
{
    (void)summary;
    fputs("\n]\n", self->out);
}

static void gitlab_init(struct reporter *reporter)
{
    reporter->begin = gitlab_begin;
    reporter->file = gitlab_file;
    reporter->end = gitlab_end;
}

const struct report_format report_format_gitlab = {"gitlab", gitlab_init};
