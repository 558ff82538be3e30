/* baseline: the entry of a finding (see baseline.h). */
#include "baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_at.h"
#include "domain/domain.h"
#include "base/base.h"

static void hash_text(char out[17], char type, const char *text, size_t len)
{
    uint64_t h = hash_bytes(HASH_START, &type, 1);
    h = hash_bytes(h, text, len);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* Whether the first segment of `pointer` is an array index (json_pointer_index: not "01" or
 * "+1"): into `*index`, and into `*rest` what follows it. */
static bool element_index(const char *pointer, uint32_t *index, const char **rest)
{
    if (pointer[0] != '/')
        return false;
    size_t len = strcspn(pointer + 1, "/");
    *rest = pointer + 1 + len;
    return json_pointer_index(pointer + 1, len, index);
}

/* Whether the string `node` may be hashed: the value of a known field that is neither secret
 * nor sensitive and holds no credential shape (plaintext-credential), under a key the parser read
 * as written (excerpt's rule for what it shows). */
static bool hashable(struct analysis *a, uint32_t node)
{
    const struct json_node *n = &a->doc.nodes[node];
    if (n->key_start == JSON_NONE || (n->flags & JSON_FLAG_KEY_RECOVERED) || a->registry == NULL)
        return false;
    const struct schema_field *f = schema_at_member(&a->doc, node, a->registry, a->settings);
    if (f == NULL || f->secret || f->sensitive)
        return false;
    struct json_str s = json_node_string(&a->doc, node); /* no credential shape either */
    return schema_credential_find(a->registry, s.ptr, s.len) == NULL;
}

/* The hash of the value at `node` into `out`: its type and, for a scalar, its text (a
 * string decoded, a number or literal as written); a container by its type alone, so that a
 * finding about an object does not come back with every edit inside it. */
static void hash_value(struct analysis *a, uint32_t node, char out[17])
{
    if (node == JSON_NONE) {
        hash_text(out, '-', "", 0);
        return;
    }
    const struct json_node *n = json_node_at(&a->doc, node);
    switch (n->kind) {
    case JSON_OBJECT: hash_text(out, 'o', "", 0); return;
    case JSON_ARRAY: hash_text(out, 'a', "", 0); return;
    case JSON_STRING: {
        if (!hashable(a, node)) {
            snprintf(out, 17, "%s", BASELINE_SECRET);
            return;
        }
        struct json_str s = json_node_string(&a->doc, node);
        hash_text(out, 's', s.ptr != NULL ? s.ptr : "", s.len);
        return;
    }
    default: hash_text(out, 'v', a->doc.text + n->start, n->end - n->start); return;
    }
}

void baseline_write_entry(struct json_writer *w, struct analysis *a, const struct diagnostic *d,
                          const char *path)
{
    const char *pointer = d->pointer != NULL ? d->pointer : "";
    uint32_t node = a->doc.root;
    struct json_str element = {0};
    uint32_t index;
    const char *end;
    if (a->document == DOCUMENT_BULK && a->elements != NULL &&
        element_index(pointer, &index, &end) && index < a->element_count) {
        node = a->elements[index];
        uint32_t name = json_object_get(&a->doc, node, JSON_LITERAL(ENVELOPE_NAME));
        if (name != JSON_NONE && json_node_at(&a->doc, name)->kind == JSON_STRING)
            element = json_node_string(&a->doc, name);
        if (element.ptr != NULL)
            pointer = end;
    }
    char hash[17];
    hash_value(a,
               json_pointer_find_from(&a->doc, element.ptr != NULL ? node : a->doc.root, pointer,
                                      strlen(pointer)),
               hash);
    json_write_object_begin(w);
    json_write_key(w, "file");
    json_write_string(w, path);
    json_write_key(w, "code");
    json_write_string(w, code_name(d->code));
    if (element.ptr != NULL) {
        json_write_key(w, "element");
        json_write_string_n(w, element.ptr, element.len);
    }
    json_write_key(w, "pointer");
    json_write_string(w, pointer);
    json_write_key(w, "hash");
    json_write_string(w, hash);
    json_write_object_end(w);
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const struct baseline_entry *)a)->line,
                  ((const struct baseline_entry *)b)->line);
}

