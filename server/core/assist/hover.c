/* hover: the schema's words about a key or a value. */
#include "hover.h"

#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"
#include "check/check.h"

static const char *kind_text(const struct schema_kind *kind, enum text_markup markup,
                             struct arena *arena)
{
    const char *c = field_text_code(markup), *b = field_text_strong(markup);
    char ids[512] = "";
    for (uint32_t t = 0; t < kind->type_count; t++) {
        size_t used = strlen(ids);
        snprintf(ids + used, sizeof ids - used, "%s%s%s%s", t ? ", " : "", c, kind->types[t], c);
    }
    return arena_printf(arena, "%s%s%s (kind %d)\n\n%s" ENVELOPE_TYPE "%s: %s\n\n%s", b,
                        kind->title, b, kind->number, c, c, ids,
                        kind->description ? kind->description : "");
}

/* An enum value's meaning, then its field. */
static const char *enum_value_text(const struct schema_field *field,
                                   const struct schema_enum_value *e, enum text_markup markup,
                                   struct arena *arena)
{
    const char *c = field_text_code(markup);
    return arena_printf(arena, "%s%s%s — %s\n\n%s%s", c, e->value.text, c,
                        e->description ? e->description : "one of the allowed values",
                        markup == TEXT_MARKDOWN ? "---\n\n" : "",
                        field_text_describe(field, markup, arena));
}

/* How much of `d`'s message to show beside the others on the same value: a review's message
 * that ends with ": " and the message of another finding there ("insecure-transport since
 * HEAD: <that message>") is cut before it, as that message is shown already. */
static int risk_length(const struct analysis *a, const struct diagnostic *d)
{
    size_t len = strlen(d->message);
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *o = &a->diags.items[i];
        if (o == d || o->start != d->start || o->end != d->end)
            continue;
        size_t n = strlen(o->message);
        if (n + 2 < len && memcmp(d->message + len - n - 2, ": ", 2) == 0 &&
            memcmp(d->message + len - n, o->message, n) == 0)
            return (int)(len - n - 2);
    }
    return len > INT32_MAX ? INT32_MAX : (int)len;
}

/* `text`, then why the member `node` is risky: the posture findings on its value (their
 * messages name the field, what the setting lets happen and the safer value, never the value),
 * and a review's risky change, without repeating what a posture finding says. */
static const char *with_risks(const struct analysis *a, const struct json_node *node,
                              const char *text, enum text_markup markup, struct arena *arena)
{
    const char *b = field_text_strong(markup), *c = field_text_code(markup);
    for (uint32_t i = 0; text != NULL && i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if (d->start == node->start && d->end == node->end && d->severity != DIAG_OFF &&
            code_in_group(d->code, CODE_GROUP_SECURITY))
            text = arena_printf(arena, "%s\n\n%sRisk%s (%s%s%s): %.*s", text, b, b, c,
                                code_name(d->code), c, risk_length(a, d), d->message);
    }
    return text;
}

/* On a string that holds placeholders of the project: the variable under the cursor (else the
 * first one), before what is said of the field; the range becomes the placeholder's. */
static const char *with_placeholder(const struct analysis *a, const struct settings *settings,
                                    uint32_t node, uint32_t offset, const char *text,
                                    enum text_markup markup, struct arena *arena, uint32_t *start,
                                    uint32_t *end)
{
    struct placeholder_match m, first;
    if (text == NULL || !settings_placeholder(settings, &a->doc, node, &first))
        return text;
    m = first;
    while (offset >= m.end &&
           placeholder_in_string(settings->placeholders, settings->placeholder_count, &a->doc, node,
                                 m.end, &m))
        ;
    if (offset < m.start || offset >= m.end)
        m = first;
    else
        *start = m.start, *end = m.end;
    const char *c = field_text_code(markup);
    return arena_printf(arena,
                        "Placeholder: the variable %s%.*s%s, filled in by the renderer; the value "
                        "is checked as filled in later (%ssrcls --check --env FILE%s checks it "
                        "rendered)\n\n%s",
                        c, (int)(m.name_end - m.name_start), a->doc.text + m.name_start, c, c, c,
                        text);
}

const char *hover_at(struct analysis *a, const struct schema_registry *registry,
                     const struct settings *settings, uint32_t offset, enum text_markup markup,
                     struct arena *arena, uint32_t *start, uint32_t *end)
{
    struct json_doc *doc = &a->doc;
    struct json_location loc = json_locate(doc, offset);
    if (loc.kind != JSON_LOCATION_KEY && loc.kind != JSON_LOCATION_VALUE && offset < doc->len)
        loc = json_locate(doc, offset + 1); /* the character after: a pointer on a token's first */
    if (loc.kind != JSON_LOCATION_KEY && loc.kind != JSON_LOCATION_VALUE)
        return NULL;
    const struct json_node *n = json_node_at(doc, loc.node);
    if (n == NULL || n->parent == JSON_NONE)
        return NULL;
    bool on_key = loc.kind == JSON_LOCATION_KEY;
    *start = on_key ? n->key_start : n->start;
    *end = on_key ? n->key_end : n->end;
    if (n->key_start != JSON_NONE) {
        struct schema_place parent = schema_at_object(doc, n->parent, registry, settings);
        bool config = envelope_is_config(doc, loc.node);
        if (parent.source && (config || envelope_is_type(doc, loc.node))) {
            const struct schema_kind *kind =
                kind_resolve_source(doc, n->parent, registry, settings);
            if (kind != NULL && (on_key ? config : n->kind == JSON_STRING))
                return kind_text(kind, markup, arena);
        }
    }
    const struct schema_field *field = schema_at_member(doc, loc.node, registry, settings);
    if (field == NULL)
        return NULL;
    if (!on_key && field->enum_count > 0 && !field->secret && !field->sensitive) {
        for (uint32_t i = 0; i < field->enum_count; i++) {
            const struct schema_enum_value *e = &field->enums[i];
            bool match = e->value.type == SCHEMA_STRING
                             ? json_node_string_equals(doc, loc.node, e->value.text, e->value.len)
                             : false;
            if (match)
                return with_risks(a, n, enum_value_text(field, e, markup, arena), markup, arena);
        }
    }
    const char *text = with_risks(a, n, field_text_describe(field, markup, arena), markup, arena);
    return on_key
               ? text
               : with_placeholder(a, settings, loc.node, offset, text, markup, arena, start, end);
}
