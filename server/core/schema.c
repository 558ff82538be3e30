/* schema: loading the schema data into the registry.
 *
 * Each file is parsed with the project's own JSON parser. Kinds are built in dependency order
 * (`extends` first, then `include`d groups, then `omit`, then the kind's own fields merged on
 * top). A field entry applied onto an existing field changes only the keys it names, so a kind
 * can inherit a field and change its default alone. Every key of the data is validated: a
 * typo in schema/ is a build-time test failure, not a silently ignored rule. */
#include "schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "json_doc.h"
#include "json_pointer.h"
#include "schema_embedded.h"

struct loaded_file {
    const struct schema_file *file;
    struct json_doc doc;
    enum { FILE_OTHER, FILE_GROUP, FILE_KIND } role;
    const char *stem;
    int state; /* kinds: 0 not built, 1 building, 2 built */
    struct schema_kind *kind;
};

struct loader {
    struct schema_registry *registry;
    struct arena *arena;
    struct loaded_file *files;
    size_t count;
    char *error;
    size_t error_size;
    bool failed;
    const char *current; /* file name, for messages */
};

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

static void fail_message(struct loader *l, const char *place, const char *format, va_list args)
{
    if (l->failed)
        return;
    l->failed = true;
    char message[256];
    vsnprintf(message, sizeof message, format, args);
    snprintf(l->error, l->error_size, "schema/%s%s: %s", l->current ? l->current : "?", place,
             message);
}

