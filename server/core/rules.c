/* rules: checking documents against the schema.
 *
 * The walk is: resolve the kind of each source, then check each object against its schema
 * object — unknown keys, alternate spellings, each present field's value (type, enum, bounds,
 * format, secret encoding, nested arrays and objects), applicability, required and
 * conditionally required fields, and the object's assertions. Conditions read a field's value,
 * or its default when absent. Messages name fields and say what would be right; they never
 * quote the value of a secret or sensitive field. */
#include "rules.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_pointer.h"

#define VALUE_IN_MESSAGE_MAX 40

struct rules {
    struct analysis *a;
    struct json_doc *doc;
    const struct schema_registry *registry;
    const struct settings *settings;
    bool failed;
};

/* Where an object is, for messages and ranges of what is missing from it. */
struct place {
    uint32_t node;       /* the object node */
    const char *pointer; /* its pointer */
    const char *title;   /* "Object storage A" for a config, NULL otherwise */
};

/* ---- reporting ---- */

static void report_as(struct rules *r, const char *code, enum diag_severity severity,
                      uint32_t start, uint32_t end, const char *pointer, const char *message)
{
    struct diagnostic d = {
        .code = code,
        .severity = severity,
        .start = start,
        .end = end,
        .related_start = UINT32_MAX,
        .related_end = UINT32_MAX,
        .message = message ? message : "(out of memory)",
        .pointer = pointer ? pointer : "",
        .node = UINT32_MAX,
    };
    if (diag_list_add(&r->a->diags, &d) != 0)
        r->failed = true;
}

static void report(struct rules *r, const char *code, uint32_t start, uint32_t end,
                   const char *pointer, const char *message)
{
    report_as(r, code, rules_default_severity(code), start, end, pointer, message);
}

/* Records on the diagnostic just reported what its fix needs. */
static void annotate(struct rules *r, uint32_t node, const struct schema_field *field,
                     const char *suggestion)
{
    if (r->failed || r->a->diags.count == 0)
        return;
    struct diagnostic *d = &r->a->diags.items[r->a->diags.count - 1];
    d->node = node;
    d->field = field;
    d->suggestion = suggestion;
}

/* The range that stands for an object when something is missing from it: its key when it is
 * a member, else its opening bracket. */
static void object_anchor(const struct json_doc *doc, uint32_t node, uint32_t *start, uint32_t *end)
{
    const struct json_node *n = &doc->nodes[node];
    if (n->key_start != JSON_NONE) {
        *start = n->key_start;
        *end = n->key_end;
    } else {
        *start = n->start;
        *end = n->start + (n->end > n->start ? 1 : 0);
    }
}

static void report_at_value(struct rules *r, const char *code, uint32_t node, const char *pointer,
                            const char *message)
{
    const struct json_node *n = &r->doc->nodes[node];
    report(r, code, n->start, n->end, pointer, message);
}

static void report_at_key(struct rules *r, const char *code, uint32_t node, const char *pointer,
                          const char *message)
{
    const struct json_node *n = &r->doc->nodes[node];
    if (n->key_start != JSON_NONE)
        report(r, code, n->key_start, n->key_end, pointer, message);
    else
        report_at_value(r, code, node, pointer, message);
}

