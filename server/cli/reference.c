/* reference: listings and generated Markdown from the registry and the code table. */
#include "reference.h"
#include "report.h"

#include <string.h>

#include "domain/domain.h"
#include "check/check.h"
#include "json/json.h"

void reference_list_kinds(const struct schema_registry *registry, FILE *out)
{
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        fprintf(out, "%2d  ", kind->number);
        int width = 0;
        for (uint32_t t = 0; t < kind->type_count; t++)
            width += fprintf(out, "%s%s", t ? ", " : "", kind->types[t]);
        fprintf(out, "%*s  %s", width < 44 ? 44 - width : 0, "", kind->title);
        if (kind->origin != NULL)
            fprintf(out, " (%s)", kind->origin);
        fputc('\n', out);
    }
    fprintf(out, "    %-44s  %s (documents with \"jobState\")\n", "(job)",
            registry->job_title ? registry->job_title : "Query job");
}

int reference_list_kinds_json(const struct schema_registry *registry, FILE *out)
{
    struct json_writer w;
    json_writer_init(&w, 2);
    json_write_object_begin(&w);
    json_write_key(&w, "kinds");
    json_write_array_begin(&w);
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        json_write_object_begin(&w);
        json_write_key(&w, "number");
        json_write_int(&w, kind->number);
        json_write_key(&w, "types");
        json_write_array_begin(&w);
        for (uint32_t t = 0; t < kind->type_count; t++)
            json_write_string(&w, kind->types[t]);
        json_write_array_end(&w);
        json_write_key(&w, "title");
        json_write_string(&w, kind->title);
        json_write_key(&w, "stem"); /* what "extends" names it by */
        json_write_string(&w, kind->stem);
        json_write_key(&w, "description");
        json_write_string(&w, kind->description ? kind->description : "");
        if (kind->origin != NULL) { /* a kind of the project's own */
            json_write_key(&w, "file");
            json_write_string(&w, kind->origin);
        }
        json_write_object_end(&w);
    }
    json_write_array_end(&w);
    json_write_key(&w, "job");
    json_write_object_begin(&w);
    json_write_key(&w, "title");
    json_write_string(&w, registry->job_title ? registry->job_title : "Query job");
    json_write_object_end(&w);
    json_write_object_end(&w);
    int status = w.failed ? 2 : 0;
    if (!w.failed) {
        fwrite(w.buf, 1, w.len, out);
        fputc('\n', out);
    }
    json_writer_free(&w);
    return status;
}

/* --explain GROUP: what the group is for, then each of its codes in a line. */
static void explain_group(const char *group, FILE *out)
{
    fprintf(out,
            "%s (a group of codes: \"rules\": {\"%s\": SEVERITY} in srcls.json, --select "
            "%s and --ignore %s set them all)\n\n",
            group, group, group, group);
    for (int i = 0; i < CODE_COUNT; i++) {
        const struct code_info *c = code_info((enum diag_code)i);
        if (code_in_group((enum diag_code)i, group))
            fprintf(out, "  %-24s %-11s %s\n", c->name, diag_severity_name(c->severity),
                    c->summary);
    }
    fputs("\nsrcls --explain CODE explains each.\n", out);
}

/* The code or group nearest to `name` within the edits its length allows, or NULL. */
static const char *nearest_code(const char *name)
{
    const char *best = NULL;
    unsigned best_distance = suggest_edits_allowed(strlen(name)) + 1;
    for (int i = 0; i < CODE_COUNT; i++) {
        const struct code_info *c = code_info((enum diag_code)i);
        const char *candidates[] = {c->name, c->group};
        for (size_t k = 0; k < 2 && candidates[k] != NULL; k++) {
            unsigned d = suggest_distance(name, strlen(name), candidates[k], strlen(candidates[k]));
            if (d < best_distance) {
                best = candidates[k];
                best_distance = d;
            }
        }
    }
    return best;
}

int reference_explain(const char *name, FILE *out)
{
    if (code_group_known(name)) {
        explain_group(name, out);
        return 0;
    }
    int code = code_parse(name);
    if (code < 0) {
        const char *nearest = nearest_code(name);
        if (nearest != NULL)
            fprintf(stderr, "srcls: unknown code '%s'; did you mean '%s'? The codes are:", name,
                    nearest);
        else
            fprintf(stderr, "srcls: unknown code '%s'; the codes are:", name);
        for (int i = 0; i < CODE_COUNT; i++)
            fprintf(stderr, " %s", code_name((enum diag_code)i));
        fputc('\n', stderr);
        return 2;
    }
    const struct code_info *info = code_info((enum diag_code)code);
    fprintf(out, "%s (default severity: %s)\n\n%s.\n\n%s\n\nExample:\n\n    %s\n", info->name,
            diag_severity_name(info->severity), info->summary, info->explanation, info->example);
    return 0;
}