static void fail(struct loader *l, struct json_doc *doc, uint32_t node, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static void fail_file(struct loader *l, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void fail_syntax(struct loader *l, const struct json_doc *doc, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The one place that names the file, the position and the JSON Pointer of a bad value:
 * "schema/kinds/03-x.json:7:17 at /fields/port/type: unknown type name". */
static void fail(struct loader *l, struct json_doc *doc, uint32_t node, const char *format, ...)
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
    arena_free(&scratch);
    va_list args;
    va_start(args, format);
    fail_message(l, place, format, args);
    va_end(args);
}

/* An error about a whole file: "schema/job.json: ...". */
static void fail_file(struct loader *l, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fail_message(l, "", format, args);
    va_end(args);
}

/* A syntax error, where no value has a pointer: "schema/job.json:3:5: not valid JSON: ...". */
static void fail_syntax(struct loader *l, const struct json_doc *doc, const char *format, ...)
{
    unsigned line = 1, column = 1;
    if (doc->error_count > 0)
        line_column(doc->text, doc->errors[0].start, &line, &column);
    char place[64];
    snprintf(place, sizeof place, ":%u:%u", line, column);
    va_list args;
    va_start(args, format);
    fail_message(l, place, format, args);
    va_end(args);
}

static const char *copy_str(struct loader *l, struct json_str s)
{
    return arena_strndup(l->arena, s.ptr, s.len);
}

static bool str_eq(struct json_str s, const char *text)
{
    return s.len == strlen(text) && memcmp(s.ptr, text, s.len) == 0;
}

static const char *string_of(struct loader *l, struct json_doc *doc, uint32_t node,
                             const char *what)
{
    if (doc->nodes[node].kind != JSON_STRING) {
        fail(l, doc, node, "%s must be a string", what);
        return NULL;
    }
    return copy_str(l, json_node_string(doc, node));
}

/* Whether `node` is an array; fails, naming `what`, when it is not. */
static bool array_of(struct loader *l, struct json_doc *doc, uint32_t node, const char *what)
{
    if (doc->nodes[node].kind == JSON_ARRAY)
        return true;
    fail(l, doc, node, "%s must be an array", what);
    return false;
}

static bool bool_of(struct loader *l, struct json_doc *doc, uint32_t node, const char *what)
{
    uint8_t kind = doc->nodes[node].kind;
    if (kind != JSON_TRUE && kind != JSON_FALSE)
        fail(l, doc, node, "%s must be true or false", what);
    return kind == JSON_TRUE;
}

/* ---- values and types ---- */

static void value_of(struct loader *l, struct json_doc *doc, uint32_t node,
                     struct schema_value *out)
{
    const struct json_node *n = &doc->nodes[node];
    memset(out, 0, sizeof *out);
    switch (n->kind) {
    case JSON_STRING: {
        struct json_str s = json_node_string(doc, node);
        out->type = SCHEMA_STRING;
        out->text = copy_str(l, s);
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
    static const struct {
        const char *name;
        uint32_t bit;
    } names[] = {{"string", SCHEMA_STRING},   {"boolean", SCHEMA_BOOLEAN},
                 {"integer", SCHEMA_INTEGER}, {"number", SCHEMA_NUMBER},
                 {"array", SCHEMA_ARRAY},     {"object", SCHEMA_OBJECT},
                 {"null", SCHEMA_NULL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (str_eq(name, names[i].name))
            return names[i].bit;
    }
    return 0;
}

static uint32_t types_of(struct loader *l, struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    uint32_t bits = 0;
    if (n->kind == JSON_STRING) {
        bits = type_bit(json_node_string(doc, node));
        if (bits == 0)
            fail(l, doc, node, "unknown type name");
        return bits;
    }
    if (n->kind != JSON_ARRAY) {
        fail(l, doc, node, "a type is a name or an array of names");
        return 0;
    }
    for (uint32_t e = n->first_child; e != JSON_NONE; e = doc->nodes[e].next)
        bits |= types_of(l, doc, e);
    return bits;
}

static enum schema_format format_of(struct loader *l, struct json_doc *doc, uint32_t node)
{
    static const enum schema_format formats[] = {SCHEMA_FORMAT_UUID, SCHEMA_FORMAT_TIMESTAMP,
                                                 SCHEMA_FORMAT_PORT, SCHEMA_FORMAT_NAMESPACE,
                                                 SCHEMA_FORMAT_EMAIL};
    struct json_str name = json_node_string(doc, node);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (str_eq(name, schema_format_name(formats[i])))
            return formats[i];
    }
    fail(l, doc, node, "unknown format (uuid, timestamp, port, namespace, email)");
    return SCHEMA_FORMAT_NONE;
}

/* ---- conditions ---- */

static struct schema_condition *condition_of(struct loader *l, struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    if (n->kind != JSON_OBJECT) {
        fail(l, doc, node, "a condition is an object");
        return NULL;
    }
    struct schema_condition *c = arena_alloc(l->arena, sizeof *c);
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof *c);
    bool has_op = false;
    for (uint32_t m = n->first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        const struct json_node *v = &doc->nodes[m];
        if (str_eq(key, "field")) {
            c->field = string_of(l, doc, m, "field");
            continue;
        }
        if (has_op) {
            fail(l, doc, m,
                 "a condition has one operator (in, present, nonEmpty, notBefore, all, "
                 "any or not)");
            return NULL;
        }
        has_op = true;
        if (str_eq(key, "in")) {
            c->op = COND_IN;
            if (v->kind != JSON_ARRAY) {
                fail(l, doc, m, "\"in\" takes an array of values");
                return NULL;
            }
            c->value_count = json_child_count(doc, m);
            c->values = arena_alloc(l->arena, (c->value_count + 1) * sizeof *c->values);
            uint32_t i = 0;
            for (uint32_t e = v->first_child; e != JSON_NONE; e = doc->nodes[e].next)
                value_of(l, doc, e, &c->values[i++]);
        } else if (str_eq(key, "present") || str_eq(key, "nonEmpty")) {
            c->op = str_eq(key, "present") ? COND_PRESENT : COND_NON_EMPTY;
            c->expect = bool_of(l, doc, m, "present/nonEmpty");
        } else if (str_eq(key, "notBefore")) {
            c->op = COND_NOT_BEFORE;
            c->other_field = string_of(l, doc, m, "notBefore");
        } else if (str_eq(key, "all") || str_eq(key, "any") || str_eq(key, "not")) {
            c->op = str_eq(key, "all") ? COND_ALL : str_eq(key, "any") ? COND_ANY : COND_NOT;
            bool list = c->op != COND_NOT;
            if (list && v->kind != JSON_ARRAY) {
                fail(l, doc, m, "\"all\" and \"any\" take an array of conditions");
                return NULL;
            }
            c->child_count = list ? json_child_count(doc, m) : 1;
            c->children = arena_alloc(l->arena, (c->child_count + 1) * sizeof *c->children);
            if (list) {
                uint32_t i = 0;
                for (uint32_t e = v->first_child; e != JSON_NONE; e = doc->nodes[e].next)
                    c->children[i++] = condition_of(l, doc, e);
            } else {
                c->children[0] = condition_of(l, doc, m);
            }
        } else {
            fail(l, doc, m, "unknown condition key");
            return NULL;
        }
    }
    bool needs_field = c->op == COND_IN || c->op == COND_PRESENT || c->op == COND_NON_EMPTY ||
                       c->op == COND_NOT_BEFORE;
    if (!has_op || (needs_field && c->field == NULL))
        fail(l, doc, node,
             "a condition needs \"field\" with in/present/nonEmpty/notBefore, or "
             "all/any/not");
    return c;
}

/* ---- fields ---- */

static struct schema_object *object_clone(struct loader *l, const struct schema_object *from)
{
    struct schema_object *o = arena_alloc(l->arena, sizeof *o);
    if (o == NULL)
        return NULL;
    memset(o, 0, sizeof *o);
    if (from != NULL)
        *o = *from;
    return o;
}

static void apply_field(struct loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_field *field);

/* Adds or merges the fields of `node` (an object of field entries) into `object`. */
static void apply_fields(struct loader *l, struct json_doc *doc, uint32_t node,
                         struct schema_object *object)
{
    if (doc->nodes[node].kind != JSON_OBJECT) {
        fail(l, doc, node, "fields must be an object of field entries");
        return;
    }
    uint32_t count = object->field_count + json_child_count(doc, node);
    struct schema_field *fields = arena_alloc(l->arena, (count + 1) * sizeof *fields);
    if (fields == NULL)
        return;
    if (object->field_count > 0)
        memcpy(fields, object->fields, object->field_count * sizeof *fields);
    object->fields = fields;
    for (uint32_t m = doc->nodes[node].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        struct json_str name = json_node_key(doc, m);
        struct schema_field *field = NULL;
        for (uint32_t i = 0; i < object->field_count; i++) {
            if (strlen(fields[i].name) == name.len &&
                memcmp(fields[i].name, name.ptr, name.len) == 0)
                field = &fields[i];
        }
        if (field == NULL) {
            field = &fields[object->field_count++];
            memset(field, 0, sizeof *field);
            field->name = copy_str(l, name);
        }
        apply_field(l, doc, m, field);
    }
}

static void apply_enum(struct loader *l, struct json_doc *doc, uint32_t node,
                       struct schema_field *field)
{
    if (doc->nodes[node].kind != JSON_ARRAY) {
        fail(l, doc, node, "\"enum\" must be an array");
        return;
    }
    field->enum_count = json_child_count(doc, node);
    field->enums = arena_alloc(l->arena, (field->enum_count + 1) * sizeof *field->enums);
    uint32_t i = 0;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE; e = doc->nodes[e].next, i++) {
        struct schema_enum_value *ev = &field->enums[i];
        memset(ev, 0, sizeof *ev);
        if (doc->nodes[e].kind != JSON_OBJECT) {
            value_of(l, doc, e, &ev->value);
            continue;
        }
        uint32_t value = json_object_get(doc, e, "value", 5);
        uint32_t description = json_object_get(doc, e, "description", 11);
        if (value == JSON_NONE) {
            fail(l, doc, e, "an enum entry needs \"value\"");
            return;
        }
        value_of(l, doc, value, &ev->value);
        if (description != JSON_NONE)
            ev->description = string_of(l, doc, description, "description");
    }
}

static void apply_field(struct loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_field *field)
{
    if (doc->nodes[node].kind != JSON_OBJECT) {
        fail(l, doc, node, "a field is an object");
        return;
    }
    for (uint32_t m = doc->nodes[node].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        const struct json_node *v = &doc->nodes[m];
        if (str_eq(key, "type")) {
            field->types = types_of(l, doc, m);
        } else if (str_eq(key, "sampleType")) {
            field->sample_types = types_of(l, doc, m);
        } else if (str_eq(key, "description")) {
            field->description = string_of(l, doc, m, "description");
        } else if (str_eq(key, "required")) {
            field->required = false;
            field->required_when = NULL;
            if (v->kind == JSON_OBJECT)
                field->required_when = condition_of(l, doc, m);
            else
                field->required = bool_of(l, doc, m, "required");
        } else if (str_eq(key, "applicable")) {
            field->applicable = condition_of(l, doc, m);
        } else if (str_eq(key, "default")) {
            field->has_default = true;
            value_of(l, doc, m, &field->default_value);
        } else if (str_eq(key, "enum")) {
            apply_enum(l, doc, m, field);
        } else if (str_eq(key, "minimum") || str_eq(key, "maximum")) {
            double value = 0;
            if (!json_node_double(doc, m, &value))
                fail(l, doc, m, "a bound must be a number");
            if (str_eq(key, "minimum")) {
                field->has_minimum = true;
                field->minimum = value;
            } else {
                field->has_maximum = true;
                field->maximum = value;
            }
        } else if (str_eq(key, "format")) {
            field->format = format_of(l, doc, m);
        } else if (str_eq(key, "secret")) {
            field->secret = bool_of(l, doc, m, "secret");
        } else if (str_eq(key, "sensitive")) {
            field->sensitive = bool_of(l, doc, m, "sensitive");
        } else if (str_eq(key, "sampleOnly")) {
            field->sample_only = bool_of(l, doc, m, "sampleOnly");
        } else if (str_eq(key, "additionalFields")) {
            field->additional_fields = bool_of(l, doc, m, "additionalFields");
        } else if (str_eq(key, "aliases")) {
            if (!array_of(l, doc, m, "\"aliases\""))
                return;
            field->alias_count = json_child_count(doc, m);
            field->aliases = arena_alloc(l->arena, (field->alias_count + 1) * sizeof(char *));
            uint32_t i = 0;
            for (uint32_t e = v->first_child; e != JSON_NONE; e = doc->nodes[e].next)
                field->aliases[i++] = string_of(l, doc, e, "an alias");
        } else if (str_eq(key, "items")) {
            struct schema_field *items = arena_alloc(l->arena, sizeof *items);
            if (items == NULL)
                return;
            if (field->items != NULL)
                *items = *field->items;
            else
                memset(items, 0, sizeof *items);
            if (items->name == NULL)
                items->name = field->name;
            apply_field(l, doc, m, items);
            field->items = items;
        } else if (str_eq(key, "fields")) {
            field->object = object_clone(l, field->object);
            if (field->object != NULL)
                apply_fields(l, doc, m, field->object);
        } else if (str_eq(key, "notes")) {
            continue;
        } else {
            fail(l, doc, m, "unknown field key");
        }
    }
}

/* ---- assertions ---- */

static void apply_assertions(struct loader *l, struct json_doc *doc, uint32_t node,
                             struct schema_object *object)
{
    if (doc->nodes[node].kind != JSON_ARRAY) {
        fail(l, doc, node, "\"assertions\" must be an array");
        return;
    }
    uint32_t count = object->assertion_count + json_child_count(doc, node);
    struct schema_assertion *list = arena_alloc(l->arena, (count + 1) * sizeof *list);
    if (list == NULL)
        return;
    if (object->assertion_count > 0)
        memcpy(list, object->assertions, object->assertion_count * sizeof *list);
    object->assertions = list;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        struct schema_assertion *a = &list[object->assertion_count++];
        memset(a, 0, sizeof *a);
        if (doc->nodes[e].kind != JSON_OBJECT) {
            fail(l, doc, e, "an assertion is an object");
            return;
        }
        for (uint32_t m = doc->nodes[e].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            struct json_str key = json_node_key(doc, m);
            if (str_eq(key, "code")) {
                a->code = string_of(l, doc, m, "code");
                if (a->code != NULL && code_find(a->code) == NULL)
                    fail(l, doc, m, "unknown diagnostic code (docs/rules.md lists them)");
            } else if (str_eq(key, "field"))
                a->field = string_of(l, doc, m, "field");
            else if (str_eq(key, "when"))
                a->when = condition_of(l, doc, m);
            else if (str_eq(key, "expect"))
                a->expect = condition_of(l, doc, m);
            else if (str_eq(key, "message"))
                a->message = string_of(l, doc, m, "message");
            else
                fail(l, doc, m, "unknown assertion key");
        }
        if (a->code == NULL || a->expect == NULL || a->message == NULL || a->field == NULL)
            fail(l, doc, e, "an assertion needs code, field, expect and message");
    }
}

/* ---- kinds ---- */

static struct loaded_file *find_file(struct loader *l, int role, const char *stem, size_t len)
{
    for (size_t i = 0; i < l->count; i++) {
        struct loaded_file *f = &l->files[i];
        if ((int)f->role == role && strlen(f->stem) == len && memcmp(f->stem, stem, len) == 0)
            return f;
    }
    return NULL;
}

static void include_group(struct loader *l, struct json_doc *doc, uint32_t entry,
                          struct schema_object *object)
{
    uint32_t name_node = entry, only = JSON_NONE, override = JSON_NONE;
    if (doc->nodes[entry].kind == JSON_OBJECT) {
        name_node = json_object_get(doc, entry, "group", 5);
        only = json_object_get(doc, entry, "only", 4);
        override = json_object_get(doc, entry, "override", 8);
        for (uint32_t m = doc->nodes[entry].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            if (m != name_node && m != only && m != override) {
                fail(l, doc, m, "unknown key in an include entry (group, only, override)");
                return;
            }
        }
        if (name_node == JSON_NONE) {
            fail(l, doc, entry, "an include entry needs \"group\"");
            return;
        }
        if (only != JSON_NONE && !array_of(l, doc, only, "\"only\""))
            return;
    } else if (doc->nodes[entry].kind != JSON_STRING) {
        fail(l, doc, entry, "an include entry is a group name or an object with \"group\"");
        return;
    }
    if (doc->nodes[name_node].kind != JSON_STRING) {
        fail(l, doc, name_node, "a group name must be a string");
        return;
    }
    struct json_str name = json_node_string(doc, name_node);
    struct loaded_file *group = find_file(l, FILE_GROUP, name.ptr, name.len);
    if (group == NULL) {
        fail(l, doc, name_node, "no group of that name in schema/groups/");
        return;
    }
    /* check_group made sure the group has its fields. */
    uint32_t fields = json_object_get(&group->doc, group->doc.root, "fields", 6);
    uint32_t before = object->field_count;
    const char *current = l->current;
    l->current = group->file->name;
    apply_fields(l, &group->doc, fields, object);
    l->current = current;
    if (only != JSON_NONE) {
        for (uint32_t e = doc->nodes[only].first_child; e != JSON_NONE && !l->failed;
             e = doc->nodes[e].next) {
            struct json_str wanted = json_node_string(doc, e);
            if (doc->nodes[e].kind != JSON_STRING)
                fail(l, doc, e, "\"only\" lists field names");
            else if (json_object_get(&group->doc, fields, wanted.ptr, wanted.len) == JSON_NONE)
                fail(l, doc, e, "\"only\" names a field the group does not have");
        }
        uint32_t kept = before;
        for (uint32_t i = before; i < object->field_count; i++) {
            bool keep = false;
            for (uint32_t e = doc->nodes[only].first_child; e != JSON_NONE;
                 e = doc->nodes[e].next) {
                keep |= json_node_string_equals(doc, e, object->fields[i].name,
                                                strlen(object->fields[i].name));
            }
            if (keep)
                object->fields[kept++] = object->fields[i];
        }
        object->field_count = kept;
    }
    if (override != JSON_NONE)
        apply_fields(l, doc, override, object);
}

static void omit_fields(struct loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_object *object)
{
    if (!array_of(l, doc, node, "\"omit\""))
        return;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE && !l->failed;
         e = doc->nodes[e].next) {
        if (doc->nodes[e].kind != JSON_STRING) {
            fail(l, doc, e, "\"omit\" lists field names");
            return;
        }
        struct json_str name = json_node_string(doc, e);
        uint32_t kept = 0;
        bool found = false;
        for (uint32_t i = 0; i < object->field_count; i++) {
            if (strlen(object->fields[i].name) == name.len &&
                memcmp(object->fields[i].name, name.ptr, name.len) == 0) {
                found = true;
                continue;
            }
            object->fields[kept++] = object->fields[i];
        }
        object->field_count = kept;
        if (!found)
            fail(l, doc, e, "\"omit\" names a field the kind does not inherit");
    }
}

