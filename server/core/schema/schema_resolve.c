/* schema_resolve: noOtherThan conditions resolved against the enum of the object that holds
 * the field, once every kind is built. */
#include <stdio.h>
#include <string.h>

#include "schema_internal.h"

/* ---- resolving noOtherThan ----
 *
 * `{"field": F, "noOtherThan": [V, ...]}` means "F is not one of its other enum values". Those
 * are taken from F's enum in the object that holds the field being checked, once every kind is
 * built: an inherited or merged enum counts, and a value added to the enum later is one of the
 * others without the condition being edited. A condition inherited by several kinds is resolved
 * for each, as a copy. */

static const struct schema_origin *origin_of(const struct schema_loader *l,
                                             const struct schema_condition *c)
{
    for (size_t i = 0; i < l->origin_count; i++) {
        if (l->origins[i].condition == c)
            return &l->origins[i];
    }
    return NULL;
}

static bool same_value(const struct schema_value *a, const struct schema_value *b)
{
    bool numbers = (a->type & (SCHEMA_INTEGER | SCHEMA_NUMBER)) &&
                   (b->type & (SCHEMA_INTEGER | SCHEMA_NUMBER));
    if (numbers)
        return a->number == b->number;
    if (a->type != b->type)
        return false;
    if (a->type == SCHEMA_BOOLEAN)
        return a->boolean == b->boolean;
    return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

/* An error at `key` (and element `index`, unless JSON_NONE) of the condition `c` as written;
 * `context` names the file whose kind it was resolved for when that is another file. */
static void fail_resolving(struct schema_loader *l, const struct schema_condition *c,
                           const char *key, uint32_t index, const char *context,
                           const char *message)
{
    const struct schema_origin *o = origin_of(l, c);
    if (o == NULL) {
        schema__fail_file(l, "%s", message);
        return;
    }
    uint32_t node = json_object_get(o->doc, o->node, key, strlen(key));
    if (node != JSON_NONE && index != JSON_NONE)
        node = json_array_get(o->doc, node, index);
    l->current = o->file;
    bool elsewhere = context != NULL && strcmp(context, o->file) != 0;
    const struct schema_loaded_file *resolved = elsewhere ? schema__file_named(l, context) : NULL;
    schema__fail(l, o->doc, node == JSON_NONE ? o->node : node, "%s%s%s%s%s", message,
                 elsewhere ? " (as resolved for " : "",
                 elsewhere && (resolved == NULL || !resolved->file->custom) ? "schema/" : "",
                 elsewhere ? context : "", elsewhere ? ")" : "");
}

/* `c` with every noOtherThan in it resolved against `object`: `c` itself when it has none, else
 * a copy. */
static struct schema_condition *resolve_condition(struct schema_loader *l,
                                                  const struct schema_object *object,
                                                  struct schema_condition *c, const char *context)
{
    if (c == NULL || l->failed)
        return c;
    if (c->op == COND_ALL || c->op == COND_ANY || c->op == COND_NOT) {
        struct schema_condition **children = NULL;
        for (uint32_t i = 0; i < c->child_count && !l->failed; i++) {
            struct schema_condition *child = resolve_condition(l, object, c->children[i], context);
            if (child != c->children[i] && children == NULL) {
                children = arena_copy_array(l->arena, c->children, c->child_count,
                                            c->child_count + 1, sizeof *children);
                if (children == NULL)
                    return c;
            }
            if (children != NULL)
                children[i] = child;
        }
        if (children == NULL)
            return c;
        struct schema_condition *copy = arena_alloc(l->arena, sizeof *copy);
        if (copy == NULL)
            return c;
        *copy = *c;
        copy->children = children;
        return copy;
    }
    if (c->op != COND_NO_OTHER_THAN)
        return c;
    char message[256];
    const struct schema_field *field = schema_object_field(object, c->field, strlen(c->field));
    if (field == NULL || field->enum_count == 0) {
        snprintf(message, sizeof message,
                 field == NULL ? "\"noOtherThan\" needs \"%s\" to be a field here, with an enum"
                               : "\"noOtherThan\" needs an enum, and \"%s\" has none",
                 c->field);
        fail_resolving(l, c, "field", JSON_NONE, context, message);
        return c;
    }
    for (uint32_t i = 0; i < c->value_count; i++) {
        bool known = false;
        for (uint32_t e = 0; e < field->enum_count && !known; e++)
            known = same_value(&c->values[i], &field->enums[e].value);
        if (!known) {
            bool quoted = c->values[i].type == SCHEMA_STRING;
            snprintf(message, sizeof message, "%s%s%s is not one of the enum values of \"%s\"",
                     quoted ? "\"" : "", c->values[i].text, quoted ? "\"" : "", c->field);
            fail_resolving(l, c, "noOtherThan", i, context, message);
            return c;
        }
    }
    struct schema_condition *copy = arena_alloc(l->arena, sizeof *copy);
    struct schema_value *others = arena_alloc(l->arena, (field->enum_count + 1) * sizeof *others);
    if (copy == NULL || others == NULL)
        return c;
    *copy = *c;
    copy->others = others;
    copy->other_count = 0;
    for (uint32_t e = 0; e < field->enum_count; e++) {
        bool listed = false;
        for (uint32_t i = 0; i < c->value_count && !listed; i++)
            listed = same_value(&c->values[i], &field->enums[e].value);
        if (!listed)
            others[copy->other_count++] = field->enums[e].value;
    }
    if (copy->other_count == 0) {
        snprintf(message, sizeof message,
                 "\"noOtherThan\" lists every enum value of \"%s\": the condition always holds",
                 c->field);
        fail_resolving(l, c, "noOtherThan", JSON_NONE, context, message);
        return c;
    }
    /* a nested object shared by two kinds is resolved twice: the copy must be found too */
    const struct schema_origin *o = origin_of(l, c);
    if (o != NULL)
        schema__remember_origin(l, copy, o->doc, o->node, o->file);
    return copy;
}

/* Resolves the conditions of `object`'s fields, of its nested objects and of its assertions. */
void schema__resolve_object(struct schema_loader *l, struct schema_object *object,
                            const char *context)
{
    if (object == NULL)
        return;
    schema__index_names(l, object);
    for (uint32_t i = 0; i < object->field_count && !l->failed; i++) {
        struct schema_field *f = &object->fields[i];
        f->required_when = resolve_condition(l, object, f->required_when, context);
        f->applicable = resolve_condition(l, object, f->applicable, context);
        schema__resolve_object(l, f->object, context);
        if (f->items != NULL)
            schema__resolve_object(l, f->items->object, context);
    }
    /* a kind shares its parent's assertion list: copy it before changing an entry */
    struct schema_assertion *own = NULL;
    for (uint32_t i = 0; i < object->assertion_count && !l->failed; i++) {
        const struct schema_assertion *a = &object->assertions[i];
        struct schema_condition *when = resolve_condition(l, object, a->when, context);
        struct schema_condition *expect = resolve_condition(l, object, a->expect, context);
        if ((when != a->when || expect != a->expect) && own == NULL) {
            own = arena_copy_array(l->arena, object->assertions, object->assertion_count,
                                   object->assertion_count + 1, sizeof *own);
            if (own == NULL)
                return;
            object->assertions = own;
        }
        if (own != NULL) {
            own[i].when = when;
            own[i].expect = expect;
        }
    }
}
