/* walk: the rules both doors' scans share (walk.h). */
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

bool walk_skips_name(const char *name)
{
    return name[0] == '.' || strcmp(name, "node_modules") == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t len = strlen(s), n = strlen(suffix);
    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

bool walk_wants_file(const char *name, bool included)
{
    return included || ends_with(name, ".json");
}

bool walk_glob_match(const char *const *globs, size_t count, const char *path)
{
    for (size_t i = 0; i < count; i++) {
        if (glob_match(globs[i], path))
            return true;
    }
    return false;
}

enum walk_scan walk_scan_entry(const struct settings *settings, const char *relative)
{
    if (settings_glob_match(&settings->exclude, relative))
        return WALK_SCAN_EXCLUDED;
    if (settings_glob_match(&settings->include, relative))
        return WALK_SCAN_INCLUDED;
    return WALK_SCAN_DEFAULT;
}

/* ---- what git ignores ---- */

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool walk_ignored_add(struct walk_ignored *set, const char *dir, const char *names, size_t len)
{
    size_t dir_len = strlen(dir);
    bool slash = dir_len > 0 && dir[dir_len - 1] == '/', complete = true;
    for (size_t at = 0; at < len;) {
        const char *end = memchr(names + at, '\0', len - at);
        size_t name_len = end != NULL ? (size_t)(end - (names + at)) : len - at;
        size_t keep = name_len > 0 && names[at + name_len - 1] == '/' ? name_len - 1 : name_len;
        char *path = malloc(dir_len + keep + 2);
        char **grown = path != NULL
                           ? vector_grow(set->paths, &set->cap, set->count + 1, sizeof *set->paths)
                           : NULL;
        if (grown != NULL) {
            set->paths = grown;
            /* joined as a scan joins a directory and an entry's name */
            snprintf(path, dir_len + keep + 2, "%s%s%.*s", dir, slash ? "" : "/", (int)keep,
                     names + at);
            set->paths[set->count++] = path;
        } else {
            free(path);
            complete = false;
        }
        at += name_len + 1;
    }
    if (set->count > 0) /* qsort's array may not be NULL, even empty */
        qsort(set->paths, set->count, sizeof *set->paths, compare_paths);
    return complete;
}

bool walk_ignored_has(const struct walk_ignored *set, const char *path)
{
    return set->count > 0 &&
           bsearch(&path, set->paths, set->count, sizeof *set->paths, compare_paths) != NULL;
}

void walk_ignored_free(struct walk_ignored *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->paths[i]);
    free(set->paths);
    *set = (struct walk_ignored){0};
}

/* ---- one file ---- */

int walk_check_file(struct analysis *out, const char *text, size_t len,
                    const struct walk_file *file, struct analysis_options *options, bool *ours)
{
    *ours = false;
    if (file->kind_schema != NULL) { /* a kind file, linted as one */
        if (project_kind_file_analyze(out, text, len, file->kind_file_name, file->kind_schema) != 0)
            return -1;
        *ours = true;
        return 0;
    }
    enum document_kind named = ends_with(file->path, ".source.json") ? DOCUMENT_SOURCE
                               : ends_with(file->path, ".job.json")  ? DOCUMENT_JOB
                                                                     : DOCUMENT_UNKNOWN;
    options->report_unknown_document = file->explicit;
    options->empty_is_error = file->explicit || named != DOCUMENT_UNKNOWN;
    options->empty_expected = named;
    if (analysis_run(out, text, len, options) != 0)
        return -1;
    *ours = file->explicit || out->document != DOCUMENT_UNKNOWN || named != DOCUMENT_UNKNOWN;
    return 0;
}

/* ---- the srcls.json of each directory ---- */

struct walk_dir_entry {
    char *dir; /* NULL: a free slot */
    void *value;
};

static size_t slot_of(const struct walk_dirs *dirs, const char *dir)
{
    size_t mask = dirs->cap - 1;
    size_t i = (size_t)hash_bytes(HASH_START, dir, strlen(dir)) & mask;
    while (dirs->slots[i].dir != NULL && strcmp(dirs->slots[i].dir, dir) != 0)
        i = (i + 1) & mask;
    return i;
}

bool walk_dirs_get(const struct walk_dirs *dirs, const char *dir, void **value)
{
    if (dirs->count == 0)
        return false;
    const struct walk_dir_entry *e = &dirs->slots[slot_of(dirs, dir)];
    if (e->dir == NULL)
        return false;
    *value = e->value;
    return true;
}

/* Doubles the table (from 64 slots); false when memory ran out. */
static bool dirs_grow(struct walk_dirs *dirs)
{
    size_t cap = dirs->cap == 0 ? 64 : dirs->cap * 2;
    if (cap > SIZE_MAX / sizeof(struct walk_dir_entry))
        return false;
    struct walk_dirs grown = {calloc(cap, sizeof(struct walk_dir_entry)), dirs->count, cap};
    if (grown.slots == NULL)
        return false;
    for (size_t i = 0; i < dirs->cap; i++) {
        if (dirs->slots[i].dir != NULL)
            grown.slots[slot_of(&grown, dirs->slots[i].dir)] = dirs->slots[i];
    }
    free(dirs->slots);
    *dirs = grown;
    return true;
}

bool walk_dirs_put(struct walk_dirs *dirs, const char *dir, void *value)
{
    if ((dirs->count + 1) * 2 > dirs->cap && !dirs_grow(dirs))
        return false;
    struct walk_dir_entry *e = &dirs->slots[slot_of(dirs, dir)];
    if (e->dir == NULL) {
        size_t n = strlen(dir) + 1;
        if ((e->dir = malloc(n)) == NULL)
            return false;
        memcpy(e->dir, dir, n);
        dirs->count++;
    }
    e->value = value;
    return true;
}

void walk_dirs_clear(struct walk_dirs *dirs)
{
    for (size_t i = 0; i < dirs->cap; i++)
        free(dirs->slots[i].dir);
    free(dirs->slots);
    *dirs = (struct walk_dirs){0};
}
