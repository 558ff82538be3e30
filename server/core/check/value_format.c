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

int value_format_days_in_month(int year, int month)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12)
        return 0;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return days[month - 1] + (month == 2 && leap);
}

/* YYYY-MM-DDTHH:MM:SS.mmmZ, a day the month has, hours 00-23, minutes 00-59, seconds 00-59
 * (60 only as the leap second 23:59:60, the last second of a UTC day). */
enum value_format_timestamp_fault value_format_timestamp_check(const char *s, size_t len,
                                                               struct value_format_timestamp *t)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
    _Static_assert(sizeof shape - 1 == VALUE_FORMAT_TIMESTAMP_LENGTH, "the timestamp's shape");
    *t = (struct value_format_timestamp){0};
    if (len != sizeof shape - 1)
        return VALUE_FORMAT_TIMESTAMP_SHAPE;
    for (size_t i = 0; i < len; i++) {
        if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
            return VALUE_FORMAT_TIMESTAMP_SHAPE;
    }
    t->year = two_digits(s) * 100 + two_digits(s + 2);
    t->month = two_digits(s + 5);
    t->day = two_digits(s + 8);
    t->hour = two_digits(s + 11);
    t->minute = two_digits(s + 14);
    t->second = two_digits(s + 17);
    if (t->month < 1 || t->month > 12)
        return VALUE_FORMAT_TIMESTAMP_MONTH;
    if (t->day < 1 || t->day > value_format_days_in_month(t->year, t->month))
        return VALUE_FORMAT_TIMESTAMP_DAY;
    if (t->hour > 23)
        return VALUE_FORMAT_TIMESTAMP_HOUR;
    if (t->minute > 59)
        return VALUE_FORMAT_TIMESTAMP_MINUTE;
    if (t->second > 60 || (t->second == 60 && (t->hour != 23 || t->minute != 59)))
        return VALUE_FORMAT_TIMESTAMP_SECOND;
    return VALUE_FORMAT_TIMESTAMP_VALID;
}

static bool valid_timestamp(const char *s, size_t len)
{
    struct value_format_timestamp parts;
    return value_format_timestamp_check(s, len, &parts) == VALUE_FORMAT_TIMESTAMP_VALID;
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
        /* the days each month has, February 29 in leap years only (divisible by 4 but not
         * by 100, or by 400); second 60 only as 23:59:60 */
        return "^([0-9]{4}-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-"
               "(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))|([0-9]{2}(0[48]|[2468][048]|"
               "[13579][26])|([02468][048]|[13579][26])00)-02-29)"
               "T(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]|23:59:60)\\.[0-9]{3}Z$";
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
