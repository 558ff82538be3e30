/* schema_kind: the files of schema/ — kinds built in dependency order (`extends` first, then
 * `include`d groups, then `omit`, then the kind's own fields merged on top, then assertions),
 * groups, and the source and job documents. */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

/* ---- kinds ---- */

static struct schema_loaded_file *find_file(struct schema_loader *l, int role, const char *stem,
                                            size_t len)
{
    return schema__file_by_name(l, role, stem, len);
}

static void include_group(struct schema_loader *l, struct json_doc *doc, uint32_t entry,
                          struct schema_object *object)
{
    uint32_t name_node = entry, only = JSON_NONE, override = JSON_NONE;
    if (doc->nodes[entry].kind == JSON_OBJECT) {
        name_node = json_object_get(doc, entry, JSON_LITERAL("group"));
        only = json_object_get(doc, entry, JSON_LITERAL("only"));
        override = json_object_get(doc, entry, JSON_LITERAL("override"));
        for (uint32_t m = doc->nodes[entry].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            if (m != name_node && m != only && m != override) {
                schema__fail(l, doc, m, "unknown key in an include entry (group, only, override)");
                return;
            }
        }
        if (name_node == JSON_NONE) {
            schema__fail(l, doc, entry, "an include entry needs \"group\"");
            return;
        }
        if (only != JSON_NONE && !schema__array(l, doc, only, "\"only\""))
            return;
    } else if (doc->nodes[entry].kind != JSON_STRING) {
        schema__fail(l, doc, entry, "an include entry is a group name or an object with \"group\"");
        return;
    }
    if (doc->nodes[name_node].kind != JSON_STRING) {
        schema__fail(l, doc, name_node, "a group name must be a string");
        return;
    }
    struct json_str name = json_node_string(doc, name_node);
    struct schema_loaded_file *group = find_file(l, SCHEMA_FILE_GROUP, name.ptr, name.len);
    if (group == NULL) {
        schema__fail(l, doc, name_node, "no group of that name in schema/groups/");
        return;
    }
    if (group->broken) {
        schema__fail(l, doc, name_node, "the group %s has a mistake (said in its file)",
                     group->stem);
        return;
    }
    /* check_group made sure the group has its fields. */
    uint32_t fields = json_object_get(&group->doc, group->doc.root, JSON_LITERAL("fields"));
    uint32_t before = object->field_count;
    const char *current = l->current;
    l->current = group->file->name;
    schema__fields(l, &group->doc, fields, object);
    l->current = current;
    if (only != JSON_NONE) {
        for (uint32_t e = doc->nodes[only].first_child; e != JSON_NONE && !l->failed;
             e = doc->nodes[e].next) {
            struct json_str wanted = json_node_string(doc, e);
            if (doc->nodes[e].kind != JSON_STRING)
                schema__fail(l, doc, e, "\"only\" lists field names");
            else if (json_object_get(&group->doc, fields, wanted.ptr, wanted.len) == JSON_NONE)
                schema__fail(l, doc, e, "\"only\" names a field the group does not have");
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
        schema__fields(l, doc, override, object);
}

static void omit_fields(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_object *object)
{
    if (!schema__array(l, doc, node, "\"omit\""))
        return;
    for (uint32_t e = doc->nodes[node].first_child; e != JSON_NONE && !l->failed;
         e = doc->nodes[e].next) {
        if (doc->nodes[e].kind != JSON_STRING) {
            schema__fail(l, doc, e, "\"omit\" lists field names");
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
            schema__fail(l, doc, e, "\"omit\" names a field the kind does not inherit");
    }
}

/* kinds/NN-NAME.json holds kind NN: the number that starts the file name is "kind". */
static void check_kind_number(struct schema_loader *l, struct schema_loaded_file *f)
{
    uint32_t node = json_object_get(&f->doc, f->doc.root, JSON_LITERAL("kind"));
    size_t digits = strspn(f->stem, "0123456789");
    if (digits == 0 || digits > 9 || f->stem[digits] != '-') {
        schema__fail(
            l, &f->doc, node,
            "the file name must start with the kind number and a dash (kinds/%02d-NAME.json)",
            f->kind->number);
        return;
    }
    long number = strtol(f->stem, NULL, 10);
    if (number != f->kind->number)
        schema__fail(l, &f->doc, node, "\"kind\" is %d, but the file name starts with %.*s",
                     f->kind->number, (int)digits, f->stem);
}

/* `extends`: the kind starts as a copy of its parent, which is built first. False when the kind
 * cannot be built. */
static bool inherit_parent(struct schema_loader *l, struct schema_loaded_file *f)
{
    struct json_doc *doc = &f->doc;
    uint32_t root = doc->root;
    struct schema_kind *kind = f->kind;
    uint32_t extends = json_object_get(doc, root, JSON_LITERAL("extends"));
    if (extends != JSON_NONE && doc->nodes[extends].kind != JSON_NULL &&
        doc->nodes[extends].kind != JSON_STRING) {
        schema__fail(l, doc, extends, "\"extends\" must be the file stem of a kind, or null");
        return false;
    }
    if (extends != JSON_NONE && doc->nodes[extends].kind == JSON_STRING) {
        struct json_str stem = json_node_string(doc, extends);
        struct schema_loaded_file *parent = find_file(l, SCHEMA_FILE_KIND, stem.ptr, stem.len);
        if (parent == NULL) {
            schema__fail(l, doc, extends,
                         "\"extends\" names no kind (a kind is named by its file name without "
                         "\".json\", as \"03-object-storage-a\")");
            return false;
        }
        if (parent->broken) {
            schema__fail(l, doc, extends, "the kind %s has a mistake (said in its file)",
                         parent->stem);
            return false;
        }
        if (parent->state == 1) {
            schema__fail(l, doc, extends, "\"extends\" forms a cycle");
            return false;
        }
        schema__build_kind(l, parent);
        if (l->failed)
            return false;
        l->current = f->file->name;
        /* The parent's arrays are copied: omit and merges must not reach back into it. */
        const struct schema_object *from = &parent->kind->config;
        kind->config = *from;
        kind->config.fields = arena_copy_array(l->arena, from->fields, from->field_count,
                                               from->field_count + 1, sizeof(*from->fields));
        if (kind->config.fields == NULL) {
            l->failed = true; /* out of memory: no message */
            return false;
        }
        if (f->file->custom && json_object_get(doc, root, JSON_LITERAL("types")) == JSON_NONE)
            f->replaces = parent;
    }
    return true;
}

/* One key of a kind file: "kind", "title", "description" and "types" are read here; "include",
 * "omit", "fields" and "assertions" in their order by apply_kind_sections; anything else is an
 * error. */
static void read_kind_key(struct schema_loader *l, struct json_doc *doc, uint32_t m,
                          struct schema_kind *kind)
{
    struct json_str key = json_node_key(doc, m);
    const struct json_node *v = &doc->nodes[m];
    if (schema__str_eq(key, "kind")) {
        int64_t number = 0;
        if (!json_node_int64(doc, m, &number) || number < 1)
            schema__fail(l, doc, m, "\"kind\" must be a positive integer");
        kind->number = (int)number;
    } else if (schema__str_eq(key, "title")) {
        kind->title = schema__string(l, doc, m, "title");
    } else if (schema__str_eq(key, "description")) {
        kind->description = schema__string(l, doc, m, "description");
    } else if (schema__str_eq(key, "types")) {
        if (!schema__array(l, doc, m, "\"types\""))
            return;
        kind->type_count = json_child_count(doc, m);
        kind->types = arena_alloc(l->arena, (kind->type_count + 1) * sizeof(char *));
        uint32_t i = 0;
        for (uint32_t e = v->first_child; e != JSON_NONE; e = doc->nodes[e].next)
            kind->types[i++] = schema__string(l, doc, e, "a type identifier");
        if (kind->type_count == 0)
            schema__fail(l, doc, m, "a kind needs at least one type identifier");
    } else if (schema__str_eq(key, "$schema")) {
        schema__string(l, doc, m, "\"$schema\"");
    } else if (!schema__str_eq(key, "extends") && !schema__str_eq(key, "include") &&
               !schema__str_eq(key, "omit") && !schema__str_eq(key, "fields") &&
               !schema__str_eq(key, "assertions") && !schema__str_eq(key, "notes")) {
        schema__fail(l, doc, m, "unknown key in a kind file");
    }
}

/* The sections of a kind file in the order of docs/schema-format.md, whatever the order of the
 * keys in the file: after the parent (inherit_parent), the groups of `include`, `omit`, the
 * kind's own `fields`, then `assertions`. */
static void apply_kind_sections(struct schema_loader *l, struct json_doc *doc,
                                struct schema_kind *kind)
{
    uint32_t root = doc->root;
    uint32_t include = json_object_get(doc, root, JSON_LITERAL("include"));
    if (include != JSON_NONE && !l->failed && schema__array(l, doc, include, "\"include\"")) {
        for (uint32_t e = doc->nodes[include].first_child; e != JSON_NONE && !l->failed;
             e = doc->nodes[e].next)
            include_group(l, doc, e, &kind->config);
    }
    uint32_t omit = json_object_get(doc, root, JSON_LITERAL("omit"));
    if (omit != JSON_NONE && !l->failed)
        omit_fields(l, doc, omit, &kind->config);
    uint32_t fields = json_object_get(doc, root, JSON_LITERAL("fields"));
    if (fields != JSON_NONE && !l->failed)
        schema__fields(l, doc, fields, &kind->config);
    uint32_t assertions = json_object_get(doc, root, JSON_LITERAL("assertions"));
    if (assertions != JSON_NONE && !l->failed)
        schema__assertions(l, doc, assertions, &kind->config);
}

/* A custom kind that replaces the kind it extends takes over its identity: its types, and its
 * number, title and description unless it gives its own. */
static void take_over(struct schema_loader *l, struct schema_loaded_file *f)
{
    struct schema_loaded_file *parent = f->replaces;
    struct schema_kind *kind = f->kind;
    struct json_doc *doc = &f->doc;
    uint32_t number = json_object_get(doc, doc->root, JSON_LITERAL("kind"));
    if (number != JSON_NONE && kind->number != parent->kind->number) {
        schema__fail(l, doc, number,
                     "a kind that replaces kind %d keeps its number (leave \"kind\" out)",
                     parent->kind->number);
        return;
    }
    if (parent->replaced) {
        schema__fail(l, doc, json_object_get(doc, doc->root, JSON_LITERAL("extends")),
                     "another custom kind replaces %s already (give \"types\" to add a kind)",
                     parent->stem);
        return;
    }
    parent->replaced = true;
    f->took_over = true;
    kind->number = parent->kind->number;
    kind->types = parent->kind->types;
    kind->type_count = parent->kind->type_count;
    kind->title = kind->title ? kind->title : parent->kind->title;
    kind->description = kind->description ? kind->description : parent->kind->description;
}

void schema__build_kind(struct schema_loader *l, struct schema_loaded_file *f)
{
    if (f->state == 2 || l->failed)
        return;
    f->state = 1;
    l->current = f->file->name;
    struct json_doc *doc = &f->doc;
    struct schema_kind *kind = f->kind;
    kind->stem = f->stem;
    kind->origin =
        f->file->custom ? arena_strndup(l->arena, f->file->name, strlen(f->file->name)) : NULL;
    if (!inherit_parent(l, f))
        return;
    for (uint32_t m = doc->nodes[doc->root].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next)
        read_kind_key(l, doc, m, kind);
    apply_kind_sections(l, doc, kind);
    if (f->replaces != NULL && !l->failed)
        take_over(l, f);
    if (f->file->custom && (kind->title == NULL || kind->types == NULL))
        schema__fail(l, doc, doc->root,
                     "a new kind needs \"title\" and \"types\" (to change a built-in kind, give "
                     "\"extends\" without \"types\")");
    else if (!f->file->custom && (kind->number == 0 || kind->title == NULL || kind->types == NULL))
        schema__fail(l, doc, doc->root, "a kind needs \"kind\", \"title\" and \"types\"");
    else if (!f->file->custom)
        check_kind_number(l, f);
    f->state = 2;
}

/* Loads source.json or job.json: a field of type object with the file's fields. */
void schema__build_document(struct schema_loader *l, struct schema_loaded_file *f,
                            struct schema_field *out, const char **title)
{
    struct json_doc *doc = &f->doc;
    memset(out, 0, sizeof *out);
    out->types = SCHEMA_OBJECT;
    out->object = schema__object_clone(l, NULL);
    for (uint32_t m = doc->nodes[doc->root].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        if (schema__str_eq(key, "fields"))
            schema__fields(l, doc, m, out->object);
        else if (schema__str_eq(key, "assertions"))
            schema__assertions(l, doc, m, out->object);
        else if (schema__str_eq(key, "title") && title != NULL)
            *title = schema__string(l, doc, m, "title");
        else if (schema__str_eq(key, "description"))
            out->description = schema__string(l, doc, m, "description");
        else if (schema__str_eq(key, "additionalFields"))
            out->additional_fields = schema__bool(l, doc, m, "additionalFields");
        else if (!schema__str_eq(key, "notes") && !schema__str_eq(key, "title"))
            schema__fail(l, doc, m, "unknown key");
    }
}

/* A group file: {"group": NAME, "description": ..., "fields": {...}} (and "notes"). */
void schema__check_group(struct schema_loader *l, struct schema_loaded_file *f)
{
    struct json_doc *doc = &f->doc;
    for (uint32_t m = doc->nodes[doc->root].first_child; m != JSON_NONE && !l->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        if (schema__str_eq(key, "group") || schema__str_eq(key, "description") ||
            schema__str_eq(key, "$schema"))
            schema__string(l, doc, m,
                           schema__str_eq(key, "group")         ? "group"
                           : schema__str_eq(key, "description") ? "description"
                                                                : "\"$schema\"");
        else if (!schema__str_eq(key, "fields") && !schema__str_eq(key, "notes"))
            schema__fail(l, doc, m, "unknown key in a group file");
    }
    if (json_object_get(doc, doc->root, JSON_LITERAL("fields")) == JSON_NONE)
        schema__fail(l, doc, doc->root, "a group needs \"fields\"");
}
