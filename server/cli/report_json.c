/* report_json: the JSON output (docs/cli.md, "Formats"), one object on stdout, streamed file by
 * file. */
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"
#include "report.h"

/* Writes the file's object, or marks the report as not whole when it could not be built: a
 * half-built object would make the whole output invalid JSON. Write errors show in ferror. */
static void flush(struct reporter *self, struct json_writer *w)
{
    if (w->failed)
        self->failed = true;
    else
        fwrite(w->buf, 1, w->len, self->out);
}

static void json_begin(struct reporter *self)
{
    fputs("{\n  \"version\": 1,\n  \"files\": [", self->out);
}

/* "related": the place in this file, or in another one (with its "path", placed when that file
 * was read). */
static void write_related(struct json_writer *w, const struct analysis *a,
                          const struct diagnostic *d)
{
    const struct diag_elsewhere *other = d->related_elsewhere;
    if (d->related_message == NULL || (other == NULL && d->related_start == UINT32_MAX))
        return;
    json_write_key(w, "related");
    json_write_array_begin(w);
    json_write_object_begin(w);
    json_write_key(w, "message");
    json_write_string(w, d->related_message);
    if (other != NULL) {
        json_write_key(w, "path");
        json_write_string(w, other->path);
        json_write_key(w, "range");
        json_write_object_begin(w);
        json_write_key(w, "start");
        line_index_write_text_position(w, other->start[POSITION_UTF16]);
        json_write_key(w, "end");
        line_index_write_text_position(w, other->end[POSITION_UTF16]);
        json_write_object_end(w);
    } else {
        json_write_key(w, "range");
        line_index_write_range(w, &a->lines, d->related_start, d->related_end, POSITION_UTF16);
    }
    json_write_object_end(w);
    json_write_array_end(w);
}

static void json_file(struct reporter *self, const struct checked_file *file)
{
    struct json_writer w;
    json_writer_init(&w, 0);
    const char *separator = self->files_seen++ > 0 ? ",\n    " : "\n    ";
    json_write_bytes(&w, separator, strlen(separator));
    json_write_object_begin(&w);
    json_write_key(&w, "path");
    json_write_string(&w, file->path);
    const struct analysis *a = file->analysis;
    if (file->read_error != NULL) {
        json_write_key(&w, "document");
        json_write_string(&w, "unknown");
        json_write_key(&w, "kind");
        json_write_null(&w);
        json_write_key(&w, "error");
        json_write_string(&w, file->read_error);
        json_write_key(&w, "diagnostics");
        json_write_array_begin(&w);
        json_write_array_end(&w);
        json_write_object_end(&w);
        flush(self, &w);
        json_writer_free(&w);
        return;
    }
    json_write_key(&w, "document");
    json_write_string(&w, document_kind_name(a->document));
    json_write_key(&w, "kind");
    if (a->kind != NULL && a->document != DOCUMENT_BULK)
        json_write_string(&w, a->kind);
    else
        json_write_null(&w);
    json_write_key(&w, "diagnostics");
    json_write_array_begin(&w);
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        json_write_object_begin(&w);
        json_write_key(&w, "code");
        json_write_string(&w, code_name(d->code));
        json_write_key(&w, "severity");
        json_write_string(&w, diag_severity_name(d->severity));
        json_write_key(&w, "message");
        json_write_string(&w, d->message);
        json_write_key(&w, "pointer");
        json_write_string(&w, d->pointer);
        if (file->baselined != NULL) { /* --baseline: whether the baseline holds it */
            json_write_key(&w, "baselined");
            json_write_bool(&w, file->baselined[i] != 0);
        }
        if (!file->deleted) {
            json_write_key(&w, "range");
            line_index_write_range(&w, &a->lines, d->start, d->end, POSITION_UTF16);
        }
        write_related(&w, a, d);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    json_write_object_end(&w);
    flush(self, &w);
    json_writer_free(&w);
}

static void json_end(struct reporter *self, const struct report_summary *s)
{
    fprintf(self->out,
            "%s],\n  \"summary\": {\"files\": %u, \"errors\": %u, \"warnings\": %u, "
            "\"information\": %u, \"hints\": %u",
            self->files_seen ? "\n  " : "", s->files, s->errors, s->warnings, s->information,
            s->hints);
    if (s->nothing_checked > 0) /* paths named that held no document */
        fprintf(self->out, ", \"nothingChecked\": %u", s->nothing_checked);
    if (s->baseline) /* --baseline: the entries, matched and fixed */
        fprintf(self->out,
                ", \"baseline\": {\"findings\": %u, \"unchanged\": %u, \"fixed\": %u, "
                "\"unchecked\": %u}",
                s->baseline_entries, s->baseline_unchanged, s->baseline_fixed,
                s->baseline_unchecked);
    fputs("}\n}\n", self->out);
}

static void json_init(struct reporter *reporter)
{
    reporter->begin = json_begin;
    reporter->file = json_file;
    reporter->end = json_end;
}

const struct report_format report_format_json = {"json", json_init};
