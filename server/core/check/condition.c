/* condition: evaluating and describing the schema's conditions. */
#include "condition.h"

#include <stdio.h>
#include <string.h>

#include "schema_at.h"
#include "value_format.h"

static bool non_empty(const struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    switch (n->kind) {
    case JSON_STRING: return n->end - n->start > 2; /* more than the quotes */
    case JSON_ARRAY:
    case JSON_OBJECT: return n->first_child != JSON_NONE;
    case JSON_NULL:
    case JSON_INVALID: return false;
    default: return true;
    }
}

static bool schema_values_equal(const struct schema_value *a, const struct schema_value *b)
{
    if (a->type == SCHEMA_BOOLEAN || b->type == SCHEMA_BOOLEAN)
        return a->type == b->type && a->boolean == b->boolean;
    if ((a->type & (SCHEMA_INTEGER | SCHEMA_NUMBER)) &&
        (b->type & (SCHEMA_INTEGER | SCHEMA_NUMBER)))
        return a->number == b->number;
    return a->type == b->type && a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

bool condition_value_matches(struct json_doc *doc, uint32_t node, const struct schema_value *v)
{
    const struct json_node *n = &doc->nodes[node];
    switch (n->kind) {
    case JSON_STRING:
        return v->type == SCHEMA_STRING && json_node_string_equals(doc, node, v->text, v->len);
    case JSON_TRUE: return v->type == SCHEMA_BOOLEAN && v->boolean;
    case JSON_FALSE: return v->type == SCHEMA_BOOLEAN && !v->boolean;
    case JSON_NULL: return v->type == SCHEMA_NULL;
    case JSON_NUMBER: {
        double d;
        return (v->type == SCHEMA_INTEGER || v->type == SCHEMA_NUMBER) &&
               json_node_double(doc, node, &d) && d == v->number;
    }
    default: return false;
    }
}

/* "in": the member's value, or the field's default when the member is absent, is one of
 * `values`. */
static bool evaluate_in(const struct schema_value *values, uint32_t count, struct json_doc *doc,
                        const struct schema_field *field, uint32_t member)
{
    for (uint32_t i = 0; i < count; i++) {
        if (member != JSON_NONE ? condition_value_matches(doc, member, &values[i])
                                : (field && field->has_default &&
                                   schema_values_equal(&field->default_value, &values[i])))
            return true;
    }
    return false;
}

/* "notBefore": timestamps of one shape compare as text. */
static bool evaluate_not_before(const struct schema_condition *c, struct json_doc *doc,
                                uint32_t object, uint32_t member)
{
    uint32_t other = json_object_get(doc, object, c->other_field, strlen(c->other_field));
    if (member == JSON_NONE || other == JSON_NONE || doc->nodes[member].kind != JSON_STRING ||
        doc->nodes[other].kind != JSON_STRING)
        return true;
    struct json_str a = json_node_string(doc, member), b = json_node_string(doc, other);
    if (!value_format_valid(SCHEMA_FORMAT_TIMESTAMP, a.ptr, a.len) ||
        !value_format_valid(SCHEMA_FORMAT_TIMESTAMP, b.ptr, b.len))
        return true; /* not both valid timestamps: the format rule speaks */
    return memcmp(a.ptr, b.ptr, VALUE_FORMAT_TIMESTAMP_LENGTH) >= 0;
}

bool condition_evaluate(const struct schema_condition *c, struct json_doc *doc,
                        const struct schema_object *schema, uint32_t object)
{
    return condition_evaluate_indexed(c, doc, schema, object, NULL);
}

bool condition_evaluate_indexed(const struct schema_condition *c, struct json_doc *doc,
                                const struct schema_object *schema, uint32_t object,
                                const uint32_t *members)
{
    const struct schema_field *field =
        c->field ? schema_object_field(schema, c->field, strlen(c->field)) : NULL;
    uint32_t member = JSON_NONE;
    if (c->field != NULL && field != NULL)
        member =
            members ? members[field - schema->fields] : schema_at_field_member(doc, object, field);
    else if (c->field != NULL)
        member = json_object_get(doc, object, c->field, strlen(c->field));
    switch (c->op) {
    case COND_IN: return evaluate_in(c->values, c->value_count, doc, field, member);
    /* `others`, filled by the loader, are the field's enum values that are not listed: the
     * condition holds unless one of them is chosen (absent, invalid or listed: it holds). */
    case COND_NO_OTHER_THAN: return !evaluate_in(c->others, c->other_count, doc, field, member);
    case COND_PRESENT: return (member != JSON_NONE) == c->expect;
    case COND_NON_EMPTY: return (member != JSON_NONE && non_empty(doc, member)) == c->expect;
    case COND_NOT_BEFORE: return evaluate_not_before(c, doc, object, member);
    case COND_ALL:
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (!condition_evaluate_indexed(c->children[i], doc, schema, object, members))
                return false;
        }
        return true;
    case COND_ANY:
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (condition_evaluate_indexed(c->children[i], doc, schema, object, members))
                return true;
        }
        return false;
    case COND_NOT: return !condition_evaluate_indexed(c->children[0], doc, schema, object, members);
    }
    return false;
}

