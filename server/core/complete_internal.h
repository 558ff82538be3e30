/* complete_internal: what the files of completion share (complete.c: the entry point, keys and
 * values; complete_insert.c: skeletons and the required fields, several members at once). Not
 * for other modules. */
#ifndef SRCLS_COMPLETE_INTERNAL_H
#define SRCLS_COMPLETE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "complete.h"

/* One completion request. */
struct completer {
    struct analysis *a;
    struct json_doc *doc;
    const struct schema_registry *registry;
    const struct settings *settings;
    enum text_markup markup;
    const char *now; /* a valid timestamp, or NULL */
    uint32_t offset;
    struct completion_list *out;
    const struct completion_options *options; /* NULL: none */
};

/* An item's text while it is built, with its placeholders: a heap buffer (grown with
 * vector_grow) that complete__text_finish moves into the list's arena and frees. */
#define COMPLETE_MAX_PLACEHOLDERS 64
struct complete_text {
    char *buf;
    size_t len, cap;
    struct completion_placeholder marks[COMPLETE_MAX_PLACEHOLDERS];
    uint32_t count;
    bool failed; /* memory ran out */
};

/* How a field's value is written: empty with the enum's values as choices (a key item), or
 * with its first enum value (the required fields, which must be valid as they stand). */
enum complete_value_style {
    COMPLETE_VALUE_CHOICES,
    COMPLETE_VALUE_FIRST,
};

/* A new zeroed item at the end of the list; NULL when out of memory. */
struct completion_item *complete__add(struct completion_list *list);

void complete__text_add(struct complete_text *t, const char *text);
/* Appends the value `field` is inserted with, its placeholder marked (the inside of a string's
 * quotes or of empty brackets, or the whole value). */
void complete__text_value(struct completer *c, struct complete_text *t,
                          const struct schema_field *field, enum complete_value_style style);
/* Appends `"name": value`. */
void complete__text_member(struct completer *c, struct complete_text *t,
                           const struct schema_field *field, enum complete_value_style style);
/* Moves the text and its placeholders into `item` (the list's arena) and frees the buffer.
 * Returns 0, or -1 when memory ran out (now or while the text was built). */
int complete__text_finish(struct completer *c, struct complete_text *t,
                          struct completion_item *item);

/* What the rule engine would say of `field` in the object node `object` (JSON_NONE: an object
 * that does not exist yet) of schema `schema`. */
enum completion_rank complete__rank(struct json_doc *doc, const struct schema_object *schema,
                                    uint32_t object, const struct schema_field *field);
/* Whether the object node `object` has a member named by `field` other than `except`. */
bool complete__member_present(struct json_doc *doc, uint32_t object, uint32_t except,
                              const struct schema_field *field);

/* An empty document: a source and a job skeleton. */
int complete__document_skeletons(struct completer *c);
/* At the cursor, between the elements of an array: an element object with the fields of
 * `element` (NULL: a source, as in a bulk file), with the commas it needs. */
int complete__element_skeleton(struct completer *c, const struct schema_object *element);
/* One item that inserts, in place of bytes [start, end) of the object node `object`, every
 * field of `schema` required now and absent (none: no item). */
int complete__fill_required(struct completer *c, const struct schema_object *schema,
                            uint32_t object, uint32_t except, uint32_t start, uint32_t end);
/* In the source object `source` of kind `kind`, which has no config: a config with the fields
 * required in an empty one. */
int complete__fill_config(struct completer *c, const struct schema_kind *kind, uint32_t source,
                          uint32_t start, uint32_t end);

#endif
