/* json_string: UTF-8 validation and JSON string decoding, shared by the parser and accessors. */
#ifndef SRCLS_JSON_STRING_H
#define SRCLS_JSON_STRING_H

#include <stddef.h>
#include <stdint.h>

/* The value of a hex digit, or -1. */
int json_hex_value(unsigned char c);
/* The length (2..4) of the well-formed UTF-8 sequence that starts `s` (whose first byte is
 * >= 0x80), or 0 when it is not well-formed: overlong forms, surrogates and code points above
 * U+10FFFF are rejected. */
uint32_t json_utf8_sequence_length(const unsigned char *s, size_t avail);
/* Decodes the body of a JSON string (between the quotes, escapes included) into `out`, which
 * must hold `len` bytes (decoding never grows the text). Lone surrogates become U+FFFD.
 * Returns the decoded length. */
size_t json_string_decode(const char *body, size_t len, char *out);

#endif
