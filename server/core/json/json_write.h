/* json_write: a growable buffer that writes JSON text (commas, escaping) for the doors' output
 * and the server's messages. */
#ifndef SRCLS_JSON_WRITE_H
#define SRCLS_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_WRITE_MAX_DEPTH 128

struct json_writer {
    char *buf; /* owned; NUL-terminated */
    size_t len, cap;
    bool failed; /* out of memory, or nested too deeply: further writes are ignored */
    unsigned depth;
    bool first[JSON_WRITE_MAX_DEPTH]; /* no element written yet at this level */
    bool after_key;
    int indent; /* spaces per level; 0 writes compact JSON */
};

void json_writer_init(struct json_writer *w, int indent);
void json_writer_free(struct json_writer *w);

void json_write_object_begin(struct json_writer *w);
void json_write_object_end(struct json_writer *w);
void json_write_array_begin(struct json_writer *w);
void json_write_array_end(struct json_writer *w);
void json_write_key(struct json_writer *w, const char *key);
void json_write_string(struct json_writer *w, const char *text);
void json_write_string_n(struct json_writer *w, const char *text, size_t len);
void json_write_int(struct json_writer *w, int64_t value);
void json_write_bool(struct json_writer *w, bool value);
void json_write_null(struct json_writer *w);
/* Writes `json` (already valid JSON text) as the next value. */
void json_write_raw(struct json_writer *w, const char *json, size_t len);
/* Makes room for `bytes` more bytes at once, for a writer that knows about how much it will
 * write (a message of a thousand diagnostics): one allocation, not a doubling chain of copies.
 * Out of memory is not a failure here: the writes grow the buffer as they need. */
void json_writer_reserve(struct json_writer *w, size_t bytes);
/* Appends bytes as they are, outside the JSON structure (framing, newlines). */
void json_write_bytes(struct json_writer *w, const char *bytes, size_t len);
/* Appends `text` escaped for the inside of a JSON string (no quotes), outside the JSON structure,
 * as json_write_string escapes it: '"', '\\' and the control characters (and DEL). A byte that
 * is not UTF-8 is written as U+FFFD when `replace_invalid` (the output stays valid JSON), else as
 * it is (a rendering, which must hold what a plain substitution would). */
void json_write_escaped(struct json_writer *w, const char *text, size_t len, bool replace_invalid);

#endif
