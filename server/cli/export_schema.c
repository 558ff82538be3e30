/* export_schema: the files of `srcls --export-json-schema DIR` — one JSON Schema (draft 2020-12)
 * per type identifier (a whole source object of that kind), one for a source of any kind (or a
 * bulk array of them), one for bulk files, one for jobs, and index.json naming them. Fields,
 * objects and conditions are written by export_schema_field.c; this file names the files,
 * writes each one's top level and puts them on disk. */
#define _XOPEN_SOURCE 700

#include "export_schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "domain/domain.h"
#include "export_schema_internal.h"

#define DIALECT "https://json-schema.org/draft/2020-12/schema"
#define SCHEMA_SUFFIX ".schema.json"
#define ANY_SOURCE_NAME "source"
#define BULK_NAME "bulk"
#define JOB_NAME "job"
#define KIND_FILE_NAME "kind-file"
#define INDEX_FILE "index.json"
/* The longest type identifier that names a file. */
#define IDENTIFIER_MAX 200

/* What srcls checks that JSON Schema cannot say, in every file's "$comment". */
static const char not_expressed[] =
    "Exported by srcls --export-json-schema from srcls's schema (docs/json-schema.md in the "
    "srcls sources). Not expressed here, checked by srcls only: a key of an open object within "
    "two edits of a missing known key (unknown-field near misses); that an integer is written "
    "without a fraction or exponent (1.0 is an integer to JSON Schema); duplicate keys and JSON "
    "syntax; the kind of a source without \"type\" (here it must fit one kind, any) or with an "
    "identifier that srcls.json \"types\" maps onto a kind (here only its base shape is "
    "checked); conditions that compare two timestamps; severities: srcls reports unknown-field, "
    "not-applicable and job-inconsistent as warnings and srcls.json can change any rule, while "
    "here every rule is a constraint. Spellings seen in samples are accepted as deprecated "
    "properties. The posture findings (insecure-transport, unverified-certificate, "
    "anonymous-access, unrestricted-scope, inline-secret: the \"security\" group, information "
    "by default) are advice about a valid document, not constraints, so they are not here: a "
    "kind file declares a risky value as an assertion with one of those codes (its expect "
    "holds for the safe values, its message names the field, what the setting lets happen and "
    "the safer value, and an optional severity), as docs/schema-format.md in the srcls sources "
    "describes. Nor is what srcls --check --base REF reports on a change (risky-change): a field "
    "a kind file marks \"removalWidens\" (whitelistedBuckets: an update without it includes all "
    "buckets) is reported where it was present at REF and is absent now.";

/* The top keys of a schema file: its dialect, its `$id` (its own file name, so that the files
 * find each other by relative `$ref` wherever they are loaded from), title and description. */
static void write_header(const struct export_context *x, const char *file, const char *title,
                         const char *description)
{
    struct json_writer *w = x->w;
    json_write_key(w, "$schema");
    json_write_string(w, DIALECT);
    json_write_key(w, "$id");
    json_write_string(w, file);
    json_write_key(w, "title");
    json_write_string(w, title);
    if (description != NULL) {
        json_write_key(w, "description");
        json_write_string(w, description);
    }
}

/* The file's one "$comment": what JSON Schema cannot say of any file, and of this file's top
 * object, whose `unsaid` rules compare two timestamps. */
static void write_comment(const struct export_context *x, uint32_t unsaid)
{
    const char *comment = x->comment != NULL ? x->comment : not_expressed;
    json_write_key(x->w, "$comment");
    if (unsaid == 0) {
        json_write_string(x->w, comment);
        return;
    }
    char note[200];
    export__unsaid_note(note, sizeof note, unsaid);
    size_t n = strlen(comment) + 1 + strlen(note) + 1;
    char *both = malloc(n);
    if (both == NULL) { /* out of memory: the file's comment alone, the rules are still right */
        json_write_string(x->w, comment);
        return;
    }
    snprintf(both, n, "%s %s", comment, note);
    json_write_string(x->w, both);
    free(both);
}