static char *printf_arena(struct rules *r, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static char *printf_arena(struct rules *r, const char *format, ...)
{
    char buffer[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return arena_strndup(&r->a->arena, buffer, strlen(buffer));
}

/* ---- values ---- */

static uint32_t node_type(const struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    switch (n->kind) {
    case JSON_STRING: return SCHEMA_STRING;
    case JSON_TRUE:
    case JSON_FALSE: return SCHEMA_BOOLEAN;
    case JSON_NUMBER: return (n->flags & JSON_FLAG_INTEGER) ? SCHEMA_INTEGER : SCHEMA_NUMBER;
    case JSON_ARRAY: return SCHEMA_ARRAY;
    case JSON_OBJECT: return SCHEMA_OBJECT;
    case JSON_NULL: return SCHEMA_NULL;
    default: return 0;
    }
}

static bool type_accepted(uint32_t accepted, uint32_t actual)
{
    if (accepted == 0 || (accepted & actual))
        return true;
    return actual == SCHEMA_INTEGER && (accepted & SCHEMA_NUMBER);
}

static bool value_equals(struct json_doc *doc, uint32_t node, const struct schema_value *v)
{
    const struct json_node *n = &doc->nodes[node];
    switch (n->kind) {
    case JSON_STRING:
        return v->type == SCHEMA_STRING && json_node_string_equals(doc, node, v->text, v->len);
    case JSON_TRUE: return v->type == SCHEMA_BOOLEAN && v->boolean;
    case JSON_FALSE: return v->type == SCHEMA_BOOLEAN && !v->boolean;
    case JSON_NULL: return v->type == SCHEMA_NULL;
    case JSON_NUMBER: {
        double d;
        return (v->type == SCHEMA_INTEGER || v->type == SCHEMA_NUMBER) &&
               json_node_double(doc, node, &d) && d == v->number;
    }
    default: return false;
    }
}

static bool schema_values_equal(const struct schema_value *a, const struct schema_value *b)
{
    if (a->type == SCHEMA_BOOLEAN || b->type == SCHEMA_BOOLEAN)
        return a->type == b->type && a->boolean == b->boolean;
    if ((a->type & (SCHEMA_INTEGER | SCHEMA_NUMBER)) &&
        (b->type & (SCHEMA_INTEGER | SCHEMA_NUMBER)))
        return a->number == b->number;
    return a->type == b->type && a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

/* The member of `object` for `field` (its name, or an alias), or JSON_NONE. */
static uint32_t member_for(struct json_doc *doc, uint32_t object, const struct schema_field *field)
{
    uint32_t m = json_object_get(doc, object, field->name, strlen(field->name));
    for (uint32_t i = 0; m == JSON_NONE && i < field->alias_count; i++)
        m = json_object_get(doc, object, field->aliases[i], strlen(field->aliases[i]));
    return m;
}

/* ---- conditions ---- */

static bool non_empty(const struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = &doc->nodes[node];
    switch (n->kind) {
    case JSON_STRING: return n->end - n->start > 2;
    case JSON_ARRAY:
    case JSON_OBJECT: return n->first_child != JSON_NONE;
    case JSON_NULL:
    case JSON_INVALID: return false;
    default: return true;
    }
}

static bool evaluate(struct rules *r, const struct schema_object *schema, uint32_t object,
                     const struct schema_condition *c)
{
    const struct schema_field *field =
        c->field ? schema_object_field(schema, c->field, strlen(c->field)) : NULL;
    uint32_t member = JSON_NONE;
    if (c->field != NULL)
        member = field ? member_for(r->doc, object, field)
                       : json_object_get(r->doc, object, c->field, strlen(c->field));
    switch (c->op) {
    case COND_IN:
        for (uint32_t i = 0; i < c->value_count; i++) {
            if (member != JSON_NONE ? value_equals(r->doc, member, &c->values[i])
                                    : (field && field->has_default &&
                                       schema_values_equal(&field->default_value, &c->values[i])))
                return true;
        }
        return false;
    case COND_PRESENT: return (member != JSON_NONE) == c->expect;
    case COND_NON_EMPTY: return (member != JSON_NONE && non_empty(r->doc, member)) == c->expect;
    case COND_NOT_BEFORE: {
        uint32_t other = json_object_get(r->doc, object, c->other_field, strlen(c->other_field));
        if (member == JSON_NONE || other == JSON_NONE ||
            r->doc->nodes[member].kind != JSON_STRING || r->doc->nodes[other].kind != JSON_STRING)
            return true;
        struct json_str a = json_node_string(r->doc, member), b = json_node_string(r->doc, other);
        if (a.len != 24 || b.len != 24)
            return true; /* not both valid timestamps: the format rule speaks */
        return memcmp(a.ptr, b.ptr, 24) >= 0;
    }
    case COND_ALL:
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (!evaluate(r, schema, object, c->children[i]))
                return false;
        }
        return true;
    case COND_ANY:
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (evaluate(r, schema, object, c->children[i]))
                return true;
        }
        return false;
    case COND_NOT: return !evaluate(r, schema, object, c->children[0]);
    }
    return false;
}

static void append(char *out, size_t size, const char *text)
{
    size_t len = strlen(out);
    if (len + 1 < size)
        snprintf(out + len, size - len, "%s", text);
}

static void append_value(char *out, size_t size, const struct schema_value *v)
{
    if (v->type == SCHEMA_STRING) {
        append(out, size, v->text);
    } else if (v->type == SCHEMA_BOOLEAN) {
        append(out, size, v->boolean ? "true" : "false");
    } else {
        append(out, size, v->text);
    }
}

/* Writes the condition in words ("`credentialType` is ACCESS_KEY"); `negated` describes its
 * negation. */
static void describe(const struct schema_condition *c, bool negated, char *out, size_t size);

void rules_describe_condition(const struct schema_condition *condition, char *out, size_t size)
{
    if (size > 0)
        out[0] = '\0';
    describe(condition, false, out, size);
}

static void describe(const struct schema_condition *c, bool negated, char *out, size_t size)
{
    char name[96];
    snprintf(name, sizeof name, "\"%s\"", c->field ? c->field : "");
    switch (c->op) {
    case COND_IN:
        append(out, size, name);
        if (c->value_count == 1)
            append(out, size, negated ? " is not " : " is ");
        else if (c->value_count == 2)
            append(out, size, negated ? " is neither " : " is ");
        else
            append(out, size, negated ? " is not one of " : " is one of ");
        for (uint32_t i = 0; i < c->value_count; i++) {
            if (i > 0)
                append(out, size, c->value_count == 2 ? (negated ? " nor " : " or ") : ", ");
            append_value(out, size, &c->values[i]);
        }
        return;
    case COND_PRESENT:
        append(out, size, name);
        append(out, size, (c->expect != negated) ? " is set" : " is not set");
        return;
    case COND_NON_EMPTY:
        append(out, size, name);
        append(out, size,
               (c->expect != negated) ? " is set and not empty" : " is empty or not set");
        return;
    case COND_NOT_BEFORE:
        append(out, size, name);
        append(out, size, negated ? " is before \"" : " is not before \"");
        append(out, size, c->other_field);
        append(out, size, "\"");
        return;
    case COND_ALL:
    case COND_ANY: {
        bool conjunction = (c->op == COND_ALL) != negated;
        for (uint32_t i = 0; i < c->child_count; i++) {
            if (i > 0)
                append(out, size, conjunction ? " and " : " or ");
            describe(c->children[i], negated, out, size);
        }
        return;
    }
    case COND_NOT: describe(c->children[0], !negated, out, size); return;
    }
}

/* ---- formats ---- */

static bool is_digits(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
    }
    return true;
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool valid_uuid(struct json_str s)
{
    if (s.len != 36)
        return false;
    for (size_t i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s.ptr[i] != '-' : !is_hex(s.ptr[i]))
            return false;
    }
    return true;
}

