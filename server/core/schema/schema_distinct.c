/* schema_distinct: what must be unique among the files loaded — a kind's or a group's file
 * name (what "extends" and "include" name), a kind's number, a type identifier — checked by
 * sorting, so that loading many files of a team's own costs n log n, not n squared; and the
 * lookup of a file by name that "extends" and "include" use. When a value is repeated, the later
 * file is the one named, with the earliest other file that has it (a kind and the kind it
 * replaces share their number and identifiers). */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

struct schema_key {
    int group;        /* what the key is of: a file's role, or 0 */
    const char *text; /* NULL: `number` is the key */
    size_t len;
    long number;
    size_t file;     /* index in l->files */
    uint32_t member; /* which type identifier of the file, for the error's place */
};

static int compare_keys(const void *a, const void *b)
{
    const struct schema_key *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->text == NULL && x->number != y->number)
        return x->number < y->number ? -1 : 1;
    if (x->text != NULL) {
        size_t n = x->len < y->len ? x->len : y->len;
        int c = memcmp(x->text, y->text, n);
        if (c != 0 || x->len != y->len)
            return c != 0 ? c : x->len < y->len ? -1 : 1;
    }
    return (x->file > y->file) - (x->file < y->file);
}

/* Whether two files may share a key: a kind and the kind it replaces. */
static bool related(const struct schema_loader *l, size_t a, size_t b)
{
    return l->files[a].replaces == &l->files[b] || l->files[b].replaces == &l->files[a];
}

/* In `keys` (sorted), the repeated key whose later file comes first: `*later` and `*earlier`
 * (indexes in `keys`); false when every key is distinct. */
static bool first_repeat(const struct schema_loader *l, const struct schema_key *keys, size_t count,
                         size_t *later, size_t *earlier)
{
    bool found = false;
    for (size_t start = 0, end; start < count; start = end) {
        for (end = start + 1; end < count; end++) {
            struct schema_key a = keys[start], b = keys[end];
            a.file = b.file = 0;
            if (compare_keys(&a, &b) != 0)
                break;
        }
        for (size_t x = start + 1; x < end; x++) { /* each later file, with its earliest other */
            for (size_t y = start; y < x; y++) {
                if (keys[y].file == keys[x].file || related(l, keys[x].file, keys[y].file))
                    continue;
                if (!found || keys[x].file < keys[*later].file) {
                    *later = x;
                    *earlier = y;
                    found = true;
                }
                break;
            }
        }
    }
    return found;
}

static const char *shown_prefix(const struct schema_loaded_file *f)
{
    return f->file->custom ? "" : "schema/";
}

void schema__check_names_distinct(struct schema_loader *l)
{
    struct schema_key *keys = calloc(l->count + 1, sizeof *keys);
    if (keys == NULL) {
        l->failed = true;
        return;
    }
    size_t count = 0;
    for (size_t i = 0; i < l->count; i++) {
        const struct schema_loaded_file *f = &l->files[i];
        if (f->role == SCHEMA_FILE_KIND || f->role == SCHEMA_FILE_GROUP)
            keys[count++] = (struct schema_key){(int)f->role, f->stem, strlen(f->stem), 0, i, 0};
    }
    qsort(keys, count, sizeof *keys, compare_keys);
    size_t later, earlier;
    if (first_repeat(l, keys, count, &later, &earlier)) {
        struct schema_loaded_file *f = &l->files[keys[later].file];
        const struct schema_loaded_file *e = &l->files[keys[earlier].file];
        l->current = f->file->name;
        uint32_t group = json_object_get(&f->doc, f->doc.root, JSON_LITERAL("group"));
        if (f->role == SCHEMA_FILE_GROUP && group != JSON_NONE)
            schema__fail(l, &f->doc, group, "a group of that name is already %s%s", shown_prefix(e),
                         e->file->name);
        else
            schema__fail_file(l, "a %s file of that name is already %s%s",
                              f->role == SCHEMA_FILE_GROUP ? "group" : "kind", shown_prefix(e),
                              e->file->name);
    }
    l->names = keys; /* sorted: schema__file_by_name looks names up in it */
    l->name_count = count;
}

struct schema_loaded_file *schema__file_by_name(struct schema_loader *l, int role, const char *stem,
                                                size_t len)
{
    size_t low = 0, high = l->name_count;
    struct schema_key wanted = {role, stem, len, 0, 0, 0};
    while (low < high) { /* the first key not before `wanted` (file 0 sorts first) */
        size_t mid = low + (high - low) / 2;
        if (compare_keys(&l->names[mid], &wanted) < 0)
            low = mid + 1;
        else
            high = mid;
    }
    if (low == l->name_count)
        return NULL;
    const struct schema_key *k = &l->names[low];
    if (k->group != role || k->len != len || memcmp(k->text, stem, len) != 0)
        return NULL;
    return &l->files[k->file];
}

/* Fails on the member `key` of the file's object, or on the object when it has none. */
static uint32_t member_or_root(struct json_doc *doc, const char *key, uint32_t index)
{
    uint32_t node = json_object_get(doc, doc->root, key, strlen(key));
    if (node != JSON_NONE && index != JSON_NONE)
        node = json_array_get(doc, node, index);
    return node != JSON_NONE ? node : doc->root;
}

void schema__check_kinds_distinct(struct schema_loader *l)
{
    if (l->failed) /* a kind may be half built */
        return;
    size_t count = 0, types = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (l->files[i].role == SCHEMA_FILE_KIND && !l->files[i].broken) {
            count++;
            types += l->files[i].kind->type_count;
        }
    }
    struct schema_key *numbers = calloc(count + 1, sizeof *numbers);
    struct schema_key *ids = calloc(types + 1, sizeof *ids);
    if (numbers == NULL || ids == NULL) {
        free(numbers);
        free(ids);
        l->failed = true;
        return;
    }
    size_t n = 0, t = 0;
    for (size_t i = 0; i < l->count; i++) {
        const struct schema_kind *kind = l->files[i].kind;
        if (l->files[i].role != SCHEMA_FILE_KIND || l->files[i].broken)
            continue;
        numbers[n++] = (struct schema_key){0, NULL, 0, kind->number, i, 0};
        for (uint32_t u = 0; u < kind->type_count; u++)
            ids[t++] = (struct schema_key){0, kind->types[u], strlen(kind->types[u]), 0, i, u};
    }
    qsort(numbers, n, sizeof *numbers, compare_keys);
    qsort(ids, t, sizeof *ids, compare_keys);
    size_t nl, ne, tl, te;
    bool number = first_repeat(l, numbers, n, &nl, &ne);
    bool id = first_repeat(l, ids, t, &tl, &te);
    /* the file met first in the files' order fails; a number before an identifier */
    if (number && (!id || numbers[nl].file <= ids[tl].file)) {
        struct schema_loaded_file *f = &l->files[numbers[nl].file];
        const struct schema_loaded_file *e = &l->files[numbers[ne].file];
        l->current = f->file->name;
        schema__fail(l, &f->doc, member_or_root(&f->doc, "kind", JSON_NONE), "kind %d is also %s%s",
                     f->kind->number, shown_prefix(e), e->file->name);
    } else if (id) {
        struct schema_loaded_file *f = &l->files[ids[tl].file];
        const struct schema_loaded_file *e = &l->files[ids[te].file];
        l->current = f->file->name;
        schema__fail(l, &f->doc, member_or_root(&f->doc, "types", ids[tl].member),
                     "the type identifier is also one of %s%s", shown_prefix(e), e->file->name);
    }
    free(numbers);
    free(ids);
}
