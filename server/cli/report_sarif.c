/* report_sarif: SARIF 2.1.0 as GitHub code scanning accepts it — one run, the rules with their
 * help and its address, each result with a full region (1-based, UTF-16 columns), the place a
 * duplicate key was first defined, an artifact URI (percent-encoded: relative to the current
 * directory below it, a file:// URI elsewhere) and a partial fingerprint built from the file's
 * name, the code and the JSON Pointer, so it stays put when unrelated lines move and whatever
 * directory srcls runs from. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "domain/domain.h"
#include "json/json.h"
#include "platform.h"
#include "report.h"

#ifndef SRCLS_VERSION
#define SRCLS_VERSION "unknown"
#endif
/* Where docs/ is published (meson option docs_url). */
#ifndef SRCLS_DOCS_URL
#define SRCLS_DOCS_URL "https://github.com/srcls/srcls/blob/main/docs"
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

/* Appends the pieces, NULL-terminated, to `b`. */
static void append(struct json_writer *b, const char *const *pieces)
{
    for (; *pieces != NULL; pieces++)
        json_write_bytes(b, *pieces, strlen(*pieces));
}

/* A rule's help in Markdown: summary, explanation, example, and the link to its docs. */
static const char *markdown_help(const struct code_info *c, const char *uri, struct json_writer *b)
{
    json_writer_free(b);
    json_writer_init(b, 0);
    append(b, (const char *const[]){"**", c->name, "**: ", c->summary, ".\n\n", c->explanation,
                                    "\n\nExample:\n\n```json\n", c->example,
                                    "\n```\n\n[More in the docs](", uri, ")", NULL});
    return b->failed ? c->explanation : b->buf;
}

static bool unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '/';
}

/* `path` percent-encoded (RFC 3986: all but unreserved bytes and '/') after `prefix`. */
static void encode(const char *prefix, const char *path, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "%s", prefix);
    for (const unsigned char *c = (const unsigned char *)path; *c && n + 4 < size; c++) {
        if (unreserved(*c))
            out[n++] = (char)*c;
        else
            n += (size_t)snprintf(out + n, size - n, "%%%02X", *c);
    }
    out[n < size ? n : size - 1] = '\0';
}

/* A rule of the security group: its tag and GitHub's "security-severity", so code scanning ranks
 * its alerts as security alerts (a code without a number of its own ranks medium). */
static void write_rule_properties(struct json_writer *w, const struct code_info *c)
{
    if (c->group == NULL || strcmp(c->group, CODE_GROUP_SECURITY) != 0)
        return;
    json_write_key(w, "properties");
    json_write_object_begin(w);
    json_write_key(w, "tags");
    json_write_array_begin(w);
    json_write_string(w, c->group);
    json_write_array_end(w);
    json_write_key(w, "security-severity");
    json_write_string(w, c->security_severity != NULL ? c->security_severity : "5.0");
    json_write_object_end(w);
}

static void write_rule(struct json_writer *w, const struct code_info *c,
                       struct json_writer *markdown)
{
    json_write_object_begin(w);
    json_write_key(w, "id");
    json_write_string(w, c->name);
    json_write_key(w, "shortDescription");
    json_write_object_begin(w);
    json_write_key(w, "text");
    json_write_string(w, c->summary);
    json_write_object_end(w);
    json_write_key(w, "fullDescription");
    json_write_object_begin(w);
    json_write_key(w, "text");
    json_write_string(w, c->explanation);
    json_write_object_end(w);
    char uri[512];
    snprintf(uri, sizeof uri, "%s/rules.md#%s", SRCLS_DOCS_URL, c->name);
    json_write_key(w, "helpUri");
    json_write_string(w, uri);
    json_write_key(w, "help");
    json_write_object_begin(w);
    json_write_key(w, "text");
    json_write_string(w, c->explanation);
    json_write_key(w, "markdown");
    json_write_string(w, markdown_help(c, uri, markdown));
    w->failed |= markdown->failed; /* the report says out of memory, not a shorter help */
    json_write_object_end(w);
    json_write_key(w, "defaultConfiguration");
    json_write_object_begin(w);
    json_write_key(w, "level");
    json_write_string(w, sarif_level(c->severity));
    json_write_object_end(w);
    write_rule_properties(w, c);
    json_write_object_end(w);
}