/* Whether a kind requires config fields, so that a source of it needs a `config`. */
static bool requires_config(const struct schema_kind *kind)
{
    for (uint32_t i = 0; i < kind->config.field_count; i++) {
        if (kind->config.fields[i].required)
            return true;
    }
    return false;
}

/* A whole source object of `kind` whose `type` is `type`. */
static void write_kind(struct export_context *x, const struct schema_registry *registry,
                       const struct schema_kind *kind, const char *type)
{
    struct json_writer *w = x->w;
    char title[300], file[IDENTIFIER_MAX + 32];
    snprintf(title, sizeof title, "%s (%s)", kind->title, type);
    snprintf(file, sizeof file, "%s" SCHEMA_SUFFIX, type);
    struct export_override overrides[] = {
        {ENVELOPE_TYPE, type, NULL, NULL},
        {ENVELOPE_CONFIG, NULL, &kind->config, NULL},
    };
    json_write_object_begin(w);
    write_header(x, file, title, kind->description);
    json_write_key(w, "type");
    json_write_string(w, "object");
    struct export_context top = *x;
    top.overrides = overrides;
    top.override_count = sizeof overrides / sizeof overrides[0];
    top.also_required = requires_config(kind) ? ENVELOPE_CONFIG : NULL;
    top.file_top = true;
    write_comment(
        x, export__object_keys(&top, registry->source.object, registry->source.additional_fields));
    json_write_object_end(w);
}

static void write_ref(struct json_writer *w, const char *stem, const char *fragment)
{
    char ref[IDENTIFIER_MAX + 64];
    snprintf(ref, sizeof ref, "%s" SCHEMA_SUFFIX "%s", stem, fragment);
    json_write_object_begin(w);
    json_write_key(w, "$ref");
    json_write_string(w, ref);
    json_write_object_end(w);
}

/* One entry of the dispatch: a source whose `type` is `type` is a source of that file. */
static void write_dispatch(struct json_writer *w, const char *type)
{
    json_write_object_begin(w);
    json_write_key(w, "if");
    json_write_object_begin(w);
    json_write_key(w, "properties");
    json_write_object_begin(w);
    json_write_key(w, ENVELOPE_TYPE);
    json_write_object_begin(w);
    json_write_key(w, "const");
    json_write_string(w, type);
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_key(w, "required");
    json_write_array_begin(w);
    json_write_string(w, ENVELOPE_TYPE);
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_key(w, "then");
    write_ref(w, type, "");
    json_write_object_end(w);
}

/* A source without `type`: one that fits some kind (srcls infers which). */
static void write_untyped(struct json_writer *w, const struct schema_registry *registry)
{
    json_write_object_begin(w);
    json_write_key(w, "if");
    json_write_raw(w, "{\"not\":{\"required\":[\"" ENVELOPE_TYPE "\"]}}",
                   strlen("{\"not\":{\"required\":[\"" ENVELOPE_TYPE "\"]}}"));
    json_write_key(w, "then");
    json_write_object_begin(w);
    json_write_key(w, "anyOf");
    json_write_array_begin(w);
    for (uint32_t k = 0; k < registry->kind_count; k++)
        write_ref(w, registry->kinds[k].types[0], "");
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
}

