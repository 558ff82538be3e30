/* export_schema_condition: the registry's conditions (docs/schema-format.md) as JSON Schema
 * that holds exactly where they hold: the member srcls reads (the field's name, else its
 * alternate spellings in order), a default standing in for an absent member, "in" and
 * "noOtherThan" as const/enum, "present", "nonEmpty", and all/any/not. */
#include <string.h>

#include "export_schema_internal.h"

void export__value(struct json_writer *w, const struct schema_value *v)
{
    if (v->type == SCHEMA_STRING)
        json_write_string_n(w, v->text, v->len);
    else
        json_write_raw(w, v->text, v->len);
}

static bool is_numeric(enum schema_type type)
{
    return type == SCHEMA_INTEGER || type == SCHEMA_NUMBER;
}

/* Whether two schema scalars are the same value, as srcls compares them. */
static bool values_equal(const struct schema_value *a, const struct schema_value *b)
{
    if (is_numeric(a->type) && is_numeric(b->type))
        return !(a->number < b->number || a->number > b->number);
    if (a->type != b->type)
        return false;
    if (a->type == SCHEMA_BOOLEAN)
        return a->boolean == b->boolean;
    return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

static void write_required(struct json_writer *w, const char *name)
{
    json_write_object_begin(w);
    json_write_key(w, "required");
    json_write_array_begin(w);
    json_write_string(w, name);
    json_write_array_end(w);
    json_write_object_end(w);
}

/* ---- conditions ---- */

/* Whether JSON Schema can say `c`: everything but comparing two timestamps (notBefore). */
bool export__expressible(const struct schema_condition *c)
{
    if (c->op == COND_NOT_BEFORE)
        return false;
    for (uint32_t i = 0; i < c->child_count; i++) {
        if (!export__expressible(c->children[i]))
            return false;
    }
    return true;
}

/* What a condition asks of a member's value: one of `values`, or not empty. */
struct member_test {
    const struct schema_value *values;
    uint32_t count;
    bool non_empty;
};

static void write_test(struct json_writer *w, const struct member_test *t)
{
    json_write_object_begin(w);
    if (t->non_empty) {
        json_write_key(w, "not");
        static const char empty_values[] = "{\"enum\":[\"\",[],{},null]}";
        json_write_raw(w, empty_values, sizeof empty_values - 1);
    } else if (t->count == 1) {
        json_write_key(w, "const");
        export__value(w, &t->values[0]);
    } else {
        json_write_key(w, "enum");
        json_write_array_begin(w);
        for (uint32_t i = 0; i < t->count; i++)
            export__value(w, &t->values[i]);
        json_write_array_end(w);
    }
    json_write_object_end(w);
}

/* Whether the member srcls reads for field `name` of `object` passes `test`: the member named
 * so, else the one named by its first alias there is, and so on; `absent` when there is none.
 * Without aliases one schema; with them an if/then/else chain in the order srcls looks. */
static void write_member_is(struct json_writer *w, const struct schema_object *object,
                            const char *name, const struct member_test *test, bool absent)
{
    const struct schema_field *f = schema_object_field(object, name, strlen(name));
    uint32_t aliases = f != NULL ? f->alias_count : 0;
    if (aliases == 0) {
        json_write_object_begin(w);
        if (!absent) {
            json_write_key(w, "required");
            json_write_array_begin(w);
            json_write_string(w, name);
            json_write_array_end(w);
        }
        json_write_key(w, "properties");
        json_write_object_begin(w);
        json_write_key(w, name);
        write_test(w, test);
        json_write_object_end(w);
        json_write_object_end(w);
        return;
    }
    for (uint32_t i = 0; i <= aliases; i++) {
        const char *n = i == 0 ? name : f->aliases[i - 1];
        json_write_object_begin(w);
        json_write_key(w, "if");
        write_required(w, n);
        json_write_key(w, "then");
        json_write_object_begin(w);
        json_write_key(w, "properties");
        json_write_object_begin(w);
        json_write_key(w, n);
        write_test(w, test);
        json_write_object_end(w);
        json_write_object_end(w);
        json_write_key(w, "else");
    }
    json_write_bool(w, absent);
    for (uint32_t i = 0; i <= aliases; i++)
        json_write_object_end(w);
}

/* The keys that say "the field is there", under its name or one of its aliases, inside an
 * object being written. */
void export__present_keys(struct json_writer *w, const struct schema_field *f, const char *name)
{
    if (f == NULL || f->alias_count == 0) {
        json_write_key(w, "required");
        json_write_array_begin(w);
        json_write_string(w, name);
        json_write_array_end(w);
        return;
    }
    json_write_key(w, "anyOf");
    json_write_array_begin(w);
    write_required(w, name);
    for (uint32_t a = 0; a < f->alias_count; a++)
        write_required(w, f->aliases[a]);
    json_write_array_end(w);
}

void export__present(struct json_writer *w, const struct schema_field *f, const char *name)
{
    json_write_object_begin(w);
    export__present_keys(w, f, name);
    json_write_object_end(w);
}

static void write_not_begin(struct json_writer *w, bool negate)
{
    if (negate) {
        json_write_object_begin(w);
        json_write_key(w, "not");
    }
}

static void write_not_end(struct json_writer *w, bool negate)
{
    if (negate)
        json_write_object_end(w);
}

/* "value (or default) is one of values", the "in" of docs/schema-format.md. */
static void write_in(struct json_writer *w, const struct schema_object *object, const char *name,
                     const struct schema_value *values, uint32_t count)
{
    const struct schema_field *f = schema_object_field(object, name, strlen(name));
    bool absent = false;
    for (uint32_t i = 0; f != NULL && f->has_default && i < count; i++)
        absent |= values_equal(&f->default_value, &values[i]);
    struct member_test test = {values, count, false};
    write_member_is(w, object, name, &test, absent);
}

/* A schema that holds where condition `c` holds in an object of `object`; `c` is expressible. */
void export__condition(struct json_writer *w, const struct schema_object *object,
                       const struct schema_condition *c)
{
    const struct schema_field *f =
        c->field != NULL ? schema_object_field(object, c->field, strlen(c->field)) : NULL;
    switch (c->op) {
    case COND_IN: write_in(w, object, c->field, c->values, c->value_count); break;
    case COND_NO_OTHER_THAN: /* holds unless the value (or default) is one of the others */
        write_not_begin(w, true);
        write_in(w, object, c->field, c->others, c->other_count);
        write_not_end(w, true);
        break;
    case COND_PRESENT:
        write_not_begin(w, !c->expect);
        export__present(w, f, c->field);
        write_not_end(w, !c->expect);
        break;
    case COND_NON_EMPTY: {
        struct member_test test = {NULL, 0, true};
        write_not_begin(w, !c->expect);
        write_member_is(w, object, c->field, &test, false);
        write_not_end(w, !c->expect);
        break;
    }
    case COND_ALL:
    case COND_ANY:
        json_write_object_begin(w);
        json_write_key(w, c->op == COND_ALL ? "allOf" : "anyOf");
        json_write_array_begin(w);
        for (uint32_t i = 0; i < c->child_count; i++)
            export__condition(w, object, c->children[i]);
        json_write_array_end(w);
        json_write_object_end(w);
        break;
    case COND_NOT:
        write_not_begin(w, true);
        export__condition(w, object, c->children[0]);
        write_not_end(w, true);
        break;
    case COND_NOT_BEFORE: json_write_bool(w, true); break; /* not expressible: never called */
    }
}
