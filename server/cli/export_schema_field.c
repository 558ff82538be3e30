/* export_schema_field: one field and one object of the registry as JSON Schema (draft 2020-12),
 * saying what srcls checks as far as JSON Schema can: types, enums with their descriptions,
 * bounds, formats and secret encodings as patterns, required fields (under their aliases too),
 * conditionally required fields as if/then, not-applicable fields as absent, assertions. The
 * conditions themselves are export_schema_condition.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "export_schema_internal.h"
#include "check/check.h"

/* A number as JSON: the shortest of 15 or 17 digits that reads back the same. */
static void write_number(struct json_writer *w, double value)
{
    char text[40];
    snprintf(text, sizeof text, "%.15g", value);
    if (strtod(text, NULL) < value || strtod(text, NULL) > value)
        snprintf(text, sizeof text, "%.17g", value);
    json_write_raw(w, text, strlen(text));
}

/* ---- fields ---- */

static void write_types(struct json_writer *w, uint32_t types)
{
    if (types & SCHEMA_NUMBER)
        types &= ~(uint32_t)SCHEMA_INTEGER; /* srcls takes an integer where a number goes */
    uint32_t count = 0;
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++)
        count += (types >> i) & 1u;
    if (count == 0)
        return;
    json_write_key(w, "type");
    if (count > 1)
        json_write_array_begin(w);
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++) {
        if ((types >> i) & 1u)
            json_write_string(w, schema_type_name(i));
    }
    if (count > 1)
        json_write_array_end(w);
}

/* "enum", or "oneOf" of "const" and "description" when the values are described. */
static void write_enum(struct json_writer *w, const struct schema_field *field)
{
    bool described = false;
    for (uint32_t i = 0; i < field->enum_count; i++)
        described |= field->enums[i].description != NULL;
    json_write_key(w, described ? "oneOf" : "enum");
    json_write_array_begin(w);
    for (uint32_t i = 0; i < field->enum_count; i++) {
        if (!described) {
            export__value(w, &field->enums[i].value);
            continue;
        }
        json_write_object_begin(w);
        json_write_key(w, "const");
        export__value(w, &field->enums[i].value);
        if (field->enums[i].description != NULL) {
            json_write_key(w, "description");
            json_write_string(w, field->enums[i].description);
        }
        json_write_object_end(w);
    }
    json_write_array_end(w);
}

/* Bounds, and the format and secret encoding as patterns; a port's range joins the bounds. */
static void write_constraints(struct export_context *x, const struct schema_field *field)
{
    struct json_writer *w = x->w;
    bool port = field->format == SCHEMA_FORMAT_PORT;
    bool has_min = field->has_minimum || port, has_max = field->has_maximum || port;
    double min = field->has_minimum ? field->minimum : VALUE_FORMAT_PORT_MIN;
    double max = field->has_maximum ? field->maximum : VALUE_FORMAT_PORT_MAX;
    if (port && min < VALUE_FORMAT_PORT_MIN)
        min = VALUE_FORMAT_PORT_MIN;
    if (port && max > VALUE_FORMAT_PORT_MAX)
        max = VALUE_FORMAT_PORT_MAX;
    if (has_min) {
        json_write_key(w, "minimum");
        write_number(w, min);
    }
    if (has_max) {
        json_write_key(w, "maximum");
        write_number(w, max);
    }
    const char *patterns[2];
    int count = 0;
    if (field->format != SCHEMA_FORMAT_NONE)
        patterns[count++] = value_format_pattern(field->format);
    if (field->secret && x->secret_pattern != NULL)
        patterns[count++] = x->secret_pattern;
    if (field->format == SCHEMA_FORMAT_UUID) {
        json_write_key(w, "format"); /* ajv-formats's "uuid" agrees with the pattern */
        json_write_string(w, "uuid");
    }
    if (count == 1) {
        json_write_key(w, "pattern");
        json_write_string(w, patterns[0]);
    } else if (count == 2) {
        json_write_key(w, "allOf");
        json_write_array_begin(w);
        for (int i = 0; i < count; i++) {
            json_write_object_begin(w);
            json_write_key(w, "pattern");
            json_write_string(w, patterns[i]);
            json_write_object_end(w);
        }
        json_write_array_end(w);
    }
}

/* The override of member `name` in the context, or NULL. */
static const struct export_override *override_of(const struct export_context *x, const char *name)
{
    for (uint32_t i = 0; i < x->override_count; i++) {
        if (strcmp(x->overrides[i].name, name) == 0)
            return &x->overrides[i];
    }
    return NULL;
}