/* Markdown table cells must not hold '|' or line breaks. */
static void cell(FILE *out, const char *text)
{
    for (const char *c = text ? text : ""; *c; c++) {
        if (*c == '|')
            fputs("\\|", out);
        else if (*c == '\n')
            fputc(' ', out);
        else
            fputc(*c, out);
    }
}

static void type_cell(FILE *out, const struct schema_field *f)
{
    int n = 0;
    uint32_t listed = (uint32_t)~SCHEMA_NULL; /* the reference lists no null type */
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++) {
        if ((f->types & listed) >> i & 1u)
            fprintf(out, "%s%s", n++ ? " or " : "", schema_type_name(i));
    }
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++) {
        if (((f->sample_types & ~f->types) & listed) >> i & 1u)
            fprintf(out, " (samples: %s)", schema_type_name(i));
    }
    if (f->format != SCHEMA_FORMAT_NONE)
        fprintf(out, ", %s", schema_format_name(f->format));
    if (f->secret)
        fputs(", secret", out);
    if (f->sensitive)
        fputs(", sensitive", out);
}

static void field_rows(FILE *out, const struct schema_field *fields, uint32_t count,
                       const char *prefix)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct schema_field *f = &fields[i];
        fprintf(out, "| `%s%s` | ", prefix, f->name);
        type_cell(out, f);
        fputs(" | ", out);
        char condition[512];
        if (f->required) {
            fputs("required", out);
        } else if (f->required_when) {
            condition_describe(f->required_when, condition, sizeof condition);
            fputs("when ", out);
            cell(out, condition);
        } else {
            fputs("optional", out);
        }
        if (f->applicable) {
            condition_describe(f->applicable, condition, sizeof condition);
            fputs("; applies when ", out);
            cell(out, condition);
        }
        fputs(" | ", out);
        if (f->has_default) {
            fputs("`", out);
            cell(out, f->default_value.text);
            fputs("`", out);
        }
        fputs(" | ", out);
        for (uint32_t e = 0; e < f->enum_count; e++)
            fprintf(out, "%s`%s`", e ? ", " : "", f->enums[e].value.text);
        if (f->has_minimum || f->has_maximum) {
            fputs(f->enum_count ? "; " : "", out);
            if (f->has_minimum)
                fprintf(out, "min %g", f->minimum);
            if (f->has_maximum)
                fprintf(out, "%smax %g", f->has_minimum ? ", " : "", f->maximum);
        }
        fputs(" | ", out);
        cell(out, f->description);
        fputs(" |\n", out);
        const struct schema_field *shape = f->items ? f->items : f;
        if (shape->object != NULL && shape->object->field_count > 0) {
            char nested[160];
            snprintf(nested, sizeof nested, "%s%s%s.", prefix, f->name, f->items ? "[]" : "");
            field_rows(out, shape->object->fields, shape->object->field_count, nested);
        }
    }
}

static void field_table(FILE *out, const struct schema_object *object)
{
    fputs("| field | type | required | default | values | description |\n"
          "|---|---|---|---|---|---|\n",
          out);
    field_rows(out, object->fields, object->field_count, "");
}

/* The secret fields of `fields` (and of their nested objects), for the inline-secret line. */
static bool secret_fields(FILE *out, const struct schema_field *fields, uint32_t count,
                          const char *prefix, bool listed)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct schema_field *f = &fields[i];
        if (f->secret) {
            fprintf(out, "%s`%s%s`", listed ? ", " : "", prefix, f->name);
            listed = true;
        }
        const struct schema_field *shape = f->items ? f->items : f;
        if (shape->object != NULL) {
            char nested[160];
            snprintf(nested, sizeof nested, "%s%s%s.", prefix, f->name, f->items ? "[]" : "");
            listed = secret_fields(out, shape->object->fields, shape->object->field_count, nested,
                                   listed);
        }
    }
    return listed;
}

/* A kind's risky settings, from its data: the posture assertions (the security group), the
 * secret fields (inline-secret) and the fields whose removal widens the source (risky-change
 * with --base). */
