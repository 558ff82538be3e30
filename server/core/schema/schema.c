/* schema: the registry — loading the schema data into it, and the questions the rule engine and
 * the features ask of it.
 *
 * Each file is parsed with the project's own JSON parser, sorted by what it is (kind, group,
 * source.json, job.json), and built: kinds in dependency order (schema_kind.c), then every
 * noOtherThan resolved (schema_resolve.c). Every key of the data is validated: a typo in
 * schema/ is a build-time test failure, not a silently ignored rule. */
#include "schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_embedded.h"
#include "schema_internal.h"
#include "base/base.h"
#include "domain/domain.h"

static bool has_prefix(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static const char *stem_of(struct schema_loader *l, const char *name)
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

/* What file `i` is, from its name (built-in) or its content (custom: a group file has "group",
 * and is named by it), then parsed; a group file checked. */
static void read_file(struct schema_loader *l, size_t i)
{
    const struct schema_file *file = l->files[i].file;
    struct schema_loaded_file *f = &l->files[i];
    f->stem = stem_of(l, file->name);
    l->current = file->name;
    if (f->stem == NULL) {
        l->failed = true; /* out of memory: no message */
        return;
    }
    size_t len = strlen(file->name), suffix = sizeof SCHEMA_JSON_SCHEMA_SUFFIX - 1;
    if (len > suffix && strcmp(file->name + len - suffix, SCHEMA_JSON_SCHEMA_SUFFIX) == 0) {
        f->role = SCHEMA_FILE_SKIP;
        return;
    }
    f->role = file->custom                        ? SCHEMA_FILE_KIND
              : has_prefix(file->name, "kinds/")  ? SCHEMA_FILE_KIND
              : has_prefix(file->name, "groups/") ? SCHEMA_FILE_GROUP
                                                  : SCHEMA_FILE_OTHER;
    if (f->role == SCHEMA_FILE_OTHER && strcmp(file->name, "source.json") != 0 &&
        strcmp(file->name, "job.json") != 0 && strcmp(file->name, "credentials.json") != 0) {
        schema__fail_file(l, "not a schema file (source.json, job.json, credentials.json, "
                             "groups/NAME.json, kinds/NN-NAME.json)");
    } else if (json_parse(&f->doc, file->text, file->len, NULL) != 0) {
        l->failed = true; /* out of memory, not a mistake of the file */
    } else if (f->doc.error_count > 0) {
        schema__fail_syntax(l, &f->doc, "not valid JSON: %s", f->doc.errors[0].message);
    } else if (f->doc.nodes[f->doc.root].kind != JSON_OBJECT) {
        schema__fail(l, &f->doc, f->doc.root, "a schema file holds one object");
    } else if (file->custom) {
        uint32_t group = json_object_get(&f->doc, f->doc.root, JSON_LITERAL("group"));
        if (group != JSON_NONE && f->doc.nodes[group].kind == JSON_STRING) {
            f->role = SCHEMA_FILE_GROUP;
            f->stem = schema__copy(l, json_node_string(&f->doc, group));
        }
    }
    if (f->role == SCHEMA_FILE_GROUP && !l->failed)
        schema__check_group(l, f);
}

/* Custom kinds without "kind" are numbered after every other kind, in the order given; a kind
 * that replaces another takes its number. */
static void number_custom_kinds(struct schema_loader *l)
{
    int highest = 0;
    for (size_t i = 0; i < l->count; i++) {
        const struct schema_loaded_file *f = &l->files[i];
        if (f->role == SCHEMA_FILE_KIND && !f->broken && f->kind->number > highest)
            highest = f->kind->number;
    }
    for (size_t i = 0; i < l->count; i++) {
        struct schema_loaded_file *f = &l->files[i];
        if (f->role == SCHEMA_FILE_KIND && !f->broken && f->kind->number == 0)
            f->kind->number = ++highest;
    }
}

/* The kinds replaced by custom ones left out of the registry, then the rest in number order;
 * the groups' names, for completion in kind files. */
static void finish_kinds(struct schema_loader *l)
{
    struct schema_registry *registry = l->registry;
    registry->groups = arena_alloc(l->arena, (l->count + 1) * sizeof *registry->groups);
    for (size_t i = 0; registry->groups != NULL && i < l->count; i++) {
        if (l->files[i].role == SCHEMA_FILE_GROUP && !l->files[i].broken)
            registry->groups[registry->group_count++] = l->files[i].stem;
    }
    uint32_t kept = 0;
    for (size_t i = 0; i < l->count; i++) {
        const struct schema_loaded_file *f = &l->files[i];
        if (f->role == SCHEMA_FILE_KIND && !f->replaced && !f->broken)
            registry->kinds[kept++] = *f->kind;
    }
    registry->kind_count = kept;
    qsort(registry->kinds, registry->kind_count, sizeof *registry->kinds, compare_kinds);
}

/* Tolerant loading: the mistake just found is blamed on the custom file `blame` (an index in
 * l->files), which is set aside — its problem kept, its kind left out of the registry, the kind
 * it replaced put back — and loading goes on. False when the mistake must end the load: not
 * tolerant, or `blame` is not a custom file. The problem's place is the mistake's when it is in
 * that file, else the whole file (the line then names where the mistake is). */
static bool set_aside(struct schema_loader *l, size_t blame)
{
    if (l->set_aside == NULL || !l->failed || l->error[0] == '\0' || blame >= l->count ||
        !l->files[blame].file->custom)
        return false; /* not tolerant, out of memory (no message), or a built-in file */
    struct schema_loaded_file *f = &l->files[blame];
    struct schema_error where = *l->where;
    if (where.file != blame) {
        where.start = where.end = 0;
        where.pointer[0] = '\0';
        snprintf(where.message, sizeof where.message, "%s", l->error);
    }
    if (schema_problems_add(l->set_aside, blame, &where, l->error) != 0)
        return false;
    f->broken = true;
    if (f->took_over)
        f->replaces->replaced = false;
    l->failed = false;
    l->error[0] = '\0';
    return true;
}

/* Builds the kind of file `i`; in a tolerant load, a mistake in the file, or in the custom kind
 * or group it builds on (set aside, then the kind built again without it), is set aside. */
static void build_kind_file(struct schema_loader *l, size_t i)
{
    struct schema_loaded_file *f = &l->files[i];
    schema__build_kind(l, f);
    for (size_t tries = 0; l->failed && tries <= l->count; tries++) {
        size_t at = l->where != NULL ? l->where->file : SIZE_MAX;
        if (at == i || at >= l->count || !set_aside(l, at)) {
            set_aside(l, i);
            return;
        }
        f->state = 0; /* without what was set aside, which it now refuses to build on */
        f->replaces = NULL;
        f->took_over = false;
        memset(f->kind, 0, sizeof *f->kind);
        schema__build_kind(l, f);
    }
}

/* Builds every file: kinds (in dependency order), source.json and job.json; then resolves. */
static void build_files(struct schema_loader *l)
{
    struct schema_registry *registry = l->registry;
    for (size_t i = 0; i < l->count && !l->failed; i++) {
        struct schema_loaded_file *f = &l->files[i];
        l->current = f->file->name;
        if (f->role == SCHEMA_FILE_KIND && !f->broken)
            build_kind_file(l, i);
        else if (strcmp(f->stem, "source") == 0 && f->role == SCHEMA_FILE_OTHER)
            schema__build_document(l, f, &registry->source, NULL);
        else if (strcmp(f->stem, "job") == 0 && f->role == SCHEMA_FILE_OTHER)
            schema__build_document(l, f, &registry->job, &registry->job_title);
        else if (strcmp(f->stem, "credentials") == 0 && f->role == SCHEMA_FILE_OTHER)
            schema__build_credentials(l, f);
    }
    if (!l->failed)
        number_custom_kinds(l);
    schema__check_kinds_distinct(l);
    if (!l->failed && (registry->source.object == NULL || registry->job.object == NULL)) {
        l->current = registry->source.object == NULL ? "source.json" : "job.json";
        schema__fail_file(l, "missing (the schema needs source.json and job.json)");
    }
    for (size_t i = 0; i < l->count && !l->failed; i++) {
        struct schema_loaded_file *f = &l->files[i];
        if (f->role == SCHEMA_FILE_KIND && !f->broken) {
            schema__resolve_object(l, &f->kind->config, f->file->name);
            set_aside(l, i); /* whichever file the condition is written in */
        } else if (f->role == SCHEMA_FILE_OTHER && strcmp(f->stem, "source") == 0) {
            schema__resolve_object(l, registry->source.object, f->file->name);
        } else if (f->role == SCHEMA_FILE_OTHER && strcmp(f->stem, "job") == 0) {
            schema__resolve_object(l, registry->job.object, f->file->name);
        }
    }
}

int schema__load(struct schema_registry *registry, const struct schema_file *files, size_t count,
                 struct schema_error *where, char *error, size_t error_size,
                 struct schema_problems *problems)
{
    struct schema_error own_where = {.file = SIZE_MAX};
    memset(registry, 0, sizeof *registry);
    arena_init(&registry->arena);
    struct schema_loader l = {.registry = registry,
                              .arena = &registry->arena,
                              .count = count,
                              .error = error,
                              .error_size = error_size,
                              .where = where != NULL || problems == NULL ? where : &own_where,
                              .set_aside = problems};
    if (error_size > 0)
        error[0] = '\0';
    l.files = calloc(count + 1, sizeof *l.files);
    if (l.files == NULL)
        return -1;
    for (size_t i = 0; i < count; i++)
        l.files[i].file = &files[i];
    uint32_t kinds = 0;
    for (size_t i = 0; i < count && !l.failed; i++) {
        read_file(&l, i);
        if (l.failed && set_aside(&l, i))
            l.files[i].role = SCHEMA_FILE_SKIP; /* unread: nothing names it */
        kinds += l.files[i].role == SCHEMA_FILE_KIND;
    }
    if (!l.failed)
        schema__check_names_distinct(&l);
    registry->kinds = arena_alloc(&registry->arena, (kinds + 1) * sizeof *registry->kinds);
    memset(registry->kinds, 0, (kinds + 1) * sizeof *registry->kinds);
    for (size_t i = 0; i < count && !l.failed; i++) {
        if (l.files[i].role == SCHEMA_FILE_KIND)
            l.files[i].kind = &registry->kinds[registry->kind_count++];
    }
    if (!l.failed)
        build_files(&l);
    if (!l.failed)
        finish_kinds(&l);
    for (size_t i = 0; i < count; i++)
        json_doc_free(&l.files[i].doc);
    free(l.files);
    free(l.origins);
    free(l.names);
    free(l.by_name_pointer);
    l.failed |= registry->arena.failed; /* out of memory: a part of the registry is missing */
    if (l.failed) {
        schema_registry_free(registry);
        return -1;
    }
    return 0;
}

int schema_registry_load_at(struct schema_registry *registry, const struct schema_file *files,
                            size_t count, struct schema_error *where, char *error,
                            size_t error_size)
{
    int status = schema__load(registry, files, count, where, error, error_size, NULL);
    if (status != 0 && error_size > 0 && error[0] == '\0')
        snprintf(error, error_size, "out of memory"); /* the one failure without a message */
    return status;
}

int schema_registry_load(struct schema_registry *registry, const struct schema_file *files,
                         size_t count, char *error, size_t error_size)
{
    return schema_registry_load_at(registry, files, count, NULL, error, error_size);
}

void schema_registry_free(struct schema_registry *registry)
{
    arena_free(&registry->arena);
    memset(registry, 0, sizeof *registry);
}

const struct schema_kind *schema_find_kind(const struct schema_registry *registry, const char *type,
                                           size_t len)
{
    if (len == 0)
        return NULL; /* no identifier is empty */
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        for (uint32_t t = 0; t < kind->type_count; t++) {
            /* the first byte first: most identifiers differ there, and it spares a strlen */
            if (kind->types[t][0] == type[0] && strlen(kind->types[t]) == len &&
                memcmp(kind->types[t], type, len) == 0)
                return kind;
        }
    }
    return NULL;
}

