/* secret: recognising and writing the encodings of a secret value. */
#include "secret.h"

#include <stdint.h>
#include <string.h>

#define BASE64_GROUP 4       /* characters per 3 bytes */
#define BASE64_MAX_PADDING 2 /* '=' at the end of the last group */

static const char *const reference_schemes[] = {SECRET_SCHEME_ARN, SECRET_SCHEME_VAULT,
                                                SECRET_SCHEME_HTTPS};

static bool starts_with(const char *text, size_t len, const char *prefix, size_t prefix_len)
{
    return len >= prefix_len && memcmp(text, prefix, prefix_len) == 0;
}

static bool valid_base64(const char *s, size_t len)
{
    if (len == 0 || len % BASE64_GROUP != 0)
        return false;
    size_t padding = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '+' || c == '/';
        if (c == '=') {
            padding++;
        } else if (!alphabet || padding > 0) {
            return false;
        }
    }
    return padding <= BASE64_MAX_PADDING;
}

enum secret_encoding secret_classify(const char *text, size_t len)
{
    static const char placeholder[] = SECRET_PLACEHOLDER;
    static const char plain[] = SECRET_PLAIN_PREFIX;
    static const char base64[] = SECRET_BASE64_PREFIX;
    if (len == sizeof placeholder - 1 && memcmp(text, placeholder, len) == 0)
        return SECRET_KEPT;
    if (starts_with(text, len, base64, sizeof base64 - 1)) {
        size_t skip = sizeof base64 - 1;
        return valid_base64(text + skip, len - skip) ? SECRET_BASE64 : SECRET_BASE64_INVALID;
    }
    if (starts_with(text, len, plain, sizeof plain - 1)) {
        size_t skip = sizeof plain - 1;
        return memchr(text + skip, ':', len - skip) != NULL ? SECRET_PLAIN_WITH_COLON
                                                            : SECRET_PLAIN;
    }
    for (size_t i = 0; i < sizeof reference_schemes / sizeof reference_schemes[0]; i++) {
        size_t n = strlen(reference_schemes[i]);
        /* A scheme alone is not a reference: something must follow it. */
        if (len > n && memcmp(text, reference_schemes[i], n) == 0)
            return SECRET_REFERENCE;
    }
    return SECRET_NOT_ENCODED;
}

/* Writes `text` at `out + at` with what a regular expression treats specially escaped (only
 * the characters that ECMA-262's unicode mode allows escaping); returns the new end. */
static size_t regex_escape(char *out, size_t at, const char *text)
{
    for (; *text != '\0'; text++) {
        if (strchr("\\^$.|?*+()[]{}/", *text) != NULL)
            out[at++] = '\\';
        out[at++] = *text;
    }
    return at;
}

static size_t append_text(char *out, size_t at, const char *text)
{
    size_t len = strlen(text);
    memcpy(out + at, text, len);
    return at + len;
}

const char *secret_pattern(struct arena *arena)
{
    /* base64: whole groups of four, the last one padded with at most two '=' */
    static const char base64[] = "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|"
                                 "[A-Za-z0-9+/]{2}==)";
    size_t schemes = sizeof reference_schemes / sizeof reference_schemes[0];
    size_t size =
        2 * (sizeof SECRET_PLACEHOLDER + sizeof SECRET_BASE64_PREFIX + sizeof SECRET_PLAIN_PREFIX) +
        sizeof base64 + 64;
    for (size_t i = 0; i < schemes; i++)
        size += 2 * strlen(reference_schemes[i]) + 1;
    char *out = arena_alloc(arena, size);
    if (out == NULL)
        return NULL;
    size_t at = append_text(out, 0, "^(?:");
    at = regex_escape(out, at, SECRET_PLACEHOLDER);
    at = append_text(out, at, "|");
    at = regex_escape(out, at, SECRET_BASE64_PREFIX);
    at = append_text(out, at, base64);
    at = append_text(out, at, "|");
    at = regex_escape(out, at, SECRET_PLAIN_PREFIX);
    at = append_text(out, at, "[^:]*|(?:"); /* no colon in plaintext */
    for (size_t i = 0; i < schemes; i++) {
        at = append_text(out, at, i == 0 ? "" : "|");
        at = regex_escape(out, at, reference_schemes[i]);
    }
    at = append_text(out, at, ")[\\s\\S]+)$"); /* a scheme alone is no reference */
    out[at] = '\0';
    return out;
}

char *secret_base64_encode(struct arena *arena, const char *data, size_t len)
{
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = arena_alloc(arena, (len + 2) / 3 * BASE64_GROUP + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t chunk = (uint32_t)(unsigned char)data[i] << 16;
        if (i + 1 < len)
            chunk |= (uint32_t)(unsigned char)data[i + 1] << 8;
        if (i + 2 < len)
            chunk |= (unsigned char)data[i + 2];
        out[n++] = table[(chunk >> 18) & 63];
        out[n++] = table[(chunk >> 12) & 63];
        out[n++] = i + 1 < len ? table[(chunk >> 6) & 63] : '=';
        out[n++] = i + 2 < len ? table[chunk & 63] : '=';
    }
    out[n] = '\0';
    return out;
}
