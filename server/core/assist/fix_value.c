/* fix_value: fixes with one obvious value — the nearest kind for an unknown `type`, a number
 * brought back to the bound it crosses, and what an object's assertion expects (a value it
 * names, or a field it wants gone), read from the schema's condition, never from C. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "fix_internal.h"
#include "json/json.h"
#include "check/check.h"

/* ---- unknown kind ---- */

/* An unknown `type`: the kind identifier nearest to it. Preferred when no other kind is as
 * near; safe only when it differs in case alone. */
int fix_nearest_kind(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    uint32_t node = fix__node(a, d);
    if (a->registry == NULL || node == JSON_NONE || a->doc.nodes[node].kind != JSON_STRING ||
        a->doc.nodes[node].parent == JSON_NONE ||
        envelope_type(&a->doc, a->doc.nodes[node].parent) != node)
        return 0;
    struct json_str id = json_node_string(&a->doc, node);
    uint32_t ties;
    const char *nearest = suggest_kind(a->registry, id, &ties);
    if (nearest == NULL)
        return 0;
    struct arena *arena = &out->arena;
    const struct json_node *n = &a->doc.nodes[node];
    return fix__add(out, index, arena_printf(arena, "Change to \"%s\"", nearest), n->start, n->end,
                    arena_printf(arena, "\"%s\"", nearest),
                    ties == 0 && fix__equals_ignoring_case(id, nearest), ties == 0);
}

/* ---- bounds ---- */

/* `value` as JSON: an integer without a fraction when it is one. */
static const char *number_json(double value, struct arena *arena)
{
    if (value >= -1e15 && value <= 1e15 && value == (double)(long long)value)
        return arena_printf(arena, "%lld", (long long)value);
    return arena_printf(arena, "%.17g", value);
}

/* The value of the number (or digit string) `node`; false when it has none. */
static bool number_of(struct analysis *a, uint32_t node, double *value)
{
    const struct json_node *n = &a->doc.nodes[node];
    if (n->kind == JSON_STRING) {
        struct json_str s = json_node_string(&a->doc, node);
        return value_format_port_string(s.ptr, s.len, value);
    }
    if (n->kind != JSON_NUMBER)
        return false;
    if (!json_node_double(&a->doc, node, value))
        *value = a->doc.text[n->start] == '-' ? -HUGE_VAL : HUGE_VAL; /* beyond a double */
    return true;
}

/* A number out of bounds: the bound it crosses (a string stays a string). Preferred, not safe:
 * the value changes. */
int fix_clamp(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    uint32_t node = fix__node(a, d);
    if (node == JSON_NONE)
        return 0;
    const struct schema_field *f = d->field;
    if (f == NULL && a->registry != NULL)
        f = schema_at_member(&a->doc, node, a->registry, a->settings);
    if (f == NULL)
        return 0;
    bool port = f->format == SCHEMA_FORMAT_PORT;
    bool has_min = port || f->has_minimum, has_max = port || f->has_maximum;
    double min = port ? VALUE_FORMAT_PORT_MIN : f->minimum;
    double max = port ? VALUE_FORMAT_PORT_MAX : f->maximum;
    double value;
    if (!number_of(a, node, &value))
        return 0;
    double bound;
    const char *which;
    if (has_min && value < min) {
        bound = min;
        which = "minimum";
    } else if (has_max && value > max) {
        bound = max;
        which = "maximum";
    } else {
        return 0;
    }
    struct arena *arena = &out->arena;
    const char *number = number_json(bound, arena);
    const struct json_node *n = &a->doc.nodes[node];
    const char *text = n->kind == JSON_STRING ? arena_printf(arena, "\"%s\"", number) : number;
    return fix__add(out, index, arena_printf(arena, "Change to %s (the %s)", number, which),
                    n->start, n->end, text, false, true);
}

/* ---- assertions ---- */

enum remedy_op { REMEDY_NONE, REMEDY_SET, REMEDY_REMOVE };

struct remedy {
    enum remedy_op op;
    const struct schema_value *value; /* REMEDY_SET */
};

