/* fix: edits that resolve diagnostics. Titles never carry a document value. */
#include "fix.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "fix_internal.h"
#include "json/json.h"
#include "schema/schema.h"
#include "base/base.h"

/* A quoted integer with at most this many digits fits 64 bits when unquoted. */
#define UNQUOTED_INTEGER_MAX_DIGITS 18

void fix_list_init(struct fix_list *list)
{
    memset(list, 0, sizeof *list);
    arena_init(&list->arena);
}

void fix_list_free(struct fix_list *list)
{
    free(list->items);
    arena_free(&list->arena);
    memset(list, 0, sizeof *list);
}

int fix__add(struct fix_list *out, uint32_t diagnostic, const char *title, uint32_t start,
             uint32_t end, const char *text, bool safe, bool preferred)
{
    if (title == NULL || text == NULL || out->count == UINT32_MAX)
        return -1;
    struct fix *grown = vector_grow(out->items, &out->cap, (size_t)out->count + 1, sizeof *grown);
    if (grown == NULL)
        return -1;
    out->items = grown;
    out->items[out->count++] = (struct fix){
        .title = title,
        .edit = {start, end, text},
        .safe = safe,
        .preferred = preferred,
        .diagnostic = diagnostic,
        .covers = JSON_NONE,
    };
    return 0;
}

/* Most fixes are preferred exactly when they are safe. */
static int add_fix(struct fix_list *out, uint32_t diagnostic, const char *title, uint32_t start,
                   uint32_t end, const char *text, bool safe)
{
    return fix__add(out, diagnostic, title, start, end, text, safe, safe);
}

/* ---- text helpers ---- */

/* The white space that starts the line holding byte `offset`. */
static const char *indent_of(struct analysis *a, uint32_t offset, struct arena *arena)
{
    const char *text = a->doc.text;
    uint32_t line = offset;
    while (line > 0 && text[line - 1] != '\n' && text[line - 1] != '\r')
        line--;
    uint32_t end = line;
    while (end < a->doc.len && (text[end] == ' ' || text[end] == '\t'))
        end++;
    return arena_strndup(arena, text + line, end - line);
}

/* The last member of object node `o`, or JSON_NONE. */
static uint32_t last_member(struct analysis *a, const struct json_node *o)
{
    uint32_t last = o->first_child;
    while (last != JSON_NONE && a->doc.nodes[last].next != JSON_NONE)
        last = a->doc.nodes[last].next;
    return last;
}

bool fix__layout(struct analysis *a, uint32_t object, bool at_end, struct arena *arena,
                 struct fix_layout *layout)
{
    const struct json_node *o = &a->doc.nodes[object];
    if (o->kind != JSON_OBJECT)
        return false;
    layout->object = object;
    uint32_t first = o->first_child;
    if (first != JSON_NONE) {
        const struct json_node *m = &a->doc.nodes[at_end ? last_member(a, o) : first];
        layout->indent = indent_of(a, m->key_start, arena);
        if (layout->indent == NULL)
            return false;
        /* The first member starts its line when only the indent comes before it. */
        uint32_t line = m->key_start - (uint32_t)strlen(layout->indent);
        layout->own_line =
            line == 0 || a->doc.text[line - 1] == '\n' || a->doc.text[line - 1] == '\r';
        const char *separator =
            layout->own_line ? arena_printf(arena, ",\n%s", layout->indent) : ", ";
        layout->start = layout->end = at_end ? m->end : m->key_start;
        layout->before = at_end ? separator : "";
        layout->after = at_end ? "" : separator;
        return separator != NULL;
    }
    const char *outer = indent_of(a, o->start, arena);
    layout->indent = arena_printf(arena, "%s  ", outer ? outer : "");
    layout->own_line = true;
    layout->start = o->start + 1;
    layout->end = o->end > o->start && !(o->flags & JSON_FLAG_UNCLOSED) ? o->end - 1 : o->end;
    layout->before = arena_printf(arena, "\n%s", layout->indent ? layout->indent : "");
    layout->after = arena_printf(arena, "\n%s", outer ? outer : "");
    return layout->indent != NULL && layout->before != NULL && layout->after != NULL;
}