static void write_alias_note(struct json_writer *w, const char *alias_of)
{
    char note[256];
    snprintf(note, sizeof note,
             "A spelling seen in the reference's samples; the documented name is \"%s\" "
             "(srcls notes it as alternate-spelling and its fix renames it).",
             alias_of);
    json_write_key(w, "deprecated");
    json_write_bool(w, true);
    json_write_key(w, "$comment");
    json_write_string(w, note);
}

void export__field(struct export_context *x, const struct schema_field *field, const char *alias_of)
{
    struct json_writer *w = x->w;
    const struct export_override *o = override_of(x, alias_of ? alias_of : field->name);
    json_write_object_begin(w);
    if (field->description != NULL) {
        json_write_key(w, "description");
        json_write_string(w, field->description);
    }
    if (alias_of != NULL)
        write_alias_note(w, alias_of);
    write_types(w, field->types | field->sample_types);
    if (o != NULL && o->constant != NULL) {
        json_write_key(w, "const");
        json_write_string(w, o->constant);
    }
    if (o != NULL && o->types != NULL) {
        json_write_key(w, "examples");
        json_write_array_begin(w);
        for (uint32_t k = 0; k < o->types->kind_count; k++) {
            for (uint32_t t = 0; t < o->types->kinds[k].type_count; t++)
                json_write_string(w, o->types->kinds[k].types[t]);
        }
        json_write_array_end(w);
    }
    if (field->has_default) {
        json_write_key(w, "default");
        export__value(w, &field->default_value);
    }
    /* a templating project: its placeholders pass wherever a string is constrained */
    bool templated =
        x->placeholder_pattern != NULL && ((field->types | field->sample_types) & SCHEMA_STRING) &&
        (field->enum_count > 0 || field->format != SCHEMA_FORMAT_NONE || field->secret);
    if (templated) {
        json_write_key(w, "anyOf");
        json_write_array_begin(w);
        json_write_object_begin(w);
    }
    if (field->enum_count > 0)
        write_enum(w, field);
    write_constraints(x, field);
    if (templated) {
        json_write_object_end(w);
        json_write_object_begin(w);
        json_write_key(w, "type");
        json_write_string(w, "string");
        json_write_key(w, "pattern");
        json_write_string(w, x->placeholder_pattern);
        json_write_object_end(w);
        json_write_array_end(w);
    }
    if (field->required && (field->types | field->sample_types) & SCHEMA_STRING) {
        json_write_key(w, "minLength"); /* srcls reports an empty required string as missing */
        json_write_int(w, 1);
    }
    struct export_context inner = *x;
    inner.file_top = false;
    inner.overrides = NULL;
    inner.override_count = 0;
    inner.also_required = NULL;
    if (field->items != NULL) {
        json_write_key(w, "items");
        export__field(&inner, field->items, NULL);
    }
    if (o != NULL && o->object != NULL)
        export__object_keys(&inner, o->object, false);
    else if (field->object != NULL)
        export__object_keys(&inner, field->object, field->additional_fields);
    json_write_object_end(w);
}

/* ---- objects ---- */

/* "then" of a conditionally required field: there, and not an empty string. */
static void write_then_required(struct json_writer *w, const struct schema_field *f)
{
    json_write_object_begin(w);
    export__present_keys(w, f, f->name);
    if ((f->types | f->sample_types) & SCHEMA_STRING) {
        json_write_key(w, "properties");
        json_write_object_begin(w);
        for (uint32_t a = 0; a <= f->alias_count; a++) {
            json_write_key(w, a == 0 ? f->name : f->aliases[a - 1]);
            json_write_raw(w, "{\"minLength\":1}", strlen("{\"minLength\":1}"));
        }
        json_write_object_end(w);
    }
    json_write_object_end(w);
}

/* "else" of a field that applies only under a condition: none of its names is there. */
static void write_absent(struct json_writer *w, const struct schema_field *f)
{
    json_write_object_begin(w);
    json_write_key(w, "properties");
    json_write_object_begin(w);
    for (uint32_t a = 0; a <= f->alias_count; a++) {
        json_write_key(w, a == 0 ? f->name : f->aliases[a - 1]);
        json_write_bool(w, false);
    }
    json_write_object_end(w);
    json_write_object_end(w);
}

static void write_if(struct json_writer *w, const struct schema_object *object,
                     const struct schema_condition *c, const char *branch)
{
    json_write_key(w, "if");
    export__condition(w, object, c);
    json_write_key(w, branch);
}