static void build_kind(struct loader *l, struct loaded_file *f)
{
    if (f->state == 2 || l->failed)
        return;
    f->state = 1;
    l->current = f->file->name;
    struct json_doc *doc = &f->doc;
    uint32_t root = doc->root;
    struct schema_kind *kind = f->kind;
    kind->stem = f->stem;

    uint32_t extends = json_object_get(doc, root, "extends", 7);
    if (extends != JSON_NONE && doc->nodes[extends].kind != JSON_NULL &&
        doc->nodes[extends].kind != JSON_STRING) {
        fail(l, doc, extends, "\"extends\" must be the file stem of a kind, or null");
        return;
    }
    if (extends != JSON_NONE && doc->nodes[extends].kind == JSON_STRING) {
        struct json_str stem = json_node_string(doc, extends);
        struct loaded_file *parent = find_file(l, FILE_KIND, stem.ptr, stem.len);
        if (parent == NULL) {
            fail(l, doc, extends, "\"extends\" names no kind in schema/kinds/");
            return;
        }
        if (parent->state == 1) {
            fail(l, doc, extends, "\"extends\" forms a cycle");
            return;
        }
        build_kind(l, parent);
        if (l->failed)
            return;
        l->current = f->file->name;
        /* The parent's arrays are copied: omit and merges must not reach back into it. */
        const struct schema_object *from = &parent->kind->config;
        kind->config = *from;
        kind->config.fields =
            arena_alloc(l->arena, (from->field_count + 1) * sizeof(*from->fields));
        if (kind->config.fields == NULL)
            return;
        memcpy(kind->config.fields, from->fields, from->field_count * sizeof(*from->fields));
    }
    for (uint32_t m = doc->nodes[root].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        const struct json_node *v = &doc->nodes[m];
        if (str_eq(key, "kind")) {
            int64_t number = 0;
            if (!json_node_int64(doc, m, &number) || number < 1)
                fail(l, doc, m, "\"kind\" must be a positive integer");
            kind->number = (int)number;
        } else if (str_eq(key, "title")) {
            kind->title = string_of(l, doc, m, "title");
        } else if (str_eq(key, "description")) {
            kind->description = string_of(l, doc, m, "description");
        } else if (str_eq(key, "types")) {
            if (!array_of(l, doc, m, "\"types\""))
                break;
            kind->type_count = json_child_count(doc, m);
            kind->types = arena_alloc(l->arena, (kind->type_count + 1) * sizeof(char *));
            uint32_t i = 0;
            for (uint32_t e = v->first_child; e != JSON_NONE; e = doc->nodes[e].next)
                kind->types[i++] = string_of(l, doc, e, "a type identifier");
            if (kind->type_count == 0)
                fail(l, doc, m, "a kind needs at least one type identifier");
        } else if (str_eq(key, "include")) {
            if (!array_of(l, doc, m, "\"include\""))
                break;
            for (uint32_t e = v->first_child; e != JSON_NONE && !l->failed; e = doc->nodes[e].next)
                include_group(l, doc, e, &kind->config);
        } else if (str_eq(key, "omit")) {
            omit_fields(l, doc, m, &kind->config);
        } else if (str_eq(key, "fields")) {
            apply_fields(l, doc, m, &kind->config);
        } else if (str_eq(key, "assertions")) {
            apply_assertions(l, doc, m, &kind->config);
        } else if (!str_eq(key, "extends") && !str_eq(key, "notes")) {
            fail(l, doc, m, "unknown key in a kind file");
        }
    }
    if (kind->number == 0 || kind->title == NULL || kind->types == NULL)
        fail(l, doc, root, "a kind needs \"kind\", \"title\" and \"types\"");
    f->state = 2;
}

