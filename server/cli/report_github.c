/* report_github: GitHub Actions workflow commands, one per diagnostic
 * (`::error file=P,line=L,endLine=L2,col=C,endColumn=C2,title=CODE::message`), then the
 * summary line, since GitHub shows only the first few annotations of a step. */
#include <string.h>

#include "domain/domain.h"
#include "report.h"

/* Writes `text` escaped for a workflow command: %, CR and LF always; ':' and ',' too in a
 * property value. */
static void put_escaped(FILE *out, const char *text, bool property)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':':
            if (property) {
                fputs("%3A", out);
                break;
            }
            fputc(*c, out);
            break;
        case ',':
            if (property) {
                fputs("%2C", out);
                break;
            }
            fputc(*c, out);
            break;
        default: fputc(*c, out);
        }
    }
}

static void github_begin(struct reporter *self)
{
    (void)self;
}

static void github_file(struct reporter *self, const struct checked_file *file)
{
    FILE *out = self->out;
    if (file->read_error != NULL) {
        fputs("::error file=", out);
        put_escaped(out, file->path, true);
        fputs(",title=srcls::", out);
        put_escaped(out, file->read_error, false);
        fputc('\n', out);
        return;
    }
    const struct analysis *a = file->analysis;
    for (uint32_t i = report_next_new(file, 0); i < a->diags.count;
         i = report_next_new(file, i + 1)) {
        const struct diagnostic *d = &a->diags.items[i];
        struct text_position start = line_index_position(&a->lines, d->start, POSITION_UTF32);
        struct text_position end = line_index_position(&a->lines, d->end, POSITION_UTF32);
        const char *command = d->severity == DIAG_ERROR     ? "error"
                              : d->severity == DIAG_WARNING ? "warning"
                                                            : "notice";
        fprintf(out, "::%s file=", command);
        put_escaped(out, file->path, true);
        if (!file->deleted) /* a deleted file: an annotation on the file */
            fprintf(out, ",line=%u,endLine=%u,col=%u,endColumn=%u", start.line + 1, end.line + 1,
                    start.character + 1, end.character + 1);
        fputs(",title=", out);
        put_escaped(out, code_name(d->code), true);
        fputs("::", out);
        put_escaped(out, d->message, false);
        fputc('\n', out);
    }
}

static void github_init(struct reporter *reporter)
{
    report_text_init(reporter); /* the same summary line as the text format */
    reporter->begin = github_begin;
    reporter->file = github_file;
}

const struct report_format report_format_github = {"github", github_init};
