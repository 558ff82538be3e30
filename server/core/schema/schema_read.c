/* schema_read: reading schema data — the loader's errors (file, position and JSON Pointer),
 * scalars, values, types, formats and conditions. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "schema_internal.h"
#include "base/base.h"

/* 1-based line and column (in code points) of byte `offset` of `text`. */
static void line_column(const char *text, uint32_t offset, unsigned *line, unsigned *column)
{
    *line = 1;
    *column = 1;
    for (uint32_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            ++*column;
        }
    }
}

static int compare_name_refs(const void *x, const void *y)
{
    uintptr_t a = ((const struct schema_name_ref *)x)->pointer;
    uintptr_t b = ((const struct schema_name_ref *)y)->pointer;
    return (a > b) - (a < b);
}

struct schema_loaded_file *schema__file_named(struct schema_loader *l, const char *name)
{
    if (name == NULL || l->count == 0)
        return NULL;
    if (l->by_name_pointer == NULL) {
        l->by_name_pointer = malloc(l->count * sizeof *l->by_name_pointer);
        if (l->by_name_pointer == NULL)
            return NULL;
        for (size_t i = 0; i < l->count; i++)
            l->by_name_pointer[i] = (struct schema_name_ref){
                l->files[i].file != NULL ? (uintptr_t)l->files[i].file->name : 0, i};
        qsort(l->by_name_pointer, l->count, sizeof *l->by_name_pointer, compare_name_refs);
    }
    uintptr_t wanted = (uintptr_t)name;
    size_t low = 0, high = l->count;
    while (low < high) { /* the first file whose name pointer is not before `wanted` */
        size_t mid = low + (high - low) / 2;
        if (l->by_name_pointer[mid].pointer < wanted)
            low = mid + 1;
        else
            high = mid;
    }
    if (low == l->count || l->by_name_pointer[low].pointer != wanted)
        return NULL;
    return &l->files[l->by_name_pointer[low].file];
}

/* The message "FILE PLACE: MESSAGE", and what `where` asks of it: the file, [start, end) and the
 * pointer. Built-in files are named from schema/; a custom file by its path. */
static void fail_message(struct schema_loader *l, const char *place, uint32_t start, uint32_t end,
                         const char *pointer, const char *format, va_list args)
{
    if (l->failed)
        return;
    l->failed = true;
    char message[256];
    vsnprintf(message, sizeof message, format, args);
    const struct schema_loaded_file *f = schema__file_named(l, l->current);
    bool custom = f != NULL && f->file->custom;
    snprintf(l->error, l->error_size, "%s%s%s: %s", custom ? "" : "schema/",
             l->current ? l->current : "?", place, message);
    if (l->where != NULL) {
        l->where->file = f != NULL ? (size_t)(f - l->files) : SIZE_MAX;
        l->where->start = start;
        l->where->end = end;
        snprintf(l->where->pointer, sizeof l->where->pointer, "%s", pointer);
        snprintf(l->where->message, sizeof l->where->message, "%s", message);
    }
}

/* The one place that names the file, the position and the JSON Pointer of a bad value:
 * "schema/kinds/03-x.json:7:17 at /fields/port/type: unknown type name". */
void schema__fail(struct schema_loader *l, struct json_doc *doc, uint32_t node, const char *format,
                  ...)
{
    if (l->failed)
        return;
    struct arena scratch;
    arena_init(&scratch);
    const char *pointer = json_pointer_of(doc, node, &scratch);
    unsigned line, column;
    line_column(doc->text, doc->nodes[node].start, &line, &column);
    char place[512];
    snprintf(place, sizeof place, ":%u:%u at %s", line, column,
             pointer == NULL ? "?"
             : *pointer      ? pointer
                             : "the top level");
    /* The range shown: a scalar value, or the key of a member whose value is a container. */
    const struct json_node *n = &doc->nodes[node];
    bool container = n->kind == JSON_OBJECT || n->kind == JSON_ARRAY;
    bool key = container && n->key_start != JSON_NONE;
    uint32_t start = key ? n->key_start : n->start;
    uint32_t end = key ? n->key_end : container ? n->start + 1 : n->end;
    va_list args;
    va_start(args, format);
    fail_message(l, place, start, end, pointer ? pointer : "", format, args);
    va_end(args);
    arena_free(&scratch);
}

/* An error about a whole file: "schema/job.json: ...". */
void schema__fail_file(struct schema_loader *l, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fail_message(l, "", 0, 0, "", format, args);
    va_end(args);
}

/* A syntax error, where no value has a pointer: "schema/job.json:3:5: not valid JSON: ...". */
void schema__fail_syntax(struct schema_loader *l, const struct json_doc *doc, const char *format,
                         ...)
{
    unsigned line = 1, column = 1;
    uint32_t start = 0, end = 0;
    if (doc->error_count > 0) {
        start = doc->errors[0].start;
        end = doc->errors[0].end;
        line_column(doc->text, start, &line, &column);
    }
    char place[64];
    snprintf(place, sizeof place, ":%u:%u", line, column);
    va_list args;
    va_start(args, format);
    fail_message(l, place, start, end, "", format, args);
    va_end(args);
}