/* The string member `key` of the entry `node`, malloc'd; NULL when it has none, or (`*oom` set)
 * when memory ran out. */
static char *member(struct json_doc *doc, uint32_t node, const char *key, bool *oom)
{
    uint32_t m = json_object_get(doc, node, key, strlen(key));
    if (m == JSON_NONE || json_node_at(doc, m)->kind != JSON_STRING)
        return NULL;
    struct json_str s = json_node_string(doc, m);
    char *copy = malloc(s.len + 1);
    if (copy != NULL) {
        if (s.len > 0)
            memcpy(copy, s.ptr, s.len);
        copy[s.len] = '\0';
    }
    *oom |= copy == NULL;
    return copy;
}

/* Where the canonical `line` goes on after its file: at ',"code":', which cannot be inside the
 * file's string (a '"' in it is escaped). */
static size_t rest_of(const char *line)
{
    const char *rest = strstr(line, ",\"code\":");
    return rest != NULL ? (size_t)(rest - line) : 0;
}

/* The canonical line of an entry read back (baseline_write_entry's form). */
static char *canonical(const struct baseline_entry *e, const char *hash)
{
    struct json_writer w;
    json_writer_init(&w, 0);
    json_write_object_begin(&w);
    json_write_key(&w, "file");
    json_write_string(&w, e->path);
    json_write_key(&w, "code");
    json_write_string(&w, e->code);
    if (e->element != NULL) {
        json_write_key(&w, "element");
        json_write_string(&w, e->element);
    }
    json_write_key(&w, "pointer");
    json_write_string(&w, e->pointer);
    json_write_key(&w, "hash");
    json_write_string(&w, hash);
    json_write_object_end(&w);
    if (w.failed) {
        json_writer_free(&w);
        return NULL;
    }
    return w.buf;
}

static void entry_free(struct baseline_entry *e)
{
    free(e->line);
    free(e->path);
    free(e->code);
    free(e->element);
    free(e->pointer);
    free(e->moved_to);
}

/* Reads the entry `node` (the `index`th) into `e`; false after saying on stderr what is wrong. */
static bool read_entry(struct json_doc *doc, uint32_t node, unsigned index,
                       struct baseline_entry *e, char *why_out, size_t why_size)
{
    *e = (struct baseline_entry){0};
    const char *why = NULL;
    char *hash = NULL;
    bool oom = false;
    if (json_node_at(doc, node)->kind != JSON_OBJECT)
        why = "not an object";
    else if ((e->path = member(doc, node, "file", &oom)) == NULL || e->path[0] == '\0')
        why = "\"file\" must be a non-empty string";
    else if ((e->code = member(doc, node, "code", &oom)) == NULL || code_parse(e->code) < 0)
        why = "\"code\" must name a code";
    else if ((e->pointer = member(doc, node, "pointer", &oom)) == NULL)
        why = "\"pointer\" must be a string";
    else if ((hash = member(doc, node, "hash", &oom)) == NULL)
        why = "\"hash\" must be a string";
    else if (json_object_get(doc, node, JSON_LITERAL("element")) != JSON_NONE &&
             (e->element = member(doc, node, "element", &oom)) == NULL)
        why = "\"element\" must be a string";
    else if ((e->line = canonical(e, hash)) == NULL)
        why = "out of memory";
    if (oom)
        why = "out of memory"; /* not a mistake of the file */
    if (why == NULL)
        e->rest = rest_of(e->line);
    free(hash);
    if (why == NULL)
        return true;
    snprintf(why_out, why_size, "finding %u: %s", index, why);
    entry_free(e);
    return false;
}