/* "originalUriBaseIds": %SRCROOT%, the directory srcls runs from (a file:// URI ending in '/'),
 * the base of every relative artifact URI. */
static void write_base_ids(struct json_writer *w)
{
    char cwd[PATH_MAX], uri[3 * PATH_MAX + 16];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return; /* no base to give: the relative URIs stay relative to where the log is read */
    encode("file://", cwd, uri, sizeof uri - 1);
    size_t n = strlen(uri);
    if (n == 0 || uri[n - 1] != '/')
        memcpy(uri + n, "/", 2);
    json_write_bytes(w, ",\"originalUriBaseIds\":", strlen(",\"originalUriBaseIds\":"));
    json_write_object_begin(w);
    json_write_key(w, "%SRCROOT%");
    json_write_object_begin(w);
    json_write_key(w, "uri");
    json_write_string(w, uri);
    json_write_object_end(w);
    json_write_object_end(w);
}

static void sarif_begin(struct reporter *self)
{
    struct json_writer w, markdown;
    json_writer_init(&w, 0);
    json_writer_init(&markdown, 0);
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
    json_write_key(&w, "informationUri");
    json_write_string(&w, SRCLS_DOCS_URL "/cli.md");
    json_write_key(&w, "rules");
    json_write_array_begin(&w);
    for (int code = 0; code < CODE_COUNT; code++)
        write_rule(&w, code_info((enum diag_code)code), &markdown);
    json_write_array_end(&w);
    json_write_object_end(&w);
    json_write_bytes(&w, "}", 1);
    write_base_ids(&w);
    json_write_bytes(&w, ",\"columnKind\":\"utf16CodeUnits\",\"results\":[",
                     strlen(",\"columnKind\":\"utf16CodeUnits\",\"results\":["));
    json_writer_free(&markdown);
    flush(self, &w);
}

/* The artifact of `path`: a URI relative to the current directory (with the %SRCROOT% base)
 * when the file is below it, else a file:// URI of its absolute path (no base), as report_path
 * writes it. True for the relative form. */
static bool artifact_uri(const char *path, char *out, size_t size)
{
    char shown[PATH_MAX], full[PATH_MAX];
    const char *relative = report_path(path, shown, sizeof shown);
    if (relative[0] != '/' && strncmp(relative, "..", 2) != 0) {
        encode("", relative, out, size);
        return true;
    }
    if (relative[0] != '/' && platform_realpath(path, full) != NULL)
        relative = full; /* above the current directory: its absolute path */
    encode("file://", relative, out, size);
    return false;
}

/* "artifactLocation": {"uri", "uriBaseId" when relative}. */
static void write_artifact(struct json_writer *w, const char *path)
{
    char uri[3 * PATH_MAX + 16];
    bool relative = artifact_uri(path, uri, sizeof uri);
    json_write_key(w, "artifactLocation");
    json_write_object_begin(w);
    json_write_key(w, "uri");
    json_write_string(w, uri);
    if (relative) {
        json_write_key(w, "uriBaseId");
        json_write_string(w, "%SRCROOT%");
    }
    json_write_object_end(w);
}

/* "region" from `start` to `end` (0-based, UTF-16 columns), written 1-based. */
static void write_positions(struct json_writer *w, struct text_position start,
                            struct text_position end)
{
    json_write_key(w, "region");
    json_write_object_begin(w);
    json_write_key(w, "startLine");
    json_write_int(w, start.line + 1);
    json_write_key(w, "startColumn");
    json_write_int(w, start.character + 1);
    json_write_key(w, "endLine");
    json_write_int(w, end.line + 1);
    json_write_key(w, "endColumn");
    json_write_int(w, end.character + 1);
    json_write_object_end(w);
}

