/* schema_field: field entries and assertions. A field entry applied onto an existing field
 * changes only the keys it names, so a kind can inherit a field and change its default alone. */
#include <string.h>

#include "domain/domain.h"
#include "schema_internal.h"

static void apply_field(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_field *field);

/* ---- fields ---- */

struct schema_object *schema__object_clone(struct schema_loader *l,
                                           const struct schema_object *from)
{
    struct schema_object *o = arena_alloc(l->arena, sizeof *o);
    if (o == NULL)
        return NULL;
    memset(o, 0, sizeof *o);
    if (from != NULL)
        *o = *from;
    o->names = NULL; /* built again once the copy is final */
    o->name_count = 0;
    o->name_slots = NULL;
    return o;
}

/* Adds or merges the fields of `node` (an object of field entries) into `object`. */
void schema__fields(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                    struct schema_object *object)
{
    if (doc->nodes[node].kind != JSON_OBJECT) {
        schema__fail(l, doc, node, "fields must be an object of field entries");
        return;
    }
    uint32_t count = object->field_count + json_child_count(doc, node);
    struct schema_field *fields =
        arena_copy_array(l->arena, object->fields, object->field_count, count + 1, sizeof *fields);
    if (fields == NULL)
        return;
    object->fields = fields;
    for (uint32_t m = doc->nodes[node].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        struct json_str name = json_node_key(doc, m);
        struct schema_field *field = NULL;
        for (uint32_t i = 0; i < object->field_count; i++) {
            if (strlen(fields[i].name) == name.len &&
                memcmp(fields[i].name, name.ptr, name.len) == 0)
                field = &fields[i];
        }
        if (field == NULL) {
            field = &fields[object->field_count++];
            memset(field, 0, sizeof *field);
            field->name = schema__copy(l, name);
        }
        apply_field(l, doc, m, field);
    }
}

static void apply_enum(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                       struct schema_field *field)
{
    if (doc->nodes[node].kind != JSON_ARRAY) {
        schema__fail(l, doc, node, "\"enum\" must be an array");
        return;
    }
    field->enum_count = json_child_count(doc, node);
    field->enums = arena_alloc(l->arena, (field->enum_count + 1) * sizeof *field->enums);
    uint32_t i = 0;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE; e = doc->nodes[e].next, i++) {
        struct schema_enum_value *ev = &field->enums[i];
        memset(ev, 0, sizeof *ev);
        if (doc->nodes[e].kind != JSON_OBJECT) {
            schema__value(l, doc, e, &ev->value);
            continue;
        }
        uint32_t value = json_object_get(doc, e, JSON_LITERAL("value"));
        uint32_t description = json_object_get(doc, e, JSON_LITERAL("description"));
        if (value == JSON_NONE) {
            schema__fail(l, doc, e, "an enum entry needs \"value\"");
            return;
        }
        schema__value(l, doc, value, &ev->value);
        if (description != JSON_NONE)
            ev->description = schema__string(l, doc, description, "description");
    }
}

/* "required": true or false, or the condition under which the field is required. */
static void apply_required(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                           struct schema_field *field)
{
    field->required = false;
    field->required_when = NULL;
    if (doc->nodes[node].kind == JSON_OBJECT)
        field->required_when = schema__condition(l, doc, node);
    else
        field->required = schema__bool(l, doc, node, "required");
}

/* "minimum" (`minimum`) or "maximum". */
static void apply_bound(struct schema_loader *l, struct json_doc *doc, uint32_t node, bool minimum,
                        struct schema_field *field)
{
    double value = 0;
    if (!json_node_double(doc, node, &value))
        schema__fail(l, doc, node, "a bound must be a number");
    if (minimum) {
        field->has_minimum = true;
        field->minimum = value;
    } else {
        field->has_maximum = true;
        field->maximum = value;
    }
}

/* "aliases": other spellings of the field. False when the entry is not an array. */
static bool apply_aliases(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                          struct schema_field *field)
{
    if (!schema__array(l, doc, node, "\"aliases\""))
        return false;
    field->alias_count = json_child_count(doc, node);
    field->aliases = arena_alloc(l->arena, (field->alias_count + 1) * sizeof(char *));
    uint32_t i = 0;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE; e = doc->nodes[e].next)
        field->aliases[i++] = schema__string(l, doc, e, "an alias");
    return true;
}

/* "items": the shape of an element, merged onto the inherited one. False when out of memory. */
static bool apply_items(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_field *field)
{
    struct schema_field *items = arena_alloc(l->arena, sizeof *items);
    if (items == NULL)
        return false;
    if (field->items != NULL)
        *items = *field->items;
    else
        memset(items, 0, sizeof *items);
    if (items->name == NULL)
        items->name = field->name;
    apply_field(l, doc, node, items);
    field->items = items;
    return true;
}