static void risky_settings(FILE *out, const struct schema_object *config)
{
    fprintf(out,
            "Risky settings (the `%s` group, `information` unless a severity is given; "
            "[rules.md](rules.md)):\n\n",
            CODE_GROUP_SECURITY);
    bool any = false;
    for (uint32_t i = 0; i < config->assertion_count; i++)
        any = any || code_in_group(config->assertions[i].code, CODE_GROUP_SECURITY);
    if (!any)
        fputs("- no posture assertion on a setting of this kind\n", out);
    for (uint32_t i = 0; i < config->assertion_count; i++) {
        const struct schema_assertion *a = &config->assertions[i];
        if (!code_in_group(a->code, CODE_GROUP_SECURITY))
            continue;
        fprintf(out, "- `%s` on `%s`%s%s%s: ", code_name(a->code), a->field,
                a->has_severity ? " (" : "", a->has_severity ? diag_severity_name(a->severity) : "",
                a->has_severity ? ")" : "");
        cell(out, a->message);
        fputc('\n', out);
    }
    fputs("- `inline-secret` on ", out);
    if (secret_fields(out, config->fields, config->field_count, "", false))
        fputs(" when written inline (`data:,…`, `data:;base64,…`)\n", out);
    else
        fputs("no field: no field of this kind is a secret\n", out);
    for (uint32_t i = 0; i < config->field_count; i++) {
        const struct schema_field *f = &config->fields[i];
        if (f->removal_widens == NULL)
            continue;
        fprintf(out,
                "- `risky-change` (`--check --base REF`, `srcls.reviewBase`) when `%s` is "
                "removed: ",
                f->name);
        cell(out, f->removal_widens);
        fputc('\n', out);
    }
    fputc('\n', out);
}

void reference_docs_kinds(const struct schema_registry *registry, FILE *out)
{
    fputs("# Kinds\n\n"
          "Generated from `schema/` by `srcls --generate-docs kinds`; a test fails when this file "
          "and the schema disagree. \"when …\" fields are required when the condition holds; "
          "\"applies when …\" fields have no effect (not-applicable) when it does not.\n\n",
          out);
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        fprintf(out, "## %d. %s\n\n`type`: ", kind->number, kind->title);
        for (uint32_t t = 0; t < kind->type_count; t++)
            fprintf(out, "%s`%s`", t ? ", " : "", kind->types[t]);
        fprintf(out, "\n\n%s\n\n", kind->description ? kind->description : "");
        field_table(out, &kind->config);
        fputc('\n', out);
        risky_settings(out, &kind->config);
    }
    fprintf(out, "## %s\n\nA document with `jobState` at the top level.\n\n",
            registry->job_title ? registry->job_title : "Query job");
    field_table(out, registry->job.object);
    fputs("\nState rules (`job-inconsistent`):\n\n", out);
    for (uint32_t i = 0; i < registry->job.object->assertion_count; i++)
        fprintf(out, "- %s\n", registry->job.object->assertions[i].message);
}

void reference_docs_rules(FILE *out)
{
    fputs("# Diagnostic codes\n\n"
          "Generated from the code table by `srcls --generate-docs rules`; `srcls --explain "
          "CODE` prints the same text. Severities can be changed per project.\n\n",
          out);
    for (int code = 0; code < CODE_COUNT; code++) {
        const struct code_info *c = code_info((enum diag_code)code);
        fprintf(out,
                "## `%s`\n\nDefault severity: %s. %s.\n\n%s\n\nExample:\n\n```json\n%s\n```\n\n",
                c->name, diag_severity_name(c->severity), c->summary, c->explanation, c->example);
    }
}

/* `text` as roff running text: '-' and '\\' escaped (a line never starts with '.' here). */
static void roff(FILE *out, const char *text)
{
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '-')
            fputs("\\-", out);
        else if (*c == '\\')
            fputs("\\e", out);
        else
            fputc(*c, out);
    }
}

void reference_docs_man_codes(FILE *out)
{
    for (int code = 0; code < CODE_COUNT; code++) {
        const struct code_info *c = code_info((enum diag_code)code);
        fputs(".TP\n.B ", out);
        roff(out, c->name);
        fprintf(out, "\n(%s", diag_severity_name(c->severity));
        if (c->group != NULL) {
            fputs("; group ", out);
            roff(out, c->group);
        }
        fputs(") ", out);
        roff(out, c->summary);
        fputs(".\n", out);
    }
}