const char *schema__copy(struct schema_loader *l, struct json_str s)
{
    return arena_strndup(l->arena, s.ptr, s.len);
}

bool schema__str_eq(struct json_str s, const char *text)
{
    return s.len == strlen(text) && memcmp(s.ptr, text, s.len) == 0;
}

const char *schema__string(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                           const char *what)
{
    if (doc->nodes[node].kind != JSON_STRING) {
        schema__fail(l, doc, node, "%s must be a string", what);
        return NULL;
    }
    return schema__copy(l, json_node_string(doc, node));
}

/* Whether `node` is an array; fails, naming `what`, when it is not. */
bool schema__array(struct schema_loader *l, struct json_doc *doc, uint32_t node, const char *what)
{
    if (doc->nodes[node].kind == JSON_ARRAY)
        return true;
    schema__fail(l, doc, node, "%s must be an array", what);
    return false;
}

bool schema__bool(struct schema_loader *l, struct json_doc *doc, uint32_t node, const char *what)
{
    uint8_t kind = doc->nodes[node].kind;
    if (kind != JSON_TRUE && kind != JSON_FALSE)
        schema__fail(l, doc, node, "%s must be true or false", what);
    return kind == JSON_TRUE;
}

/* ---- values and types ---- */

void schema__value(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                   struct schema_value *out)
{
    const struct json_node *n = &doc->nodes[node];
    memset(out, 0, sizeof *out);
    switch (n->kind) {
    case JSON_STRING: {
        struct json_str s = json_node_string(doc, node);
        out->type = SCHEMA_STRING;
        out->text = schema__copy(l, s);
        out->len = s.len;
        return;
    }
    case JSON_TRUE:
    case JSON_FALSE:
        out->type = SCHEMA_BOOLEAN;
        out->boolean = n->kind == JSON_TRUE;
        break;
    case JSON_NUMBER:
        out->type = (n->flags & JSON_FLAG_INTEGER) ? SCHEMA_INTEGER : SCHEMA_NUMBER;
        json_node_double(doc, node, &out->number);
        break;
    case JSON_NULL: out->type = SCHEMA_NULL; break;
    default:
        out->type = 0; /* arrays and objects: kept as text */
        break;
    }
    out->len = n->end - n->start;
    out->text = arena_strndup(l->arena, doc->text + n->start, out->len);
}

static uint32_t type_bit(struct json_str name)
{
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++) {
        if (schema__str_eq(name, schema_type_name(i)))
            return 1u << i;
    }
    return 0;
}

uint32_t schema__types(struct schema_loader *l, struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    uint32_t bits = 0;
    if (n->kind == JSON_STRING) {
        bits = type_bit(json_node_string(doc, node));
        if (bits == 0)
            schema__fail(l, doc, node, "unknown type name");
        return bits;
    }
    if (n->kind != JSON_ARRAY) {
        schema__fail(l, doc, node, "a type is a name or an array of names");
        return 0;
    }
    for (uint32_t e = n->first_child; e != JSON_NONE; e = doc->nodes[e].next)
        bits |= schema__types(l, doc, e);
    return bits;
}

enum schema_format schema__format(struct schema_loader *l, struct json_doc *doc, uint32_t node)
{
    static const enum schema_format formats[] = {SCHEMA_FORMAT_UUID, SCHEMA_FORMAT_TIMESTAMP,
                                                 SCHEMA_FORMAT_PORT, SCHEMA_FORMAT_NAMESPACE,
                                                 SCHEMA_FORMAT_EMAIL};
    struct json_str name = json_node_string(doc, node);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (schema__str_eq(name, schema_format_name(formats[i])))
            return formats[i];
    }
    schema__fail(l, doc, node, "unknown format (uuid, timestamp, port, namespace, email)");
    return SCHEMA_FORMAT_NONE;
}

/* ---- conditions ---- */

/* Records where the noOtherThan condition `c` was written, for the errors of resolving it. */
void schema__remember_origin(struct schema_loader *l, const struct schema_condition *c,
                             struct json_doc *doc, uint32_t node, const char *file)
{
    struct schema_origin *grown =
        vector_grow(l->origins, &l->origin_capacity, l->origin_count + 1, sizeof *grown);
    if (grown == NULL) {
        l->failed = true; /* out of memory: no message, so no file is blamed for it */
        return;
    }
    l->origins = grown;
    l->origins[l->origin_count++] =
        (struct schema_origin){.condition = c, .doc = doc, .node = node, .file = file};
}

