/* schema: the registry of kinds, fields and rules, built from the schema data (the files of
 * schema/, embedded at build time; docs/schema-format.md). Nothing here names a kind or a field:
 * the registry is whatever the data says. Also the entry header of server/core/schema/, the one
 * header the layers above include (with schema_custom.h and schema_embedded.h). */
#ifndef SRCLS_SCHEMA_H
#define SRCLS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "domain/domain.h"
#include "schema_custom.h"
#include "schema_embedded.h"

/* JSON types as a bit set. */
enum schema_type {
    SCHEMA_STRING = 1u << 0,
    SCHEMA_BOOLEAN = 1u << 1,
    SCHEMA_INTEGER = 1u << 2,
    SCHEMA_NUMBER = 1u << 3,
    SCHEMA_ARRAY = 1u << 4,
    SCHEMA_OBJECT = 1u << 5,
    SCHEMA_NULL = 1u << 6,
};

/* How many JSON types there are: enum schema_type's bits are 1 << 0 .. 1 << (COUNT - 1). */
#define SCHEMA_TYPE_COUNT 7
/* The JSON type name of the type `1u << index` ("string", "boolean", "integer", "number",
 * "array", "object", "null"), as the schema data and JSON Schema write it; NULL past the last. */
const char *schema_type_name(unsigned index);

enum schema_format {
    SCHEMA_FORMAT_NONE,
    SCHEMA_FORMAT_UUID,
    SCHEMA_FORMAT_TIMESTAMP,
    SCHEMA_FORMAT_PORT,
    SCHEMA_FORMAT_NAMESPACE,
    SCHEMA_FORMAT_EMAIL,
};

/* A JSON scalar from the schema (enum values, defaults, condition operands). */
struct schema_value {
    enum schema_type type; /* SCHEMA_STRING, SCHEMA_BOOLEAN, SCHEMA_INTEGER/NUMBER, SCHEMA_NULL;
                              0 for arrays and objects */
    const char *text;      /* the decoded string, or the JSON text of other values */
    size_t len;
    bool boolean;
    double number;
};

enum schema_condition_op {
    COND_IN,
    COND_NO_OTHER_THAN,
    COND_PRESENT,
    COND_NON_EMPTY,
    COND_NOT_BEFORE,
    COND_ALL,
    COND_ANY,
    COND_NOT,
};

struct schema_condition {
    enum schema_condition_op op;
    const char *field;
    const char *other_field;     /* COND_NOT_BEFORE */
    bool expect;                 /* COND_PRESENT, COND_NON_EMPTY: true or false */
    struct schema_value *values; /* COND_IN; COND_NO_OTHER_THAN: the values listed */
    uint32_t value_count;
    /* COND_NO_OTHER_THAN: the enum values of `field` that are not listed, in enum order; the
     * loader fills them from the object that holds the field (docs/schema-format.md). */
    struct schema_value *others;
    uint32_t other_count;
    struct schema_condition **children; /* COND_ALL, COND_ANY, COND_NOT */
    uint32_t child_count;
};

struct schema_enum_value {
    struct schema_value value;
    const char *description; /* NULL when none */
};

struct schema_object;

struct schema_field {
    const char *name;
    uint32_t types;        /* enum schema_type bits the reference lists */
    uint32_t sample_types; /* types seen in samples, accepted too */
    const char *description;
    bool required;
    struct schema_condition *required_when;
    struct schema_condition *applicable;
    bool has_default;
    struct schema_value default_value;
    struct schema_enum_value *enums;
    uint32_t enum_count;
    bool has_minimum, has_maximum;
    double minimum, maximum;
    enum schema_format format;
    bool secret, sensitive, sample_only;
    /* "secretReference": the value names a secret in a store (sensitive, but no credential
     * itself), so plaintext-credential reads it for credential shapes only */
    bool secret_reference;
    /* "removalWidens": why removing the field widens what the source reaches (a PUT without it
     * resets it to all), reported by review (--base) when it was present at the base; or NULL. */
    const char *removal_widens;
    const char **aliases;
    uint32_t alias_count;
    struct schema_field *items;   /* arrays: the shape of an element */
    struct schema_object *object; /* objects: their fields */
    bool additional_fields;       /* objects: other keys allowed */
};

struct schema_assertion {
    enum diag_code code;
    const char *field;
    struct schema_condition *when; /* NULL: always */
    struct schema_condition *expect;
    const char *message;
    bool has_severity;           /* "severity": this assertion's default, not the code's */
    enum diag_severity severity; /* when has_severity */
};

/* A name an object's member may have: a field's name (rank 0) or its alias (rank 1 + a). */
struct schema_name {
    const char *name;
    uint32_t len;
    uint32_t field; /* index in the object's fields */
    uint32_t rank;
    uint32_t same; /* in the first entry of a name: how many entries have it */
};

struct schema_object {
    struct schema_field *fields;
    uint32_t field_count;
    struct schema_assertion *assertions;
    uint32_t assertion_count;
    /* Every name and alias of the fields, sorted by name, then field, then rank; built by the
     * loader once the object is final. NULL (an object not built by the loader): look names up
     * by scanning the fields. */
    struct schema_name *names;
    uint32_t name_count;
    /* Open addressing over the names: the first entry of each distinct name, or UINT32_MAX. */
    uint32_t *name_slots;
    uint32_t slot_mask; /* slots - 1 (a power of two) */
};

