/* base: the lowest layer of the core — memory, and the one hash. The entry header of
 * server/core/base/, the one header the layers above include. */
#ifndef SRCLS_BASE_LAYER_H
#define SRCLS_BASE_LAYER_H

#include "arena.h"
#include "hash.h"
#include "text_buffer.h"
#include "vector.h"

#endif