/* Loads source.json or job.json: a field of type object with the file's fields. */
static void build_document(struct loader *l, struct loaded_file *f, struct schema_field *out,
                           const char **title)
{
    struct json_doc *doc = &f->doc;
    memset(out, 0, sizeof *out);
    out->types = SCHEMA_OBJECT;
    out->object = object_clone(l, NULL);
    for (uint32_t m = doc->nodes[doc->root].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        if (str_eq(key, "fields"))
            apply_fields(l, doc, m, out->object);
        else if (str_eq(key, "assertions"))
            apply_assertions(l, doc, m, out->object);
        else if (str_eq(key, "title") && title != NULL)
            *title = string_of(l, doc, m, "title");
        else if (str_eq(key, "description"))
            out->description = string_of(l, doc, m, "description");
        else if (str_eq(key, "additionalFields"))
            out->additional_fields = bool_of(l, doc, m, "additionalFields");
        else if (!str_eq(key, "notes") && !str_eq(key, "title"))
            fail(l, doc, m, "unknown key");
    }
}

/* A group file: {"group": NAME, "description": ..., "fields": {...}} (and "notes"). */
static void check_group(struct loader *l, struct loaded_file *f)
{
    struct json_doc *doc = &f->doc;
    for (uint32_t m = doc->nodes[doc->root].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        if (str_eq(key, "group") || str_eq(key, "description"))
            string_of(l, doc, m, str_eq(key, "group") ? "group" : "description");
        else if (!str_eq(key, "fields") && !str_eq(key, "notes"))
            fail(l, doc, m, "unknown key in a group file");
    }
    if (json_object_get(doc, doc->root, "fields", 6) == JSON_NONE)
        fail(l, doc, doc->root, "a group needs \"fields\"");
}

