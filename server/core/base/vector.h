/* vector: growing a heap array. Every hand-grown array of srcls (lists of diagnostics and fixes,
 * line starts, byte buffers, the server's message queue) grows through vector_grow, so the
 * doubling and the check that the byte size fits in a size_t are written once. The caller keeps
 * its own pointer, count and capacity; this only makes room. */
#ifndef SRCLS_VECTOR_H
#define SRCLS_VECTOR_H

#include <stddef.h>

/* The capacity, in items, of an array's first allocation. */
#define VECTOR_MIN_CAPACITY 16

/* Makes room for at least `needed` items of `item_size` bytes in `items`, a malloc'd array of
 * `*capacity` items (NULL with a capacity of 0 before the first call). Returns the array, moved
 * as realloc may move it, with `*capacity` set to the new capacity: the larger of `needed` and
 * twice the old capacity (at least VECTOR_MIN_CAPACITY), so that n appends cost O(n). Returns
 * `items` unchanged when it holds `needed` items already. Returns NULL when memory runs out or
 * `needed` items would be more bytes than a size_t counts; then `items` and `*capacity` are
 * unchanged and `items` still belongs to the caller. */
void *vector_grow(void *items, size_t *capacity, size_t needed, size_t item_size);

/* A malloc'd array of `count` items of `size` bytes, every byte zero (NULL when memory runs out
 * or the bytes overflow a size_t), for a hash table that is probed before it is written. calloc
 * hands over fresh pages unwritten: the first probe maps the shared zero page, and the write
 * that follows must then flush that mapping from the TLB of every core the process runs on (an
 * interprocessor interrupt per page, costly in a virtual machine). Written zeros make each page
 * the process's own at its first touch. */
void *vector_zeroed(size_t count, size_t size);

/* A malloc'd copy of the string `text` (what POSIX's strdup does, in ISO C: the core calls no
 * POSIX function), or NULL when memory runs out. */
char *vector_copy_string(const char *text);

#endif