int baseline_parse(struct baseline_index *b, const char *text, size_t len, char *why,
                   size_t why_size)
{
    *b = (struct baseline_index){0};
    struct json_doc doc;
    if (json_parse(&doc, text, len, NULL) != 0) {
        snprintf(why, why_size, "out of memory"); /* no verdict on the file */
        json_doc_free(&doc);
        return -1;
    }
    bool ok = doc.error_count == 0 && doc.root != JSON_NONE &&
              json_node_at(&doc, doc.root)->kind == JSON_OBJECT;
    uint32_t version = ok ? json_object_get(&doc, doc.root, JSON_LITERAL("version")) : JSON_NONE;
    uint32_t list = ok ? json_object_get(&doc, doc.root, JSON_LITERAL("findings")) : JSON_NONE;
    int64_t number = 0;
    if (!ok || version == JSON_NONE || !json_node_int64(&doc, version, &number) || number != 1 ||
        list == JSON_NONE || json_node_at(&doc, list)->kind != JSON_ARRAY) {
        snprintf(why, why_size,
                 "not a baseline of this version of srcls (a JSON object with "
                 "\"version\": 1 and a \"findings\" array; write one with "
                 "--write-baseline)");
        json_doc_free(&doc);
        return -1;
    }
    unsigned index = 0;
    for (uint32_t n = doc.nodes[list].first_child; ok && n != JSON_NONE; n = doc.nodes[n].next) {
        struct baseline_entry *grown =
            vector_grow(b->entries, &b->cap, b->count + 1, sizeof *grown);
        if (grown == NULL) {
            snprintf(why, why_size, "out of memory");
            ok = false;
            break;
        }
        b->entries = grown;
        ok = read_entry(&doc, n, index++, &b->entries[b->count], why, why_size);
        b->count += ok;
    }
    json_doc_free(&doc);
    if (ok && b->count > 1)
        qsort(b->entries, b->count, sizeof *b->entries, compare_entries);
    if (!ok)
        baseline_index_free(b);
    return ok ? 0 : -1;
}

void baseline_index_free(struct baseline_index *b)
{
    for (size_t i = 0; i < b->count; i++)
        entry_free(&b->entries[i]);
    free(b->entries);
    free(b->by_rest);
    *b = (struct baseline_index){0};
}

/* The first entry of `b` not below `line`. */
static size_t lower_bound(const struct baseline_index *b, const char *line)
{
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(b->entries[mid].line, line) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool baseline_take(struct baseline_index *b, const char *line)
{
    size_t lo = lower_bound(b, line);
    for (; lo < b->count && strcmp(b->entries[lo].line, line) == 0; lo++) {
        if (!b->entries[lo].used)
            return b->entries[lo].used = true;
    }
    return false;
}

char *baseline_entry_line(struct analysis *a, const struct diagnostic *d, const char *path)
{
    struct json_writer w;
    json_writer_init(&w, 0);
    baseline_write_entry(&w, a, d, path);
    if (!w.failed)
        return w.buf;
    json_writer_free(&w);
    return NULL;
}

bool baseline_recorded(enum diag_code code)
{
    return code != CODE_JSON_SYNTAX && code != CODE_UNKNOWN_DOCUMENT && code != CODE_UNKNOWN_KIND;
}

bool baseline_document_checked(const struct analysis *a)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        if (a->diags.items[i].code == CODE_JSON_SYNTAX ||
            a->diags.items[i].code == CODE_UNKNOWN_DOCUMENT)
            return false;
    }
    return true;
}

/* The entries of the file `path`: [*first, return value). */
static size_t file_range(const struct baseline_index *b, const char *path, size_t *first)
{
    struct json_writer w; /* the lines that start with this */
    json_writer_init(&w, 0);
    json_write_object_begin(&w);
    json_write_key(&w, "file");
    json_write_string(&w, path);
    *first = 0;
    if (w.failed) {
        json_writer_free(&w);
        return 0;
    }
    size_t len = w.len, i = *first = lower_bound(b, w.buf);
    while (i < b->count && strncmp(b->entries[i].line, w.buf, len) == 0 &&
           b->entries[i].line[len] == ',')
        i++;
    json_writer_free(&w);
    return i;
}

static int compare_rests(const void *x, const void *y)
{
    const struct baseline_entry *a = *(struct baseline_entry *const *)x,
                                *b = *(struct baseline_entry *const *)y;
    int order = strcmp(a->line + a->rest, b->line + b->rest);
    return order != 0 ? order : strcmp(a->line, b->line);
}

/* An entry not taken yet whose file is gone and whose line goes on as `rest` does, taken: the
 * finding of a file with no entries that moved there. 1, 0, or -1 when memory ran out. */
static int take_moved(struct baseline_index *b, const char *path, const char *rest)
{
    size_t first;
    if (b->gone == NULL || b->count == 0 || file_range(b, path, &first) > first)
        return 0;
    if (b->by_rest == NULL) {
        if ((b->by_rest = malloc(b->count * sizeof *b->by_rest)) == NULL)
            return -1;
        for (size_t i = 0; i < b->count; i++)
            b->by_rest[i] = &b->entries[i];
        qsort(b->by_rest, b->count, sizeof *b->by_rest, compare_rests);
    }
    struct baseline_entry **sorted = b->by_rest;
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(sorted[mid]->line + sorted[mid]->rest, rest) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < b->count && strcmp(sorted[lo]->line + sorted[lo]->rest, rest) == 0; lo++) {
        struct baseline_entry *e = sorted[lo];
        if (e->used || !b->gone(e->path, b->gone_context))
            continue;
        char *to = vector_copy_string(path);
        if (to == NULL)
            return -1;
        b->moved += e->moved_to == NULL;
        free(e->moved_to);
        e->moved_to = to;
        return e->used = true;
    }
    return 0;
}

int baseline_take_finding(struct baseline_index *b, struct analysis *a, const struct diagnostic *d,
                          const char *path)
{
    if (!baseline_recorded(d->code))
        return 0; /* always reported */
    char *line = baseline_entry_line(a, d, path);
    if (line == NULL)
        return -1;
    int taken = baseline_take(b, line) ? 1 : take_moved(b, path, line + rest_of(line));
    free(line);
    return taken;
}

/* The pointer a finding of the entry `e` would have in `a` (NULL: the file is gone), malloc'd,
 * and into `*by_name` whether a bulk element is named by its "name" (not found in `a`). */
static char *entry_pointer(const struct baseline_entry *e, struct analysis *a, bool *by_name)
{
    *by_name = false;
    if (e->element == NULL)
        return vector_copy_string(e->pointer);
    char *out = malloc(2 * strlen(e->element) + strlen(e->pointer) + 16);
    for (uint32_t i = 0; out != NULL && a != NULL && i < a->element_count; i++) {
        uint32_t name = json_object_get(&a->doc, a->elements[i], JSON_LITERAL(ENVELOPE_NAME));
        struct json_str s = name != JSON_NONE && a->doc.nodes[name].kind == JSON_STRING
                                ? json_node_string(&a->doc, name)
                                : (struct json_str){0};
        if (s.ptr != NULL && s.len == strlen(e->element) && memcmp(s.ptr, e->element, s.len) == 0) {
            sprintf(out, "/%u%s", i, e->pointer);
            return out;
        }
    }
    if (out == NULL)
        return NULL;
    size_t len = 0; /* the element is not there: by its name, escaped as a segment */
    out[len++] = '/';
    for (const char *c = e->element; *c != '\0'; c++) {
        if (*c == '~' || *c == '/')
            out[len++] = '~';
        out[len++] = *c == '~' ? '0' : *c == '/' ? '1' : *c;
    }
    strcpy(out + len, e->pointer);
    *by_name = true;
    return out;
}

