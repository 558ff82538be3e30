/* complete_insert: items that insert several members at once — the skeleton of a source or a
 * job in an empty document, of an element of a bulk file or of an array of objects, and the
 * fields required now — with a placeholder for each value, laid out where they go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete_internal.h"
#include "domain/domain.h"
#include "base/base.h"

/* Indentation kept from a line of the document at most; one level is two spaces. */
#define INDENT_MAX 64
#define INDENT_UNIT "  "

/* ---- the text of an item ---- */

static void text_add_n(struct complete_text *t, const char *text, size_t len)
{
    if (t->failed)
        return;
    char *buf = vector_grow(t->buf, &t->cap, t->len + len + 1, 1);
    if (buf == NULL) {
        t->failed = true;
        return;
    }
    t->buf = buf;
    memcpy(t->buf + t->len, text, len);
    t->len += len;
    t->buf[t->len] = '\0';
}

void complete__text_add(struct complete_text *t, const char *text)
{
    text_add_n(t, text, strlen(text));
}

/* The JSON a field is inserted with: the current time for a timestamp, its default, its first
 * enum value (COMPLETE_VALUE_FIRST), or an empty value of its type ("data:," for a secret). */
static const char *value_json(struct completer *c, const struct schema_field *field,
                              enum complete_value_style style)
{
    struct arena *arena = &c->out->arena;
    if (field->format == SCHEMA_FORMAT_TIMESTAMP && c->now != NULL)
        return arena_printf(arena, "\"%s\"", c->now);
    if (!field->has_default && style == COMPLETE_VALUE_FIRST && field->enum_count > 0) {
        const struct schema_value *v = &field->enums[0].value;
        return v->type == SCHEMA_STRING ? arena_printf(arena, "\"%s\"", v->text) : v->text;
    }
    return schema_field_value_json(field, arena);
}

/* The enum's strings, as choices, in the list's arena; NULL when there are none (or no
 * memory, which the caller's next allocation finds too). */
static const char *const *choices_of(struct completer *c, const struct schema_field *field)
{
    if (field->enum_count < 2 || field->enums[0].value.type != SCHEMA_STRING)
        return NULL;
    const char **choices = arena_alloc(&c->out->arena, field->enum_count * sizeof *choices);
    for (uint32_t i = 0; choices != NULL && i < field->enum_count; i++)
        choices[i] = schema_value_text(&field->enums[i].value);
    return choices;
}

void complete__text_value(struct completer *c, struct complete_text *t,
                          const struct schema_field *field, enum complete_value_style style)
{
    const char *value = value_json(c, field, style);
    if (value == NULL || t->count == COMPLETE_MAX_PLACEHOLDERS) {
        t->failed = t->failed || value == NULL;
        complete__text_add(t, value ? value : "");
        return;
    }
    size_t len = strlen(value);
    bool inside =
        len >= 2 && (value[0] == '"' || strcmp(value, "[]") == 0 || strcmp(value, "{}") == 0);
    struct completion_placeholder *p = &t->marks[t->count++];
    p->start = (uint32_t)(t->len + (inside ? 1 : 0));
    p->end = (uint32_t)(t->len + (inside ? len - 1 : len));
    p->choices = style == COMPLETE_VALUE_CHOICES ? choices_of(c, field) : NULL;
    p->choice_count = p->choices ? field->enum_count : 0;
    complete__text_add(t, value);
}

void complete__text_member(struct completer *c, struct complete_text *t,
                           const struct schema_field *field, enum complete_value_style style)
{
    complete__text_add(t, "\"");
    complete__text_add(t, field->name);
    complete__text_add(t, "\": ");
    complete__text_value(c, t, field, style);
}

int complete__text_finish(struct completer *c, struct complete_text *t,
                          struct completion_item *item)
{
    struct arena *arena = &c->out->arena;
    if (!t->failed) {
        item->text = arena_strndup(arena, t->buf ? t->buf : "", t->len);
        item->placeholders = arena_alloc(arena, (t->count + 1) * sizeof *item->placeholders);
        if (item->text != NULL && item->placeholders != NULL) {
            memcpy(item->placeholders, t->marks, t->count * sizeof *t->marks);
            item->placeholder_count = t->count;
        }
    }
    free(t->buf);
    t->buf = NULL;
    return item->text != NULL && item->placeholders != NULL ? 0 : -1;
}