/* Orders names by length, then bytes; equal names by field, then rank. */
static int compare_names(const struct schema_name *x, const char *name, size_t len)
{
    if (x->len != len)
        return x->len < len ? -1 : 1;
    return memcmp(x->name, name, len);
}

static int compare_entries(const void *a, const void *b)
{
    const struct schema_name *x = a, *y = b;
    int c = compare_names(x, y->name, y->len);
    if (c != 0)
        return c;
    if (x->field != y->field)
        return x->field < y->field ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A hash of a name from its length and its first and last eight bytes (names that differ only
 * in between share a slot's chain, which costs time, never correctness); hash_slot when short. */
static inline uint32_t hash_name(const char *name, size_t len)
{
    if (len < 8)
        return hash_slot(name, len);
    uint64_t head, tail;
    memcpy(&head, name, 8);
    memcpy(&tail, name + len - 8, 8);
    uint64_t h = (head * 0x9e3779b97f4a7c15u) ^ (tail * 0xc2b2ae3d27d4eb4fu) ^ len;
    return (uint32_t)(h ^ (h >> 29) ^ (h >> 47));
}

void schema__index_names(struct schema_loader *l, struct schema_object *object)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < object->field_count; i++)
        count += 1 + object->fields[i].alias_count;
    struct schema_name *names = arena_alloc(l->arena, (count + 1) * sizeof *names);
    if (names == NULL) {
        l->failed = true;
        return;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < object->field_count; i++) {
        const struct schema_field *f = &object->fields[i];
        for (uint32_t rank = 0; rank <= f->alias_count; rank++) {
            const char *name = rank == 0 ? f->name : f->aliases[rank - 1];
            names[n++] = (struct schema_name){name, (uint32_t)strlen(name), i, rank, 1};
        }
    }
    qsort(names, count, sizeof *names, compare_entries);
    uint32_t slots = 4;
    while (slots < 2 * count)
        slots *= 2;
    uint32_t *table = arena_alloc(l->arena, slots * sizeof *table);
    if (table == NULL) {
        l->failed = true;
        return;
    }
    memset(table, 0xff, slots * sizeof *table);
    for (uint32_t i = 0, first = 0; i < count; i++) {
        if (i > 0 && compare_names(&names[first], names[i].name, names[i].len) == 0) {
            names[first].same++; /* the name's first entry is in the table */
            continue;
        }
        first = i;
        uint32_t h = hash_name(names[i].name, names[i].len) & (slots - 1);
        while (table[h] != UINT32_MAX)
            h = (h + 1) & (slots - 1);
        table[h] = i;
    }
    object->names = names;
    object->name_count = count;
    object->name_slots = table;
    object->slot_mask = slots - 1;
}

