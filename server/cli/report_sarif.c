/* report_sarif: SARIF 2.1.0 as GitHub code scanning accepts it — one run, the rules with their
 * help, each result with a full region (1-based, UTF-16 columns), a URI relative to the current
 * directory and a partial fingerprint built from path, code and JSON Pointer, so it stays put
 * when unrelated lines move. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codes.h"
#include "json_write.h"
#include "report.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif

static const char *sarif_level(enum diag_severity severity)
{
    switch (severity) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    default: return "note";
    }
}

/* Writes what `w` holds and frees it, or marks the report as not whole when it could not be
 * built: a half-built object would make the whole output invalid JSON. */
static void flush(struct reporter *self, struct json_writer *w)
{
    if (w->failed)
        self->failed = true;
    else if (w->len > 0)
        fwrite(w->buf, 1, w->len, self->out);
    json_writer_free(w);
}

static void sarif_begin(struct reporter *self)
{
    struct json_writer w;
    json_writer_init(&w, 0);
    json_write_bytes(&w,
                     "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
                     "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":",
                     strlen("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
                            "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"));
    json_write_object_begin(&w);
    json_write_key(&w, "name");
    json_write_string(&w, "srcls");
    json_write_key(&w, "version");
    json_write_string(&w, SRCLS_VERSION);
    json_write_key(&w, "rules");
    json_write_array_begin(&w);
    for (int code = 0; code < CODE_COUNT; code++) {
        const struct code_info *c = code_info((enum diag_code)code);
        json_write_object_begin(&w);
        json_write_key(&w, "id");
        json_write_string(&w, c->name);
        json_write_key(&w, "shortDescription");
        json_write_object_begin(&w);
        json_write_key(&w, "text");
        json_write_string(&w, c->summary);
        json_write_object_end(&w);
        json_write_key(&w, "fullDescription");
        json_write_object_begin(&w);
        json_write_key(&w, "text");
        json_write_string(&w, c->explanation);
        json_write_object_end(&w);
        json_write_key(&w, "help");
        json_write_object_begin(&w);
        json_write_key(&w, "text");
        json_write_string(&w, c->explanation);
        json_write_object_end(&w);
        json_write_key(&w, "defaultConfiguration");
        json_write_object_begin(&w);
        json_write_key(&w, "level");
        json_write_string(&w, sarif_level(c->severity));
        json_write_object_end(&w);
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    json_write_object_end(&w);
    json_write_bytes(&w, "},\"columnKind\":\"utf16CodeUnits\",\"results\":[",
                     strlen("},\"columnKind\":\"utf16CodeUnits\",\"results\":["));
    flush(self, &w);
}

/* The path relative to the current directory where it is below it; without a leading "./". */
static const char *relative_uri(const char *path, char *buffer, size_t size)
{
    if (path[0] == '/') {
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd) != NULL) {
            size_t n = strlen(cwd);
            if (strncmp(path, cwd, n) == 0 && path[n] == '/')
                path += n + 1;
        }
    }
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    snprintf(buffer, size, "%s", path);
    return buffer;
}

static unsigned long fingerprint(const char *path, const char *code, const char *pointer)
{
    unsigned long h = 5381;
    const char *parts[] = {path, "\n", code, "\n", pointer};
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        for (const char *c = parts[p]; *c; c++)
            h = h * 33 + (unsigned char)*c;
    }
    return h & 0xffffffffffffUL;
}

/* An unreadable path: a tool execution notification at the end of the run (SARIF 2.1.0
 * §3.20.21), so that code scanning shows it, and a line on stderr for the person at the
 * terminal. */