/* "region" of bytes [start, end) in UTF-16 columns, 1-based. */
static void write_region(struct json_writer *w, const struct analysis *a, uint32_t from,
                         uint32_t to)
{
    write_positions(w, line_index_position(&a->lines, from, POSITION_UTF16),
                    line_index_position(&a->lines, to, POSITION_UTF16));
}

/* 64-bit arithmetic on every platform: the same fingerprint from the WebAssembly build (whose
 * long has 32 bits) as from the native one. */
static uint64_t fingerprint(const char *path, const char *code, const char *pointer)
{
    uint64_t h = 5381;
    const char *parts[] = {path, "\n", code, "\n", pointer};
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        for (const char *c = parts[p]; *c; c++)
            h = h * 33 + (unsigned char)*c;
    }
    return h & UINT64_C(0xffffffffffff);
}

/* A result's or a notification's "message" and "locations", up to the artifact of `path` (the
 * caller closes the physical location, the location and the list). */
static void write_message_at(struct json_writer *w, const char *message, const char *path)
{
    json_write_key(w, "message");
    json_write_object_begin(w);
    json_write_key(w, "text");
    json_write_string(w, message);
    json_write_object_end(w);
    json_write_key(w, "locations");
    json_write_array_begin(w);
    json_write_object_begin(w);
    json_write_key(w, "physicalLocation");
    json_write_object_begin(w);
    write_artifact(w, path);
}

/* An unreadable path: a tool execution notification at the end of the run (SARIF 2.1.0
 * §3.20.21), so that code scanning shows it, and a line on stderr for the person at the
 * terminal. */
static void sarif_unreadable(struct reporter *self, const struct checked_file *file)
{
    fprintf(stderr, "srcls: %s: %s\n", file->path, file->read_error);
    struct json_writer *w = &self->deferred;
    if (self->deferred_count++ == 0)
        json_writer_init(w, 0);
    else
        json_write_bytes(w, ",", 1);
    json_write_object_begin(w);
    json_write_key(w, "level");
    json_write_string(w, "error");
    write_message_at(w, file->read_error, file->path);
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_array_end(w);
    json_write_object_end(w);
}

/* "relatedLocations": where a duplicate key was first defined, or a duplicate name first taken
 * (in this file, or in another: its own artifact). */
static void write_related(struct json_writer *w, const char *path, const struct analysis *a,
                          const struct diagnostic *d)
{
    json_write_key(w, "relatedLocations");
    json_write_array_begin(w);
    json_write_object_begin(w);
    json_write_key(w, "id");
    json_write_int(w, 1);
    json_write_key(w, "physicalLocation");
    json_write_object_begin(w);
    const struct diag_elsewhere *other = d->related_elsewhere;
    write_artifact(w, other != NULL ? other->path : path);
    if (other != NULL)
        write_positions(w, other->start[POSITION_UTF16], other->end[POSITION_UTF16]);
    else
        write_region(w, a, d->related_start, d->related_end);
    json_write_object_end(w);
    json_write_key(w, "message");
    json_write_object_begin(w);
    json_write_key(w, "text");
    json_write_string(w, d->related_message);
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_array_end(w);
}

/* Opens a result of the rule `code` and writes it up to its physical location's artifact (which
 * the caller closes, a region written or not, with the locations). */
static void write_result_start(struct json_writer *w, enum diag_code code, const char *level,
                               const char *message, const char *path)
{
    json_write_object_begin(w);
    json_write_key(w, "ruleId");
    json_write_string(w, code_name(code));
    json_write_key(w, "ruleIndex"); /* the rules above are listed in code order */
    json_write_int(w, code);
    json_write_key(w, "level");
    json_write_string(w, level);
    write_message_at(w, message, path);
}

