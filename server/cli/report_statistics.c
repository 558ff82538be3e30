/* report_statistics: `--check --statistics` — a count per diagnostic code instead of each
 * diagnostic (as ruff's --statistics), and the exit policy of --check. */
#include <stdlib.h>
#include <string.h>

#include "check_command.h"
#include "domain/domain.h"
#include "report.h"

/* What the statistics keep: a count per code, and the text format's end for the summary. */
struct statistics {
    unsigned count[CODE_COUNT];
    void (*text_end)(struct reporter *self, const struct report_summary *summary);
};

static struct statistics *of(struct reporter *self)
{
    return self->state;
}

static void statistics_begin(struct reporter *self)
{
    (void)self;
}

static void statistics_file(struct reporter *self, const struct checked_file *file)
{
    self->files_seen++;
    if (file->analysis == NULL) {
        fprintf(self->out, "%s: could not be read: %s\n", file->path, file->read_error);
        return;
    }
    for (uint32_t i = 0; i < file->analysis->diags.count; i++)
        of(self)->count[file->analysis->diags.items[i].code] += report_is_new(file, i);
}

static void statistics_end(struct reporter *self, const struct report_summary *summary)
{
    struct statistics *st = of(self);
    bool listed[CODE_COUNT] = {false};
    for (;;) { /* the most frequent first, then by name; CODE_COUNT is small */
        int best = -1;
        for (int c = 0; c < CODE_COUNT; c++) {
            if (listed[c] || st->count[c] == 0)
                continue;
            if (best < 0 || st->count[c] > st->count[best] ||
                (st->count[c] == st->count[best] &&
                 strcmp(code_name((enum diag_code)c), code_name((enum diag_code)best)) < 0))
                best = c;
        }
        if (best < 0)
            break;
        listed[best] = true;
        fprintf(self->out, "%6u  %-22s %s\n", st->count[best], code_name((enum diag_code)best),
                code_info((enum diag_code)best)->summary);
    }
    st->text_end(self, summary);
    free(st);
    self->state = NULL;
}

bool report_statistics_init(struct reporter *reporter)
{
    void (*shown)(struct reporter *, const struct checked_file *) = reporter->file;
    report_text_init(reporter);
    reporter->file = shown; /* report_select's: the path as every format shows it */
    struct statistics *st = calloc(1, sizeof *st);
    if (st == NULL)
        return false;
    st->text_end = reporter->end;
    reporter->state = st;
    reporter->begin = statistics_begin;
    reporter->format_file = statistics_file;
    reporter->end = statistics_end;
    return true;
}

int check_exit_status(const struct report_summary *s, const struct check_options *options)
{
    if (options->exit_zero)
        return 0;
    /* DIAG_OFF (not set) is the default: errors */
    enum diag_severity least = options->fail_on == DIAG_OFF ? DIAG_ERROR : options->fail_on;
    unsigned counted = s->errors;
    counted += least >= DIAG_WARNING ? s->warnings : 0;
    counted += least >= DIAG_INFORMATION ? s->information : 0;
    counted += least >= DIAG_HINT ? s->hints : 0;
    return counted > 0 ? 1 : 0;
}