/* Two kinds with one number or one type identifier: the later file is the one named. */
static void check_kinds_distinct(struct loader *l)
{
    for (size_t i = 0; i < l->count && !l->failed; i++) {
        struct loaded_file *f = &l->files[i];
        if (f->role != FILE_KIND)
            continue;
        l->current = f->file->name;
        struct json_doc *doc = &f->doc;
        for (size_t j = 0; j < i && !l->failed; j++) {
            const struct loaded_file *earlier = &l->files[j];
            if (earlier->role != FILE_KIND)
                continue;
            if (earlier->kind->number == f->kind->number)
                fail(l, doc, json_object_get(doc, doc->root, "kind", 4),
                     "kind %d is also schema/%s", f->kind->number, earlier->file->name);
            uint32_t types = json_object_get(doc, doc->root, "types", 5);
            for (uint32_t t = 0; t < f->kind->type_count && !l->failed; t++) {
                for (uint32_t u = 0; u < earlier->kind->type_count; u++) {
                    if (strcmp(f->kind->types[t], earlier->kind->types[u]) == 0)
                        fail(l, doc, json_array_get(doc, types, t),
                             "the type identifier is also one of schema/%s", earlier->file->name);
                }
            }
        }
    }
}

static const char *stem_of(struct loader *l, const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    return arena_strndup(l->arena, base, len);
}

