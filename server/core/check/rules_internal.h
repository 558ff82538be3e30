/* rules_internal: what the files of the rule engine share (rules.c: reporting, sources and the
 * entry point; rules_object.c: objects; rules_value.c: values). One module split for size: its
 * files call each other through this header, the one kind of include circle allowed
 * (docs/architecture.md), and only files of check/ include it. */
#ifndef SRCLS_RULES_INTERNAL_H
#define SRCLS_RULES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

/* One walk over one document. */
struct rules {
    struct rules_target *t;
    struct json_doc *doc;
    const struct schema_registry *registry;
    const struct settings *settings;
    bool failed; /* memory ran out */
};

/* Where a value is, as a chain of segments on the stack: its pointer is built from it only when
 * a diagnostic needs one. NULL stands for the root (the pointer ""). */
struct rules_path {
    const struct rules_path *parent; /* NULL: the segment is the first under the root */
    const char *key;                 /* the segment, unescaped; NULL for an element */
    size_t key_len;
    uint32_t index; /* the element's index, when `key` is NULL */
};

/* Where an object is, for messages and ranges of what is missing from it. */
struct rules_place {
    uint32_t node;                 /* the object node */
    const struct rules_path *path; /* its path */
    /* a config's kind (messages say "Object storage A (CLOUDA_OBJECT_STORAGE)"), or NULL */
    const struct schema_kind *kind;
};

/* The segment `key` under `parent`. */
static inline struct rules_path rules__path_key(const struct rules_path *parent, const char *key,
                                                size_t key_len)
{
    return (struct rules_path){parent, key, key_len, 0};
}
/* The element `index` under `parent`. */
static inline struct rules_path rules__path_index(const struct rules_path *parent, uint32_t index)
{
    return (struct rules_path){parent, NULL, 0, index};
}
/* The RFC 6901 pointer of `path`, in the analysis's arena (NULL when out of memory). */
const char *rules__pointer(struct rules *r, const struct rules_path *path);

/* Adds a diagnostic at `path`; `message` must live in the analysis's arena (or be static). */
void rules__report_as(struct rules *r, enum diag_code code, enum diag_severity severity,
                      uint32_t start, uint32_t end, const struct rules_path *path,
                      const char *message);
/* The same with the code's default severity. */
void rules__report(struct rules *r, enum diag_code code, uint32_t start, uint32_t end,
                   const struct rules_path *path, const char *message);
void rules__report_at_value(struct rules *r, enum diag_code code, uint32_t node,
                            const struct rules_path *path, const char *message);
/* At the member's key; at its value when it has no key (an array element). */
void rules__report_at_key(struct rules *r, enum diag_code code, uint32_t node,
                          const struct rules_path *path, const char *message);
/* Records on the diagnostic just reported what its fix needs. */
void rules__annotate(struct rules *r, uint32_t node, const struct schema_field *field,
                     const char *suggestion);
/* The range that stands for an object when something is missing from it: its key when it is
 * a member, else its opening bracket. */
void rules__object_anchor(const struct json_doc *doc, uint32_t node, uint32_t *start,
                          uint32_t *end);
/* A message formatted into the analysis's arena (NULL when out of memory). */
char *rules__printf(struct rules *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Checks the object `place` against `schema` (keys, values, applicability, required fields,
 * assertions); `additional`: keys the schema does not define are allowed. */
void rules__check_object(struct rules *r, const struct schema_object *schema, bool additional,
                         const struct rules_place *place);
/* Whether rules__check_value reports the value of `node` as not a valid value of `field` (a
 * wrong type, a value outside the enum or the bounds, a wrong format) or a syntax error spoke
 * for it: a rule between fields does not read such a value. Reports nothing. */
bool rules__value_invalid(struct rules *r, const struct schema_field *field, uint32_t node);
/* The value of a member no field describes (`name` its key): each string in it that holds a
 * credential shape is plaintext-credential, named by its key. */
void rules__scan_credentials(struct rules *r, struct json_str name, uint32_t node,
                             const struct rules_path *path);
/* Checks the value of `node` against `field`: type, enum, bounds, format, secret encoding, and
 * the elements or fields it holds. */
void rules__check_value(struct rules *r, const struct schema_field *field, uint32_t node,
                        const struct rules_path *path);

#endif