static int two_digits(const char *s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

/* YYYY-MM-DDTHH:MM:SS.mmmZ */
static bool valid_timestamp(struct json_str s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
    if (s.len != sizeof shape - 1)
        return false;
    for (size_t i = 0; i < s.len; i++) {
        if (shape[i] == 'd' ? (s.ptr[i] < '0' || s.ptr[i] > '9') : s.ptr[i] != shape[i])
            return false;
    }
    int month = two_digits(s.ptr + 5), day = two_digits(s.ptr + 8);
    int hour = two_digits(s.ptr + 11), minute = two_digits(s.ptr + 14),
        second = two_digits(s.ptr + 17);
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 &&
           second <= 60;
}

static bool valid_email(struct json_str s)
{
    const char *at = memchr(s.ptr, '@', s.len);
    if (at == NULL || at == s.ptr || at == s.ptr + s.len - 1)
        return false;
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] == ' ' || (s.ptr + i != at && s.ptr[i] == '@'))
            return false;
    }
    return memchr(at, '.', (size_t)(s.ptr + s.len - at)) != NULL;
}

static bool valid_namespace(struct json_str s)
{
    return s.len > 0 && memchr(s.ptr, '.', s.len) == NULL && memchr(s.ptr, ' ', s.len) == NULL;
}

static const char *format_expectation(enum schema_format format)
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

/* ---- secrets ---- */

static const char *const secret_schemes[] = {"arn:", "vault:", "https://"};

static bool valid_base64(const char *s, size_t len)
{
    if (len == 0 || len % 4 != 0)
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
    return padding <= 2;
}

static void check_secret(struct rules *r, const struct schema_field *field, uint32_t node,
                         const char *pointer)
{
    struct json_str s = json_node_string(r->doc, node);
    static const char placeholder[] = "$SERVICE_EXISTING_VALUE$";
    static const char plain[] = "data:,";
    static const char base64[] = "data:;base64,";
    if (s.len == sizeof placeholder - 1 && memcmp(s.ptr, placeholder, s.len) == 0)
        return;
    if (s.len >= sizeof base64 - 1 && memcmp(s.ptr, base64, sizeof base64 - 1) == 0) {
        if (!valid_base64(s.ptr + sizeof base64 - 1, s.len - (sizeof base64 - 1))) {
            report_at_value(r, "invalid-base64", node, pointer,
                            printf_arena(r,
                                         "the secret \"%s\" is marked \"data:;base64,\" but "
                                         "what follows is not valid base64 (A-Z a-z 0-9 + /, "
                                         "padded with = to a multiple of 4)",
                                         field->name));
            annotate(r, node, field, NULL);
        }
        return;
    }
    if (s.len >= sizeof plain - 1 && memcmp(s.ptr, plain, sizeof plain - 1) == 0) {
        if (memchr(s.ptr + sizeof plain - 1, ':', s.len - (sizeof plain - 1)) != NULL) {
            report_at_value(r, "secret-needs-base64", node, pointer,
                            printf_arena(r,
                                         "the plaintext of the secret \"%s\" contains a colon: "
                                         "encode it in base64 and write "
                                         "\"data:;base64,<base64>\"",
                                         field->name));
            annotate(r, node, field, NULL);
        }
        return;
    }
    for (size_t i = 0; i < sizeof secret_schemes / sizeof secret_schemes[0]; i++) {
        size_t n = strlen(secret_schemes[i]);
        if (s.len > n && memcmp(s.ptr, secret_schemes[i], n) == 0)
            return;
    }
    report_at_value(r, "secret-not-encoded", node, pointer,
                    printf_arena(r,
                                 "\"%s\" is a secret and is not encoded: write it as "
                                 "\"data:,<secret>\" (\"data:;base64,<base64>\" when it "
                                 "contains a colon), as the placeholder "
                                 "$SERVICE_EXISTING_VALUE$, or as a secret-store reference "
                                 "(arn:, vault:, https://)",
                                 field->name));
    annotate(r, node, field, NULL);
}