/* A source of any kind, or (as srcls reads a source document) an array of them. */
static void write_any_source(struct export_context *x, const struct schema_registry *registry)
{
    struct json_writer *w = x->w;
    json_write_object_begin(w);
    write_header(x, ANY_SOURCE_NAME SCHEMA_SUFFIX,
                 "A source of any kind, or a bulk array of sources", registry->source.description);
    write_comment(x, 0);
    json_write_key(w, "if");
    json_write_raw(w, "{\"type\":\"array\"}", strlen("{\"type\":\"array\"}"));
    json_write_key(w, "then");
    json_write_raw(w, "{\"items\":{\"$ref\":\"#/$defs/source\"}}",
                   strlen("{\"items\":{\"$ref\":\"#/$defs/source\"}}"));
    json_write_key(w, "else");
    json_write_raw(w, "{\"$ref\":\"#/$defs/source\"}", strlen("{\"$ref\":\"#/$defs/source\"}"));
    json_write_key(w, "$defs");
    json_write_object_begin(w);
    json_write_key(w, "source");
    json_write_object_begin(w);
    json_write_key(w, "allOf");
    json_write_array_begin(w);
    struct export_override overrides[] = {{ENVELOPE_TYPE, NULL, NULL, registry}};
    struct export_context base = *x;
    base.overrides = overrides;
    base.override_count = 1;
    json_write_object_begin(w);
    json_write_key(w, "type");
    json_write_string(w, "object");
    export__object_keys(&base, registry->source.object, registry->source.additional_fields);
    json_write_object_end(w);
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        for (uint32_t t = 0; t < registry->kinds[k].type_count; t++)
            write_dispatch(w, registry->kinds[k].types[t]);
    }
    write_untyped(w, registry);
    json_write_array_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
    json_write_object_end(w);
}

static void write_bulk(const struct export_context *x)
{
    struct json_writer *w = x->w;
    json_write_object_begin(w);
    write_header(x, BULK_NAME SCHEMA_SUFFIX, "A bulk file: an array of sources of any kind", NULL);
    write_comment(x, 0);
    json_write_key(w, "type");
    json_write_string(w, "array");
    json_write_key(w, "items");
    write_ref(w, ANY_SOURCE_NAME, "#/$defs/source");
    json_write_object_end(w);
}

static void write_job(struct export_context *x, const struct schema_registry *registry)
{
    struct json_writer *w = x->w;
    json_write_object_begin(w);
    write_header(x, JOB_NAME SCHEMA_SUFFIX, registry->job_title ? registry->job_title : "Job",
                 registry->job.description);
    json_write_key(w, "type");
    json_write_string(w, "object");
    struct export_context top = *x;
    top.file_top = true;
    write_comment(x,
                  export__object_keys(&top, registry->job.object, registry->job.additional_fields));
    json_write_object_end(w);
}

static void write_index(struct json_writer *w, const struct schema_registry *registry)
{
    char file[IDENTIFIER_MAX + 32];
    json_write_object_begin(w);
    json_write_key(w, "$comment");
    json_write_string(w, "The files of srcls --export-json-schema: \"types\" maps each type "
                         "identifier to the schema of a source of that kind.");
    json_write_key(w, "types");
    json_write_object_begin(w);
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        for (uint32_t t = 0; t < registry->kinds[k].type_count; t++) {
            snprintf(file, sizeof file, "%s" SCHEMA_SUFFIX, registry->kinds[k].types[t]);
            json_write_key(w, registry->kinds[k].types[t]);
            json_write_string(w, file);
        }
    }
    json_write_object_end(w);
    json_write_key(w, ANY_SOURCE_NAME);
    json_write_string(w, ANY_SOURCE_NAME SCHEMA_SUFFIX);
    json_write_key(w, BULK_NAME);
    json_write_string(w, BULK_NAME SCHEMA_SUFFIX);
    json_write_key(w, JOB_NAME);
    json_write_string(w, JOB_NAME SCHEMA_SUFFIX);
    json_write_key(w, "kindFile"); /* the format of kind files (srcls.json "schemas") */
    json_write_string(w, KIND_FILE_NAME SCHEMA_SUFFIX);
    json_write_object_end(w);
}

/* ---- files ---- */

/* Whether a type identifier can name its file: letters, digits, '_', '-' and '.', not first,
 * and not the name of one of the other files (in any case, for case-blind file systems). */