char *fix__join(struct arena *arena, const char *const *parts, uint32_t count,
                const char *separator, const char *before, const char *after)
{
    if (separator == NULL || before == NULL || after == NULL)
        return NULL;
    size_t size = strlen(before) + strlen(after) + 1, n = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (parts[i] == NULL)
            return NULL;
        size += strlen(parts[i]) + strlen(separator);
    }
    char *text = arena_alloc(arena, size);
    if (text == NULL)
        return NULL;
    for (uint32_t i = 0; i <= count + 1; i++) {
        const char *piece = i == 0 ? before : i == count + 1 ? after : parts[i - 1];
        if (i > 1 && i <= count) {
            memcpy(text + n, separator, strlen(separator));
            n += strlen(separator);
        }
        memcpy(text + n, piece, strlen(piece));
        n += strlen(piece);
    }
    text[n] = '\0';
    return text;
}

int fix__insert(struct fix_list *out, uint32_t diagnostic, const struct fix_layout *layout,
                const char *const *members, uint32_t count, const char *title, bool safe,
                bool preferred)
{
    struct arena *arena = &out->arena;
    const char *separator = layout->own_line ? arena_printf(arena, ",\n%s", layout->indent) : ", ";
    const char *text = fix__join(arena, members, count, separator, layout->before, layout->after);
    if (text == NULL)
        return -1;
    return fix__add(out, diagnostic, title, layout->start, layout->end, text, safe, preferred);
}

/* An edit that inserts `member_text` ("\"name\": value") as the first member of `object`. */
static int insert_member(struct analysis *a, struct fix_list *out, uint32_t diagnostic,
                         uint32_t object, const char *member_text, const char *title, bool safe)
{
    struct fix_layout layout;
    if (!fix__layout(a, object, false, &out->arena, &layout))
        return 0;
    return fix__insert(out, diagnostic, &layout, &member_text, 1, title, safe, safe);
}

static bool is_space(char c)
{
    return isspace((unsigned char)c) != 0;
}

void fix__member_removal(struct analysis *a, uint32_t m, uint32_t *start, uint32_t *end)
{
    const struct json_doc *doc = &a->doc;
    const struct json_node *n = &doc->nodes[m];
    uint32_t s = n->key_start != JSON_NONE ? n->key_start : n->start, e = n->end;
    uint32_t i = e;
    while (i < doc->len && is_space(doc->text[i]))
        i++;
    if (i < doc->len && doc->text[i] == ',') {
        i++;
        while (i < doc->len && is_space(doc->text[i]))
            i++;
        e = i;
    } else {
        /* the last member: take the comma before it */
        uint32_t j = s;
        while (j > 0 && is_space(doc->text[j - 1]))
            j--;
        if (j > 0 && doc->text[j - 1] == ',')
            s = j - 1;
    }
    *start = s;
    *end = e;
}

uint32_t fix__node(struct analysis *a, const struct diagnostic *d)
{
    if (d->node != JSON_NONE)
        return d->node < a->doc.node_count ? d->node : JSON_NONE;
    if (d->pointer == NULL)
        return JSON_NONE;
    uint32_t n = json_pointer_find(&a->doc, d->pointer, strlen(d->pointer));
    if (n == JSON_NONE || a->doc.nodes[n].start != d->start || a->doc.nodes[n].end != d->end)
        return JSON_NONE;
    return n;
}

const char *fix__schema_value_json(const struct schema_value *value, struct arena *arena)
{
    if (value->type != SCHEMA_STRING)
        return value->text;
    char *out = arena_alloc(arena, value->len * 6 + 3);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    out[n++] = '"';
    for (size_t i = 0; i < value->len; i++) {
        unsigned char c = (unsigned char)value->text[i];
        if (c == '"' || c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(out + n, 7, "\\u%04x", c);
        } else {
            out[n++] = (char)c;
        }
    }
    out[n++] = '"';
    out[n] = '\0';
    return out;
}

const char *fix__value_json(const struct schema_field *field, struct arena *arena)
{
    if (!field->has_default && field->enum_count > 0)
        return fix__schema_value_json(&field->enums[0].value, arena);
    return schema_field_value_json(field, arena);
}

bool fix__equals_ignoring_case(struct json_str a, const char *b)
{
    return suggest_same_but_case(a, b);
}

static bool equals(struct json_str a, const char *b)
{
    return a.len == strlen(b) && memcmp(a.ptr, b, a.len) == 0;
}

/* ---- per code ---- */

/* The node the rule engine recorded on the diagnostic, or NULL (fix_collect checked that it is
 * in the document). */
