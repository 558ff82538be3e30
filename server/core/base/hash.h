/* hash: FNV-1a, 64 bits — the one hash of srcls. Some of its values are contracts and must
 * never change: GitLab Code Quality fingerprints (GitLab tracks a finding by them) and the value
 * hashes of baseline files (users commit them); the others key tables in memory. A hash runs
 * in steps: start from HASH_START, feed bytes, and keep feeding the state returned. */
#ifndef SRCLS_HASH_H
#define SRCLS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The state before any byte (FNV-1a's offset basis). */
#define HASH_START 0xcbf29ce484222325u

/* The state after `len` more bytes of `bytes` from `state`. */
uint64_t hash_bytes(uint64_t state, const void *bytes, size_t len);
/* As hash_bytes, with the ASCII letters of `bytes` taken in lower case (names compared without
 * case: "Lake" and "lake" hash alike). */
uint64_t hash_bytes_lower(uint64_t state, const void *bytes, size_t len);
/* A table's slot hash of `len` bytes: their hash with its two halves folded together, so that
 * a power-of-two mask of it reads all 64 bits. */
uint32_t hash_slot(const void *bytes, size_t len);

#endif
