/* schema_internal: what the files of the schema loader share. schema.c holds the registry and the
 * load driver; schema_read.c the errors, the scalars, values, types, formats and conditions;
 * schema_field.c field entries and assertions; schema_kind.c kinds, groups and the source and job
 * documents; schema_resolve.c the resolution of noOtherThan once every kind is built;
 * schema_distinct.c what must be unique, and the lookup of files by name; schema_custom.c the
 * rounds of a load with a team's own files. One module split for size: its files call each other
 * through this header, the one kind of include circle allowed (docs/architecture.md), and only
 * files of schema/ include it. */
#ifndef SRCLS_SCHEMA_INTERNAL_H
#define SRCLS_SCHEMA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "schema.h"
#include "schema_custom.h"

struct schema_loaded_file {
    const struct schema_file *file;
    struct json_doc doc;
    /* SKIP: a JSON Schema (*.schema.json), published beside the data, not loaded */
    enum { SCHEMA_FILE_OTHER, SCHEMA_FILE_GROUP, SCHEMA_FILE_KIND, SCHEMA_FILE_SKIP } role;
    const char *stem;
    int state; /* kinds: 0 not built, 1 building, 2 built */
    struct schema_kind *kind;
    /* A custom kind that extends a kind without giving "types": the kind it replaces, which is
     * left out of the registry once every kind is built. */
    struct schema_loaded_file *replaces;
    bool replaced;
    bool took_over; /* it replaced `replaces` (take_over ran) */
    bool broken;    /* tolerant loading: a custom file with a mistake, set aside */
};

/* Where a noOtherThan condition was written: resolving it happens after every file is read,
 * and its errors point here. */
struct schema_origin {
    const struct schema_condition *condition;
    struct json_doc *doc;
    uint32_t node; /* the condition object */
    const char *file;
};

struct schema_key;

/* A file's name pointer and its index in the loader's files. */
struct schema_name_ref {
    uintptr_t pointer;
    size_t file;
};

struct schema_loader {
    struct schema_registry *registry;
    struct arena *arena;
    struct schema_loaded_file *files;
    size_t count;
    char *error;
    size_t error_size;
    struct schema_error *where; /* may be NULL */
    /* Tolerant loading (schema_registry_load_custom): a custom file with a mistake is set
     * aside, its problem added here, and loading goes on; NULL: the first mistake ends it. */
    struct schema_problems *set_aside;
    bool failed;
    const char *current; /* file name, for messages */
    struct schema_origin *origins;
    size_t origin_count, origin_capacity;
    struct schema_key *names; /* the kinds' and groups' file names, sorted (schema_distinct.c) */
    size_t name_count;
    /* The files' indexes in the order of their name pointers, built by the first
     * schema__file_named: each mistake looks its file up, so n mistakes cost n log n. */
    struct schema_name_ref *by_name_pointer;
};

/* schema_registry_load_at, tolerant when `problems` is not NULL: a custom file with a mistake is
 * set aside (its problem added, its index that in `files`) and loading goes on; the mistakes
 * that involve several files (the same name, number or identifier twice) still end it. */
int schema__load(struct schema_registry *registry, const struct schema_file *files, size_t count,
                 struct schema_error *where, char *error, size_t error_size,
                 struct schema_problems *problems);

/* ---- errors (the first one wins; later calls do nothing) ---- */

/* The loaded file named `name` (the same pointer as its schema_file's name), or NULL; a binary
 * search (the loader's by_name_pointer, freed with it). */
struct schema_loaded_file *schema__file_named(struct schema_loader *l, const char *name);

/* The one place that names the file, the position and the JSON Pointer of a bad value:
 * "schema/kinds/03-x.json:7:17 at /fields/port/type: unknown type name". */
void schema__fail(struct schema_loader *l, struct json_doc *doc, uint32_t node, const char *format,
                  ...) __attribute__((format(printf, 4, 5)));
/* An error about a whole file: "schema/job.json: ...". */
void schema__fail_file(struct schema_loader *l, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* A syntax error, where no value has a pointer: "schema/job.json:3:5: not valid JSON: ...". */
void schema__fail_syntax(struct schema_loader *l, const struct json_doc *doc, const char *format,
                         ...) __attribute__((format(printf, 3, 4)));

/* ---- scalars (schema_read.c); each fails, naming `what`, on the wrong JSON type ---- */

const char *schema__copy(struct schema_loader *l, struct json_str s);
bool schema__str_eq(struct json_str s, const char *text);
const char *schema__string(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                           const char *what);
bool schema__array(struct schema_loader *l, struct json_doc *doc, uint32_t node, const char *what);
bool schema__bool(struct schema_loader *l, struct json_doc *doc, uint32_t node, const char *what);
void schema__value(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                   struct schema_value *out);
uint32_t schema__types(struct schema_loader *l, struct json_doc *doc, uint32_t node);
enum schema_format schema__format(struct schema_loader *l, struct json_doc *doc, uint32_t node);

/* ---- conditions (schema_read.c, schema_resolve.c) ---- */

struct schema_condition *schema__condition(struct schema_loader *l, struct json_doc *doc,
                                           uint32_t node);
/* Records where the noOtherThan condition `c` was written, for the errors of resolving it. */
void schema__remember_origin(struct schema_loader *l, const struct schema_condition *c,
                             struct json_doc *doc, uint32_t node, const char *file);
/* Resolves the conditions of `object`'s fields, of its nested objects and of its assertions;
 * `context` is the file the object was built for. */
void schema__resolve_object(struct schema_loader *l, struct schema_object *object,
                            const char *context);

/* ---- fields and assertions (schema_field.c) ---- */

/* Builds `object`'s name index (struct schema_object.names) from its fields as they are now. */
void schema__index_names(struct schema_loader *l, struct schema_object *object);
/* A copy of `from` (an empty object when NULL) in the loader's arena. */
struct schema_object *schema__object_clone(struct schema_loader *l,
                                           const struct schema_object *from);
/* Adds or merges the fields of `node` (an object of field entries) into `object`. */
void schema__fields(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                    struct schema_object *object);
/* Appends the assertions of `node` (an array) to `object`'s. */
void schema__assertions(struct schema_loader *l, struct json_doc *doc, uint32_t node,
                        struct schema_object *object);

/* ---- files (schema_kind.c) ---- */

/* Builds the kind of `f` (after the kind it extends). */
void schema__build_kind(struct schema_loader *l, struct schema_loaded_file *f);
/* Loads source.json or job.json: a field of type object with the file's fields. */
void schema__build_document(struct schema_loader *l, struct schema_loaded_file *f,
                            struct schema_field *out, const char **title);
/* A group file: {"group": NAME, "description": ..., "fields": {...}} (and "notes"). */
void schema__check_group(struct schema_loader *l, struct schema_loaded_file *f);
/* credentials.json: {"description": ..., "credentials": [shape, ...]} (schema_credential.c). */
void schema__build_credentials(struct schema_loader *l, struct schema_loaded_file *f);
/* ---- what must be unique (schema_distinct.c) ---- */

/* Two kinds, or two groups, with one file name: the later file is the one named. Also builds
 * the index schema__file_by_name reads (freed with the loader's `names`). */
void schema__check_names_distinct(struct schema_loader *l);
/* The kind or group file (`role`) named `stem`, or NULL. */
struct schema_loaded_file *schema__file_by_name(struct schema_loader *l, int role, const char *stem,
                                                size_t len);
/* Two kinds with one number or one type identifier: the later file is the one named. */
void schema__check_kinds_distinct(struct schema_loader *l);

#endif