/* ---- fields ---- */

static void check_object(struct rules *r, const struct schema_object *schema, bool additional,
                         const struct place *place);

static bool quotable(const struct schema_field *field)
{
    return !field->secret && !field->sensitive;
}

static void check_enum(struct rules *r, const struct schema_field *field, uint32_t node,
                       const char *pointer)
{
    for (uint32_t i = 0; i < field->enum_count; i++) {
        if (value_equals(r->doc, node, &field->enums[i].value))
            return;
    }
    char allowed[512] = "";
    for (uint32_t i = 0; i < field->enum_count; i++) {
        if (i > 0)
            append(allowed, sizeof allowed, ", ");
        append_value(allowed, sizeof allowed, &field->enums[i].value);
    }
    char got[VALUE_IN_MESSAGE_MAX + 16] = "";
    if (quotable(field) && r->doc->nodes[node].kind == JSON_STRING) {
        struct json_str s = json_node_string(r->doc, node);
        bool printable = true;
        for (size_t i = 0; i < s.len; i++)
            printable &= (unsigned char)s.ptr[i] >= 0x20;
        if (printable && s.len <= VALUE_IN_MESSAGE_MAX)
            snprintf(got, sizeof got, " (got \"%.*s\")", (int)s.len, s.ptr);
    }
    report_at_value(r, "invalid-enum", node, pointer,
                    printf_arena(r, "\"%s\" must be %s%s%s", field->name,
                                 field->enum_count == 1 ? "" : "one of ", allowed, got));
    annotate(r, node, field, NULL);
}

static void check_bounds(struct rules *r, const struct schema_field *field, uint32_t node,
                         const char *pointer, double value, bool representable)
{
    bool low = field->has_minimum && (!representable ? value < 0 : value < field->minimum);
    bool high = field->has_maximum && (!representable ? value > 0 : value > field->maximum);
    if (!low && !high)
        return;
    const char *message;
    if (field->has_minimum && field->has_maximum)
        message = printf_arena(r, "\"%s\" must be between %g and %g", field->name, field->minimum,
                               field->maximum);
    else if (field->has_minimum)
        message = printf_arena(r, "\"%s\" must be at least %g", field->name, field->minimum);
    else
        message = printf_arena(r, "\"%s\" must be at most %g", field->name, field->maximum);
    report_at_value(r, "out-of-range", node, pointer, message);
    annotate(r, node, field, NULL);
}

static void check_port(struct rules *r, const struct schema_field *field, uint32_t node,
                       const char *pointer)
{
    const struct json_node *n = &r->doc->nodes[node];
    double value = 0;
    if (n->kind == JSON_STRING) {
        struct json_str s = json_node_string(r->doc, node);
        if (!is_digits(s.ptr, s.len)) {
            report_at_value(r, "invalid-format", node, pointer,
                            printf_arena(r, "\"%s\" must be %s", field->name,
                                         format_expectation(SCHEMA_FORMAT_PORT)));
            return;
        }
        for (size_t i = 0; i < s.len && value <= 1e9; i++)
            value = value * 10 + (s.ptr[i] - '0');
    } else if (n->kind == JSON_NUMBER) {
        json_node_double(r->doc, node, &value);
    } else {
        return;
    }
    if (value < 1 || value > 65535)
        report_at_value(
            r, "out-of-range", node, pointer,
            printf_arena(r, "\"%s\" must be a port number from 1 to 65535", field->name));
}

static void check_format(struct rules *r, const struct schema_field *field, uint32_t node,
                         const char *pointer)
{
    if (field->format == SCHEMA_FORMAT_PORT) {
        check_port(r, field, node, pointer);
        return;
    }
    if (r->doc->nodes[node].kind != JSON_STRING)
        return;
    struct json_str s = json_node_string(r->doc, node);
    bool ok = true;
    switch (field->format) {
    case SCHEMA_FORMAT_UUID: ok = valid_uuid(s); break;
    case SCHEMA_FORMAT_TIMESTAMP: ok = valid_timestamp(s); break;
    case SCHEMA_FORMAT_NAMESPACE: ok = valid_namespace(s); break;
    case SCHEMA_FORMAT_EMAIL: ok = valid_email(s); break;
    case SCHEMA_FORMAT_PORT:
    case SCHEMA_FORMAT_NONE: break;
    }
    if (!ok)
        report_at_value(
            r, "invalid-format", node, pointer,
            printf_arena(r, "\"%s\" must be %s", field->name, format_expectation(field->format)));
}

