/* vector: one growth policy (doubling, overflow-checked) for every growable array; zeroed
 * tables. */
#include "vector.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *vector_grow(void *items, size_t *capacity, size_t needed, size_t item_size)
{
    if (items != NULL && needed <= *capacity)
        return items;
    if (item_size == 0 || needed > SIZE_MAX / item_size)
        return NULL;
    /* Doubling stops at the largest count whose byte size fits; `needed` is below it. */
    size_t max_items = SIZE_MAX / item_size;
    size_t grown = *capacity <= max_items / 2 ? 2 * *capacity : max_items;
    if (grown < VECTOR_MIN_CAPACITY)
        grown = VECTOR_MIN_CAPACITY < max_items ? VECTOR_MIN_CAPACITY : max_items;
    if (grown < needed)
        grown = needed;
    void *moved = realloc(items, grown * item_size);
    if (moved == NULL)
        return NULL;
    *capacity = grown;
    return moved;
}

void *vector_zeroed(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    void *items = malloc(count * size > 0 ? count * size : 1);
    if (items != NULL)
        memset(items, 0, count * size);
    return items;
}

char *vector_copy_string(const char *text)
{
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy != NULL)
        memcpy(copy, text, size);
    return copy;
}