const struct schema_name *schema_object_names(const struct schema_object *object, const char *name,
                                              size_t len, uint32_t *count)
{
    *count = 0;
    if (object == NULL || object->names == NULL)
        return NULL;
    for (uint32_t h = hash_name(name, len) & object->slot_mask;; h = (h + 1) & object->slot_mask) {
        uint32_t first = object->name_slots[h];
        if (first == UINT32_MAX)
            return NULL;
        if (compare_names(&object->names[first], name, len) != 0)
            continue;
        *count = object->names[first].same;
        return &object->names[first];
    }
}

/* The first field, in field order, that has `name` as its name (`alias` false) or an alias. */
static const struct schema_field *indexed(const struct schema_object *object, const char *name,
                                          size_t len, bool alias)
{
    uint32_t count;
    const struct schema_name *names = schema_object_names(object, name, len, &count);
    for (uint32_t i = 0; i < count; i++) {
        if ((names[i].rank != 0) == alias)
            return &object->fields[names[i].field];
    }
    return NULL;
}

const struct schema_field *schema_object_field(const struct schema_object *object, const char *name,
                                               size_t len)
{
    if (object != NULL && object->names != NULL)
        return indexed(object, name, len, false);
    for (uint32_t i = 0; object != NULL && i < object->field_count; i++) {
        const char *field = object->fields[i].name;
        /* The first byte first: most names differ there. */
        if (field[0] == (len > 0 ? name[0] : '\0') && strlen(field) == len &&
            memcmp(field, name, len) == 0)
            return &object->fields[i];
    }
    return NULL;
}