static void check_value(struct rules *r, const struct schema_field *field, uint32_t node,
                        const char *pointer)
{
    const struct json_node *n = &r->doc->nodes[node];
    if (n->kind == JSON_INVALID)
        return; /* a syntax error already speaks for it */
    uint32_t actual = node_type(r->doc, node);
    if (!type_accepted(field->types | field->sample_types, actual)) {
        const char *expected =
            schema_types_describe(field->types | field->sample_types, &r->a->arena);
        const char *got = actual == SCHEMA_NUMBER ? "a number with a fraction or exponent"
                                                  : schema_types_describe(actual, &r->a->arena);
        report_at_value(r, "type-mismatch", node, pointer,
                        printf_arena(r, "\"%s\" must be %s, not %s", field->name, expected, got));
        annotate(r, node, field, NULL);
        return;
    }
    if (field->enum_count > 0)
        check_enum(r, field, node, pointer);
    if (n->kind == JSON_NUMBER && (field->has_minimum || field->has_maximum)) {
        double value = 0;
        int64_t integer;
        bool representable = true;
        if (n->flags & JSON_FLAG_INTEGER) {
            representable = json_node_int64(r->doc, node, &integer);
            value = representable ? (double)integer : (r->doc->text[n->start] == '-' ? -1 : 1);
        } else {
            json_node_double(r->doc, node, &value);
        }
        check_bounds(r, field, node, pointer, value, representable);
    }
    if (field->format != SCHEMA_FORMAT_NONE)
        check_format(r, field, node, pointer);
    if (field->secret && n->kind == JSON_STRING)
        check_secret(r, field, node, pointer);
    if (n->kind == JSON_ARRAY && field->items != NULL) {
        uint32_t index = 0;
        for (uint32_t e = n->first_child; e != JSON_NONE; e = r->doc->nodes[e].next, index++) {
            char digits[16];
            snprintf(digits, sizeof digits, "%u", index);
            const char *element =
                json_pointer_append(&r->a->arena, pointer, digits, strlen(digits));
            check_value(r, field->items, e, element);
        }
    }
    if (n->kind == JSON_OBJECT && field->object != NULL) {
        struct place place = {node, pointer, NULL};
        check_object(r, field->object, field->additional_fields, &place);
    }
}

/* ---- objects ---- */

/* Edit distance with adjacent transpositions, case differences costing nothing extra than 1. */
static unsigned edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    if (la > 64 || lb > 64)
        return 99;
    unsigned d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            char x = a[i - 1], y = b[j - 1];
            unsigned cost = x == y ? 0 : 1;
            unsigned best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && x == b[j - 2] && a[i - 2] == y && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

static unsigned suggestion_limit(size_t len)
{
    return len >= 10 ? 3 : len >= 4 ? 2 : 1;
}

/* The known field nearest to `key` within the limit, or NULL. With `only_missing`, only
 * fields that the object does not have count. */
static const struct schema_field *nearest_field(struct rules *r, const struct schema_object *schema,
                                                uint32_t object, struct json_str key,
                                                bool only_missing)
{
    const struct schema_field *best = NULL;
    unsigned best_distance = suggestion_limit(key.len) + 1;
    for (uint32_t i = 0; i < schema->field_count; i++) {
        const struct schema_field *f = &schema->fields[i];
        if (only_missing && member_for(r->doc, object, f) != JSON_NONE)
            continue;
        unsigned d = edit_distance(key.ptr, key.len, f->name, strlen(f->name));
        if (d < best_distance) {
            best_distance = d;
            best = f;
        }
    }
    return best;
}

static void check_unknown_member(struct rules *r, const struct schema_object *schema,
                                 bool additional, const struct place *place, uint32_t member,
                                 const char *pointer)
{
    struct json_str key = json_node_key(r->doc, member);
    const struct schema_field *near = nearest_field(r, schema, place->node, key, additional);
    if (additional && near == NULL)
        return;
    char where[160] = "";
    if (place->title != NULL)
        snprintf(where, sizeof where, " for %s", place->title);
    else if (place->pointer[0] != '\0')
        snprintf(where, sizeof where, " in %s", place->pointer);
    const char *message =
        near ? printf_arena(r, "unknown field \"%.*s\"%s; did you mean \"%s\"?", (int)key.len,
                            key.ptr, where, near->name)
             : printf_arena(r, "unknown field \"%.*s\"%s", (int)key.len, key.ptr, where);
    report_at_key(r, "unknown-field", member, pointer, message);
    annotate(r, member, NULL, near ? near->name : NULL);
}

static void check_missing(struct rules *r, const struct schema_object *schema,
                          const struct place *place, const struct schema_field *field)
{
    bool unconditional = field->required;
    if (!unconditional &&
        (field->required_when == NULL || !evaluate(r, schema, place->node, field->required_when)))
        return;
    uint32_t start, end;
    object_anchor(r->doc, place->node, &start, &end);
    const char *pointer =
        json_pointer_append(&r->a->arena, place->pointer, field->name, strlen(field->name));
    const char *types = schema_types_describe(field->types, &r->a->arena);
    if (unconditional) {
        char where[160] = "";
        if (place->title != NULL)
            snprintf(where, sizeof where, " for %s", place->title);
        report(r, "missing-required", start, end, pointer,
               printf_arena(r, "missing required field \"%s\" (%s)%s", field->name, types, where));
        annotate(r, place->node, field, NULL);
        return;
    }
    char condition[512] = "";
    describe(field->required_when, false, condition, sizeof condition);
    report(r, "conditional-required", start, end, pointer,
           printf_arena(r, "missing field \"%s\" (%s): it is required when %s", field->name, types,
                        condition));
    annotate(r, place->node, field, NULL);
}

