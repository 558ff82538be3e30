/* check_visited: what a `--check` walk visits — the names of a directory, in name order, and the
 * files and directories already visited, by device and inode: an open-addressing hash set that
 * stays at most half full. */
#define _DEFAULT_SOURCE /* d_type and DT_REG, DT_DIR (glibc hides them under strict POSIX) */
#include "check_visited.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "walk/walk.h"

/* The first table: a power of two, as visited_slot needs. */
#define CHECK_VISITED_FIRST_SLOTS 256

static size_t hash_id(dev_t dev, ino_t ino)
{
    uint64_t h = ((uint64_t)dev * 0x9E3779B97F4A7C15u) ^ (uint64_t)ino;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 32;
    return (size_t)h;
}

static struct file_id *visited_slot(struct file_id *slots, size_t cap, dev_t dev, ino_t ino)
{
    size_t i = hash_id(dev, ino) & (cap - 1);
    while (slots[i].used && (slots[i].dev != dev || slots[i].ino != ino))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* Makes room for one more file, so that the next visited_add cannot fail; -1 when memory ran
 * out. The table stays at most half full. */
int visited_reserve(struct visited *v)
{
    if (2 * (v->count + 1) <= v->cap)
        return 0;
    size_t cap = v->cap ? v->cap * 2 : CHECK_VISITED_FIRST_SLOTS;
    struct file_id *slots = vector_zeroed(cap, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (size_t i = 0; i < v->cap; i++) {
        if (v->slots[i].used)
            *visited_slot(slots, cap, v->slots[i].dev, v->slots[i].ino) = v->slots[i];
    }
    free(v->slots);
    v->slots = slots;
    v->cap = cap;
    return 0;
}

/* Records the file of `st` in a set that has room for it (visited_reserve); false when it was
 * there already. */
bool visited_insert(struct visited *v, const struct stat *st)
{
    struct file_id *slot = visited_slot(v->slots, v->cap, st->st_dev, st->st_ino);
    if (slot->used)
        return false;
    *slot = (struct file_id){.dev = st->st_dev, .ino = st->st_ino, .used = true};
    v->count++;
    return true;
}

/* Records the file of `st`. Returns 1 when it is new, 0 when it was already visited, -1 when
 * memory ran out. */
int visited_add(struct visited *v, const struct stat *st)
{
    if (visited_reserve(v) != 0)
        return -1;
    return visited_insert(v, st) ? 1 : 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(((const struct visited_name *)a)->name, ((const struct visited_name *)b)->name);
}

static enum visited_type type_of(const struct dirent *entry)
{
#ifdef DT_REG
    return entry->d_type == DT_REG   ? VISITED_FILE
           : entry->d_type == DT_DIR ? VISITED_DIRECTORY
                                     : VISITED_UNKNOWN;
#else
    (void)entry;
    return VISITED_UNKNOWN;
#endif
}

/* Reads the names of `dir` that a scan visits, skipping hidden entries (among them srcls's own
 * temporary files) and node_modules, into `*names` (malloc'd strings in a malloc'd array, which
 * the caller frees) in name order. Returns 0, or an errno value (ENOMEM, or readdir's) with the
 * names read before it. */
int visited_list_names(DIR *dir, struct visited_name **names, size_t *count)
{
    size_t cap = 0;
    int error = 0;
    *names = NULL;
    *count = 0;
    for (;;) {
        errno = 0;
        struct dirent *entry = readdir(dir);
        if (entry == NULL) {
            error = errno;
            break;
        }
        const char *name = entry->d_name;
        if (walk_skips_name(name))
            continue;
        struct visited_name *grown = vector_grow(*names, &cap, *count + 1, sizeof *grown);
        if (grown != NULL)
            *names = grown;
        char *copy = grown != NULL ? strdup(name) : NULL;
        if (copy == NULL) {
            error = ENOMEM;
            break;
        }
        (*names)[(*count)++] = (struct visited_name){copy, type_of(entry)};
    }
    if (*count > 1)
        qsort(*names, *count, sizeof **names, compare_names);
    return error;
}
