/* value_format: the string formats a schema field can require (enum schema_format) — what a
 * valid value looks like, and how a message says it. */
#ifndef SRCLS_VALUE_FORMAT_H
#define SRCLS_VALUE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "schema.h"

/* The length of a timestamp: YYYY-MM-DDTHH:MM:SS.mmmZ. */
#define VALUE_FORMAT_TIMESTAMP_LENGTH 24
#define VALUE_FORMAT_PORT_MIN 1
#define VALUE_FORMAT_PORT_MAX 65535

/* Whether the string `text` has `format` (uuid, timestamp, namespace, email). A port is
 * checked with value_format_port_string; SCHEMA_FORMAT_NONE and SCHEMA_FORMAT_PORT are true. */
bool value_format_valid(enum schema_format format, const char *text, size_t len);

/* A port written as a string: false when it is not all digits; else its number in `*value`
 * (which stops growing past a billion, far above any port). */
bool value_format_port_string(const char *text, size_t len, double *value);
bool value_format_port_in_range(double value);

/* An ECMA-262 regular expression (as JSON Schema's "pattern" takes) that matches exactly the
 * strings value_format_valid accepts for `format` (for a port: the strings of digits from 1 to
 * 65535); NULL for SCHEMA_FORMAT_NONE. Kept beside the checks so that the two agree. */
const char *value_format_pattern(enum schema_format format);

/* What a value of `format` looks like, for "must be ..." messages. */
const char *value_format_expectation(enum schema_format format);

#endif
