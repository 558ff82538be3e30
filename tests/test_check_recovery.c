/* test_check_recovery: what `srcls --check` (the real binary, $SRCLS_BINARY) prints for
 * documents the parser has to recover from or refuse, in every output format: a string after
 * a secret's value with no ',' between (it may be the rest of the secret, so no output quotes
 * it), and files in UTF-16 or UTF-32 (one error that names the encoding, no cascade). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const formats[] = {"text", "json", "sarif", "github"};

/* Writes `len` bytes (NULs among them) to the scratch file `name`. */
static void write_bytes(const char *name, const char *bytes, size_t len)
{
    FILE *f = fopen(name, "wb"); /* the scratch directory is the current one */
    if (f == NULL)
        fail_msg("cannot write %s: %s", name, strerror(errno));
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    fclose(f);
}

static int count_occurrences(const char *text, const char *part)
{
    int n = 0;
    for (const char *at = strstr(text, part); at != NULL; at = strstr(at + 1, part))
        n++;
    return n;
}

/* ---- a string after a secret's value ---- */

/* ZZVALUE stands for the rest of a secret (SARIF's rule help already names the placeholder
 * $SERVICE_EXISTING_VALUE$, so the marker is not plain VALUE). */
static void test_no_format_quotes_a_string_after_a_secret_value(void **state)
{
    (void)state;
    static const char *const documents[] = {
        "{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\" \"ZZVALUE\"}}\n",
        "{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\" \"ZZVALUE\": 1}}\n",
        "{\"type\": \"RELATIONAL_DB\",\n \"config\": {\n  \"password\": \"data:,a\"\n  "
        "\"ZZVALUE\"\n "
        "}\n}\n",
        "{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"ZZVALUE\": 1}}\n",
        "{\"config\": {\"hostname\": \"h\", \"password\": \"data:,a\" \"ZZVALUE\"}}\n",
        "[{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\" \"ZZVALUE\"}}]\n",
        ("{\"type\": \"RELATIONAL_DB\", \"config\": {\"password\": \"data:,a\"ZZVALUE\", \"port\": "
         "1}}\n"),
    };
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
        write_bytes("leak.source.json", documents[i], strlen(documents[i]));
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            struct run r = run_srcls(NULL, (const char *[]){"--check", "--format", formats[f],
                                                            "leak.source.json", NULL});
            if (r.exit_status != 1)
                fail_msg("document %zu, --format %s: exit %d, expected 1\n%s%s", i, formats[f],
                         r.exit_status, r.out, r.err);
            if (strstr(r.out, "json-syntax") == NULL)
                fail_msg("document %zu, --format %s: no json-syntax in:\n%s", i, formats[f], r.out);
            if (strstr(r.out, "ZZVALUE") != NULL || strstr(r.err, "ZZVALUE") != NULL)
                fail_msg("document %zu, --format %s quotes the string after the secret:\n%s%s", i,
                         formats[f], r.out, r.err);
            run_free(&r);
        }
    }
}

/* ---- encodings ---- */

static void test_utf16_and_utf32_files_get_one_error_naming_the_encoding(void **state)
{
    (void)state;
    static const char document[] = "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {}}\n";
    static const struct {
        size_t unit;
        bool big_endian, bom;
        const char *encoding;
    } files[] = {
        {2, false, true, "UTF-16LE"},  {2, true, true, "UTF-16BE"},  {2, false, false, "UTF-16LE"},
        {2, true, false, "UTF-16BE"},  {4, false, true, "UTF-32LE"}, {4, true, true, "UTF-32BE"},
        {4, false, false, "UTF-32LE"}, {4, true, false, "UTF-32BE"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char bytes[4 * sizeof document];
        size_t len = encode_wide(document, files[i].unit, files[i].big_endian, files[i].bom, bytes);
        write_bytes("wide.source.json", bytes, len);
        char convert[128];
        snprintf(convert, sizeof convert, "iconv -f %s -t UTF-8", files[i].encoding);
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            struct run r = run_srcls(NULL, (const char *[]){"--check", "--format", formats[f],
                                                            "wide.source.json", NULL});
            if (r.exit_status != 1)
                fail_msg("%s, --format %s: exit %d, expected 1\n%s%s", files[i].encoding,
                         formats[f], r.exit_status, r.out, r.err);
            /* One diagnostic (SARIF also names the code among its rules, so count messages). */
            int messages = count_occurrences(r.out, "must be UTF-8 (RFC 8259, section 8.1)");
            if (messages != 1 || strstr(r.out, convert) == NULL)
                fail_msg("%s, --format %s: expected one error naming the encoding, got:\n%s",
                         files[i].encoding, formats[f], r.out);
            assert_null(strstr(r.out, "unexpected character"));
            if (strcmp(formats[f], "sarif") != 0) /* SARIF lists every rule */
                assert_null(strstr(r.out, "unknown-document"));
            run_free(&r);
        }
        struct run r = run_srcls(NULL, (const char *[]){"--check", "wide.source.json", NULL});
        if (strstr(r.out, "checked 1 file: 1 error, 0 warnings, 0 information, 0 hints") == NULL)
            fail_msg("%s: expected exactly one error in:\n%s", files[i].encoding, r.out);
        char line[512];
        snprintf(line, sizeof line,
                 "wide.source.json:1:1: error: the document is %s (judging by its %s), but "
                 "JSON must be UTF-8 (RFC 8259, section 8.1): convert it, for example with %s "
                 "[json-syntax]\n",
                 files[i].encoding, files[i].bom ? "byte order mark" : "zero bytes", convert);
        if (strstr(r.out, line) == NULL)
            fail_msg("expected the line\n%sin:\n%s", line, r.out);
        run_free(&r);
    }
}

/* ---- fixture ---- */

static int setup(void **state)
{
    (void)state;
    return scratch_create("recovery");
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_format_quotes_a_string_after_a_secret_value),
        cmocka_unit_test(test_utf16_and_utf32_files_get_one_error_naming_the_encoding),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
