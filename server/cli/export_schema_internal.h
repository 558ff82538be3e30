/* export_schema_internal: what export_schema.c (the files) and export_schema_field.c (fields,
 * objects and conditions as JSON Schema) share. Not for other modules. */
#ifndef SRCLS_EXPORT_SCHEMA_INTERNAL_H
#define SRCLS_EXPORT_SCHEMA_INTERNAL_H

#include <stdbool.h>

#include "base/base.h"
#include "json/json.h"
#include "schema/schema.h"

/* A member of an object written otherwise than its field says: the source's `type` as one
 * identifier, its `config` as one kind's fields. */
struct export_override {
    const char *name;
    const char *constant;                /* non-NULL: the only string allowed */
    const struct schema_object *object;  /* non-NULL: the object's fields (closed) */
    const struct schema_registry *types; /* non-NULL: every identifier as "examples" */
};

struct export_context {
    struct json_writer *w;
    struct arena *arena;        /* for the secret pattern */
    const char *secret_pattern; /* built once */
    const struct export_override *overrides;
    uint32_t override_count;
    const char *also_required; /* non-NULL: a member this object requires besides its fields */
    const char *placeholder_pattern; /* a templating project's placeholders, or NULL */
    const char *comment;             /* every file's "$comment" (NULL: the usual one) */
    bool file_top; /* the file's own top object: its note joins the file's "$comment" */
};

/* The field's schema as one JSON object; `alias_of`: the documented name when `field` is
 * written under one of its aliases. */
void export__field(struct export_context *x, const struct schema_field *field,
                   const char *alias_of);
/* The keys of an object schema after "type": "properties", "required", "additionalProperties"
 * (false unless `additional`), and "allOf" with the conditional rules and assertions that JSON
 * Schema can say ("$comment" names those it cannot, unless the context is the file's top
 * object: then the caller writes the file's one "$comment"); returns the count of those. The
 * context's overrides apply to this object's members only. */
uint32_t export__object_keys(struct export_context *x, const struct schema_object *object,
                             bool additional);
/* What the "$comment" says of `unsaid` rules that compare two timestamps. */
void export__unsaid_note(char *note, size_t size, uint32_t unsaid);

/* A schema scalar as JSON. */
void export__value(struct json_writer *w, const struct schema_value *v);
/* Whether JSON Schema can say condition `c`: everything but comparing two timestamps. */
bool export__expressible(const struct schema_condition *c);
/* A schema that holds where `c` (expressible) holds in an object of `object`. */
void export__condition(struct json_writer *w, const struct schema_object *object,
                       const struct schema_condition *c);
/* "field `name` of `object` is there", under its name or an alias (`f`: its field, or NULL): as
 * a schema, or as keys of an object being written. */
void export__present(struct json_writer *w, const struct schema_field *f, const char *name);
void export__present_keys(struct json_writer *w, const struct schema_field *f, const char *name);

#endif