static void check_assertions(struct rules *r, const struct schema_object *schema,
                             const struct place *place)
{
    for (uint32_t i = 0; i < schema->assertion_count; i++) {
        const struct schema_assertion *a = &schema->assertions[i];
        if (a->when != NULL && !evaluate(r, schema, place->node, a->when))
            continue;
        if (evaluate(r, schema, place->node, a->expect))
            continue;
        const char *pointer =
            json_pointer_append(&r->a->arena, place->pointer, a->field, strlen(a->field));
        uint32_t member = json_object_get(r->doc, place->node, a->field, strlen(a->field));
        if (member != JSON_NONE) {
            report_at_value(r, a->code, member, pointer, a->message);
        } else {
            uint32_t start, end;
            object_anchor(r->doc, place->node, &start, &end);
            report(r, a->code, start, end, pointer, a->message);
        }
    }
}

static void check_object(struct rules *r, const struct schema_object *schema, bool additional,
                         const struct place *place)
{
    struct json_doc *doc = r->doc;
    for (uint32_t m = doc->nodes[place->node].first_child; m != JSON_NONE && !r->failed;
         m = doc->nodes[m].next) {
        struct json_str key = json_node_key(doc, m);
        const struct schema_field *field = schema_object_field(schema, key.ptr, key.len);
        const struct schema_field *alias =
            field ? NULL : schema_object_alias(schema, key.ptr, key.len);
        /* A key the parser recovered from text that may continue a value is checked only when
         * it names a field (so the pointer quotes the schema, not the document); otherwise its
         * syntax error speaks for it, and an unknown-field would be noise. */
        if (field == NULL && alias == NULL && (doc->nodes[m].flags & JSON_FLAG_KEY_RECOVERED))
            continue;
        const char *pointer = json_pointer_append(&r->a->arena, place->pointer, key.ptr, key.len);
        if (field == NULL && alias == NULL) {
            check_unknown_member(r, schema, additional, place, m, pointer);
            continue;
        }
        if (field == NULL) {
            field = alias;
            report_at_key(r, "alternate-spelling", m, pointer,
                          printf_arena(r,
                                       "\"%.*s\" is a spelling seen in samples; the documented "
                                       "name is \"%s\"",
                                       (int)key.len, key.ptr, field->name));
            annotate(r, m, field, field->name);
        }
        check_value(r, field, m, pointer);
        if (field->applicable != NULL && !evaluate(r, schema, place->node, field->applicable)) {
            char condition[512] = "";
            describe(field->applicable, false, condition, sizeof condition);
            report_at_key(r, "not-applicable", m, pointer,
                          printf_arena(r, "\"%s\" has no effect here: it applies only when %s",
                                       field->name, condition));
            annotate(r, m, field, NULL);
        }
    }
    for (uint32_t i = 0; i < schema->field_count && !r->failed; i++) {
        const struct schema_field *field = &schema->fields[i];
        if (member_for(doc, place->node, field) == JSON_NONE)
            check_missing(r, schema, place, field);
    }
    check_assertions(r, schema, place);
}

/* ---- kinds ---- */

/* Kind inference: a kind scores +1 for each config key it defines and -1 for each it does
 * not; the best score wins, whatever its sign, so keys no kind defines (which cost every kind
 * the same) do not stop a kind from being recognised. A kind that defines none of the keys is
 * not a candidate; a recovered key (JSON_FLAG_KEY_RECOVERED) counts only when the kind defines
 * it, as check_object checks it only then. Returns the number of kinds tied for the best score,
 * writing them to `best`. */
static uint32_t infer_kinds(struct json_doc *doc, const struct schema_registry *registry,
                            uint32_t config, const struct schema_kind **best, uint32_t best_cap)
{
    int best_score = INT_MIN;
    uint32_t count = 0;
    if (config == JSON_NONE || doc->nodes[config].kind != JSON_OBJECT)
        return 0;
    for (uint32_t k = 0; k < registry->kind_count; k++) {
        const struct schema_kind *kind = &registry->kinds[k];
        int score = 0;
        bool defines_one = false;
        for (uint32_t m = doc->nodes[config].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            struct json_str key = json_node_key(doc, m);
            bool known = schema_object_field(&kind->config, key.ptr, key.len) ||
                         schema_object_alias(&kind->config, key.ptr, key.len);
            if (!known && (doc->nodes[m].flags & JSON_FLAG_KEY_RECOVERED))
                continue;
            score += known ? 1 : -1;
            defines_one |= known;
        }
        if (!defines_one || score < best_score)
            continue;
        if (score > best_score) {
            best_score = score;
            count = 0;
        }
        if (count < best_cap)
            best[count] = kind;
        count++;
    }
    return count;
}