static int compare_kinds(const void *a, const void *b)
{
    const struct schema_kind *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

int schema_registry_load(struct schema_registry *registry, const struct schema_file *files,
                         size_t count, char *error, size_t error_size)
{
    memset(registry, 0, sizeof *registry);
    arena_init(&registry->arena);
    struct loader l = {.registry = registry,
                       .arena = &registry->arena,
                       .count = count,
                       .error = error,
                       .error_size = error_size};
    if (error_size > 0)
        error[0] = '\0';
    l.files = calloc(count + 1, sizeof *l.files);
    if (l.files == NULL)
        return -1;
    uint32_t kinds = 0;
    for (size_t i = 0; i < count && !l.failed; i++) {
        struct loaded_file *f = &l.files[i];
        f->file = &files[i];
        f->stem = stem_of(&l, files[i].name);
        l.current = files[i].name;
        f->role = strncmp(files[i].name, "kinds/", 6) == 0    ? FILE_KIND
                  : strncmp(files[i].name, "groups/", 7) == 0 ? FILE_GROUP
                                                              : FILE_OTHER;
        if (f->role == FILE_OTHER && strcmp(files[i].name, "source.json") != 0 &&
            strcmp(files[i].name, "job.json") != 0) {
            fail_file(&l, "not a schema file (source.json, job.json, groups/NAME.json, "
                          "kinds/NN-NAME.json)");
        } else if (json_parse(&f->doc, files[i].text, files[i].len, NULL) != 0 ||
                   f->doc.error_count > 0) {
            fail_syntax(&l, &f->doc, "not valid JSON: %s",
                        f->doc.error_count ? f->doc.errors[0].message : "out of memory");
        } else if (f->doc.nodes[f->doc.root].kind != JSON_OBJECT) {
            fail(&l, &f->doc, f->doc.root, "a schema file holds one object");
        } else if (f->role == FILE_GROUP) {
            check_group(&l, f);
        }
        kinds += f->role == FILE_KIND;
    }
    registry->kinds = arena_alloc(&registry->arena, (kinds + 1) * sizeof *registry->kinds);
    memset(registry->kinds, 0, (kinds + 1) * sizeof *registry->kinds);
    for (size_t i = 0; i < count && !l.failed; i++) {
        if (l.files[i].role == FILE_KIND)
            l.files[i].kind = &registry->kinds[registry->kind_count++];
    }
    for (size_t i = 0; i < count && !l.failed; i++) {
        struct loaded_file *f = &l.files[i];
        l.current = f->file->name;
        if (f->role == FILE_KIND)
            build_kind(&l, f);
        else if (strcmp(f->stem, "source") == 0)
            build_document(&l, f, &registry->source, NULL);
        else if (strcmp(f->stem, "job") == 0)
            build_document(&l, f, &registry->job, &registry->job_title);
    }
    check_kinds_distinct(&l);
    if (!l.failed && (registry->source.object == NULL || registry->job.object == NULL)) {
        l.current = registry->source.object == NULL ? "source.json" : "job.json";
        fail_file(&l, "missing (the schema needs source.json and job.json)");
    }
    for (size_t i = 0; i < count; i++)
        json_doc_free(&l.files[i].doc);
    free(l.files);
    if (l.failed) {
        schema_registry_free(registry);
        return -1;
    }
    qsort(registry->kinds, registry->kind_count, sizeof *registry->kinds, compare_kinds);
    return 0;
}

void schema_registry_free(struct schema_registry *registry)
{
    arena_free(&registry->arena);
    memset(registry, 0, sizeof *registry);
}

const struct schema_kind *schema_find_kind(const struct schema_registry *registry, const char *type,
                                           size_t len)
{
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        for (uint32_t t = 0; t < kind->type_count; t++) {
            if (strlen(kind->types[t]) == len && memcmp(kind->types[t], type, len) == 0)
                return kind;
        }
    }
    return NULL;
}

