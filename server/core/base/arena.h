/* arena: a bump allocator that owns everything of one document (its tree, decoded strings,
 * diagnostics) so that a re-parse or a close frees it all at once. */
#ifndef SRCLS_ARENA_H
#define SRCLS_ARENA_H

#include <stdbool.h>
#include <stddef.h>

struct arena_block;

struct arena {
    struct arena_block *head;
    size_t total; /* bytes handed out, for limits and tests */
    bool failed;  /* an allocation returned NULL: what was built from the arena may lack parts */
};

void arena_init(struct arena *arena);
/* Frees every block; the arena can be used again afterwards. */
void arena_free(struct arena *arena);
/* Returns `size` bytes aligned for any type, owned by the arena; NULL only when out of memory. */
void *arena_alloc(struct arena *arena, size_t size);
/* A new array of `capacity` items of `item_size` bytes in the arena, its first `count` items
 * (at most `capacity`) copied from `items` (NULL when `count` is 0): how an array in the arena
 * grows or is copied before a change (the old one lives until the arena is freed). The items
 * after `count` are not set. NULL when out of memory or when the size overflows a size_t. */
void *arena_copy_array(struct arena *arena, const void *items, size_t count, size_t capacity,
                       size_t item_size);
/* Copies `len` bytes into the arena and adds a NUL; NULL when out of memory. */
char *arena_strndup(struct arena *arena, const char *text, size_t len);
/* printf into the arena; NULL when out of memory. */
char *arena_printf(struct arena *arena, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif
