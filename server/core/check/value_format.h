/* value_format: the string formats a schema field can require (enum schema_format) — what a
 * valid value looks like, and how a message says it. */
#ifndef SRCLS_VALUE_FORMAT_H
#define SRCLS_VALUE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "schema/schema.h"

/* The length of a timestamp: YYYY-MM-DDTHH:MM:SS.mmmZ. */
#define VALUE_FORMAT_TIMESTAMP_LENGTH 24
#define VALUE_FORMAT_PORT_MIN 1
#define VALUE_FORMAT_PORT_MAX 65535

/* What is wrong with a timestamp, so that a message can say which part. */
enum value_format_timestamp_fault {
    VALUE_FORMAT_TIMESTAMP_VALID,
    VALUE_FORMAT_TIMESTAMP_SHAPE, /* not YYYY-MM-DDTHH:MM:SS.mmmZ (digits where the d's are) */
    VALUE_FORMAT_TIMESTAMP_MONTH, /* month 00, or over 12 */
    VALUE_FORMAT_TIMESTAMP_DAY, /* a day its month does not have: 00, 2025-02-29, 2025-04-31, ... */
    VALUE_FORMAT_TIMESTAMP_HOUR,   /* 24 or more */
    VALUE_FORMAT_TIMESTAMP_MINUTE, /* 60 or more */
    VALUE_FORMAT_TIMESTAMP_SECOND, /* 61 or more, or 60 anywhere but 23:59:60 (a leap second ends a
                                      day) */
};

/* The numbers of a timestamp of the right shape (all 0 when the shape is wrong). */
struct value_format_timestamp {
    int year, month, day, hour, minute, second;
};

/* Checks the timestamp `text`: VALUE_FORMAT_TIMESTAMP_VALID, or its first fault in the order of the
 * enum;
 * `*parts` its numbers once the shape is right. */
enum value_format_timestamp_fault
value_format_timestamp_check(const char *text, size_t len, struct value_format_timestamp *parts);
/* The days of `month` (1-12) in `year` of the Gregorian calendar (0 for another month). */
int value_format_days_in_month(int year, int month);

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
