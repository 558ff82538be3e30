/* test_hash: the one hash (server/core/base/hash.c) is FNV-1a, 64 bits, to the bit: baseline
 * files and GitLab fingerprints that users keep were written with it (test_cli_baseline and
 * test_cli_reports hold those bytes end to end). Its published test vectors, a hash continued
 * from a state, names without case; and a table's slot hash (in memory only), which reads every
 * byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/base.h"

static uint64_t of(const char *text)
{
    return hash_bytes(HASH_START, text, strlen(text));
}

static void test_fnv1a_64_test_vectors(void **state)
{
    (void)state;
    assert_true(of("") == UINT64_C(0xcbf29ce484222325));
    assert_true(of("a") == UINT64_C(0xaf63dc4c8601ec8c));
    assert_true(of("foobar") == UINT64_C(0x85944171f73967e8));
}

static void test_a_hash_continues_from_its_state(void **state)
{
    (void)state;
    assert_true(hash_bytes(of("foo"), "bar", 3) == of("foobar"));
    assert_true(hash_bytes(of("foobar"), "", 0) == of("foobar"));
    assert_true(hash_bytes(HASH_START, "a\0b", 3) != of("ab")); /* every byte counts, NUL too */
}

static void test_lower_case_takes_ascii_letters_alike(void **state)
{
    (void)state;
    assert_true(hash_bytes_lower(HASH_START, "Lake-EU_1", 9) == of("lake-eu_1"));
    assert_true(hash_bytes_lower(HASH_START, "lake", 4) == of("lake"));
    /* only A-Z: "\xc3\x89" (É) is not "\xc3\xa9" (é), and '@' (before 'A') stays itself */
    assert_true(hash_bytes_lower(HASH_START, "\xc3\x89", 2) == of("\xc3\x89"));
    assert_true(hash_bytes_lower(HASH_START, "@[", 2) == of("@["));
}

/* Keys that share their first and last eight bytes, as generated keys do, still spread over a
 * table's slots: the slot hash reads every byte, and the length. */
static void test_a_slot_reads_every_byte(void **state)
{
    (void)state;
    enum { KEYS = 1000, SLOTS = 1024 };
    static unsigned char used[SLOTS];
    uint32_t distinct = 0;
    for (int i = 0; i < KEYS; i++) {
        char key[32];
        int len = snprintf(key, sizeof key, "settings%04dsettings", i);
        uint32_t slot = hash_slot(key, (size_t)len) & (SLOTS - 1);
        distinct += !used[slot];
        used[slot] = 1;
    }
    /* uniform hashing fills about 1024 * (1 - e^(-1000/1024)) = 640 slots */
    assert_true(distinct > 560);
    assert_int_not_equal(hash_slot("a", 1), hash_slot("\0a", 2));
    assert_int_not_equal(hash_slot("", 0), hash_slot("\0", 1));
    assert_int_equal(hash_slot("foobar", 6), hash_slot("foobar", 6));
}

/* The case-folded slot hash: equal exactly for texts equal but for ASCII case, in the eight-byte
 * words and in the bytes after them; other bytes are left alone. */
static void test_a_folded_slot_takes_ascii_letters_alike(void **state)
{
    (void)state;
    for (unsigned c = 0; c < 256; c++) {
        for (size_t len = 1; len <= 17; len += 8) { /* c in a word, and in the tail */
            unsigned char text[17], folded[17];
            memset(text, 'q', sizeof text);
            text[len - 1] = (unsigned char)c;
            memcpy(folded, text, sizeof text);
            if (c >= 'A' && c <= 'Z')
                folded[len - 1] = (unsigned char)(c - 'A' + 'a');
            assert_int_equal(hash_slot_lower(text, len), hash_slot_lower(folded, len));
            assert_int_equal(hash_slot_lower(folded, len), hash_slot(folded, len));
        }
    }
    assert_int_equal(hash_slot_lower("Lake-Sales-EU", 13), hash_slot_lower("lake-sales-eu", 13));
    assert_int_not_equal(hash_slot_lower("lake-sales-eu", 13),
                         hash_slot_lower("lake-sales-us", 13));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fnv1a_64_test_vectors),
        cmocka_unit_test(test_a_hash_continues_from_its_state),
        cmocka_unit_test(test_lower_case_takes_ascii_letters_alike),
        cmocka_unit_test(test_a_slot_reads_every_byte),
        cmocka_unit_test(test_a_folded_slot_takes_ascii_letters_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