/* Writes "Title (TYPE), Title (TYPE)" for messages. */
static void describe_kinds(const struct schema_kind *const *kinds, uint32_t count, char *out,
                           size_t size)
{
    for (uint32_t i = 0; i < count; i++) {
        char one[160];
        snprintf(one, sizeof one, "%s%s (%s)",
                 i == 0           ? ""
                 : i + 1 == count ? " or "
                                  : ", ",
                 kinds[i]->title, kinds[i]->types[0]);
        append(out, size, one);
    }
}

/* Checks the config values that every one of the tied kinds defines, and nothing else. */
static void check_shared(struct rules *r, const struct schema_kind *const *kinds, uint32_t count,
                         uint32_t config, const char *config_pointer)
{
    for (uint32_t m = r->doc->nodes[config].first_child; m != JSON_NONE;
         m = r->doc->nodes[m].next) {
        struct json_str key = json_node_key(r->doc, m);
        const struct schema_field *field = schema_object_field(&kinds[0]->config, key.ptr, key.len);
        for (uint32_t k = 1; field != NULL && k < count; k++) {
            if (!schema_object_field(&kinds[k]->config, key.ptr, key.len))
                field = NULL;
        }
        if (field != NULL)
            check_value(r, field, m,
                        json_pointer_append(&r->a->arena, config_pointer, key.ptr, key.len));
    }
}

#define MAX_TIED 32

/* A source of `kind` without a `config` member: when the kind requires fields, one
 * missing-required for `config` that names them (their own pointers would be inside an object
 * that is not there). */
static void check_missing_config(struct rules *r, const struct schema_kind *kind, uint32_t source,
                                 const char *config_pointer)
{
    uint32_t required = 0;
    for (uint32_t i = 0; i < kind->config.field_count; i++) {
        if (kind->config.fields[i].required)
            required++;
    }
    if (required == 0)
        return; /* a config left out takes every default */
    char fields[512] = "";
    uint32_t listed = 0;
    for (uint32_t i = 0; i < kind->config.field_count; i++) {
        const struct schema_field *f = &kind->config.fields[i];
        if (!f->required)
            continue;
        listed++;
        append(fields, sizeof fields, listed == 1 ? "" : listed == required ? " and " : ", ");
        append(fields, sizeof fields, "\"");
        append(fields, sizeof fields, f->name);
        append(fields, sizeof fields, "\"");
    }
    const struct schema_field *config =
        schema_object_field(r->registry->source.object, "config", 6);
    const char *types = schema_types_describe(config ? config->types : SCHEMA_OBJECT, &r->a->arena);
    uint32_t start, end;
    object_anchor(r->doc, source, &start, &end);
    report(r, "missing-required", start, end, config_pointer,
           printf_arena(r,
                        "missing required field \"config\" (%s) for %s (%s): the kind requires "
                        "%s in it",
                        types, kind->title, kind->types[0], fields));
    annotate(r, source, config, NULL);
}

/* A kind by identifier: the kinds' own, then the settings' mappings. */
static const struct schema_kind *find_kind(const struct schema_registry *registry,
                                           const struct settings *settings, struct json_str id)
{
    const struct schema_kind *kind = schema_find_kind(registry, id.ptr, id.len);
    const char *mapped = kind ? NULL : settings_type(settings, id.ptr, id.len);
    if (mapped != NULL)
        kind = schema_find_kind(registry, mapped, strlen(mapped));
    return kind;
}

const struct schema_kind *rules_source_kind(struct json_doc *doc, uint32_t source,
                                            const struct schema_registry *registry,
                                            const struct settings *settings)
{
    uint32_t type = json_object_get(doc, source, "type", 4);
    if (type != JSON_NONE && doc->nodes[type].kind == JSON_STRING) {
        const struct schema_kind *kind = find_kind(registry, settings, json_node_string(doc, type));
        if (kind != NULL)
            return kind;
    }
    const struct schema_kind *best[2];
    uint32_t count = infer_kinds(doc, registry, json_object_get(doc, source, "config", 6), best, 2);
    return count == 1 ? best[0] : NULL;
}

