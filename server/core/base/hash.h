/* hash: FNV-1a — the one hash of srcls: 64 bits (and hash_slot, a table's slot). Some of its
 * values are contracts and must never change: GitLab Code Quality fingerprints (GitLab tracks a
 * finding by them) and the value hashes of baseline files (users commit them); the others key
 * tables in memory. A hash runs in steps: start from HASH_START, feed bytes, keep feeding the
 * state returned. */
#ifndef SRCLS_HASH_H
#define SRCLS_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
/* `word` with its ASCII capitals in lower case, eight bytes at once: a byte whose low seven bits
 * are at least 'A' and at most 'Z', and whose top bit is clear, gains 0x20. */
static inline uint64_t hash__lower(uint64_t word)
{
    const uint64_t ones = 0x0101010101010101u, low7 = 0x7F7F7F7F7F7F7F7Fu;
    uint64_t heptets = word & low7;
    uint64_t from_a = heptets + ones * (0x80 - 'A'), past_z = heptets + ones * (0x80 - 'Z' - 1);
    return word | ((from_a & ~past_z & ~word & (ones * 0x80)) >> 2);
}

static inline uint32_t hash__slot(const unsigned char *b, size_t len, int fold)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len, word;
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        memcpy(&word, b + i, sizeof word); /* a load in the host's order */
        h = (h ^ (fold ? hash__lower(word) : word)) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    for (word = 0; i < len; i++) /* the last bytes shifted in one by one */
        word = word << 8 | b[i];
    h = (h ^ (fold ? hash__lower(word) : word)) * 0xff51afd7ed558ccdu;
    return (uint32_t)(h ^ (h >> 32));
}

/* A table's slot hash of `len` bytes, eight at a time: each word is mixed in by a multiply and
 * its high half folded into the low (which a table's power-of-two mask reads). Every byte
 * counts, so keys that share a head and a tail still spread. For tables in memory only: its
 * values differ between byte orders. (FNV-1a byte by byte cost the parser's duplicate-key check
 * 35.8 M of its 93.2 M instructions on the clean 22 MB bulk file.) */
static inline uint32_t hash_slot(const void *bytes, size_t len)
{
    return hash__slot(bytes, len, 0);
}

/* As hash_slot, with the ASCII letters taken in lower case ("Lake" and "lake" share a slot). */
static inline uint32_t hash_slot_lower(const void *bytes, size_t len)
{
    return hash__slot(bytes, len, 1);
}

#endif
