/* fix_required: the fixes for what an object lacks — add a missing field, add every missing
 * field at once, or rename the misspelled key that was meant to be the field. What an object
 * needs now is what the rule engine reported about it (missing-required and
 * conditional-required), so the fixes and the diagnostics agree. */
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "fix_internal.h"
#include "check/check.h"

static bool is_missing_field(const struct diagnostic *d)
{
    return (d->code == CODE_MISSING_REQUIRED || d->code == CODE_CONDITIONAL_REQUIRED) &&
           d->field != NULL;
}

/* The diagnostics that can concern object node `object` (those from its anchor to its end:
 * the list is sorted by start): [*first, *last). */
static void diagnostics_of(struct analysis *a, uint32_t object, uint32_t *first, uint32_t *last)
{
    const struct json_node *o = &a->doc.nodes[object];
    uint32_t from = o->key_start != JSON_NONE ? o->key_start : o->start;
    uint32_t low = 0, high = a->diags.count;
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        if (a->diags.items[mid].start < from)
            low = mid + 1;
        else
            high = mid;
    }
    *first = low;
    while (high < a->diags.count && a->diags.items[high].start <= o->end)
        high++;
    *last = high;
}

/* The unknown keys of object `object` whose nearest known name is `name`: how many, and the
 * diagnostic of the first in `*found`. */
static uint32_t renames_to(struct analysis *a, uint32_t object, const char *name, uint32_t *found)
{
    uint32_t first, last, count = 0;
    diagnostics_of(a, object, &first, &last);
    for (uint32_t i = first; i < last; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if (d->code != CODE_UNKNOWN_FIELD || d->suggestion == NULL || d->node == JSON_NONE ||
            d->node >= a->doc.node_count || a->doc.nodes[d->node].parent != object ||
            strcmp(d->suggestion, name) != 0)
            continue;
        if (count++ == 0)
            *found = i;
    }
    return count;
}

/* Whether the rule engine reported field `name` missing from object `object`. */
static bool required_now(struct analysis *a, uint32_t object, const char *name)
{
    uint32_t first, last;
    diagnostics_of(a, object, &first, &last);
    for (uint32_t i = first; i < last; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if (is_missing_field(d) && d->node == object && strcmp(d->field->name, name) == 0)
            return true;
    }
    return false;
}

/* An unknown key renamed to its nearest known name. Safe (and preferred) when that supplies a
 * field the object is reported to lack and no other unknown key of the object would: the
 * misspelling is then the missing field. Otherwise a guess, offered but never applied alone. */
int fix_rename_key(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->suggestion == NULL || d->node == JSON_NONE)
        return 0;
    uint32_t object = a->doc.nodes[d->node].parent, found = 0;
    bool supplies = object != JSON_NONE && required_now(a, object, d->suggestion) &&
                    renames_to(a, object, d->suggestion, &found) == 1;
    return fix__rename(a, out, index, d->node, d->suggestion, supplies, supplies);
}

/* Whether `d` reports a source without its `config` (the rule engine names the source's
 * `config` field on the source node). */
static bool is_missing_config(struct analysis *a, const struct diagnostic *d)
{
    return a->registry != NULL && a->doc.nodes[d->node].kind == JSON_OBJECT &&
           d->field ==
               schema_object_field(a->registry->source.object, JSON_LITERAL(ENVELOPE_CONFIG));
}

/* `"config": {...}` with every field the source's kind requires (those the diagnostic names),
 * in the schema's order; `*safe` when each has a default. */
static const char *config_member(struct analysis *a, const struct diagnostic *d,
                                 const struct fix_layout *layout, struct arena *arena, bool *safe)
{
    const struct schema_kind *kind =
        kind_resolve_source(&a->doc, d->node, a->registry, a->settings);
    uint32_t count = 0;
    const char **members =
        kind ? arena_alloc(arena, (kind->config.field_count + 1) * sizeof *members) : NULL;
    *safe = members != NULL;
    for (uint32_t i = 0; members != NULL && i < kind->config.field_count; i++) {
        const struct schema_field *f = &kind->config.fields[i];
        if (!f->required)
            continue;
        members[count++] = arena_printf(arena, "\"%s\": %s", f->name, fix__value_json(f, arena));
        *safe = *safe && f->has_default;
    }
    if (count == 0) {
        *safe = false;
        return "\"" ENVELOPE_CONFIG "\": {}";
    }
    const char *inner = layout->own_line ? arena_printf(arena, "%s  ", layout->indent) : NULL;
    const char *body = inner ? fix__join(arena, members, count, arena_printf(arena, ",\n%s", inner),
                                         arena_printf(arena, "{\n%s", inner),
                                         arena_printf(arena, "\n%s}", layout->indent))
                             : fix__join(arena, members, count, ", ", "{", "}");
    return body ? arena_printf(arena, "\"" ENVELOPE_CONFIG "\": %s", body) : NULL;
}

