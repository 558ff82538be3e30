/* fix: edits that resolve diagnostics. Titles never carry a document value. */
#include "fix.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "envelope.h"
#include "schema.h"
#include "secret.h"
#include "vector.h"

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

static int add_fix(struct fix_list *out, uint32_t diagnostic, const char *title, uint32_t start,
                   uint32_t end, const char *text, bool safe)
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
        .preferred = safe,
        .diagnostic = diagnostic,
    };
    return 0;
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

/* An edit that inserts `member_text` ("\"name\": value") as the first member of `object`. */
static int insert_member(struct analysis *a, struct fix_list *out, uint32_t diagnostic,
                         uint32_t object, const char *member_text, const char *title, bool safe)
{
    const struct json_node *o = &a->doc.nodes[object];
    if (o->kind != JSON_OBJECT)
        return 0;
    struct arena *arena = &out->arena;
    uint32_t first = o->first_child;
    if (first != JSON_NONE) {
        const struct json_node *m = &a->doc.nodes[first];
        const char *indent = indent_of(a, m->key_start, arena);
        /* The first member starts its line when only the indent comes before it. */
        uint32_t line = m->key_start - (uint32_t)strlen(indent);
        bool own_line = line == 0 || a->doc.text[line - 1] == '\n' || a->doc.text[line - 1] == '\r';
        const char *text = own_line ? arena_printf(arena, "%s,\n%s", member_text, indent)
                                    : arena_printf(arena, "%s, ", member_text);
        return add_fix(out, diagnostic, title, m->key_start, m->key_start, text, safe);
    }
    const char *indent = indent_of(a, o->start, arena);
    uint32_t close = o->end > o->start && !(o->flags & JSON_FLAG_UNCLOSED) ? o->end - 1 : o->end;
    const char *text = arena_printf(arena, "\n%s  %s\n%s", indent, member_text, indent);
    return add_fix(out, diagnostic, title, o->start + 1, close, text, safe);
}

/* The range that removes member `m` with its comma. */
static void member_removal(struct analysis *a, uint32_t m, uint32_t *start, uint32_t *end)
{
    const struct json_doc *doc = &a->doc;
    const struct json_node *n = &doc->nodes[m];
    uint32_t s = n->key_start, e = n->end;
    uint32_t i = e;
    while (i < doc->len && isspace((unsigned char)doc->text[i]))
        i++;
    if (i < doc->len && doc->text[i] == ',') {
        i++;
        while (i < doc->len && isspace((unsigned char)doc->text[i]))
            i++;
        e = i;
    } else {
        /* the last member: take the comma before it */
        uint32_t j = s;
        while (j > 0 && isspace((unsigned char)doc->text[j - 1]))
            j--;
        if (j > 0 && doc->text[j - 1] == ',')
            s = j - 1;
    }
    *start = s;
    *end = e;
}

static bool equals_ignoring_case(struct json_str a, const char *b)
{
    size_t len = strlen(b);
    if (a.len != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (tolower((unsigned char)a.ptr[i]) != tolower((unsigned char)b[i]))
            return false;
    }
    return true;
}

static bool equals(struct json_str a, const char *b)
{
    return a.len == strlen(b) && memcmp(a.ptr, b, a.len) == 0;
}

/* ---- per code ---- */

/* The diagnostic's node; fix_collect made sure it has one. */
static const struct json_node *node_of(struct analysis *a, const struct diagnostic *d)
{
    return &a->doc.nodes[d->node];
}

static int rename_key(struct analysis *a, uint32_t index, struct fix_list *out, bool safe)
{
    const struct diagnostic *d = &a->diags.items[index];
    const struct json_node *n = node_of(a, d);
    if (d->suggestion == NULL || n->key_start == JSON_NONE)
        return 0;
    struct arena *arena = &out->arena;
    return add_fix(out, index, arena_printf(arena, "Rename to \"%s\"", d->suggestion), n->key_start,
                   n->key_end, arena_printf(arena, "\"%s\"", d->suggestion), safe);
}

/* A guess at what was meant: offered, never applied by itself. */
int fix_rename_key(struct analysis *a, uint32_t index, struct fix_list *out)
{
    return rename_key(a, index, out, false);
}

/* The same field under its documented name: safe. */
int fix_documented_spelling(struct analysis *a, uint32_t index, struct fix_list *out)
{
    return rename_key(a, index, out, true);
}

int fix_add_member(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    struct arena *arena = &out->arena;
    if (d->field == NULL)
        return 0;
    const char *member =
        arena_printf(arena, "\"%s\": %s", d->field->name, schema_field_value_json(d->field, arena));
    return insert_member(a, out, index, d->node, member,
                         arena_printf(arena, "Add \"%s\"%s", d->field->name,
                                      d->field->has_default ? " with its default" : ""),
                         d->field->has_default);
}