static void apply_field(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_field *field)
{
    if (doc->nodes[node].kind != JSON_OBJECT) {
        schema__fail(l, doc, node, "a field is an object");
        return;
    }
    for (uint32_t m = doc->nodes[node].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        if (schema__str_eq(key, "type")) {
            field->types = schema__types(l, doc, m);
        } else if (schema__str_eq(key, "sampleType")) {
            field->sample_types = schema__types(l, doc, m);
        } else if (schema__str_eq(key, "description")) {
            field->description = schema__string(l, doc, m, "description");
        } else if (schema__str_eq(key, "required")) {
            apply_required(l, doc, m, field);
        } else if (schema__str_eq(key, "applicable")) {
            field->applicable = schema__condition(l, doc, m);
        } else if (schema__str_eq(key, "default")) {
            field->has_default = true;
            schema__value(l, doc, m, &field->default_value);
        } else if (schema__str_eq(key, "enum")) {
            apply_enum(l, doc, m, field);
        } else if (schema__str_eq(key, "minimum") || schema__str_eq(key, "maximum")) {
            apply_bound(l, doc, m, schema__str_eq(key, "minimum"), field);
        } else if (schema__str_eq(key, "format")) {
            field->format = schema__format(l, doc, m);
        } else if (schema__str_eq(key, "secret")) {
            field->secret = schema__bool(l, doc, m, "secret");
        } else if (schema__str_eq(key, "removalWidens")) {
            field->removal_widens = schema__string(l, doc, m, "removalWidens");
        } else if (schema__str_eq(key, "sensitive")) {
            field->sensitive = schema__bool(l, doc, m, "sensitive");
        } else if (schema__str_eq(key, "secretReference")) {
            field->secret_reference = schema__bool(l, doc, m, "secretReference");
        } else if (schema__str_eq(key, "sampleOnly")) {
            field->sample_only = schema__bool(l, doc, m, "sampleOnly");
        } else if (schema__str_eq(key, "additionalFields")) {
            field->additional_fields = schema__bool(l, doc, m, "additionalFields");
        } else if (schema__str_eq(key, "aliases")) {
            if (!apply_aliases(l, doc, m, field))
                return;
        } else if (schema__str_eq(key, "items")) {
            if (!apply_items(l, doc, m, field))
                return;
        } else if (schema__str_eq(key, "fields")) {
            field->object = schema__object_clone(l, field->object);
            if (field->object != NULL)
                schema__fields(l, doc, m, field->object);
        } else if (schema__str_eq(key, "notes")) {
            continue;
        } else {
            schema__fail(l, doc, m, "unknown field key");
        }
    }
}

/* ---- assertions ---- */

/* The diagnostic code the string `node` names; false, after an error, when it names none. */
static bool code_of(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                    enum diag_code *out)
{
    const char *name = schema__string(l, doc, node, "code");
    int code = name != NULL ? code_parse(name) : -1;
    if (name != NULL && code < 0)
        schema__fail(l, doc, node, "unknown diagnostic code (docs/rules.md lists them)");
    if (code < 0)
        return false;
    *out = (enum diag_code)code;
    return true;
}

/* "severity": error, warning, information or hint (not off: leave the assertion out). */
static void assertion_severity(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                               struct schema_assertion *a)
{
    const char *name = schema__string(l, doc, node, "severity");
    int severity = name != NULL ? diag_severity_parse(name) : -1;
    if (name != NULL && (severity < 0 || severity == DIAG_OFF)) {
        schema__fail(l, doc, node, "a severity is error, warning, information or hint");
        return;
    }
    a->has_severity = severity >= 0;
    a->severity = a->has_severity ? (enum diag_severity)severity : DIAG_ERROR;
}

void schema__assertions(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_object *object)
{
    if (doc->nodes[node].kind != JSON_ARRAY) {
        schema__fail(l, doc, node, "\"assertions\" must be an array");
        return;
    }
    uint32_t count = object->assertion_count + json_child_count(doc, node);
    struct schema_assertion *list = arena_copy_array(
        l->arena, object->assertions, object->assertion_count, count + 1, sizeof *list);
    if (list == NULL)
        return;
    object->assertions = list;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        struct schema_assertion *a = &list[object->assertion_count++];
        memset(a, 0, sizeof *a);
        if (doc->nodes[e].kind != JSON_OBJECT) {
            schema__fail(l, doc, e, "an assertion is an object");
            return;
        }
        bool has_code = false;
        for (uint32_t m = doc->nodes[e].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            struct json_str key = json_node_key(doc, m);
            if (schema__str_eq(key, "code"))
                has_code = code_of(l, doc, m, &a->code);
            else if (schema__str_eq(key, "field"))
                a->field = schema__string(l, doc, m, "field");
            else if (schema__str_eq(key, "when"))
                a->when = schema__condition(l, doc, m);
            else if (schema__str_eq(key, "expect"))
                a->expect = schema__condition(l, doc, m);
            else if (schema__str_eq(key, "message"))
                a->message = schema__string(l, doc, m, "message");
            else if (schema__str_eq(key, "severity"))
                assertion_severity(l, doc, m, a);
            else
                schema__fail(l, doc, m, "unknown assertion key");
        }
        if (!has_code || a->expect == NULL || a->message == NULL || a->field == NULL)
            schema__fail(l, doc, e, "an assertion needs code, field, expect and message");
    }
}