static const struct schema_kind *check_source(struct rules *r, uint32_t source, const char *pointer)
{
    struct json_doc *doc = r->doc;
    struct place top = {source, pointer, NULL};
    check_object(r, r->registry->source.object, r->registry->source.additional_fields, &top);

    uint32_t type = json_object_get(doc, source, "type", 4);
    uint32_t config = json_object_get(doc, source, "config", 6);
    if (config != JSON_NONE && doc->nodes[config].kind != JSON_OBJECT)
        config = JSON_NONE; /* its type-mismatch is reported above */
    const char *config_pointer = json_pointer_append(&r->a->arena, pointer, "config", 6);
    const char *type_pointer = json_pointer_append(&r->a->arena, pointer, "type", 4);

    const struct schema_kind *kind = NULL;
    const struct schema_kind *tied[MAX_TIED];
    uint32_t tie_count = 0;
    char names[1024] = "";
    if (type != JSON_NONE && doc->nodes[type].kind == JSON_STRING) {
        struct json_str id = json_node_string(doc, type);
        kind = find_kind(r->registry, r->settings, id);
        if (kind == NULL) {
            tie_count = infer_kinds(doc, r->registry, config, tied, MAX_TIED);
            if (tie_count == 1) {
                kind = tied[0];
                report_at_value(r, "unknown-kind", type, type_pointer,
                                printf_arena(r,
                                             "unknown type \"%.*s\"; the config looks like %s "
                                             "(%s), so it is checked as that kind; map the "
                                             "identifier in srcls.json: \"types\": "
                                             "{\"%.*s\": \"%s\"}",
                                             (int)(id.len > 60 ? 60 : id.len), id.ptr, kind->title,
                                             kind->types[0], (int)(id.len > 60 ? 60 : id.len),
                                             id.ptr, kind->types[0]));
            } else {
                const struct json_node *t = &doc->nodes[type];
                report_as(r, "unknown-kind", DIAG_ERROR, t->start, t->end, type_pointer,
                          printf_arena(r,
                                       "unknown type \"%.*s\", and the config keys do not "
                                       "identify a kind: see srcls --list-kinds for the known "
                                       "identifiers, or map it in srcls.json \"types\"",
                                       (int)(id.len > 60 ? 60 : id.len), id.ptr));
                return NULL;
            }
        }
    } else if (type == JSON_NONE && config != JSON_NONE) {
        tie_count = infer_kinds(doc, r->registry, config, tied, MAX_TIED);
        uint32_t start, end;
        object_anchor(doc, config, &start, &end);
        if (tie_count == 1) {
            kind = tied[0];
            report(r, "kind-inferred", start, end, type_pointer,
                   printf_arena(r, "no \"type\": the config looks like %s; add \"type\": \"%s\"",
                                kind->title, kind->types[0]));
            annotate(r, source, NULL, kind->types[0]);
        } else if (tie_count == 0) {
            report(r, "unknown-kind", start, end, type_pointer,
                   "no \"type\", and the config keys match no kind: add \"type\" (see srcls "
                   "--list-kinds)");
            return NULL;
        } else {
            describe_kinds(tied, tie_count < MAX_TIED ? tie_count : MAX_TIED, names, sizeof names);
            report(r, "unknown-kind", start, end, type_pointer,
                   printf_arena(r,
                                "no \"type\", and the config keys fit %u kinds equally: %s; "
                                "add \"type\" (only what they share is checked)",
                                tie_count, names));
            check_shared(r, tied, tie_count < MAX_TIED ? tie_count : MAX_TIED, config,
                         config_pointer);
            return NULL;
        }
    }
    if (kind == NULL)
        return kind;
    if (config == JSON_NONE) {
        if (json_object_get(doc, source, "config", 6) == JSON_NONE)
            check_missing_config(r, kind, source, config_pointer);
        return kind;
    }
    struct place place = {config, config_pointer, NULL};
    char title[200];
    snprintf(title, sizeof title, "%s (%s)", kind->title, kind->types[0]);
    place.title = arena_strndup(&r->a->arena, title, strlen(title));
    check_object(r, &kind->config, false, &place);
    return kind;
}

int rules_check(struct analysis *a, const struct schema_registry *registry,
                const struct settings *settings)
{
    struct rules r = {.a = a, .doc = &a->doc, .registry = registry, .settings = settings};
    struct json_doc *doc = &a->doc;
    switch (a->document) {
    case DOCUMENT_SOURCE: {
        const struct schema_kind *kind = check_source(&r, doc->root, "");
        if (kind != NULL) {
            a->kind = kind->types[0];
            uint32_t type = json_object_get(doc, doc->root, "type", 4);
            for (uint32_t t = 0; type != JSON_NONE && t < kind->type_count; t++) {
                if (json_node_string_equals(doc, type, kind->types[t], strlen(kind->types[t])))
                    a->kind = kind->types[t];
            }
        }
        break;
    }
    case DOCUMENT_BULK: {
        uint32_t index = 0;
        for (uint32_t e = doc->nodes[doc->root].first_child; e != JSON_NONE;
             e = doc->nodes[e].next, index++) {
            char digits[16];
            snprintf(digits, sizeof digits, "%u", index);
            check_source(&r, e, json_pointer_append(&a->arena, "", digits, strlen(digits)));
        }
        break;
    }
    case DOCUMENT_JOB: {
        struct place place = {doc->root, "", NULL};
        check_object(&r, registry->job.object, registry->job.additional_fields, &place);
        a->kind = NULL;
        break;
    }
    case DOCUMENT_UNKNOWN: break;
    }
    return r.failed ? -1 : 0;
}