struct schema_kind {
    int number;
    const char *stem; /* file name without ".json", e.g. "03-object-storage-a" */
    const char *title;
    const char *description;
    const char *origin; /* a custom kind: the file it comes from, as named; NULL: built in */
    const char **types;
    uint32_t type_count;
    struct schema_object config;
};

/* A well-known credential shape (schema/credentials.json): one of `prefixes`, then a body of
 * bytes in `charset` from `min_length` to `max_length` long, then `suffix` when not NULL (without
 * one, the body ends where the charset does). The byte before the prefix is no letter or digit. */
struct schema_credential {
    const char *name; /* "cloud access key id": what messages name instead of the value */
    const char **prefixes;
    uint32_t prefix_count;
    uint8_t charset[32]; /* a bit per byte value */
    uint32_t min_length, max_length;
    const char *suffix;
    uint32_t suffix_len;
};

/* One prefix of one shape, in the index the loader builds: the prefixes grouped by first byte. */
struct schema_credential_prefix {
    const char *text;
    uint32_t len;
    uint32_t shape; /* its index in `credentials` */
};

struct schema_registry {
    struct schema_kind *kinds;
    uint32_t kind_count;
    struct schema_field source; /* the top level of a source object */
    struct schema_field job;    /* the job object */
    const char *job_title;
    const char **groups; /* the names of the groups kinds can include, built-in then custom */
    uint32_t group_count;
    struct schema_credential *credentials; /* from credentials.json; none without it */
    uint32_t credential_count;
    /* Every prefix, by first byte then shape order: those starting with byte b are
     * credential_prefixes[credential_by_byte[b] .. credential_by_byte[b + 1]). */
    struct schema_credential_prefix *credential_prefixes;
    uint32_t credential_by_byte[257];
    struct arena arena;
};

/* One schema file: its name relative to schema/ ("kinds/03-object-storage-a.json"), or for a
 * custom file (a team's own, from the directories srcls.json's "schemas" names) its path as it
 * is shown. A custom file is a kind file, or a group file when it has "group"; its "kind" number
 * is optional, and a custom kind that `extends` a kind without giving "types" replaces that kind
 * (docs/schema-format.md). */
struct schema_file {
    const char *name;
    const char *text;
    size_t len;
    bool custom;
};

/* The first credential shape (in the data's order) `text` holds anywhere in it, or NULL. One
 * pass over the text, trying at each byte only the prefixes that start with it, and a body is at
 * most max_length bytes: linear in `len`. */
const struct schema_credential *schema_credential_find(const struct schema_registry *registry,
                                                       const char *text, size_t len);

/* Files named *.schema.json are JSON Schemas published beside the data (the kind-file format:
 * schema/kind-file.schema.json); the loader passes over them. */
#define SCHEMA_JSON_SCHEMA_SUFFIX ".schema.json"
/* The embedded JSON Schema of the kind-file format, or NULL. */
const char *schema_kind_file_json_schema(size_t *len);

/* Where loading stopped: the file at fault (its index in the files given; SIZE_MAX when no one
 * file is), the bytes of the value at fault ([start, end); 0 0 for the whole file), the JSON
 * Pointer of that value ("" for the whole file or a syntax error) and the message alone. */
struct schema_error {
    size_t file;
    uint32_t start, end;
    char pointer[256];
    char message[256];
};

/* Builds a registry from `files`. On failure returns -1 and writes a message naming the file
 * and what is wrong into `error` (`error_size` bytes). */
int schema_registry_load(struct schema_registry *registry, const struct schema_file *files,
                         size_t count, char *error, size_t error_size);
/* The same, and where it stopped in `*where` (when not NULL) on failure. */
int schema_registry_load_at(struct schema_registry *registry, const struct schema_file *files,
                            size_t count, struct schema_error *where, char *error,
                            size_t error_size);
/* Builds the registry from the schema embedded in the binary. */
int schema_registry_load_embedded(struct schema_registry *registry, char *error, size_t error_size);
void schema_registry_free(struct schema_registry *registry);

const struct schema_kind *schema_find_kind(const struct schema_registry *registry, const char *type,
                                           size_t len);
const struct schema_field *schema_object_field(const struct schema_object *object, const char *name,
                                               size_t len);
/* The field of which `name` is an alias, or NULL. */
const struct schema_field *schema_object_alias(const struct schema_object *object, const char *name,
                                               size_t len);
/* The entries of `object`'s name index that are `name`, in field then rank order, and their
 * number in `*count`; NULL with *count 0 when there is none, or the object has no index. */
const struct schema_name *schema_object_names(const struct schema_object *object, const char *name,
                                              size_t len, uint32_t *count);

/* The JSON text of the field's default, or of an empty value of its type ("data:," for a
 * secret): what completion and fixes insert. Allocated in `arena` when it must be built. */
const char *schema_field_value_json(const struct schema_field *field, struct arena *arena);

/* A value in words: the string itself, true or false, or the JSON text of a number or null. */
const char *schema_value_text(const struct schema_value *value);
/* "string", "integer or string", ... for messages, in the arena. */
const char *schema_types_describe(uint32_t types, struct arena *arena);
const char *schema_format_name(enum schema_format format);

#endif