int fix_add_type(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    struct arena *arena = &out->arena;
    if (d->suggestion == NULL)
        return 0;
    return insert_member(
        a, out, index, d->node, arena_printf(arena, "\"" ENVELOPE_TYPE "\": \"%s\"", d->suggestion),
        arena_printf(arena, "Add \"" ENVELOPE_TYPE "\": \"%s\"", d->suggestion), true);
}

int fix_remove_member(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    uint32_t start, end;
    member_removal(a, d->node, &start, &end);
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
    if (f == NULL)
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
    if (f == NULL)
        return 0;
    struct json_str value = json_node_string(&a->doc, d->node);
    for (uint32_t i = 0; i < f->enum_count; i++) {
        const struct schema_value *v = &f->enums[i].value;
        if (v->type != SCHEMA_STRING)
            continue;
        bool same_but_case = n->kind == JSON_STRING && equals_ignoring_case(value, v->text);
        const char *title = arena_printf(&out->arena, "Change to \"%s\"", v->text);
        const char *text = arena_printf(&out->arena, "\"%s\"", v->text);
        if (add_fix(out, index, title, n->start, n->end, text, same_but_case) != 0)
            return -1;
    }
    return 0;
}

/* `plaintext` is the decoded value, after SECRET_PLAIN_PREFIX when it has one. */
static int encode_secret(struct analysis *a, uint32_t index, struct fix_list *out,
                         struct json_str plaintext, bool needs_base64)
{
    const struct json_node *n = node_of(a, &a->diags.items[index]);
    struct arena *arena = &out->arena;
    if (needs_base64) {
        const char *encoded = secret_base64_encode(arena, plaintext.ptr, plaintext.len);
        return add_fix(
            out, index, "Encode the secret as " SECRET_BASE64_PREFIX "…", n->start, n->end,
            arena_printf(arena, "\"" SECRET_BASE64_PREFIX "%s\"", encoded ? encoded : ""), true);
    }
    /* The raw text between the quotes keeps its escapes. */
    uint32_t body = n->start + 1, body_end = n->end > n->start + 1 ? n->end - 1 : n->end;
    return add_fix(out, index, "Mark the secret as plaintext: " SECRET_PLAIN_PREFIX "…", n->start,
                   n->end,
                   arena_printf(arena, "\"" SECRET_PLAIN_PREFIX "%.*s\"", (int)(body_end - body),
                                a->doc.text + body),
                   true);
}

/* Bare plaintext: marked as plaintext, or base64-encoded when it has a colon. */
int fix_encode_secret(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->field == NULL || node_of(a, d)->kind != JSON_STRING)
        return 0;
    struct json_str s = json_node_string(&a->doc, d->node);
    return encode_secret(a, index, out, s, memchr(s.ptr, ':', s.len) != NULL);
}

/* Plaintext with a colon: its plaintext base64-encoded. */
int fix_secret_base64(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->field == NULL || node_of(a, d)->kind != JSON_STRING)
        return 0;
    struct json_str s = json_node_string(&a->doc, d->node);
    s.ptr += sizeof SECRET_PLAIN_PREFIX - 1;
    s.len -= sizeof SECRET_PLAIN_PREFIX - 1;
    return encode_secret(a, index, out, s, true);
}

int fix_collect(struct analysis *a, uint32_t index, struct fix_list *out)
{
    const struct diagnostic *d = &a->diags.items[index];
    if (d->node == JSON_NONE || d->node >= a->doc.node_count)
        return 0;
    code_fix_function *fix = code_info(d->code)->fix;
    return fix ? fix(a, index, out) : 0;
}

static int compare_fixes(const void *a, const void *b)
{
    const struct fix *x = a, *y = b;
    if (x->edit.start != y->edit.start)
        return x->edit.start < y->edit.start ? -1 : 1;
    return x->diagnostic < y->diagnostic ? -1 : x->diagnostic > y->diagnostic;
}

int fix_collect_safe(struct analysis *a, struct fix_list *out)
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
    uint32_t last_end = 0;
    for (uint32_t i = 0; i < all.count && status == 0; i++) {
        const struct fix *f = &all.items[i];
        if (!f->safe || taken[f->diagnostic] || f->edit.start < last_end)
            continue;
        const char *title = arena_strndup(&out->arena, f->title, strlen(f->title));
        const char *text = arena_strndup(&out->arena, f->edit.text, strlen(f->edit.text));
        status = add_fix(out, f->diagnostic, title, f->edit.start, f->edit.end, text, true);
        last_end = f->edit.end;
        taken[f->diagnostic] = true;
    }
    free(taken);
    fix_list_free(&all);
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