/* "in" or "noOtherThan" (`c->op` is set): the values. False after an error. */
static bool read_values(struct schema_loader *l, struct json_doc *doc, uint32_t m,
                        struct schema_condition *c)
{
    const struct json_node *v = &doc->nodes[m];
    if (c->op == COND_IN && v->kind != JSON_ARRAY) {
        schema__fail(l, doc, m, "\"in\" takes an array of values");
        return false;
    }
    if (c->op == COND_NO_OTHER_THAN && (v->kind != JSON_ARRAY || json_child_count(doc, m) == 0)) {
        schema__fail(l, doc, m, "\"noOtherThan\" takes a non-empty array of values");
        return false;
    }
    c->value_count = json_child_count(doc, m);
    c->values = arena_alloc(l->arena, (c->value_count + 1) * sizeof *c->values);
    if (c->values == NULL) {
        l->failed = true; /* out of memory: no message */
        return false;
    }
    uint32_t i = 0;
    for (uint32_t e = v->first_child; e != JSON_NONE; e = doc->nodes[e].next)
        schema__value(l, doc, e, &c->values[i++]);
    return true;
}

/* "all" and "any" (arrays of conditions) or "not" (one condition), `c->op` is set. False after
 * an error. */
static bool read_children(struct schema_loader *l, struct json_doc *doc, uint32_t m,
                          struct schema_condition *c)
{
    bool list = c->op != COND_NOT;
    if (list && doc->nodes[m].kind != JSON_ARRAY) {
        schema__fail(l, doc, m, "\"all\" and \"any\" take an array of conditions");
        return false;
    }
    c->child_count = list ? json_child_count(doc, m) : 1;
    c->children = arena_alloc(l->arena, (c->child_count + 1) * sizeof *c->children);
    if (list) {
        uint32_t i = 0;
        for (uint32_t e = doc->nodes[m].first_child; e != JSON_NONE; e = doc->nodes[e].next)
            c->children[i++] = schema__condition(l, doc, e);
    } else {
        c->children[0] = schema__condition(l, doc, m);
    }
    return true;
}

/* The operator member `m` of the condition `c`. False after an error. */
static bool read_operator(struct schema_loader *l, struct json_doc *doc, uint32_t m,
                          struct schema_condition *c)
{
    struct json_str key = json_node_key(doc, m);
    if (schema__str_eq(key, "in") || schema__str_eq(key, "noOtherThan")) {
        c->op = schema__str_eq(key, "in") ? COND_IN : COND_NO_OTHER_THAN;
        return read_values(l, doc, m, c);
    }
    if (schema__str_eq(key, "present") || schema__str_eq(key, "nonEmpty")) {
        c->op = schema__str_eq(key, "present") ? COND_PRESENT : COND_NON_EMPTY;
        c->expect = schema__bool(l, doc, m, "present/nonEmpty");
        return true;
    }
    if (schema__str_eq(key, "notBefore")) {
        c->op = COND_NOT_BEFORE;
        c->other_field = schema__string(l, doc, m, "notBefore");
        return true;
    }
    if (schema__str_eq(key, "all") || schema__str_eq(key, "any") || schema__str_eq(key, "not")) {
        c->op = schema__str_eq(key, "all")   ? COND_ALL
                : schema__str_eq(key, "any") ? COND_ANY
                                             : COND_NOT;
        return read_children(l, doc, m, c);
    }
    schema__fail(l, doc, m, "unknown condition key");
    return false;
}

struct schema_condition *schema__condition(struct schema_loader *l, struct json_doc *doc,
                                           uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    if (n->kind != JSON_OBJECT) {
        schema__fail(l, doc, node, "a condition is an object");
        return NULL;
    }
    struct schema_condition *c = arena_alloc(l->arena, sizeof *c);
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof *c);
    bool has_op = false;
    for (uint32_t m = n->first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        if (json_node_key_equals(doc, m, JSON_LITERAL("field"))) {
            c->field = schema__string(l, doc, m, "field");
            continue;
        }
        if (has_op) {
            schema__fail(
                l, doc, m,
                "a condition has one operator (in, noOtherThan, present, nonEmpty, notBefore, "
                "all, any or not)");
            return NULL;
        }
        has_op = true;
        if (!read_operator(l, doc, m, c))
            return NULL;
    }
    bool needs_field = c->op == COND_IN || c->op == COND_NO_OTHER_THAN || c->op == COND_PRESENT ||
                       c->op == COND_NON_EMPTY || c->op == COND_NOT_BEFORE;
    if (!has_op || (needs_field && c->field == NULL))
        schema__fail(
            l, doc, node,
            "a condition needs \"field\" with in/noOtherThan/present/nonEmpty/notBefore, or "
            "all/any/not");
    if (has_op && c->op == COND_NO_OTHER_THAN)
        schema__remember_origin(l, c, doc, node, l->current);
    return c;
}