/* What to do to field `field` so that `c` evaluates to `want`: set it to a value the condition
 * names, or remove it; a value is preferred to a removal where both would do. */
static struct remedy remedy_for(const struct schema_condition *c, const char *field, bool want)
{
    struct remedy none = {REMEDY_NONE, NULL};
    bool mine = c->field != NULL && strcmp(c->field, field) == 0;
    switch (c->op) {
    case COND_IN:
    case COND_NO_OTHER_THAN:
        return mine && want && c->value_count > 0 ? (struct remedy){REMEDY_SET, &c->values[0]}
                                                  : none;
    case COND_PRESENT:
    case COND_NON_EMPTY: /* an absent field is not present and not non-empty */
        return mine && c->expect != want ? (struct remedy){REMEDY_REMOVE, NULL} : none;
    case COND_NOT: return c->child_count == 1 ? remedy_for(c->children[0], field, !want) : none;
    case COND_ALL:
    case COND_ANY: {
        /* One child settles it: any that holds, or all that fails. */
        bool one_settles = (c->op == COND_ANY) == want;
        if (!one_settles && c->child_count != 1)
            return none;
        struct remedy best = none;
        for (uint32_t i = 0; i < c->child_count && best.op != REMEDY_SET; i++) {
            struct remedy r = remedy_for(c->children[i], field, want);
            if (r.op != REMEDY_NONE)
                best = r;
        }
        return best;
    }
    case COND_NOT_BEFORE: break;
    }
    return none;
}

/* The assertion of `schema` that reported `d` on `field`. */
static const struct schema_assertion *assertion_of(const struct schema_object *schema,
                                                   const struct diagnostic *d, const char *field)
{
    for (uint32_t i = 0; schema != NULL && i < schema->assertion_count; i++) {
        const struct schema_assertion *s = &schema->assertions[i];
        if (s->code == d->code && strcmp(s->field, field) == 0 &&
            (s->message == d->message || strcmp(s->message, d->message) == 0))
            return s;
    }
    return NULL;
}

/* An assertion that failed: the edit its expectation names — the field set to the value the
 * expectation lists, or removed when the expectation wants it absent or empty. Preferred, not
 * safe: it changes what the document says. */
int fix_assertion(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    const char *slash = d->pointer ? strrchr(d->pointer, '/') : NULL;
    if (a->registry == NULL || slash == NULL)
        return 0;
    uint32_t object = json_pointer_find(&a->doc, d->pointer, (size_t)(slash - d->pointer));
    if (object == JSON_NONE || a->doc.nodes[object].kind != JSON_OBJECT)
        return 0;
    struct schema_place place = schema_at_object(&a->doc, object, a->registry, a->settings);
    const struct schema_assertion *s = assertion_of(place.object, d, slash + 1);
    if (s == NULL)
        return 0;
    struct remedy r = remedy_for(s->expect, s->field, true);
    uint32_t member = json_object_get(&a->doc, object, s->field, strlen(s->field));
    struct arena *arena = &out->arena;
    if (r.op == REMEDY_REMOVE && member != JSON_NONE) {
        uint32_t start, end;
        fix__member_removal(a, member, &start, &end);
        return fix__add(out, index, arena_printf(arena, "Remove \"%s\"", s->field), start, end, "",
                        false, true);
    }
    if (r.op != REMEDY_SET)
        return 0;
    const char *value = fix__schema_value_json(r.value, arena);
    const char *title =
        arena_printf(arena, "Set \"%s\" to %s", s->field, schema_value_text(r.value));
    if (member != JSON_NONE) {
        const struct json_node *n = &a->doc.nodes[member];
        return fix__add(out, index, title, n->start, n->end, value, false, true);
    }
    struct fix_layout layout;
    const char *text = arena_printf(arena, "\"%s\": %s", s->field, value);
    if (!fix__layout(a, object, true, arena, &layout) || text == NULL)
        return 0;
    return fix__insert(out, index, &layout, &text, 1, title, false, true);
}