static void sarif_unreadable(struct reporter *self, const struct checked_file *file)
{
    fprintf(stderr, "srcls: %s: %s\n", file->path, file->read_error);
    char uri[4096];
    relative_uri(file->path, uri, sizeof uri);
    struct json_writer *w = &self->deferred;
    if (self->deferred_count++ == 0)
        json_writer_init(w, 0);
    else
        json_write_bytes(w, ",", 1);
    json_write_object_begin(w);
    json_write_key(w, "level");
    json_write_string(w, "error");
    json_write_key(w, "message");
    json_write_object_begin(w);
    json_write_key(w, "text");
    json_write_string(w, file->read_error);
    json_write_object_end(w);
    json_write_key(w, "locations");
    json_write_array_begin(w);
    json_write_object_begin(w);
    json_write_key(w, "physicalLocation");
    json_write_object_begin(w);
    json_write_key(w, "artifactLocation");
    json_write_object_begin(w);
    json_write_key(w, "uri");
    json_write_string(w, uri);
    json_write_key(w, "uriBaseId");
    json_write_string(w, "%SRCROOT%");
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_array_end(w);
    json_write_object_end(w);
}

static void sarif_file(struct reporter *self, const struct checked_file *file)
{
    const struct analysis *a = file->analysis;
    if (file->read_error != NULL || a == NULL) {
        sarif_unreadable(self, file);
        return;
    }
    char uri[4096];
    relative_uri(file->path, uri, sizeof uri);
    struct json_writer w;
    json_writer_init(&w, 0);
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        struct text_position start = line_index_position(&a->lines, d->start, POSITION_UTF16);
        struct text_position end = line_index_position(&a->lines, d->end, POSITION_UTF16);
        if (self->files_seen++ > 0)
            json_write_bytes(&w, ",", 1);
        json_write_object_begin(&w);
        json_write_key(&w, "ruleId");
        json_write_string(&w, code_name(d->code));
        json_write_key(&w, "ruleIndex"); /* the rules above are listed in code order */
        json_write_int(&w, d->code);
        json_write_key(&w, "level");
        json_write_string(&w, sarif_level(d->severity));
        json_write_key(&w, "message");
        json_write_object_begin(&w);
        json_write_key(&w, "text");
        json_write_string(&w, d->message);
        json_write_object_end(&w);
        json_write_key(&w, "locations");
        json_write_array_begin(&w);
        json_write_object_begin(&w);
        json_write_key(&w, "physicalLocation");
        json_write_object_begin(&w);
        json_write_key(&w, "artifactLocation");
        json_write_object_begin(&w);
        json_write_key(&w, "uri");
        json_write_string(&w, uri);
        json_write_key(&w, "uriBaseId");
        json_write_string(&w, "%SRCROOT%");
        json_write_object_end(&w);
        json_write_key(&w, "region");
        json_write_object_begin(&w);
        json_write_key(&w, "startLine");
        json_write_int(&w, start.line + 1);
        json_write_key(&w, "startColumn");
        json_write_int(&w, start.character + 1);
        json_write_key(&w, "endLine");
        json_write_int(&w, end.line + 1);
        json_write_key(&w, "endColumn");
        json_write_int(&w, end.character + 1);
        json_write_object_end(&w);
        json_write_object_end(&w);
        json_write_object_end(&w);
        json_write_array_end(&w);
        json_write_key(&w, "properties");
        json_write_object_begin(&w);
        json_write_key(&w, "pointer");
        json_write_string(&w, d->pointer);
        json_write_object_end(&w);
        char print[32];
        snprintf(print, sizeof print, "%012lx", fingerprint(uri, code_name(d->code), d->pointer));
        json_write_key(&w, "partialFingerprints");
        json_write_object_begin(&w);
        json_write_key(&w, "srclsPointer/v1");
        json_write_string(&w, print);
        json_write_object_end(&w);
        json_write_object_end(&w);
    }
    flush(self, &w);
}

/* Closes the results and says in `invocations` whether every path could be read, with a
 * notification for each that could not. */
static void sarif_end(struct reporter *self, const struct report_summary *s)
{
    fprintf(self->out, "],\"invocations\":[{\"executionSuccessful\":%s",
            s->unreadable == 0 ? "true" : "false");
    if (self->deferred_count > 0) {
        fputs(",\"toolExecutionNotifications\":[", self->out);
        flush(self, &self->deferred);
        fputs("]", self->out);
    }
    fputs("}]}]}\n", self->out);
}

void report_sarif_init(struct reporter *reporter)
{
    reporter->begin = sarif_begin;
    reporter->file = sarif_file;
    reporter->end = sarif_end;
}
