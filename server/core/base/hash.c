/* hash: FNV-1a, 64 bits (see hash.h). */
#include "hash.h"

#define HASH_PRIME 0x100000001b3u

uint64_t hash_bytes(uint64_t state, const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < len; i++)
        state = (state ^ b[i]) * HASH_PRIME;
    return state;
}

uint64_t hash_bytes_lower(uint64_t state, const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = b[i] >= 'A' && b[i] <= 'Z' ? (unsigned char)(b[i] - 'A' + 'a') : b[i];
        state = (state ^ c) * HASH_PRIME;
    }
    return state;
}

uint32_t hash_slot(const void *bytes, size_t len)
{
    uint64_t h = hash_bytes(HASH_START, bytes, len);
    return (uint32_t)(h ^ (h >> 32));
}