/* ---- layout ---- */

/* The indentation of the line that holds byte `at`. */
static void line_indent(const struct json_doc *doc, uint32_t at, char out[INDENT_MAX])
{
    uint32_t line = at;
    while (line > 0 && doc->text[line - 1] != '\n' && doc->text[line - 1] != '\r')
        line--;
    size_t n = 0;
    while (line + n < doc->len && n + 1 < INDENT_MAX &&
           (doc->text[line + n] == ' ' || doc->text[line + n] == '\t'))
        n++;
    memcpy(out, doc->text + line, n);
    out[n] = '\0';
}

/* Whether only spaces stand between the start of its line and byte `at`. */
static bool fresh_line(const struct json_doc *doc, uint32_t at)
{
    while (at > 0 && (doc->text[at - 1] == ' ' || doc->text[at - 1] == '\t'))
        at--;
    return at == 0 || doc->text[at - 1] == '\n' || doc->text[at - 1] == '\r';
}

/* The byte before `at` that is not white space (0 when none), and the one from `end` on. */
static char previous_token(const struct json_doc *doc, uint32_t at)
{
    while (at > 0 && strchr(" \t\r\n", doc->text[at - 1]) != NULL)
        at--;
    return at > 0 ? doc->text[at - 1] : '\0';
}

static uint32_t next_token(const struct json_doc *doc, uint32_t at)
{
    while (at < doc->len && strchr(" \t\r\n", doc->text[at]) != NULL)
        at++;
    return at;
}

/* Where members are inserted in an object and how: a comma before or after, on new lines
 * indented as the object's members, the closing bracket on a line of its own. */
struct layout {
    bool comma_before, comma_after, fresh, close_after;
    char outer[INDENT_MAX], inner[INDENT_MAX + sizeof INDENT_UNIT];
};

static void layout_in_object(const struct json_doc *doc, uint32_t object, uint32_t start,
                             uint32_t end, struct layout *l)
{
    char prev = previous_token(doc, start);
    uint32_t next = next_token(doc, end);
    l->comma_before = prev != '\0' && prev != '{' && prev != ',';
    l->comma_after = next < doc->len && doc->text[next] == '"';
    l->fresh = fresh_line(doc, start);
    l->close_after = !l->fresh && next < doc->len && doc->text[next] == '}' &&
                     memchr(doc->text + end, '\n', next - end) == NULL;
    line_indent(doc, doc->nodes[object].start, l->outer);
    if (l->fresh)
        line_indent(doc, start, l->inner);
    else
        snprintf(l->inner, sizeof l->inner, "%s" INDENT_UNIT, l->outer);
}

/* Opens the members: a comma, a new line. */
static void layout_begin(struct complete_text *t, const struct layout *l)
{
    if (l->comma_before)
        complete__text_add(t, ",");
    if (!l->fresh) {
        complete__text_add(t, "\n");
        complete__text_add(t, l->inner);
    }
}

static void layout_end(struct complete_text *t, const struct layout *l)
{
    if (l->comma_after) {
        complete__text_add(t, ",");
        if (!l->fresh) {
            complete__text_add(t, "\n");
            complete__text_add(t, l->inner);
        }
    } else if (l->close_after) {
        complete__text_add(t, "\n");
        complete__text_add(t, l->outer);
    }
}

/* Appends the members `fields` (`count`), separated by `separator`. */
static void text_members(struct completer *c, struct complete_text *t,
                         const struct schema_field *const *fields, uint32_t count,
                         const char *separator, enum complete_value_style style)
{
    for (uint32_t i = 0; i < count; i++) {
        if (i > 0)
            complete__text_add(t, separator);
        complete__text_member(c, t, fields[i], style);
    }
}

/* ---- items ---- */

/* An item that inserts several members; sorted after the keys required now (rank 0 and 1:
 * "0..." and "1..."), before the others: one at a time stays the first choice. */