static const struct json_node *node_of(struct analysis *a, const struct diagnostic *d)
{
    return d->node == JSON_NONE ? NULL : &a->doc.nodes[d->node];
}

int fix__rename(struct analysis *a, struct fix_list *out, uint32_t diagnostic, uint32_t member,
                const char *name, bool safe, bool preferred)
{
    const struct json_node *n = &a->doc.nodes[member];
    /* A key the object already has would be a duplicate: no rename then. */
    if (n->key_start == JSON_NONE ||
        (n->parent != JSON_NONE &&
         json_object_get(&a->doc, n->parent, name, strlen(name)) != JSON_NONE))
        return 0;
    struct arena *arena = &out->arena;
    return fix__add(out, diagnostic, arena_printf(arena, "Rename to \"%s\"", name), n->key_start,
                    n->key_end, arena_printf(arena, "\"%s\"", name), safe, preferred);
}

/* The same field under its documented name: safe. */
int fix_documented_spelling(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->suggestion == NULL || d->node == JSON_NONE)
        return 0;
    return fix__rename(a, out, index, d->node, d->suggestion, true, true);
}

int fix_add_type(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    struct arena *arena = &out->arena;
    if (d->suggestion == NULL || d->node == JSON_NONE)
        return 0;
    return insert_member(
        a, out, index, d->node, arena_printf(arena, "\"" ENVELOPE_TYPE "\": \"%s\"", d->suggestion),
        arena_printf(arena, "Add \"" ENVELOPE_TYPE "\": \"%s\"", d->suggestion), true);
}

int fix_remove_member(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    uint32_t start, end;
    if (d->node == JSON_NONE)
        return 0;
    fix__member_removal(a, d->node, &start, &end);
    return add_fix(out, index,
                   arena_printf(&out->arena, "Remove \"%s\"", d->field ? d->field->name : "field"),
                   start, end, "", false);
}

int fix_value_type(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    const struct json_node *n = node_of(a, d);
    const struct schema_field *f = d->field;
    struct arena *arena = &out->arena;
    if (f == NULL || n == NULL)
        return 0;
    if (n->kind == JSON_STRING) {
        struct json_str s = json_node_string(&a->doc, d->node);
        bool boolean = equals(s, "true") || equals(s, "false");
        if ((f->types & SCHEMA_BOOLEAN) && boolean)
            return add_fix(out, index,
                           arena_printf(arena, "Write %.*s without quotes", (int)s.len, s.ptr),
                           n->start, n->end, arena_strndup(arena, s.ptr, s.len), true);
        bool digits = s.len > 0 && s.len <= UNQUOTED_INTEGER_MAX_DIGITS;
        for (size_t i = 0; i < s.len && digits; i++)
            digits =
                s.ptr[i] >= '0' && s.ptr[i] <= '9' && !(i == 0 && s.ptr[i] == '0' && s.len > 1);
        if ((f->types & (SCHEMA_INTEGER | SCHEMA_NUMBER)) && digits && !f->secret && !f->sensitive)
            return add_fix(out, index, "Write the number without quotes", n->start, n->end,
                           arena_strndup(arena, s.ptr, s.len), true);
        return 0;
    }
    if ((n->kind == JSON_NUMBER || n->kind == JSON_TRUE || n->kind == JSON_FALSE) &&
        (f->types & SCHEMA_STRING) && !f->secret && !f->sensitive)
        return add_fix(
            out, index, "Write the value as a string", n->start, n->end,
            arena_printf(arena, "\"%.*s\"", (int)(n->end - n->start), a->doc.text + n->start),
            true);
    return 0;
}

int fix_enum_value(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    const struct json_node *n = node_of(a, d);
    const struct schema_field *f = d->field;
    if (f == NULL || n == NULL)
        return 0;
    struct json_str value = json_node_string(&a->doc, d->node);
    for (uint32_t i = 0; i < f->enum_count; i++) {
        const struct schema_value *v = &f->enums[i].value;
        if (v->type != SCHEMA_STRING)
            continue;
        bool same_but_case = n->kind == JSON_STRING && fix__equals_ignoring_case(value, v->text);
        const char *title = arena_printf(&out->arena, "Change to \"%s\"", v->text);
        const char *text = arena_printf(&out->arena, "\"%s\"", v->text);
        if (add_fix(out, index, title, n->start, n->end, text, same_but_case) != 0)
            return -1;
    }
    return 0;
}