/* The member that adds the field of missing-field diagnostic `d`; `*safe` when its value is the
 * field's default (nothing is guessed). */
static const char *member_text(struct analysis *a, const struct diagnostic *d,
                               const struct fix_layout *layout, struct arena *arena, bool *safe)
{
    if (is_missing_config(a, d))
        return config_member(a, d, layout, arena, safe);
    *safe = d->field->has_default;
    return arena_printf(arena, "\"%s\": %s", d->field->name, fix__value_json(d->field, arena));
}

static int compare_fields(const void *x, const void *y)
{
    const struct diagnostic *const *a = x, *const *b = y;
    /* The fields of one schema object are one array: their addresses are the schema's order. */
    uintptr_t p = (uintptr_t)(*a)->field, q = (uintptr_t)(*b)->field;
    return p < q ? -1 : p > q;
}

/* One fix that adds every field reported missing from the object of diagnostic `index` (but
 * those a rename would supply), in the schema's order; offered when two or more are missing. */
static int add_all_missing(struct analysis *a, uint32_t index, struct fix_list *out,
                           const struct fix_layout *layout)
{
    uint32_t object = a->diags.items[index].node, first, last, count = 0, found = 0;
    diagnostics_of(a, object, &first, &last);
    struct arena *arena = &out->arena;
    const struct diagnostic **missing = arena_alloc(arena, (last - first + 1) * sizeof *missing);
    if (missing == NULL)
        return -1;
    for (uint32_t i = first; i < last; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if (is_missing_field(d) && d->node == object &&
            renames_to(a, object, d->field->name, &found) == 0)
            missing[count++] = d;
    }
    if (count < 2)
        return 0;
    qsort(missing, count, sizeof *missing, compare_fields);
    const char **members = arena_alloc(arena, count * sizeof *members);
    if (members == NULL)
        return -1;
    bool safe = true;
    for (uint32_t i = 0; i < count; i++) {
        bool one_safe;
        members[i] = member_text(a, missing[i], layout, arena, &one_safe);
        if (members[i] == NULL)
            return -1;
        safe = safe && one_safe;
    }
    const char *title = arena_printf(arena, "Add all %u missing required fields", count);
    if (fix__insert(out, index, layout, members, count, title, safe, false) != 0)
        return -1;
    out->items[out->count - 1].covers = object;
    return 0;
}

/* A missing field: renamed from the misspelled key that was meant to be it, when there is one
 * (adding it beside that key would leave the misspelling); otherwise added, and all the missing
 * fields of the object added at once when there are several. */
int fix_add_member(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->field == NULL || d->node == JSON_NONE)
        return 0;
    uint32_t found = 0;
    uint32_t renames = renames_to(a, d->node, d->field->name, &found);
    if (renames > 0) {
        uint32_t first, last;
        diagnostics_of(a, d->node, &first, &last);
        for (uint32_t i = found; i < last; i++) {
            const struct diagnostic *u = &a->diags.items[i];
            if (u->code == CODE_UNKNOWN_FIELD && u->suggestion != NULL && u->node != JSON_NONE &&
                a->doc.nodes[u->node].parent == d->node &&
                strcmp(u->suggestion, d->field->name) == 0 &&
                fix__rename(a, out, index, u->node, d->field->name, renames == 1, renames == 1) !=
                    0)
                return -1;
        }
        return 0;
    }
    struct arena *arena = &out->arena;
    struct fix_layout layout;
    /* `config` goes last, after `type` and `name`; a field goes first, where it is seen. */
    if (!fix__layout(a, d->node, is_missing_config(a, d), arena, &layout))
        return 0;
    bool safe;
    const char *member = member_text(a, d, &layout, arena, &safe);
    if (member == NULL)
        return -1;
    const char *title =
        is_missing_config(a, d)
            ? (safe ? "Add \"" ENVELOPE_CONFIG "\" with the required fields and their defaults"
                    : "Add \"" ENVELOPE_CONFIG "\" with the required fields")
            : arena_printf(arena, "Add \"%s\"%s", d->field->name, safe ? " with its default" : "");
    if (fix__insert(out, index, &layout, &member, 1, title, safe, safe) != 0)
        return -1;
    return add_all_missing(a, index, out, &layout);
}
