/* secret: how the API writes a secret field's value — the encodings the rule engine checks,
 * completion offers, fixes write and the schema loader uses as an empty value. They are spelled
 * here and nowhere else; messages and texts build on these literals. */
#ifndef SRCLS_SECRET_H
#define SRCLS_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"

/* The value responses carry in place of a secret; sending it back keeps the stored secret. */
#define SECRET_PLACEHOLDER "$SERVICE_EXISTING_VALUE$"
/* Plaintext follows (it must not contain a colon). */
#define SECRET_PLAIN_PREFIX "data:,"
/* Standard base64 follows. */
#define SECRET_BASE64_PREFIX "data:;base64,"

/* The schemes of an external secret reference, and the same as a list for messages. */
#define SECRET_SCHEME_ARN "arn:"
#define SECRET_SCHEME_VAULT "vault:"
#define SECRET_SCHEME_HTTPS "https://"
#define SECRET_SCHEMES_TEXT SECRET_SCHEME_ARN ", " SECRET_SCHEME_VAULT ", " SECRET_SCHEME_HTTPS

enum secret_encoding {
    SECRET_KEPT,             /* the placeholder */
    SECRET_PLAIN,            /* "data:,..." without a colon in the plaintext */
    SECRET_PLAIN_WITH_COLON, /* "data:,..." whose plaintext has a colon: needs base64 */
    SECRET_BASE64,           /* "data:;base64,..." with valid base64 */
    SECRET_BASE64_INVALID,   /* "data:;base64,..." with a payload that is not base64 */
    SECRET_REFERENCE,        /* a URI of one of the schemes above */
    SECRET_NOT_ENCODED,      /* none of these: bare plaintext */
};

/* How the value `text` (`len` bytes, decoded) is written. */
enum secret_encoding secret_classify(const char *text, size_t len);

/* An ECMA-262 regular expression (JSON Schema's "pattern") that matches exactly the values
 * secret_classify finds written as the API wants (SECRET_KEPT, SECRET_PLAIN, SECRET_BASE64,
 * SECRET_REFERENCE). Allocated in `arena`; NULL when out of memory. */
const char *secret_pattern(struct arena *arena);

/* Standard base64 of `data`, NUL-terminated, allocated in `arena`; NULL when out of memory. */
char *secret_base64_encode(struct arena *arena, const char *data, size_t len);

#endif
