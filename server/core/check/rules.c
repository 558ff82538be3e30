/* rules: checking documents against the schema.
 *
 * The walk is: resolve the kind of each source (kind_resolve), report what that found, then
 * check each object against its schema object (rules_object.c) and each value against its field
 * (rules_value.c). Conditions read a field's value, or its default when absent (condition.c).
 * Messages name fields and say what would be right; they never quote the value of a secret or
 * sensitive field. This file holds the reporting helpers, the source and job level, and the
 * entry point. */
#include "rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "kind_resolve.h"
#include "rules_internal.h"
#include "suggest.h"

/* Kinds tied for an inference that a message names and a shared check uses. */
#define MAX_TIED 32
/* An unknown `type` identifier is quoted up to this many bytes. */
#define TYPE_IN_MESSAGE_MAX 60

/* ---- reporting ---- */

/* The bytes of a key segment that reach the pointer: those before a NUL, if it holds one. */
static size_t segment_len(const struct rules_path *p)
{
    const char *nul = memchr(p->key, '\0', p->key_len);
    return nul ? (size_t)(nul - p->key) : p->key_len;
}

/* Writes the segment of `p` ending at `out + end`, escaped; returns where it starts. */
static size_t write_segment(char *out, size_t end, const struct rules_path *p)
{
    if (p->key == NULL) {
        char digits[16];
        size_t len = (size_t)snprintf(digits, sizeof digits, "%u", p->index);
        end -= len;
        memcpy(out + end, digits, len);
    } else {
        for (size_t i = segment_len(p); i > 0; i--) {
            char c = p->key[i - 1];
            if (c == '~' || c == '/') {
                out[--end] = c == '~' ? '0' : '1';
                c = '~';
            }
            out[--end] = c;
        }
    }
    out[--end] = '/';
    return end;
}

const char *rules__pointer(struct rules *r, const struct rules_path *path)
{
    size_t len = 0;
    for (const struct rules_path *p = path; p != NULL; p = p->parent) {
        char digits[16];
        len += 1;
        if (p->key == NULL) {
            len += (size_t)snprintf(digits, sizeof digits, "%u", p->index);
            continue;
        }
        size_t n = segment_len(p);
        len += n;
        for (size_t i = 0; i < n; i++)
            len += (p->key[i] == '~' || p->key[i] == '/');
    }
    char *out = arena_alloc(r->t->arena, len + 1);
    if (out == NULL)
        return NULL;
    out[len] = '\0';
    size_t end = len;
    for (const struct rules_path *p = path; p != NULL; p = p->parent)
        end = write_segment(out, end, p);
    return out;
}

void rules__report_as(struct rules *r, enum diag_code code, enum diag_severity severity,
                      uint32_t start, uint32_t end, const struct rules_path *path,
                      const char *message)
{
    const char *pointer = rules__pointer(r, path);
    struct diagnostic d = {
        .code = code,
        .severity = severity,
        .start = start,
        .end = end,
        .related_start = UINT32_MAX,
        .related_end = UINT32_MAX,
        .message = message ? message : "(out of memory)",
        .pointer = pointer ? pointer : "",
        .node = UINT32_MAX,
    };
    if (diag_list_add(r->t->diags, &d) != 0)
        r->failed = true;
}

void rules__report(struct rules *r, enum diag_code code, uint32_t start, uint32_t end,
                   const struct rules_path *path, const char *message)
{
    rules__report_as(r, code, code_info(code)->severity, start, end, path, message);
}

void rules__annotate(struct rules *r, uint32_t node, const struct schema_field *field,
                     const char *suggestion)
{
    if (r->failed || r->t->diags->count == 0)
        return;
    struct diagnostic *d = &r->t->diags->items[r->t->diags->count - 1];
    d->node = node;
    d->field = field;
    d->suggestion = suggestion;
}

void rules__object_anchor(const struct json_doc *doc, uint32_t node, uint32_t *start, uint32_t *end)
{
    const struct json_node *n = &doc->nodes[node];
    if (n->key_start != JSON_NONE) {
        *start = n->key_start;
        *end = n->key_end;
    } else {
        *start = n->start;
        *end = n->start + (n->end > n->start ? 1 : 0);
    }
}

void rules__report_at_value(struct rules *r, enum diag_code code, uint32_t node,
                            const struct rules_path *path, const char *message)
{
    const struct json_node *n = &r->doc->nodes[node];
    rules__report(r, code, n->start, n->end, path, message);
}