static void sarif_file(struct reporter *self, const struct checked_file *file)
{
    const struct analysis *a = file->analysis;
    if (file->read_error != NULL || a == NULL) {
        sarif_unreadable(self, file);
        return;
    }
    const char *name = strrchr(file->path, '/');
    name = name ? name + 1 : file->path; /* the fingerprint's: the same from any directory */
    struct json_writer w;
    json_writer_init(&w, 0);
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if (self->files_seen++ > 0)
            json_write_bytes(&w, ",", 1);
        write_result_start(&w, d->code, sarif_level(d->severity), d->message, file->path);
        if (!file->deleted) /* a deleted file: the result is about the file */
            write_region(&w, a, d->start, d->end);
        json_write_object_end(&w);
        json_write_object_end(&w);
        json_write_array_end(&w);
        if (d->related_message != NULL &&
            (d->related_start != UINT32_MAX || d->related_elsewhere != NULL))
            write_related(&w, file->path, a, d);
        json_write_key(&w, "properties");
        json_write_object_begin(&w);
        json_write_key(&w, "pointer");
        json_write_string(&w, d->pointer);
        json_write_object_end(&w);
        if (file->baselined != NULL) { /* --baseline (SARIF 2.1.0 §3.27.24) */
            json_write_key(&w, "baselineState");
            json_write_string(&w, file->baselined[i] ? "unchanged" : "new");
        }
        char print[32];
        snprintf(print, sizeof print, "%012" PRIx64,
                 fingerprint(name, code_name(d->code), d->pointer));
        json_write_key(&w, "partialFingerprints");
        json_write_object_begin(&w);
        json_write_key(&w, "srclsPointer/v1");
        json_write_string(&w, print);
        json_write_object_end(&w);
        json_write_object_end(&w);
    }
    flush(self, &w);
}

/* --baseline: an entry whose finding is gone, as a result with baselineState "absent" (level
 * none) on its file, its pointer (and bulk element) in its properties. */
static void sarif_absent(struct reporter *self, const struct report_absent *absent)
{
    struct json_writer w;
    json_writer_init(&w, 0);
    if (self->files_seen++ > 0)
        json_write_bytes(&w, ",", 1);
    int code = code_parse(absent->code); /* a code the baseline's reading checked */
    write_result_start(&w, (enum diag_code)(code >= 0 ? code : 0), "none",
                       "fixed: the baseline holds this finding, the run did not find it",
                       absent->path);
    json_write_object_end(&w);
    json_write_object_end(&w);
    json_write_array_end(&w);
    json_write_key(&w, "properties");
    json_write_object_begin(&w);
    if (absent->element != NULL) {
        json_write_key(&w, "element");
        json_write_string(&w, absent->element);
    }
    json_write_key(&w, "pointer");
    json_write_string(&w, absent->pointer);
    json_write_object_end(&w);
    json_write_key(&w, "baselineState");
    json_write_string(&w, "absent");
    json_write_object_end(&w);
    flush(self, &w);
}

/* Closes the results and says in `invocations` whether every path could be read, with a
 * notification for each that could not. */
static void sarif_end(struct reporter *self, const struct report_summary *s)
{
    for (unsigned i = 0; i < s->absent_count; i++)
        sarif_absent(self, &s->absent[i]);
    fprintf(self->out, "],\"invocations\":[{\"executionSuccessful\":%s",
            s->unreadable == 0 ? "true" : "false");
    if (self->deferred_count > 0) {
        fputs(",\"toolExecutionNotifications\":[", self->out);
        flush(self, &self->deferred);
        fputs("]", self->out);
    }
    fputs("}]}]}\n", self->out);
}

static void sarif_init(struct reporter *reporter)
{
    reporter->begin = sarif_begin;
    reporter->file = sarif_file;
    reporter->end = sarif_end;
}

const struct report_format report_format_sarif = {"sarif", sarif_init};