static bool identifier_usable(const char *id)
{
    static const char *const taken[] = {ANY_SOURCE_NAME, BULK_NAME, JOB_NAME, KIND_FILE_NAME};
    size_t len = strlen(id);
    if (len == 0 || len > IDENTIFIER_MAX || id[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = id[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
    }
    for (size_t t = 0; t < sizeof taken / sizeof taken[0]; t++) {
        bool same = strlen(taken[t]) == len;
        for (size_t i = 0; same && i < len; i++)
            same = (id[i] | 0x20) == taken[t][i];
        if (same)
            return false;
    }
    return true;
}

/* `dir` and its missing parents, as mkdir -p. */
static int make_directory(const char *dir, FILE *err)
{
    char *path = strdup(dir);
    if (path == NULL) {
        fputs("srcls: out of memory\n", err);
        return 2;
    }
    for (char *slash = strchr(path + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            break; /* the last mkdir says why */
        *slash = '/';
    }
    free(path);
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(err, "srcls: cannot create the directory %s: %s\n", dir, strerror(errno));
        return 2;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(err, "srcls: %s exists and is not a directory\n", dir);
        return 2;
    }
    return 0;
}

/* Writes the writer's text and a newline into `dir`/`name`. */
static int write_file(const char *dir, const char *name, struct json_writer *w, FILE *err)
{
    if (w->failed) {
        fprintf(err, "srcls: cannot build %s: out of memory\n", name);
        return 2;
    }
    size_t size = strlen(dir) + strlen(name) + 2;
    char *path = malloc(size);
    if (path == NULL) {
        fputs("srcls: out of memory\n", err);
        return 2;
    }
    snprintf(path, size, "%s/%s", dir, name);
    FILE *file = fopen(path, "w");
    int status = 0;
    if (file == NULL) {
        status = 2;
    } else {
        bool written = fwrite(w->buf, 1, w->len, file) == w->len && fputc('\n', file) != EOF;
        if (fclose(file) != 0 || !written)
            status = 2;
    }
    if (status != 0)
        fprintf(err, "srcls: cannot write %s: %s\n", path, strerror(errno));
    free(path);
    return status;
}

/* Builds one file with `build` and writes it. */
static int export_file(struct export_context *x, const char *dir, const char *name,
                       void (*build)(struct export_context *, const void *), const void *arg,
                       FILE *err)
{
    struct json_writer w;
    json_writer_init(&w, 2);
    x->w = &w;
    build(x, arg);
    int status = write_file(dir, name, &w, err);
    json_writer_free(&w);
    x->w = NULL;
    return status;
}

struct kind_file {
    const struct schema_registry *registry;
    const struct schema_kind *kind;
    const char *type;
};

static void build_kind(struct export_context *x, const void *arg)
{
    const struct kind_file *k = arg;
    write_kind(x, k->registry, k->kind, k->type);
}

static void build_any_source(struct export_context *x, const void *registry)
{
    write_any_source(x, registry);
}

static void build_bulk(struct export_context *x, const void *registry)
{
    (void)registry;
    write_bulk(x);
}

static void build_job(struct export_context *x, const void *registry)
{
    write_job(x, registry);
}

static void build_index(struct export_context *x, const void *registry)
{
    write_index(x->w, registry);
}

/* The kind-file format, as schema/kind-file.schema.json has it (embedded). */
static void build_kind_file_format(struct export_context *x, const void *registry)
{
    (void)registry;
    size_t len;
    const char *text = schema_kind_file_json_schema(&len);
    while (text != NULL && len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
        len--; /* write_file ends it with one newline */
    if (text != NULL)
        json_write_raw(x->w, text, len);
    else
        x->w->failed = true;
}

/* Every file but the kinds' ones. */
static int export_others(struct export_context *x, const struct schema_registry *registry,
                         const char *dir, FILE *err)
{
    if (export_file(x, dir, ANY_SOURCE_NAME SCHEMA_SUFFIX, build_any_source, registry, err) ||
        export_file(x, dir, BULK_NAME SCHEMA_SUFFIX, build_bulk, registry, err) ||
        export_file(x, dir, JOB_NAME SCHEMA_SUFFIX, build_job, registry, err) ||
        export_file(x, dir, KIND_FILE_NAME SCHEMA_SUFFIX, build_kind_file_format, registry, err) ||
        export_file(x, dir, INDEX_FILE, build_index, registry, err))
        return 2;
    return 0;
}

/* The pattern of a string that holds a placeholder of any of `patterns` (an ECMA-262 regular
 * expression, unanchored), in `arena`. */
static const char *placeholder_regex(const struct placeholder_pattern *patterns, uint32_t count,
                                     struct arena *arena)
{
    const char *regex = "";
    for (uint32_t i = 0; regex != NULL && i < count; i++) {
        const struct placeholder_pattern *p = &patterns[i];
        regex = arena_printf(arena, "%s%s", regex, i > 0 ? "|" : "");
        for (int part = 0; regex != NULL && part < 2; part++) {
            const char *text = part == 0 ? p->prefix : p->suffix;
            uint32_t len = part == 0 ? p->prefix_len : p->suffix_len;
            for (uint32_t c = 0; regex != NULL && c < len; c++) {
                bool space_run = text[c] == ' ' && c > 0 && text[c - 1] == ' ';
                regex = space_run        ? regex
                        : text[c] == ' ' ? arena_printf(arena, "%s[ \\t]*", regex)
                        : strchr("\\^$.|?*+()[]{}/", text[c]) != NULL
                            ? arena_printf(arena, "%s\\%c", regex, text[c])
                            : arena_printf(arena, "%s%c", regex, text[c]);
            }
            if (part == 0 && regex != NULL)
                regex = arena_printf(arena, "%s[A-Za-z_][A-Za-z0-9_.]*", regex);
        }
    }
    return regex;
}

int export_json_schema(const struct schema_registry *registry, const char *dir, FILE *err)
{
    return export_json_schema_templated(registry, NULL, 0, dir, err);
}

int export_json_schema_templated(const struct schema_registry *registry,
                                 const struct placeholder_pattern *placeholders,
                                 uint32_t placeholder_count, const char *dir, FILE *err)
{
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        for (uint32_t t = 0; t < registry->kinds[k].type_count; t++) {
            if (!identifier_usable(registry->kinds[k].types[t])) {
                fprintf(err,
                        "srcls: cannot export: the type identifier \"%.*s\" cannot name a file "
                        "(letters, digits, '_', '-', '.'; not source, bulk, job or kind-file)\n",
                        IDENTIFIER_MAX, registry->kinds[k].types[t]);
                return 2;
            }
        }
    }
    if (make_directory(dir, err) != 0)
        return 2;
    struct arena arena;
    arena_init(&arena);
    struct export_context x = {.arena = &arena, .secret_pattern = secret_pattern(&arena)};
    if (placeholder_count > 0) {
        x.placeholder_pattern = placeholder_regex(placeholders, placeholder_count, &arena);
        x.comment = arena_printf(&arena,
                                 "%s Templated values (srcls.json \"placeholders\"): a string "
                                 "that holds a placeholder (this pattern: %s) is accepted "
                                 "wherever a field takes a string, whatever its values, format "
                                 "or encoding: it is filled in later.",
                                 not_expressed, x.placeholder_pattern);
    }
    int status = x.secret_pattern == NULL || (placeholder_count > 0 &&
                                              (x.placeholder_pattern == NULL || x.comment == NULL))
                     ? 2
                     : 0;
    for (uint32_t k = 0; status == 0 && k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        for (uint32_t t = 0; status == 0 && t < kind->type_count; t++) {
            char name[IDENTIFIER_MAX + 32];
            snprintf(name, sizeof name, "%s" SCHEMA_SUFFIX, kind->types[t]);
            struct kind_file file = {registry, kind, kind->types[t]};
            status = export_file(&x, dir, name, build_kind, &file, err);
        }
    }
    if (status == 0)
        status = export_others(&x, registry, dir, err);
    if (status == 2 && (x.secret_pattern == NULL || (placeholder_count > 0 && x.comment == NULL)))
        fputs("srcls: out of memory\n", err);
    arena_free(&arena);
    return status;
}
