/* report: the output formats of `srcls --check`. A reporter sees each file once, in order,
 * right after it is checked, so output streams and memory stays flat over many files. */
#ifndef SRCLS_REPORT_H
#define SRCLS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "check/check.h"
#include "json/json.h"

/* --baseline: an entry whose finding is gone, for SARIF's `absent` results. */
struct report_absent {
    const char *path;                     /* relative to the current directory */
    const char *code, *element, *pointer; /* element: the bulk element's name, or NULL */
};

struct report_summary {
    unsigned files;
    unsigned errors, warnings, information, hints; /* --baseline: the new findings only */
    unsigned unreadable;
    unsigned nothing_checked; /* paths named that held no source or job document */
    /* --baseline or --write-baseline: the entries of the baseline, how many of them matched a
     * finding of this run and how many are fixed (gone from a file checked, or their file
     * deleted); the fixed ones (absent, absent_count) */
    bool baseline;
    unsigned baseline_entries, baseline_unchanged, baseline_fixed;
    unsigned baseline_unchecked; /* entries whose finding was not looked for (code not checked) */
    const struct report_absent *absent;
    unsigned absent_count;
};

struct checked_file {
    const char *path;                /* as the user named it (or found in a directory) */
    const char *read_error;          /* NULL, or why the file could not be read */
    const struct analysis *analysis; /* NULL when read_error is set */
    /* --base: the file was deleted since REF; its diagnostics are about the whole file and
     * have no place in it (no range in json, no region in sarif, no line in github and text). */
    bool deleted;
    /* --baseline: per diagnostic, 1 when the baseline holds it (NULL: no baseline). Text,
     * github and gitlab leave those out; json and sarif say which they are. */
    const unsigned char *baselined;
};

/* Whether the i-th diagnostic of `file` is new: not held by the --baseline (every one is new
 * without a baseline). The one test every format makes before it reports or counts one. */
static inline bool report_is_new(const struct checked_file *file, uint32_t i)
{
    return file->baselined == NULL || !file->baselined[i];
}

/* The first new diagnostic of `file` at index `i` or after it, or the count of its diagnostics
 * when there is none: `for (i = report_next_new(file, 0); i < count; i = report_next_new(file,
 * i + 1))` visits the new ones, what text, github and gitlab report. */
static inline uint32_t report_next_new(const struct checked_file *file, uint32_t i)
{
    if (file->analysis == NULL) /* unreadable: nothing to visit */
        return i;
    while (i < file->analysis->diags.count && !report_is_new(file, i))
        i++;
    return i;
}

struct reporter {
    void (*begin)(struct reporter *self);
    void (*file)(struct reporter *self, const struct checked_file *file);
    void (*end)(struct reporter *self, const struct report_summary *summary);
    /* The format's own `file`, which report_select's `file` calls with the path as shown. */
    void (*format_file)(struct reporter *self, const struct checked_file *file);
    FILE *out;
    const char *out_name; /* --output-file's path, for messages; NULL: standard output */
    bool color;
    bool quiet; /* --quiet: no summary line (text, github); the JSON formats are whole anyway */
    bool show_source; /* text: a code frame under each diagnostic (secrets masked) */
    unsigned files_seen;
    bool failed; /* a format could not build part of its output (memory): the report is not whole */
    /* What a format keeps for its end (SARIF's notifications of unreadable paths); zeroed by
     * report_select, freed by the format's end. */
    struct json_writer deferred;
    unsigned deferred_count;
    void *state; /* a format's own (--statistics's counts); freed by its end */
};

/* `path` as every format shows it: relative to the current directory without "./" when the
 * file is below it (its "." and ".." steps applied as cd does, or else through its real path),
 * otherwise as named with those steps applied ("../x/a.json", or absolute); standard input's
 * "<stdin>" as it is. Returns `path` or `buf`. */
const char *report_path(const char *path, char *buf, size_t size);

/* The name of the `i`th format of --check ("text" first), or NULL past the last: the one list
 * of them (usage errors, --generate-docs formats and completion, the synopsis of docs/cli.md). */
const char *report_format_name(size_t i);

/* Fills `reporter` for the format `name` ("text", "json", "sarif", "github", "gitlab"); false
 * when the name is unknown. */
bool report_select(struct reporter *reporter, const char *name, FILE *out, bool color);
/* --color WHEN: 1 color, 0 none, -1 not a WHEN ("always", "never", "auto"). */
int report_color_mode(const char *when);
/* Flushes the report. 0, or -1 after saying on stderr why the report is not whole: a write
 * failed (a full disk, a closed pipe) or a format could not build its output. */
int report_flush(struct reporter *reporter);

/* --statistics (text only): instead of each diagnostic, how many of each code, most first, then
 * the summary line. Returns false when memory ran out. */
bool report_statistics_init(struct reporter *reporter);

/* Counts in `summary` the diagnostics of `a` that are new (not `baselined`, which may be NULL). */
void report_count(struct report_summary *summary, const struct analysis *a,
                  const unsigned char *baselined);

/* An output format of --check: its name and what sets a reporter up for it. Each format's file
 * defines one (`report_format_NAME`), and report.c's table lists them: adding a format touches
 * its file, that table and meson.build; --help, the man page, the completion and the docs take
 * the names from the table. */
struct report_format {
    const char *name;
    void (*init)(struct reporter *reporter);
};

/* The text format's reporter (github and --statistics end with its summary line). */
void report_text_init(struct reporter *reporter);

#endif
