/* value_format: UUIDs, timestamps, ports, namespace names and email addresses. */
#include "value_format.h"

#include <string.h>

#define UUID_LENGTH 36
#define PORT_DIGITS_CAP 1e9 /* a port string is read no further than this */

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* 8-4-4-4-12 hexadecimal digits. */
static bool valid_uuid(const char *s, size_t len)
{
    if (len != UUID_LENGTH)
        return false;
    for (size_t i = 0; i < UUID_LENGTH; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_hex(s[i]))
            return false;
    }
    return true;
}

static int two_digits(const char *s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

/* YYYY-MM-DDTHH:MM:SS.mmmZ */
static bool valid_timestamp(const char *s, size_t len)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
    _Static_assert(sizeof shape - 1 == VALUE_FORMAT_TIMESTAMP_LENGTH, "the timestamp's shape");
    if (len != sizeof shape - 1)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
            return false;
    }
    int month = two_digits(s + 5), day = two_digits(s + 8);
    int hour = two_digits(s + 11), minute = two_digits(s + 14), second = two_digits(s + 17);
    /* second 60: a leap second */
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 &&
           second <= 60;
}

static bool valid_email(const char *s, size_t len)
{
    const char *at = memchr(s, '@', len);
    if (at == NULL || at == s || at == s + len - 1)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == ' ' || (s + i != at && s[i] == '@'))
            return false;
    }
    return memchr(at, '.', (size_t)(s + len - at)) != NULL;
}

static bool valid_namespace(const char *s, size_t len)
{
    return len > 0 && memchr(s, '.', len) == NULL && memchr(s, ' ', len) == NULL;
}

bool value_format_valid(enum schema_format format, const char *text, size_t len)
{
    switch (format) {
    case SCHEMA_FORMAT_UUID: return valid_uuid(text, len);
    case SCHEMA_FORMAT_TIMESTAMP: return valid_timestamp(text, len);
    case SCHEMA_FORMAT_NAMESPACE: return valid_namespace(text, len);
    case SCHEMA_FORMAT_EMAIL: return valid_email(text, len);
    case SCHEMA_FORMAT_PORT:
    case SCHEMA_FORMAT_NONE: break;
    }
    return true;
}

bool value_format_port_string(const char *text, size_t len, double *value)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
    }
    *value = 0;
    for (size_t i = 0; i < len && *value <= PORT_DIGITS_CAP; i++)
        *value = *value * 10 + (text[i] - '0');
    return true;
}

bool value_format_port_in_range(double value)
{
    return value >= VALUE_FORMAT_PORT_MIN && value <= VALUE_FORMAT_PORT_MAX;
}

const char *value_format_pattern(enum schema_format format)
{
    switch (format) {
    case SCHEMA_FORMAT_UUID:
        return "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$";
    case SCHEMA_FORMAT_TIMESTAMP:
        return "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
               "T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)\\.[0-9]{3}Z$";
    case SCHEMA_FORMAT_PORT:
        return "^0*([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|"
               "6553[0-5])$";
    case SCHEMA_FORMAT_NAMESPACE: return "^[^. ]+$";
    case SCHEMA_FORMAT_EMAIL: return "^[^@ ]+@[^@ ]*\\.[^@ ]*$";
    case SCHEMA_FORMAT_NONE: break;
    }
    return NULL;
}

const char *value_format_expectation(enum schema_format format)
{
    switch (format) {
    case SCHEMA_FORMAT_UUID: return "a UUID (8-4-4-4-12 hexadecimal digits)";
    case SCHEMA_FORMAT_TIMESTAMP:
        return "a UTC timestamp with milliseconds and a trailing Z, like 2024-05-01T12:30:00.000Z";
    case SCHEMA_FORMAT_PORT:
        return "a port number from 1 to 65535 (a number or a string of digits)";
    case SCHEMA_FORMAT_NAMESPACE: return "a namespace name without periods or spaces";
    case SCHEMA_FORMAT_EMAIL: return "an email address (name@domain)";
    case SCHEMA_FORMAT_NONE: break;
    }
    return "valid";
}
