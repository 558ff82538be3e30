/* report_text: `path:line:column: severity: message [code]`, gcc style, with a note line for
 * related places and a summary line. Columns count characters, 1-based. With show_source, a
 * code frame under each (the line, carets under the range), as ruff and rustc show them, with
 * every value that could be a secret masked (excerpt). */
#include <string.h>

#include "domain/domain.h"
#include "assist/assist.h"
#include "report.h"

static const char *severity_color(enum diag_severity severity)
{
    switch (severity) {
    case DIAG_ERROR: return "\033[1;31m";
    case DIAG_WARNING: return "\033[1;33m";
    case DIAG_INFORMATION: return "\033[1;36m";
    case DIAG_HINT: return "\033[1;32m";
    case DIAG_OFF: break;
    }
    return "";
}

static void text_begin(struct reporter *self)
{
    (void)self;
}

static void print_position(struct reporter *self, const char *path, struct text_position pos)
{
    if (self->color)
        fprintf(self->out, "\033[1m%s:%u:%u:\033[0m ", path, pos.line + 1, pos.character + 1);
    else
        fprintf(self->out, "%s:%u:%u: ", path, pos.line + 1, pos.character + 1);
}

static void print_location(struct reporter *self, const char *path, const struct line_index *lines,
                           uint32_t offset)
{
    print_position(self, path, line_index_position(lines, offset, POSITION_UTF32));
}

/* Characters (not bytes) in [from, to) of `text`. */
static unsigned characters(const char *text, uint32_t from, uint32_t to)
{
    unsigned n = 0;
    for (uint32_t i = from; i < to; i++)
        n += ((unsigned char)text[i] & 0xC0) != 0x80;
    return n;
}

/* The frame of bytes [start, end): `  LINE | text` and `       | ^^^^`. */
static void print_frame(struct reporter *self, const struct analysis *a, uint32_t start,
                        uint32_t end)
{
    struct arena arena;
    arena_init(&arena);
    uint32_t caret, caret_end;
    const char *line = excerpt_at(a, start, end, &arena, &caret, &caret_end);
    if (line != NULL) {
        unsigned number = line_index_position(&a->lines, start, POSITION_UTF8).line + 1;
        int width = fprintf(self->out, "%5u", number);
        fprintf(self->out, " | %s\n%*s | %*s", line, width, "", (int)characters(line, 0, caret),
                "");
        unsigned marks = characters(line, caret, caret_end);
        for (unsigned i = 0; i < (marks ? marks : 1); i++)
            fputc('^', self->out);
        fputc('\n', self->out);
    }
    arena_free(&arena);
}

/* The note of a related place: in this file (with its frame), or in another one. */
static void print_related(struct reporter *self, const char *path, const struct analysis *a,
                          const struct diagnostic *d)
{
    const struct diag_elsewhere *other = d->related_elsewhere;
    if (d->related_message == NULL || (other == NULL && d->related_start == UINT32_MAX))
        return;
    if (other != NULL)
        print_position(self, other->path, other->start[POSITION_UTF32]);
    else
        print_location(self, path, &a->lines, d->related_start);
    fprintf(self->out, "note: %s\n", d->related_message);
    if (self->show_source && other == NULL)
        print_frame(self, a, d->related_start, d->related_end);
}

static void text_file(struct reporter *self, const struct checked_file *file)
{
    if (file->read_error != NULL) {
        fprintf(self->out, "%s: %serror:%s %s\n", file->path, self->color ? "\033[1;31m" : "",
                self->color ? "\033[0m" : "", file->read_error);
        return;
    }
    const struct analysis *a = file->analysis;
    for (uint32_t i = report_next_new(file, 0); i < a->diags.count;
         i = report_next_new(file, i + 1)) {
        const struct diagnostic *d = &a->diags.items[i];
        if (file->deleted) /* no place in a file that is gone */
            fprintf(self->out, "%s: ", file->path);
        else
            print_location(self, file->path, &a->lines, d->start);
        const char *name = diag_severity_name(d->severity);
        if (self->color)
            fprintf(self->out, "%s%s:\033[0m %s [%s]\n", severity_color(d->severity), name,
                    d->message, code_name(d->code));
        else
            fprintf(self->out, "%s: %s [%s]\n", name, d->message, code_name(d->code));
        if (self->show_source && !file->deleted)
            print_frame(self, a, d->start, d->end);
        print_related(self, file->path, a, d);
    }
}

static void plural(FILE *out, unsigned n, const char *one, const char *many)
{
    fprintf(out, "%u %s", n, n == 1 ? one : many);
}

static void text_end(struct reporter *self, const struct report_summary *s)
{
    FILE *out = self->out;
    if (self->quiet)
        return;
    fputs("checked ", out);
    plural(out, s->files, "file", "files");
    fputs(": ", out);
    plural(out, s->errors, "error", "errors");
    fputs(", ", out);
    plural(out, s->warnings, "warning", "warnings");
    fputs(", ", out);
    fprintf(out, "%u information, ", s->information);
    plural(out, s->hints, "hint", "hints");
    if (s->unreadable > 0) {
        fputs(" (", out);
        plural(out, s->unreadable, "path", "paths");
        fputs(" could not be read)", out);
    }
    if (s->nothing_checked > 0) {
        fputs(" (", out);
        plural(out, s->nothing_checked, "path", "paths");
        fputs(" named held nothing to check)", out);
    }
    fputc('\n', out);
    if (s->baseline) {
        plural(out, s->baseline_entries, "finding", "findings");
        fprintf(out, " in the baseline, %u of them fixed", s->baseline_fixed);
        if (s->baseline_unchecked > 0) /* hidden is not fixed */
            fprintf(out, ", %u not checked in this run", s->baseline_unchecked);
        fputc('\n', out);
    }
}

void report_text_init(struct reporter *reporter)
{
    reporter->begin = text_begin;
    reporter->file = text_file;
    reporter->end = text_end;
}

const struct report_format report_format_text = {"text", report_text_init};