static struct completion_item *snippet_item(struct completer *c, const char *label,
                                            const char *detail, uint32_t start, uint32_t end)
{
    struct completion_item *item = complete__add(c->out);
    if (item == NULL)
        return NULL;
    item->label = label;
    item->kind = COMPLETION_SNIPPET;
    item->detail = detail;
    item->start = start;
    item->end = end;
    snprintf(item->sort, sizeof item->sort, "%c", '0' + COMPLETION_RANK_APPLICABLE_BY_VALUE);
    return item;
}

/* Whether `field` of `schema` goes in an item about the object node `object`. */
typedef bool field_filter(struct completer *c, const struct schema_object *schema, uint32_t object,
                          uint32_t except, const struct schema_field *field);

/* The fields of `schema` that `keep` selects, in schema order, in the list's arena. */
static const struct schema_field **select_fields(struct completer *c,
                                                 const struct schema_object *schema,
                                                 uint32_t object, uint32_t except,
                                                 field_filter *keep, uint32_t *count)
{
    *count = 0;
    const struct schema_field **fields =
        arena_alloc(&c->out->arena, (schema->field_count + 1) * sizeof *fields);
    for (uint32_t i = 0; fields != NULL && i < schema->field_count; i++) {
        if (keep(c, schema, object, except, &schema->fields[i]))
            fields[(*count)++] = &schema->fields[i];
    }
    return fields;
}

/* "a, b, c": the names of `fields`, for an item's detail. */
static const char *names_of(struct completer *c, const struct schema_field *const *fields,
                            uint32_t count)
{
    struct complete_text t = {0};
    for (uint32_t i = 0; i < count; i++) {
        complete__text_add(&t, i > 0 ? ", " : "");
        complete__text_add(&t, fields[i]->name);
    }
    const char *names = t.failed ? NULL : arena_strndup(&c->out->arena, t.buf ? t.buf : "", t.len);
    free(t.buf);
    return names;
}

static bool required_now(struct completer *c, const struct schema_object *schema, uint32_t object,
                         uint32_t except, const struct schema_field *field)
{
    enum completion_rank rank = complete__rank(c->doc, schema, object, field);
    return (rank == COMPLETION_RANK_REQUIRED || rank == COMPLETION_RANK_REQUIRED_BY_VALUE) &&
           !complete__member_present(c->doc, object, except, field);
}

int complete__fill_required(struct completer *c, const struct schema_object *schema,
                            uint32_t object, uint32_t except, uint32_t start, uint32_t end)
{
    uint32_t count;
    const struct schema_field **fields =
        select_fields(c, schema, object, except, required_now, &count);
    if (fields == NULL)
        return -1;
    if (count == 0)
        return 0;
    struct completion_item *item =
        snippet_item(c, "fill required fields", names_of(c, fields, count), start, end);
    if (item == NULL || item->detail == NULL)
        return -1;
    struct layout l;
    layout_in_object(c->doc, object, start, end, &l);
    char separator[sizeof l.inner + 2];
    snprintf(separator, sizeof separator, ",\n%s", l.inner);
    struct complete_text t = {0};
    layout_begin(&t, &l);
    text_members(c, &t, fields, count, separator, COMPLETE_VALUE_FIRST);
    layout_end(&t, &l);
    item->documentation = arena_printf(
        &c->out->arena, "Inserts every field required now that is absent: %s.", item->detail);
    return complete__text_finish(c, &t, item);
}

int complete__fill_config(struct completer *c, const struct schema_kind *kind, uint32_t source,
                          uint32_t start, uint32_t end)
{
    uint32_t count;
    const struct schema_field **fields =
        select_fields(c, &kind->config, JSON_NONE, JSON_NONE, required_now, &count);
    if (fields == NULL)
        return -1;
    struct completion_item *item =
        snippet_item(c, ENVELOPE_CONFIG " with its required fields",
                     count > 0 ? names_of(c, fields, count) : "no field is required", start, end);
    if (item == NULL || item->detail == NULL)
        return -1;
    struct layout l;
    layout_in_object(c->doc, source, start, end, &l);
    char separator[sizeof l.inner + sizeof INDENT_UNIT + 2];
    snprintf(separator, sizeof separator, ",\n%s" INDENT_UNIT, l.inner);
    struct complete_text t = {0};
    layout_begin(&t, &l);
    complete__text_add(&t, "\"" ENVELOPE_CONFIG "\": {");
    if (count > 0) {
        complete__text_add(&t, separator + 1);
        text_members(c, &t, fields, count, separator, COMPLETE_VALUE_FIRST);
        complete__text_add(&t, "\n");
        complete__text_add(&t, l.inner);
    }
    complete__text_add(&t, "}");
    layout_end(&t, &l);
    item->documentation = arena_printf(&c->out->arena,
                                       "Adds %s%s%s for %s with the fields it "
                                       "requires: %s.",
                                       field_text_code(c->markup), ENVELOPE_CONFIG,
                                       field_text_code(c->markup), kind->title, item->detail);
    return complete__text_finish(c, &t, item);
}

