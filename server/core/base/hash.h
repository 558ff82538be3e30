/* hash: FNV-1a — the one hash of srcls: 64 bits, and 32 for a table's slot. Some of its values
 * are contracts and must never change: GitLab Code Quality fingerprints (GitLab tracks a finding
 * by them) and the value hashes of baseline files (users commit them); the others key tables in
 * memory. A hash runs in steps: start from HASH_START, feed bytes, keep feeding the state
 * returned. */
#ifndef SRCLS_HASH_H
#define SRCLS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The state before any byte (FNV-1a's offset basis), and FNV-1a's prime. */
#define HASH_START 0xcbf29ce484222325u
#define HASH_PRIME 0x100000001b3u

/* Defined here, inline: the parser hashes every key of a large object. */

/* The state after `len` more bytes of `bytes` from `state`. */
static inline uint64_t hash_bytes(uint64_t state, const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < len; i++)
        state = (state ^ b[i]) * HASH_PRIME;
    return state;
}
/* As hash_bytes, with the ASCII letters of `bytes` taken in lower case (names compared without
 * case: "Lake" and "lake" hash alike). */
static inline uint64_t hash_bytes_lower(uint64_t state, const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = b[i] >= 'A' && b[i] <= 'Z' ? (unsigned char)(b[i] - 'A' + 'a') : b[i];
        state = (state ^ c) * HASH_PRIME;
    }
    return state;
}
/* A table's slot hash of `len` bytes: FNV-1a in 32 bits, which a table's power-of-two mask reads
 * as well as the 64 (the folded 64 cost the parser's duplicate-key table 2% more instructions,
 * in more probes, on bench_parse's bulk file). */
static inline uint32_t hash_slot(const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

#endif
