/* json_pointer: RFC 6901 JSON Pointers over a document, and what lies at a byte offset. */
#ifndef SRCLS_JSON_POINTER_H
#define SRCLS_JSON_POINTER_H

#include "json_doc.h"

/* The pointer of `node` ("" for the root), allocated in `arena`; NULL when out of memory. */
char *json_pointer_of(struct json_doc *doc, uint32_t node, struct arena *arena);
/* `base` + "/" + `segment` escaped (~ -> ~0, / -> ~1), allocated in `arena`. */
char *json_pointer_append(struct arena *arena, const char *base, const char *segment,
                          size_t segment_len);
/* The node at `pointer`, or JSON_NONE. */
uint32_t json_pointer_find(struct json_doc *doc, const char *pointer, size_t len);
/* The node at `pointer` below `node` (json_pointer_find: below the root), or JSON_NONE. */
uint32_t json_pointer_find_from(struct json_doc *doc, uint32_t node, const char *pointer,
                                size_t len);
/* Whether the segment [segment, segment + len) is an array index as RFC 6901 writes one (digits,
 * no leading zero: not "01", "+1", "-" or "1e2"), at most 9 digits; into `*index` when it is. */
bool json_pointer_index(const char *segment, size_t len, uint32_t *index);

enum json_location_kind {
    JSON_LOCATION_NONE,      /* outside the value, or in an empty document */
    JSON_LOCATION_KEY,       /* on a member's key (inside the quotes, or on a bare key) */
    JSON_LOCATION_VALUE,     /* on a scalar value, or on a container's brackets */
    JSON_LOCATION_OBJECT,    /* inside an object, between members: where a key would go */
    JSON_LOCATION_ARRAY,     /* inside an array, between elements: where a value would go */
    JSON_LOCATION_AFTER_KEY, /* after a key and its ':', where the member's value would go */
};

struct json_location {
    enum json_location_kind kind;
    uint32_t node; /* the member (KEY, VALUE, AFTER_KEY) or the container (OBJECT, ARRAY) */
};

/* What the byte offset `offset` (a cursor between bytes) is on. */
struct json_location json_locate(const struct json_doc *doc, uint32_t offset);

#endif
