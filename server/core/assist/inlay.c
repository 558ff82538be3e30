/* inlay: kind and default hints, from the kind resolution and the schema's conditions. */
#include "inlay.h"

#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "check/check.h"
#include "base/base.h"

static int add(struct inlay_list *list, uint32_t offset, enum inlay_kind kind, const char *label,
               const char *tooltip)
{
    if (label == NULL || list->arena.failed) /* a tooltip made in it may be missing */
        return -1;
    struct inlay_hint *grown =
        vector_grow(list->items, &list->cap, (size_t)list->count + 1, sizeof *grown);
    if (grown == NULL)
        return -1;
    list->items = grown;
    list->items[list->count++] = (struct inlay_hint){offset, kind, label, tooltip};
    return 0;
}

/* Whether `condition` reads the field `name`. */
static bool mentions(const struct schema_condition *condition, const char *name)
{
    if (condition == NULL)
        return false;
    if ((condition->field != NULL && strcmp(condition->field, name) == 0) ||
        (condition->other_field != NULL && strcmp(condition->other_field, name) == 0))
        return true;
    for (uint32_t i = 0; i < condition->child_count; i++) {
        if (mentions(condition->children[i], name))
            return true;
    }
    return false;
}

/* Whether another field's requirement or applicability in `object` reads the field `name`. */
static bool depended_on(const struct schema_object *object, const char *name)
{
    for (uint32_t i = 0; i < object->field_count; i++) {
        const struct schema_field *f = &object->fields[i];
        if (mentions(f->required_when, name) || mentions(f->applicable, name))
            return true;
    }
    return false;
}

/* The defaults of the absent fields of `config` that others depend on, before its `}`. */
static int hint_defaults(struct analysis *a, const struct schema_kind *kind, uint32_t config,
                         struct inlay_list *out)
{
    const struct json_node *n = &a->doc.nodes[config];
    if (n->kind != JSON_OBJECT || (n->flags & JSON_FLAG_UNCLOSED) || n->end <= n->start)
        return 0;
    uint32_t at = n->end - 1; /* the closing brace */
    for (uint32_t i = 0; i < kind->config.field_count; i++) {
        const struct schema_field *f = &kind->config.fields[i];
        if (!f->has_default || !depended_on(&kind->config, f->name) ||
            schema_at_field_member(&a->doc, config, f) != JSON_NONE)
            continue;
        const char *value = schema_field_value_json(f, &out->arena);
        if (add(out, at, INLAY_DEFAULT,
                arena_printf(&out->arena, "%s: %s (default)", f->name, value ? value : "?"),
                arena_printf(&out->arena, "\"%s\" is absent: its default applies", f->name)) != 0)
            return -1;
    }
    return 0;
}

/* The hints of the source `source`: its kind (in a bulk file, or when inferred), and defaults. */
static int hint_source(struct analysis *a, const struct schema_registry *registry,
                       const struct settings *settings, uint32_t source, bool bulk,
                       struct inlay_list *out)
{
    const struct schema_kind *kind = kind_resolve_source(&a->doc, source, registry, settings);
    if (kind == NULL)
        return 0;
    bool inferred = envelope_type(&a->doc, source) == JSON_NONE;
    uint32_t open = a->doc.nodes[source].start + 1;
    if (inferred || bulk) {
        const char *label = inferred ? arena_printf(&out->arena, "%s (inferred)", kind->types[0])
                                     : arena_strndup(&out->arena, kind->title, strlen(kind->title));
        if (add(out, open, INLAY_KIND, label, NULL) != 0)
            return -1;
    }
    uint32_t config = envelope_config(&a->doc, source);
    return config == JSON_NONE ? 0 : hint_defaults(a, kind, config, out);
}

/* Keeps the hints whose offset is in [from, to]: a long source may reach into the range from
 * before it. */
static void keep_between(struct inlay_list *out, uint32_t from, uint32_t to)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < out->count; i++) {
        if (out->items[i].offset >= from && out->items[i].offset <= to)
            out->items[kept++] = out->items[i];
    }
    out->count = kept;
}

int inlay_hints(struct analysis *a, const struct schema_registry *registry,
                const struct settings *settings, uint32_t from, uint32_t to, struct inlay_list *out)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->arena);
    if (registry == NULL || a->doc.root == JSON_NONE)
        return 0;
    if (a->document == DOCUMENT_SOURCE) {
        if (hint_source(a, registry, settings, a->doc.root, false, out) != 0)
            return -1;
    } else if (a->document == DOCUMENT_BULK) {
        /* the first element that ends at or after `from`, by binary search */
        uint32_t lo = 0, hi = a->element_count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (a->doc.nodes[a->elements[mid]].end < from)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (uint32_t i = lo; i < a->element_count; i++) {
            uint32_t e = a->elements[i];
            if (a->doc.nodes[e].start > to)
                break;
            if (hint_source(a, registry, settings, e, true, out) != 0)
                return -1;
        }
    }
    keep_between(out, from, to);
    return out->arena.failed ? -1 : 0;
}

void inlay_list_free(struct inlay_list *list)
{
    free(list->items);
    arena_free(&list->arena);
    memset(list, 0, sizeof *list);
}
