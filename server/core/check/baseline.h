/* baseline: a finding as a baseline file records it — the file's path (relative to the
 * baseline), the code, the JSON Pointer (in a bulk file the element known by its "name", the
 * pointer below it) and a hash of the value at the pointer; never a line or a column, so that
 * edits elsewhere, reformatting and moving a source within a bulk array keep the entry, and a
 * changed value does not. A value that could hold a secret (any string but the value of a
 * known field that is neither secret nor sensitive) is not hashed at all: a salted hash of a
 * short password is still reversed by a dictionary, whatever its salt, once the salt is in the
 * file beside it. Such an entry says "secret" where the hash would be. */
#ifndef SRCLS_BASELINE_H
#define SRCLS_BASELINE_H

#include "analysis.h"
#include "json/json.h"

/* The hash field of an entry whose value is not hashed. */
#define BASELINE_SECRET "secret"

/* Writes the entry of `d` (a diagnostic of `a`) of the file `path` into `w`: one compact JSON
 * object, keys in a fixed order (file, code, element when in a named bulk element, pointer,
 * hash), so that two equal entries are equal bytes and sorting the bytes sorts the file. The
 * hash is 16 hex digits of FNV-1a (64 bits) over the value's JSON type and its decoded text. */
void baseline_write_entry(struct json_writer *w, struct analysis *a, const struct diagnostic *d,
                          const char *path);

/* A baseline file read: its entries in canonical form, sorted, each marked when it matched. */
struct baseline_entry {
    char *line;                            /* canonical bytes (baseline_write_entry's) */
    char *path, *code, *element, *pointer; /* element NULL when none */
    bool used;
};
struct baseline_index {
    struct baseline_entry *entries;
    size_t count, cap;
};

/* Parses a baseline file's `text` into `out` (emptied first). 0, or -1 with what is wrong in
 * `why` ("finding 3: ..." for an entry) and `out` empty. */
int baseline_parse(struct baseline_index *out, const char *text, size_t len, char *why,
                   size_t why_size);
void baseline_index_free(struct baseline_index *index);
/* Whether an entry with the bytes `line` is not used yet; marks it used. */
bool baseline_take(struct baseline_index *index, const char *line);
/* baseline_write_entry's line for `d`, malloc'd; NULL when out of memory. */
char *baseline_entry_line(struct analysis *a, const struct diagnostic *d, const char *path);
/* Whether an entry of `index` not taken yet holds `d` (a finding of `a`, the document at
 * `path`): 1, taking it; 0; -1 when memory ran out. One entry holds one finding, so that n
 * equal findings (two bulk sources of one name with the same mistake) need n entries; the
 * findings take them in the order given (both doors: a document's, sorted). */
int baseline_take_finding(struct baseline_index *index, struct analysis *a,
                          const struct diagnostic *d, const char *path);
/* Gives back the entries of `index` taken for the file `path`: all of them (`element`
 * UINT32_MAX), or those of a's bulk element `element` (known by its "name", or by its index
 * when it has none), before that document or element is matched again (the editor). */
void baseline_release(struct baseline_index *index, struct analysis *a, const char *path,
                      uint32_t element);

/* The path of an entry: `file` relative to the directory `dir` (both absolute and normalised,
 * '/'-separated: "../sources/a.json"), malloc'd; NULL when out of memory. */
char *baseline_relative(const char *dir, const char *file);

#endif