bool baseline_entry_hidden(const struct baseline_entry *e, const struct settings *settings,
                           const char *config_path, struct analysis *a)
{
    int code = code_parse(e->code);
    if (code < 0)
        return false;
    if (settings_severity(settings, (enum diag_code)code,
                          code_info((enum diag_code)code)->severity) == DIAG_OFF)
        return true;
    if (settings == NULL || settings->ignore_count == 0)
        return false;
    bool by_name;
    char *pointer = entry_pointer(e, a, &by_name);
    if (pointer == NULL)
        return true; /* out of memory: not counted as fixed */
    struct diagnostic d = {.code = (enum diag_code)code, .pointer = pointer};
    bool elements = a != NULL && !by_name;
    bool hidden = false;
    for (uint32_t i = 0; !hidden && i < settings->ignore_count; i++)
        hidden = suppress_matches(&settings->ignores[i], &d, config_path, elements ? &a->doc : NULL,
                                  elements ? a->elements : NULL, elements ? a->element_count : 0);
    free(pointer);
    return hidden;
}

void baseline_hide_unchecked(struct baseline_index *b, const char *path,
                             const struct settings *settings, const char *config_path,
                             struct analysis *a)
{
    size_t i;
    size_t end = file_range(b, path, &i);
    for (; i < end; i++)
        b->entries[i].hidden = baseline_entry_hidden(&b->entries[i], settings, config_path, a);
}

void baseline_hide_all(struct baseline_index *b, const char *path)
{
    size_t i;
    size_t end = file_range(b, path, &i);
    for (; i < end; i++)
        b->entries[i].hidden = !b->entries[i].used;
}

/* Whether the entry `e` is about the bulk element `index` of `a`. */
static bool of_element(const struct baseline_entry *e, struct analysis *a, uint32_t index)
{
    uint32_t name = index < a->element_count
                        ? json_object_get(&a->doc, a->elements[index], JSON_LITERAL(ENVELOPE_NAME))
                        : JSON_NONE;
    if (name != JSON_NONE && json_node_at(&a->doc, name)->kind == JSON_STRING) {
        struct json_str s = json_node_string(&a->doc, name);
        return e->element != NULL && strlen(e->element) == s.len &&
               memcmp(e->element, s.ptr, s.len) == 0;
    }
    uint32_t at;
    const char *rest;
    return e->element == NULL && element_index(e->pointer, &at, &rest) && at == index;
}

void baseline_release(struct baseline_index *b, struct analysis *a, const char *path,
                      uint32_t element)
{
    size_t i;
    size_t end = file_range(b, path, &i);
    for (; i < end; i++) {
        if (element == UINT32_MAX || of_element(&b->entries[i], a, element))
            b->entries[i].used = false;
    }
    for (i = 0; b->moved > 0 && i < b->count; i++) { /* the entries taken as moved here */
        struct baseline_entry *e = &b->entries[i];
        if (e->moved_to != NULL && strcmp(e->moved_to, path) == 0 &&
            (element == UINT32_MAX || of_element(e, a, element))) {
            free(e->moved_to);
            e->moved_to = NULL;
            e->used = false;
            b->moved--;
        }
    }
}

char *baseline_relative(const char *dir, const char *file)
{
    size_t common = 0; /* the bytes of the segments both start with */
    for (size_t i = 0;; i++) {
        bool dir_end = dir[i] == '\0' || dir[i] == '/',
             file_end = file[i] == '\0' || file[i] == '/';
        if (dir_end && file_end)
            common = i;
        if (dir[i] != file[i] || dir[i] == '\0')
            break;
    }
    if (strcmp(dir, "/") == 0)
        common = 0;
    size_t ups = 0;
    for (const char *c = dir + common; *c != '\0'; c++)
        ups += *c == '/';
    const char *rest = file + common + (file[common] == '/');
    char *out = malloc(ups * 3 + strlen(rest) + 2);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    for (size_t i = 0; i < ups; i++, len += 3)
        memcpy(out + len, "../", 3);
    strcpy(out + len, rest);
    return out;
}