const struct schema_field *schema_object_field(const struct schema_object *object, const char *name,
                                               size_t len)
{
    for (uint32_t i = 0; object != NULL && i < object->field_count; i++) {
        if (strlen(object->fields[i].name) == len && memcmp(object->fields[i].name, name, len) == 0)
            return &object->fields[i];
    }
    return NULL;
}

const struct schema_field *schema_object_alias(const struct schema_object *object, const char *name,
                                               size_t len)
{
    for (uint32_t i = 0; object != NULL && i < object->field_count; i++) {
        for (uint32_t a = 0; a < object->fields[i].alias_count; a++) {
            const char *alias = object->fields[i].aliases[a];
            if (strlen(alias) == len && memcmp(alias, name, len) == 0)
                return &object->fields[i];
        }
    }
    return NULL;
}

const char *schema_types_describe(uint32_t types, struct arena *arena)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {{SCHEMA_STRING, "a string"},    {SCHEMA_BOOLEAN, "a boolean"},
                 {SCHEMA_INTEGER, "an integer"}, {SCHEMA_NUMBER, "a number"},
                 {SCHEMA_ARRAY, "an array"},     {SCHEMA_OBJECT, "an object"},
                 {SCHEMA_NULL, "null"}};
    char buffer[160] = "";
    size_t n = 0, total = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        total += (types & names[i].bit) != 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(types & names[i].bit))
            continue;
        n++;
        const char *sep = n == 1 ? "" : n == total ? " or " : ", ";
        strncat(buffer, sep, sizeof buffer - strlen(buffer) - 1);
        strncat(buffer, names[i].name, sizeof buffer - strlen(buffer) - 1);
    }
    return arena_strndup(arena, buffer, strlen(buffer));
}