/* Duplicate keys: the earlier member goes, the last one (the one most readers keep) stays. Not
 * safe: which value takes effect depends on the reader. */
int fix_remove_duplicate(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->related_start == JSON_NONE || d->related_start >= a->doc.len)
        return 0;
    struct json_location at = json_locate(&a->doc, d->related_start + 1);
    if (at.kind != JSON_LOCATION_KEY || a->doc.nodes[at.node].key_start != d->related_start)
        return 0;
    uint32_t start, end;
    fix__member_removal(a, at.node, &start, &end);
    return fix__add(out, index, "Remove the earlier duplicate (the last one takes effect)", start,
                    end, "", false, true);
}

/* The byte before `offset` that is not white space, or 0 when none. */
static char previous_visible(const struct analysis *a, uint32_t offset)
{
    while (offset > 0 && is_space(a->doc.text[offset - 1]))
        offset--;
    return offset > 0 ? a->doc.text[offset - 1] : 0;
}

/* Syntax errors with one obvious repair: a comma after the last value of an object or array
 * (a value before it, a closing bracket after it) is deleted. */
int fix_syntax(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    const char *text = a->doc.text;
    if (d->end != d->start + 1 || d->end > a->doc.len || text[d->start] != ',')
        return 0;
    uint32_t next = d->end;
    while (next < a->doc.len && is_space(text[next]))
        next++;
    char before = previous_visible(a, d->start);
    if (next >= a->doc.len || (text[next] != '}' && text[next] != ']') || before == 0 ||
        before == ',' || before == '{' || before == '[' || before == ':')
        return 0;
    return add_fix(out, index, "Remove the trailing comma", d->start, d->end, "", true);
}

/* The fix of each code that has one (codes.c's table says what a code is; this, how to fix it). */
static fix_function *const fix_of_code[CODE_COUNT] = {
    [CODE_JSON_SYNTAX] = fix_syntax,
    [CODE_DUPLICATE_KEY] = fix_remove_duplicate,
    [CODE_UNKNOWN_KIND] = fix_nearest_kind,
    [CODE_KIND_INFERRED] = fix_add_type,
    [CODE_UNKNOWN_FIELD] = fix_rename_key,
    [CODE_ALTERNATE_SPELLING] = fix_documented_spelling,
    [CODE_TYPE_MISMATCH] = fix_value_type,
    [CODE_MISSING_REQUIRED] = fix_add_member,
    [CODE_CONDITIONAL_REQUIRED] = fix_add_member,
    [CODE_NOT_APPLICABLE] = fix_remove_member,
    [CODE_INVALID_ENUM] = fix_enum_value,
    [CODE_OUT_OF_RANGE] = fix_clamp,
    [CODE_SECRET_NOT_ENCODED] = fix_encode_secret,
    [CODE_SECRET_NEEDS_BASE64] = fix_secret_base64,
    [CODE_JOB_INCONSISTENT] = fix_assertion,
    [CODE_INSECURE_TRANSPORT] = fix_assertion,
    [CODE_UNVERIFIED_CERTIFICATE] = fix_assertion,
    [CODE_UNRESTRICTED_SCOPE] = fix_assertion,
};

/* The codes whose fixes are unsafe: right in form, but they keep a secret in the file (struct
 * fix's `unsafe`); the rest are not. */
static const bool fix_unsafe_of_code[CODE_COUNT] = {
    [CODE_SECRET_NOT_ENCODED] = true,
};

int fix_collect(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->node != JSON_NONE && d->node >= a->doc.node_count)
        return 0;
    if (d->node != JSON_NONE && settings_template_unconfigured(a->settings, &a->doc, d->node))
        return 0; /* a template srcls cannot read as one: its value is never rewritten */
    fix_function *fix = fix_of_code[d->code];
    uint32_t first = out->count;
    int status = fix ? fix(a, index, out) : 0;
    for (uint32_t i = first; i < out->count && fix_unsafe_of_code[d->code]; i++) {
        out->items[i].unsafe = true;
        out->items[i].preferred = false;
    }
    return status;
}

/* By position; at one position insertions before replacements (an insertion does not overlap
 * a replacement that starts where it is), and a fix that adds all of an object's missing fields
 * before the fixes that add one. */