/* ---- skeletons ---- */

/* What a new source holds: the top level's plain string fields, and its config. */
static bool source_skeleton_field(struct completer *c, const struct schema_object *schema,
                                  uint32_t object, uint32_t except,
                                  const struct schema_field *field)
{
    (void)c, (void)schema, (void)object, (void)except;
    return (field->types == SCHEMA_STRING && field->enum_count == 0 && !field->sample_only) ||
           strcmp(field->name, ENVELOPE_CONFIG) == 0;
}

/* What a new element of an array of objects holds: every field the element documents. */
static bool element_field(struct completer *c, const struct schema_object *schema, uint32_t object,
                          uint32_t except, const struct schema_field *field)
{
    (void)c, (void)schema, (void)object, (void)except;
    return !field->sample_only;
}

static bool required_field(struct completer *c, const struct schema_object *schema, uint32_t object,
                           uint32_t except, const struct schema_field *field)
{
    (void)c, (void)schema, (void)object, (void)except;
    return field->required;
}

/* Adds an item whose text is an object with the fields of `schema` that `keep` selects: on
 * lines of their own (`multiline`) or on one, between `before` and `after`. Labelled `label`,
 * or (NULL) with the fields' names in braces. */
static int object_item(struct completer *c, const char *label, const char *detail,
                       const struct schema_object *schema, field_filter *keep, bool multiline,
                       const char *before, const char *after)
{
    uint32_t count;
    const struct schema_field **fields =
        select_fields(c, schema, JSON_NONE, JSON_NONE, keep, &count);
    struct completion_item *item = snippet_item(c, label, detail, c->offset, c->offset);
    if (fields == NULL || item == NULL)
        return -1;
    item->documentation = names_of(c, fields, count);
    if (label == NULL && item->documentation != NULL)
        item->label = arena_printf(&c->out->arena, "{%s}", item->documentation);
    struct complete_text t = {0};
    complete__text_add(&t, before);
    complete__text_add(&t, multiline ? "{\n" INDENT_UNIT : "{");
    text_members(c, &t, fields, count, multiline ? ",\n" INDENT_UNIT : ", ",
                 COMPLETE_VALUE_CHOICES);
    complete__text_add(&t, multiline ? "\n}" : "}");
    complete__text_add(&t, after);
    if (item->label == NULL)
        t.failed = true;
    return complete__text_finish(c, &t, item);
}

int complete__document_skeletons(struct completer *c)
{
    const struct schema_object *source = c->registry->source.object;
    const struct schema_object *job = c->registry->job.object;
    if (source != NULL && object_item(c, "source", "a source object", source, source_skeleton_field,
                                      true, "", "\n") != 0)
        return -1;
    if (job != NULL &&
        object_item(c, "job", c->registry->job_title ? c->registry->job_title : "a job object", job,
                    required_field, true, "", "\n") != 0)
        return -1;
    return 0;
}

int complete__element_skeleton(struct completer *c, const struct schema_object *element)
{
    char prev = previous_token(c->doc, c->offset);
    uint32_t next = next_token(c->doc, c->offset);
    bool comma_before = prev != '\0' && prev != '[' && prev != ',';
    bool comma_after = next < c->doc->len && c->doc->text[next] != ']' && c->doc->text[next] != ',';
    const char *before = comma_before ? ", " : "";
    const char *after = comma_after ? ", " : "";
    if (element == NULL)
        return object_item(c, "source", "a source object", c->registry->source.object,
                           source_skeleton_field, false, before, after);
    return object_item(c, NULL, "an element with its fields", element, element_field, false, before,
                       after);
}