bool condition_reads_any(const struct schema_condition *c,
                         bool (*invalid)(void *context, const char *field), void *context)
{
    switch (c->op) {
    case COND_IN:
    case COND_NO_OTHER_THAN:
    case COND_NON_EMPTY: return invalid(context, c->field);
    case COND_NOT_BEFORE: return invalid(context, c->field) || invalid(context, c->other_field);
    case COND_PRESENT: return false;
    case COND_ALL:
    case COND_ANY:
    case COND_NOT:
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (condition_reads_any(c->children[i], invalid, context))
                return true;
        }
        return false;
    }
    return false;
}

/* ---- in words ---- */

static void append(char *out, size_t size, const char *text)
{
    size_t len = strlen(out);
    if (len + 1 < size)
        snprintf(out + len, size - len, "%s", text);
}

static void describe_in(const struct schema_value *values, uint32_t count, bool negated,
                        const char *name, char *out, size_t size)
{
    append(out, size, name);
    if (count == 1)
        append(out, size, negated ? " is not " : " is ");
    else if (count == 2)
        append(out, size, negated ? " is neither " : " is ");
    else
        append(out, size, negated ? " is not one of " : " is one of ");
    for (uint32_t i = 0; i < count; i++) {
        if (i > 0)
            append(out, size, count == 2 ? (negated ? " nor " : " or ") : ", ");
        append(out, size, schema_value_text(&values[i]));
    }
}

/* Appends the condition in words; `negated` describes its negation. */
static void describe(const struct schema_condition *c, bool negated, char *out, size_t size)
{
    char name[96];
    snprintf(name, sizeof name, "\"%s\"", c->field ? c->field : "");
    switch (c->op) {
    case COND_IN: describe_in(c->values, c->value_count, negated, name, out, size); return;
    case COND_NO_OTHER_THAN: /* said by the values that apply, as the schema lists them */
        describe_in(c->values, c->value_count, negated, name, out, size);
        return;
    case COND_PRESENT:
        append(out, size, name);
        append(out, size, (c->expect != negated) ? " is set" : " is not set");
        return;
    case COND_NON_EMPTY:
        append(out, size, name);
        append(out, size,
               (c->expect != negated) ? " is set and not empty" : " is empty or not set");
        return;
    case COND_NOT_BEFORE:
        append(out, size, name);
        append(out, size, negated ? " is before \"" : " is not before \"");
        append(out, size, c->other_field);
        append(out, size, "\"");
        return;
    case COND_ALL:
    case COND_ANY: {
        bool conjunction = (c->op == COND_ALL) != negated;
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (i > 0)
                append(out, size, conjunction ? " and " : " or ");
            describe(c->children[i], negated, out, size);
        }
        return;
    }
    case COND_NOT: describe(c->children[0], !negated, out, size); return;
    }
}

void condition_describe(const struct schema_condition *condition, char *out, size_t size)
{
    if (size > 0)
        out[0] = '\0';
    describe(condition, false, out, size);
}