const char *schema_field_value_json(const struct schema_field *field, struct arena *arena)
{
    if (field->has_default) {
        if (field->default_value.type == SCHEMA_STRING)
            return arena_printf(arena, "\"%s\"", field->default_value.text);
        return field->default_value.text;
    }
    if (field->secret)
        return "\"data:,\"";
    if (field->types & SCHEMA_STRING)
        return "\"\"";
    if (field->types & SCHEMA_BOOLEAN)
        return "false";
    if (field->types & (SCHEMA_INTEGER | SCHEMA_NUMBER))
        return "0";
    if (field->types & SCHEMA_ARRAY)
        return "[]";
    return "{}";
}

const char *schema_format_name(enum schema_format format)
{
    switch (format) {
    case SCHEMA_FORMAT_UUID: return "uuid";
    case SCHEMA_FORMAT_TIMESTAMP: return "timestamp";
    case SCHEMA_FORMAT_PORT: return "port";
    case SCHEMA_FORMAT_NAMESPACE: return "namespace";
    case SCHEMA_FORMAT_EMAIL: return "email";
    case SCHEMA_FORMAT_NONE: break;
    }
    return "none";
}

int schema_registry_load_embedded(struct schema_registry *registry, char *error, size_t error_size)
{
    struct schema_file *files = calloc(schema_embedded_count + 1, sizeof *files);
    if (files == NULL)
        return -1;
    for (unsigned i = 0; i < schema_embedded_count; i++) {
        files[i].name = schema_embedded_files[i].name;
        files[i].text = schema_embedded_files[i].text;
        files[i].len = schema_embedded_files[i].len;
    }
    int status = schema_registry_load(registry, files, schema_embedded_count, error, error_size);
    free(files);
    return status;
}
