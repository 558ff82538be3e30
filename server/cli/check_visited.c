/* check_visited: the files and directories a `--check` walk has visited, by device and inode:
 * an open-addressing hash set that stays at most half full. */
#include "check_visited.h"

#include <stdint.h>
#include <stdlib.h>

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
    struct file_id *slots = calloc(cap, sizeof *slots);
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