void rules__report_at_key(struct rules *r, enum diag_code code, uint32_t node,
                          const struct rules_path *path, const char *message)
{
    const struct json_node *n = &r->doc->nodes[node];
    if (n->key_start != JSON_NONE)
        rules__report(r, code, n->key_start, n->key_end, path, message);
    else
        rules__report_at_value(r, code, node, path, message);
}

char *rules__printf(struct rules *r, const char *format, ...)
{
    char buffer[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return arena_strndup(r->t->arena, buffer, strlen(buffer));
}

/* ---- sources ---- */

/* One source object being checked. */
struct source {
    uint32_t node;
    uint32_t type;   /* its `type` member, or JSON_NONE */
    uint32_t config; /* its `config` member when it is an object, else JSON_NONE */
    const struct rules_path *type_path, *config_path;
};

static void append(char *out, size_t size, const char *text)
{
    size_t len = strlen(out);
    if (len + 1 < size)
        snprintf(out + len, size - len, "%s", text);
}

/* Writes "Title (TYPE), Title (TYPE) or Title (TYPE)" for messages. */
static void describe_kinds(const struct schema_kind *const *kinds, uint32_t count, char *out,
                           size_t size)
{
    for (uint32_t i = 0; i < count; i++) {
        char one[160];
        snprintf(one, sizeof one, "%s%s (%s)",
                 i == 0           ? ""
                 : i + 1 == count ? " or "
                                  : ", ",
                 kinds[i]->title, kinds[i]->types[0]);
        append(out, size, one);
    }
}

/* Checks the config values that every one of the tied kinds defines, and nothing else. */
static void check_shared(struct rules *r, const struct schema_kind *const *kinds, uint32_t count,
                         const struct source *s)
{
    for (uint32_t m = r->doc->nodes[s->config].first_child; m != JSON_NONE;
         m = r->doc->nodes[m].next) {
        struct json_str key = json_node_key(r->doc, m);
        const struct schema_field *field = schema_object_field(&kinds[0]->config, key.ptr, key.len);
        for (uint32_t k = 1; field != NULL && k < count; k++) {
            if (!schema_object_field(&kinds[k]->config, key.ptr, key.len))
                field = NULL;
        }
        if (field != NULL) {
            struct rules_path path = rules__path_key(s->config_path, key.ptr, key.len);
            rules__check_value(r, field, m, &path);
        }
    }
}

/* A source of `kind` without a `config` member: when the kind requires fields, one
 * missing-required for `config` that names them (their own pointers would be inside an object
 * that is not there). */
static void check_missing_config(struct rules *r, const struct schema_kind *kind,
                                 const struct source *s)
{
    uint32_t required = 0;
    for (uint32_t i = 0; i < kind->config.field_count; i++) {
        if (kind->config.fields[i].required)
            required++;
    }
    if (required == 0)
        return; /* a config left out takes every default */
    char fields[512] = "";
    uint32_t listed = 0;
    for (uint32_t i = 0; i < kind->config.field_count; i++) {
        const struct schema_field *f = &kind->config.fields[i];
        if (!f->required)
            continue;
        listed++;
        append(fields, sizeof fields, listed == 1 ? "" : listed == required ? " and " : ", ");
        append(fields, sizeof fields, "\"");
        append(fields, sizeof fields, f->name);
        append(fields, sizeof fields, "\"");
    }
    const struct schema_field *config =
        schema_object_field(r->registry->source.object, JSON_LITERAL(ENVELOPE_CONFIG));
    const char *types = schema_types_describe(config ? config->types : SCHEMA_OBJECT, r->t->arena);
    uint32_t start, end;
    rules__object_anchor(r->doc, s->node, &start, &end);
    rules__report(r, CODE_MISSING_REQUIRED, start, end, s->config_path,
                  rules__printf(r,
                                "missing required field \"" ENVELOPE_CONFIG "\" (%s) for %s (%s): "
                                "the kind requires %s in it",
                                types, kind->title, kind->types[0], fields));
    rules__annotate(r, s->node, config, NULL);
}

/* A source with a `type` string: the kind it names, else the one its config keys identify
 * (a warning that suggests a mapping), else an error and NULL. */
static const struct schema_kind *kind_of_typed(struct rules *r, const struct source *s)
{
    struct placeholder_match m;
    if (settings_placeholder(r->settings, r->doc, s->type, &m)) {
        /* filled in later: the kind the config keys identify, said nothing of; none when they
         * identify none (only what several share when they fit them equally) */
        const struct schema_kind *tied[MAX_TIED];
        uint32_t ties = kind_resolve_infer(r->doc, r->registry, s->config, tied, MAX_TIED);
        if (ties > 1)
            check_shared(r, tied, ties < MAX_TIED ? ties : MAX_TIED, s);
        return ties == 1 ? tied[0] : NULL;
    }
    struct json_str id = json_node_string(r->doc, s->type);
    const struct schema_kind *kind = kind_resolve_id(r->registry, r->settings, id);
    if (kind != NULL)
        return kind;
    uint32_t ties;
    const char *meant = suggest_kind(r->registry, id, &ties);
    if (meant == NULL || ties > 0 || !suggest_same_but_case(id, meant))
        meant = NULL; /* only an identifier that differs in case alone names the kind meant */
    else
        kind = kind_resolve_id(r->registry, r->settings, (struct json_str){meant, strlen(meant)});
    if (r->t->values_unquoted) /* `***` where the identifier would be */
        id = (struct json_str){"***", 3};
    int quoted = (int)(id.len > TYPE_IN_MESSAGE_MAX ? TYPE_IN_MESSAGE_MAX : id.len);
    if (kind != NULL) { /* the case alone differs: the kind meant, which the fix writes */
        rules__report_at_value(r, CODE_UNKNOWN_KIND, s->type, s->type_path,
                               rules__printf(r,
                                             "unknown type \"%.*s\": the kind identifiers are "
                                             "case-sensitive; the kind meant is \"%s\" (%s), and "
                                             "it is checked as that kind",
                                             quoted, id.ptr, meant, kind->title));
        return kind;
    }
    const struct schema_kind *tied[MAX_TIED];
    if (kind_resolve_infer(r->doc, r->registry, s->config, tied, MAX_TIED) == 1) {
        kind = tied[0];
        rules__report_at_value(r, CODE_UNKNOWN_KIND, s->type, s->type_path,
                               rules__printf(r,
                                             "unknown type \"%.*s\"; the config looks like %s "
                                             "(%s), so it is checked as that kind; map the "
                                             "identifier in srcls.json: \"types\": "
                                             "{\"%.*s\": \"%s\"}",
                                             quoted, id.ptr, kind->title, kind->types[0], quoted,
                                             id.ptr, kind->types[0]));
        return kind;
    }
    const struct json_node *t = &r->doc->nodes[s->type];
    rules__report_as(r, CODE_UNKNOWN_KIND, DIAG_ERROR, t->start, t->end, s->type_path,
                     rules__printf(r,
                                   "unknown type \"%.*s\", and the config keys do not "
                                   "identify a kind: see srcls --list-kinds for the known "
                                   "identifiers, or map it in srcls.json \"types\"",
                                   quoted, id.ptr));
    return NULL;
}

/* A source without `type` but with a config object: the kind its config keys identify (a
 * hint with the `type` to add); NULL when they identify none, or several equally (then only
 * what those share is checked). */
static const struct schema_kind *kind_of_untyped(struct rules *r, const struct source *s)
{
    const struct schema_kind *tied[MAX_TIED];
    uint32_t tie_count = kind_resolve_infer(r->doc, r->registry, s->config, tied, MAX_TIED);
    uint32_t start, end;
    rules__object_anchor(r->doc, s->config, &start, &end);
    if (tie_count == 1) {
        const struct schema_kind *kind = tied[0];
        rules__report(r, CODE_KIND_INFERRED, start, end, s->type_path,
                      rules__printf(r,
                                    "no \"" ENVELOPE_TYPE "\": the config looks like %s; add "
                                    "\"" ENVELOPE_TYPE "\": \"%s\"",
                                    kind->title, kind->types[0]));
        rules__annotate(r, s->node, NULL, kind->types[0]);
        return kind;
    }
    if (tie_count == 0) {
        rules__report(r, CODE_UNKNOWN_KIND, start, end, s->type_path,
                      "no \"" ENVELOPE_TYPE "\", and the config keys match no kind: add "
                      "\"" ENVELOPE_TYPE "\" (see srcls --list-kinds)");
        return NULL;
    }
    uint32_t named = tie_count < MAX_TIED ? tie_count : MAX_TIED;
    char names[1024] = "";
    describe_kinds(tied, named, names, sizeof names);
    rules__report(r, CODE_UNKNOWN_KIND, start, end, s->type_path,
                  rules__printf(r,
                                "no \"" ENVELOPE_TYPE "\", and the config keys fit %u kinds "
                                "equally: %s; add \"" ENVELOPE_TYPE "\" (only what they share is "
                                "checked)",
                                tie_count, names));
    check_shared(r, tied, named, s);
    return NULL;
}

/* Checks the source object `node` (at `path`); returns its kind, or NULL when it has none. */
static const struct schema_kind *check_source(struct rules *r, uint32_t node,
                                              const struct rules_path *path)
{
    struct json_doc *doc = r->doc;
    struct rules_place top = {node, path, NULL};
    rules__check_object(r, r->registry->source.object, r->registry->source.additional_fields, &top);

    struct rules_path type_path = rules__path_key(path, JSON_LITERAL(ENVELOPE_TYPE));
    struct rules_path config_path = rules__path_key(path, JSON_LITERAL(ENVELOPE_CONFIG));
    struct source s = {
        .node = node,
        .type = envelope_type(doc, node),
        .config = envelope_config(doc, node),
        .type_path = &type_path,
        .config_path = &config_path,
    };
    bool has_config = s.config != JSON_NONE;
    if (has_config && doc->nodes[s.config].kind != JSON_OBJECT)
        s.config = JSON_NONE; /* its type-mismatch is reported above */

    const struct schema_kind *kind = NULL;
    if (s.type != JSON_NONE && doc->nodes[s.type].kind == JSON_STRING)
        kind = kind_of_typed(r, &s);
    else if (s.type == JSON_NONE && s.config != JSON_NONE)
        kind = kind_of_untyped(r, &s);
    if (kind == NULL)
        return NULL;
    if (s.config == JSON_NONE) {
        if (!has_config)
            check_missing_config(r, kind, &s);
        return kind;
    }
    struct rules_place place = {s.config, s.config_path, kind};
    rules__check_object(r, &kind->config, false, &place);
    return kind;
}

/* The identifier to report for a single source: the `type` as written when it is one of the
 * kind's identifiers (a kind may have several), else the kind's first. */
static const char *kind_identifier(struct json_doc *doc, uint32_t source,
                                   const struct schema_kind *kind)
{
    const char *id = kind->types[0];
    uint32_t type = envelope_type(doc, source);
    for (uint32_t t = 0; type != JSON_NONE && t < kind->type_count; t++) {
        if (json_node_string_equals(doc, type, kind->types[t], strlen(kind->types[t])))
            id = kind->types[t];
    }
    return id;
}

int rules_check(struct rules_target *a, const struct schema_registry *registry,
                const struct settings *settings)
{
    struct rules r = {.t = a, .doc = a->doc, .registry = registry, .settings = settings};
    struct json_doc *doc = a->doc;
    switch (a->document) {
    case DOCUMENT_SOURCE: {
        const struct schema_kind *kind = check_source(&r, doc->root, NULL);
        if (kind != NULL)
            a->kind = kind_identifier(doc, doc->root, kind);
        break;
    }
    case DOCUMENT_BULK: {
        uint32_t index = 0;
        for (uint32_t e = doc->nodes[doc->root].first_child; e != JSON_NONE;
             e = doc->nodes[e].next, index++) {
            struct rules_path path = rules__path_index(NULL, index);
            check_source(&r, e, &path);
        }
        break;
    }
    case DOCUMENT_JOB: {
        struct rules_place place = {doc->root, NULL, NULL};
        rules__check_object(&r, registry->job.object, registry->job.additional_fields, &place);
        a->kind = NULL;
        break;
    }
    case DOCUMENT_UNKNOWN: break;
    }
    return r.failed ? -1 : 0;
}

int rules_check_element(struct rules_target *a, const struct schema_registry *registry,
                        const struct settings *settings, uint32_t element, uint32_t index)
{
    struct rules r = {.t = a, .doc = a->doc, .registry = registry, .settings = settings};
    struct rules_path path = rules__path_index(NULL, index);
    check_source(&r, element, &path);
    return r.failed ? -1 : 0;
}
