/* arena: bump allocation in growing blocks, freed all at once. */
#include "arena.h"

#include <stdarg.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN_BLOCK (16u * 1024u)

struct arena_block {
    struct arena_block *next;
    size_t used;
    size_t size;
    alignas(max_align_t) unsigned char data[];
};

void arena_init(struct arena *arena)
{
    arena->head = NULL;
    arena->total = 0;
    arena->failed = false;
}

void arena_free(struct arena *arena)
{
    struct arena_block *block = arena->head;
    while (block != NULL) {
        struct arena_block *next = block->next;
        free(block);
        block = next;
    }
    arena_init(arena);
}

void *arena_alloc(struct arena *arena, size_t size)
{
    const size_t align = alignof(max_align_t);
    size = (size + align - 1) & ~(align - 1);
    if (size == 0)
        size = align;

    struct arena_block *block = arena->head;
    if (block == NULL || block->size - block->used < size) {
        size_t want = ARENA_MIN_BLOCK;
        if (block != NULL && block->size * 2 > want)
            want = block->size * 2 > (64u << 20) ? (64u << 20) : block->size * 2;
        if (want < size)
            want = size;
        struct arena_block *fresh = want > SIZE_MAX - sizeof(struct arena_block)
                                        ? NULL
                                        : malloc(sizeof(struct arena_block) + want);
        if (fresh == NULL) {
            arena->failed = true;
            return NULL;
        }
        fresh->used = 0;
        fresh->size = want;
        fresh->next = block;
        arena->head = fresh;
        block = fresh;
    }
    void *out = block->data + block->used;
    block->used += size;
    arena->total += size;
    return out;
}

void *arena_copy_array(struct arena *arena, const void *items, size_t count, size_t capacity,
                       size_t item_size)
{
    if (item_size > 0 && capacity > SIZE_MAX / item_size) {
        arena->failed = true;
        return NULL;
    }
    void *out = arena_alloc(arena, capacity * item_size);
    if (out != NULL && count > 0)
        memcpy(out, items, count * item_size);
    return out;
}

char *arena_strndup(struct arena *arena, const char *text, size_t len)
{
    char *out = arena_alloc(arena, len + 1);
    if (out == NULL)
        return NULL;
    if (len > 0)
        memcpy(out, text, len);
    out[len] = '\0';
    return out;
}

char *arena_printf(struct arena *arena, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int needed = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (needed < 0)
        return NULL;
    char *out = arena_alloc(arena, (size_t)needed + 1);
    if (out == NULL)
        return NULL;
    va_start(args, format);
    vsnprintf(out, (size_t)needed + 1, format, args);
    va_end(args);
    return out;
}