/* The rules of one field as entries of "allOf"; false when one could not be said. */
static bool write_field_rules(struct json_writer *w, const struct schema_object *object,
                              const struct schema_field *f)
{
    bool all = true;
    if (f->required && f->alias_count > 0)
        export__present(w, f, f->name);
    if (!f->required && f->required_when != NULL && (all = export__expressible(f->required_when))) {
        json_write_object_begin(w);
        write_if(w, object, f->required_when, "then");
        write_then_required(w, f);
        json_write_object_end(w);
    }
    if (f->applicable != NULL && export__expressible(f->applicable)) {
        json_write_object_begin(w);
        write_if(w, object, f->applicable, "else");
        write_absent(w, f);
        json_write_object_end(w);
    } else if (f->applicable != NULL) {
        all = false;
    }
    return all;
}

static bool write_assertion(struct json_writer *w, const struct schema_object *object,
                            const struct schema_assertion *a)
{
    if (code_info(a->code)->group != NULL) /* a posture finding: advice, not validity */
        return true;                       /* (the $comment says so) */
    if ((a->when != NULL && !export__expressible(a->when)) || !export__expressible(a->expect))
        return false;
    json_write_object_begin(w);
    json_write_key(w, "description");
    json_write_string(w, a->message);
    if (a->when != NULL) {
        write_if(w, object, a->when, "then");
        export__condition(w, object, a->expect);
    } else {
        json_write_key(w, "allOf");
        json_write_array_begin(w);
        export__condition(w, object, a->expect);
        json_write_array_end(w);
    }
    json_write_object_end(w);
    return true;
}

/* "allOf" of the object's rules; returns how many could not be said. */
static uint32_t write_rules(struct json_writer *w, const struct schema_object *object)
{
    uint32_t unsaid = 0;
    json_write_key(w, "allOf");
    json_write_array_begin(w);
    for (uint32_t i = 0; i < object->field_count; i++)
        unsaid += !write_field_rules(w, object, &object->fields[i]);
    for (uint32_t i = 0; i < object->assertion_count; i++)
        unsaid += !write_assertion(w, object, &object->assertions[i]);
    json_write_array_end(w);
    return unsaid;
}

static bool has_rules(const struct schema_object *object)
{
    for (uint32_t i = 0; i < object->assertion_count; i++) {
        if (code_info(object->assertions[i].code)->group == NULL)
            return true;
    }
    for (uint32_t i = 0; i < object->field_count; i++) {
        const struct schema_field *f = &object->fields[i];
        if ((f->required && f->alias_count > 0) || f->required_when || f->applicable)
            return true;
    }
    return false;
}

static void write_properties(struct export_context *x, const struct schema_object *object)
{
    struct json_writer *w = x->w;
    json_write_key(w, "properties");
    json_write_object_begin(w);
    for (uint32_t i = 0; i < object->field_count; i++) {
        const struct schema_field *f = &object->fields[i];
        json_write_key(w, f->name);
        export__field(x, f, NULL);
        for (uint32_t a = 0; a < f->alias_count; a++) {
            json_write_key(w, f->aliases[a]);
            export__field(x, f, f->name);
        }
    }
    json_write_object_end(w);
}

void export__unsaid_note(char *note, size_t size, uint32_t unsaid)
{
    snprintf(note, size,
             "%u rule%s of this object compare%s two timestamps (notBefore), which JSON "
             "Schema cannot: srcls checks %s.",
             unsaid, unsaid == 1 ? "" : "s", unsaid == 1 ? "s" : "", unsaid == 1 ? "it" : "them");
}

uint32_t export__object_keys(struct export_context *x, const struct schema_object *object,
                             bool additional)
{
    struct json_writer *w = x->w;
    write_properties(x, object);
    uint32_t required = x->also_required != NULL;
    for (uint32_t i = 0; i < object->field_count; i++)
        required += object->fields[i].required && object->fields[i].alias_count == 0;
    if (required > 0) {
        json_write_key(w, "required");
        json_write_array_begin(w);
        if (x->also_required != NULL)
            json_write_string(w, x->also_required);
        for (uint32_t i = 0; i < object->field_count; i++) {
            if (object->fields[i].required && object->fields[i].alias_count == 0)
                json_write_string(w, object->fields[i].name);
        }
        json_write_array_end(w);
    }
    if (!additional) {
        json_write_key(w, "additionalProperties");
        json_write_bool(w, false);
    }
    uint32_t unsaid = has_rules(object) ? write_rules(w, object) : 0;
    if (unsaid > 0 && !x->file_top) {
        char note[200];
        export__unsaid_note(note, sizeof note, unsaid);
        json_write_key(w, "$comment");
        json_write_string(w, note);
    }
    return unsaid;
}
