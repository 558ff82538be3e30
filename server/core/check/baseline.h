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
    size_t rest; /* where `line` goes on after the file: what a moved finding has the same */
    bool used;
    bool hidden;    /* its finding was not looked for (baseline_hide_unchecked) */
    char *moved_to; /* taken by a finding of this file, its own being gone (else NULL) */
};
struct baseline_index {
    struct baseline_entry *entries;
    size_t count, cap;
    /* Set by a door that knows the files (NULL: none): whether the file of an entry (its path)
     * no longer exists. An entry whose file is gone then holds a finding with the same code,
     * element, pointer and hash in a file that has no entry: the file moved. */
    bool (*gone)(const char *path, void *context);
    void *gone_context;
    size_t moved;                    /* how many entries have a moved_to */
    struct baseline_entry **by_rest; /* the entries sorted by what follows the file (made on use) */
};

/* Whether a finding of `code` may be recorded in a baseline: not one that means a document was
 * not checked (json-syntax: it was not read; unknown-document: it is neither a source nor a
 * job; unknown-kind: its fields were not checked against a kind), since an entry would hide it
 * and the document would go unchecked for good. Such findings are always reported: no entry
 * matches them. */
bool baseline_recorded(enum diag_code code);
/* Whether the document `a` was checked, so that its findings may be recorded: not when one of
 * them is json-syntax (what was read is a guess at what was meant) or unknown-document. Its
 * findings are then never recorded, and the entries there before stay as they were. */
bool baseline_document_checked(const struct analysis *a);

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
/* Marks hidden the entries of the file `path` whose finding a check of it under `settings`
 * leaves out (their code "off", or silenced by an "ignore" entry: `config_path` is the file's
 * path from its srcls.json's directory, NULL when unknown), so that they count as neither
 * matched nor fixed. `a`: the file's analysis (a bulk file's elements by name), or NULL when
 * the file is gone. */
void baseline_hide_unchecked(struct baseline_index *index, const char *path,
                             const struct settings *settings, const char *config_path,
                             struct analysis *a);
/* Marks hidden every entry of the file `path` not taken: its document was not checked. */
void baseline_hide_all(struct baseline_index *index, const char *path);
/* Whether a check under `settings` leaves out the finding of the entry `e` (as above). */
bool baseline_entry_hidden(const struct baseline_entry *e, const struct settings *settings,
                           const char *config_path, struct analysis *a);
/* Gives back the entries of `index` taken for the file `path` (as moved there too): all of them
 * (`element` UINT32_MAX), or those of a's bulk element `element` (known by its "name", or by its
 * index when it has none), before that document or element is matched again (the editor). */
void baseline_release(struct baseline_index *index, struct analysis *a, const char *path,
                      uint32_t element);

/* The path of an entry: `file` relative to the directory `dir` (both absolute and normalised,
 * '/'-separated: "../sources/a.json"), malloc'd; NULL when out of memory. */
char *baseline_relative(const char *dir, const char *file);

#endif