const struct schema_field *schema_object_alias(const struct schema_object *object, const char *name,
                                               size_t len)
{
    if (object != NULL && object->names != NULL)
        return indexed(object, name, len, true);
    for (uint32_t i = 0; object != NULL && i < object->field_count; i++) {
        for (uint32_t a = 0; a < object->fields[i].alias_count; a++) {
            const char *alias = object->fields[i].aliases[a];
            if (strlen(alias) == len && memcmp(alias, name, len) == 0)
                return &object->fields[i];
        }
    }
    return NULL;
}

const char *schema_value_text(const struct schema_value *value)
{
    if (value->type == SCHEMA_BOOLEAN)
        return value->boolean ? "true" : "false";
    return value->text ? value->text : "";
}

const char *schema_type_name(unsigned index)
{
    static const char *const names[SCHEMA_TYPE_COUNT] = {"string", "boolean", "integer", "number",
                                                         "array",  "object",  "null"};
    return index < SCHEMA_TYPE_COUNT ? names[index] : NULL;
}

const char *schema_types_describe(uint32_t types, struct arena *arena)
{
    char buffer[160] = "";
    unsigned n = 0, total = 0;
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++)
        total += (types >> i) & 1u;
    for (unsigned i = 0; i < SCHEMA_TYPE_COUNT; i++) {
        if (!((types >> i) & 1u))
            continue;
        const char *name = schema_type_name(i);
        n++;
        const char *sep = n == 1 ? "" : n == total ? " or " : ", ";
        /* "a string", "an integer", "an array", "an object"; "null" as it is */
        const char *article = (1u << i) == SCHEMA_NULL   ? ""
                              : strchr("aeiou", name[0]) ? "an "
                                                         : "a ";
        size_t used = strlen(buffer);
        snprintf(buffer + used, sizeof buffer - used, "%s%s%s", sep, article, name);
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
        return "\"" SECRET_PLAIN_PREFIX "\"";
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
    if (files == NULL) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < schema_embedded_count; i++) {
        files[i].name = schema_embedded_files[i].name;
        files[i].text = schema_embedded_files[i].text;
        files[i].len = schema_embedded_files[i].len;
    }
    int status = schema_registry_load(registry, files, schema_embedded_count, error, error_size);
    free(files);
    return status;
}

const char *schema_kind_file_json_schema(size_t *len)
{
    for (unsigned i = 0; i < schema_embedded_count; i++) {
        if (strcmp(schema_embedded_files[i].name, "kind-file" SCHEMA_JSON_SCHEMA_SUFFIX) == 0) {
            *len = schema_embedded_files[i].len;
            return schema_embedded_files[i].text;
        }
    }
    *len = 0;
    return NULL;
}