static int compare_fixes(const void *a, const void *b)
{
    const struct fix *x = a, *y = b;
    if (x->edit.start != y->edit.start)
        return x->edit.start < y->edit.start ? -1 : 1;
    if ((x->edit.end == x->edit.start) != (y->edit.end == y->edit.start))
        return x->edit.end == x->edit.start ? -1 : 1;
    if ((x->covers == JSON_NONE) != (y->covers == JSON_NONE))
        return x->covers != JSON_NONE ? -1 : 1;
    return x->diagnostic < y->diagnostic ? -1 : x->diagnostic > y->diagnostic;
}

/* Marks as resolved the missing-field diagnostics of object node `object`. */
static void take_covered(struct analysis *a, uint32_t object, bool *taken)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        if ((d->code == CODE_MISSING_REQUIRED || d->code == CODE_CONDITIONAL_REQUIRED) &&
            d->node == object)
            taken[i] = true;
    }
}

int fix_collect_safe(struct analysis *a, struct fix_list *out, bool unsafe, uint32_t *hidden)
{
    struct fix_list all;
    fix_list_init(&all);
    int status = 0;
    for (uint32_t i = 0; i < a->diags.count && status == 0; i++)
        status = fix_collect(a, i, &all);
    if (status == 0 && all.count > 1)
        qsort(all.items, all.count, sizeof *all.items, compare_fixes);
    bool *taken = calloc(a->diags.count + 1, sizeof *taken);
    if (taken == NULL)
        status = -1;
    uint32_t last_end = 0, left_out = 0;
    for (uint32_t i = 0; i < all.count && status == 0; i++) {
        const struct fix *f = &all.items[i];
        if (!f->safe || taken[f->diagnostic] || f->edit.start < last_end)
            continue;
        if (f->unsafe && !unsafe) {
            left_out++;
            taken[f->diagnostic] = true;
            continue;
        }
        const char *title = arena_strndup(&out->arena, f->title, strlen(f->title));
        const char *text = arena_strndup(&out->arena, f->edit.text, strlen(f->edit.text));
        status = add_fix(out, f->diagnostic, title, f->edit.start, f->edit.end, text, true);
        if (status == 0)
            out->items[out->count - 1].unsafe = f->unsafe;
        last_end = f->edit.end;
        taken[f->diagnostic] = true;
        if (f->covers != JSON_NONE)
            take_covered(a, f->covers, taken);
    }
    free(taken);
    fix_list_free(&all);
    if (hidden != NULL)
        *hidden = left_out;
    return status;
}

char *fix_apply(const char *text, size_t len, const struct fix_list *fixes, size_t *out_len)
{
    size_t size = len + 1;
    for (uint32_t i = 0; i < fixes->count; i++)
        size += strlen(fixes->items[i].edit.text);
    char *out = malloc(size);
    if (out == NULL)
        return NULL;
    size_t n = 0, from = 0;
    for (uint32_t i = 0; i < fixes->count; i++) {
        const struct text_edit *e = &fixes->items[i].edit;
        if (e->start < from || e->end > len)
            continue; /* overlapping or stale: skipped */
        memcpy(out + n, text + from, e->start - from);
        n += e->start - from;
        size_t t = strlen(e->text);
        memcpy(out + n, e->text, t);
        n += t;
        from = e->end;
    }
    memcpy(out + n, text + from, len - from);
    n += len - from;
    out[n] = '\0';
    *out_len = n;
    return out;
}

uint32_t fix_round(struct analysis *analysis, char **text, size_t *len,
                   const struct analysis_options *options, bool unsafe, uint32_t *hidden)
{
    struct fix_list fixes;
    fix_list_init(&fixes);
    size_t fixed_len = 0;
    char *fixed = NULL;
    int collected = fix_collect_safe(analysis, &fixes, unsafe, hidden);
    if (collected == 0 && fixes.count > 0)
        fixed = fix_apply(*text, *len, &fixes, &fixed_len);
    uint32_t count = fixes.count;
    fix_list_free(&fixes);
    if (fixed == NULL)
        return collected != 0 || count > 0 ? UINT32_MAX : 0; /* out of memory, or none */
    struct analysis next;
    int analysed = analysis_run(&next, fixed, fixed_len, options);
    if (analysed != 0 || next.doc.error_count > 0) {
        analysis_free(&next);
        free(fixed);
        return analysed != 0 ? UINT32_MAX : 0;
    }
    analysis_free(analysis);
    free(*text);
    *analysis = next;
    *text = fixed;
    *len = fixed_len;
    return count;
}
