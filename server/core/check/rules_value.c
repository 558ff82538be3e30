/* rules_value: checking one value against its field — its JSON type, enum, bounds, format and
 * secret encoding, then the elements of an array and the fields of an object. Messages never
 * quote the value of a secret or sensitive field. */
#include <stdio.h>
#include <string.h>

#include "condition.h"
#include "rules_internal.h"
#include "domain/domain.h"
#include "value_format.h"

/* An enum value longer than this is not quoted back in a message. */
#define VALUE_IN_MESSAGE_MAX 40

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

static bool quotable(const struct rules *r, const struct schema_field *field)
{
    return !field->secret && !field->sensitive && !r->t->values_unquoted;
}

static void append(char *out, size_t size, const char *text)
{
    size_t len = strlen(out);
    if (len + 1 < size)
        snprintf(out + len, size - len, "%s", text);
}

static bool enum_holds(struct rules *r, const struct schema_field *field, uint32_t node)
{
    for (uint32_t i = 0; i < field->enum_count; i++) {
        if (condition_value_matches(r->doc, node, &field->enums[i].value))
            return true;
    }
    return false;
}

static void check_enum(struct rules *r, const struct schema_field *field, uint32_t node,
                       const struct rules_path *path)
{
    if (enum_holds(r, field, node))
        return;
    char allowed[512] = "";
    for (uint32_t i = 0; i < field->enum_count; i++) {
        if (i > 0)
            append(allowed, sizeof allowed, ", ");
        append(allowed, sizeof allowed, schema_value_text(&field->enums[i].value));
    }
    char got[VALUE_IN_MESSAGE_MAX + 16] = "";
    if (quotable(r, field) && r->doc->nodes[node].kind == JSON_STRING) {
        struct json_str s = json_node_string(r->doc, node);
        bool printable = schema_credential_find(r->registry, s.ptr, s.len) == NULL;
        for (size_t i = 0; i < s.len; i++)
            printable &= (unsigned char)s.ptr[i] >= 0x20;
        if (printable && s.len <= VALUE_IN_MESSAGE_MAX)
            snprintf(got, sizeof got, " (got \"%.*s\")", (int)s.len, s.ptr);
    }
    rules__report_at_value(r, CODE_INVALID_ENUM, node, path,
                           rules__printf(r, "\"%s\" must be %s%s%s", field->name,
                                         field->enum_count == 1 ? "" : "one of ", allowed, got));
    rules__annotate(r, node, field, NULL);
}

/* Whether the number `node` is outside the field's bounds. An integer beyond 64 bits counts by
 * its sign. */
static bool out_of_bounds(struct rules *r, const struct schema_field *field, uint32_t node)
{
    const struct json_node *n = &r->doc->nodes[node];
    double value = 0;
    int64_t integer;
    bool representable = true;
    if (n->flags & JSON_FLAG_INTEGER) {
        representable = json_node_int64(r->doc, node, &integer);
        value = representable ? (double)integer : (r->doc->text[n->start] == '-' ? -1 : 1);
    } else {
        json_node_double(r->doc, node, &value);
    }
    bool low = field->has_minimum && (!representable ? value < 0 : value < field->minimum);
    bool high = field->has_maximum && (!representable ? value > 0 : value > field->maximum);
    return low || high;
}

static void check_bounds(struct rules *r, const struct schema_field *field, uint32_t node,
                         const struct rules_path *path)
{
    if (!out_of_bounds(r, field, node))
        return;
    const char *message;
    if (field->has_minimum && field->has_maximum)
        message = rules__printf(r, "\"%s\" must be between %g and %g", field->name, field->minimum,
                                field->maximum);
    else if (field->has_minimum)
        message = rules__printf(r, "\"%s\" must be at least %g", field->name, field->minimum);
    else
        message = rules__printf(r, "\"%s\" must be at most %g", field->name, field->maximum);
    rules__report_at_value(r, CODE_OUT_OF_RANGE, node, path, message);
    rules__annotate(r, node, field, NULL);
}

/* A port: a number, or a string of digits, from 1 to 65535. */
static void check_port(struct rules *r, const struct schema_field *field, uint32_t node,
                       const struct rules_path *path)
{
    const struct json_node *n = &r->doc->nodes[node];
    double value = 0;
    if (n->kind == JSON_STRING) {
        struct json_str s = json_node_string(r->doc, node);
        if (!value_format_port_string(s.ptr, s.len, &value)) {
            rules__report_at_value(r, CODE_INVALID_FORMAT, node, path,
                                   rules__printf(r, "\"%s\" must be %s", field->name,
                                                 value_format_expectation(SCHEMA_FORMAT_PORT)));
            return;
        }
    } else if (n->kind == JSON_NUMBER) {
        json_node_double(r->doc, node, &value);
    } else {
        return;
    }
    if (!value_format_port_in_range(value))
        rules__report_at_value(r, CODE_OUT_OF_RANGE, node, path,
                               rules__printf(r, "\"%s\" must be a port number from %d to %d",
                                             field->name, VALUE_FORMAT_PORT_MIN,
                                             VALUE_FORMAT_PORT_MAX));
}

/* A timestamp of the right shape that names no moment: which part is wrong, in words. NULL for
 * the others (a wrong shape, or a field whose value must not be quoted, even in part). */
static const char *timestamp_fault(struct rules *r, const struct schema_field *field,
                                   const char *text, size_t len)
{
    static const char *const months[] = {"January",   "February", "March",    "April",
                                         "May",       "June",     "July",     "August",
                                         "September", "October",  "November", "December"};
    struct value_format_timestamp t;
    enum value_format_timestamp_fault fault = value_format_timestamp_check(text, len, &t);
    if (!quotable(r, field))
        return NULL;
    const char *name = field->name;
    switch (fault) {
    case VALUE_FORMAT_TIMESTAMP_MONTH:
        return rules__printf(r, "\"%s\" has month %02d: a month is 01 to 12", name, t.month);
    case VALUE_FORMAT_TIMESTAMP_DAY:
        if (t.day == 0)
            return rules__printf(r, "\"%s\" has day 00: the days of a month start at 01", name);
        if (t.month == 2)
            return rules__printf(r,
                                 "\"%s\" is a date that does not exist: February %04d has %d "
                                 "days, not %d",
                                 name, t.year, value_format_days_in_month(t.year, 2), t.day);
        return rules__printf(r, "\"%s\" is a date that does not exist: %s has %d days, not %d",
                             name, months[t.month - 1], value_format_days_in_month(t.year, t.month),
                             t.day);
    case VALUE_FORMAT_TIMESTAMP_HOUR:
        return rules__printf(r,
                             "\"%s\" has hour %02d: an hour is 00 to 23 (midnight that ends a "
                             "day is 00:00 of the next)",
                             name, t.hour);
    case VALUE_FORMAT_TIMESTAMP_MINUTE:
        return rules__printf(r, "\"%s\" has minute %02d: a minute is 00 to 59", name, t.minute);
    case VALUE_FORMAT_TIMESTAMP_SECOND:
        return rules__printf(r,
                             "\"%s\" has second %02d: a second is 00 to 59 (60 only as the "
                             "leap second 23:59:60)",
                             name, t.second);
    case VALUE_FORMAT_TIMESTAMP_SHAPE:
    case VALUE_FORMAT_TIMESTAMP_VALID: break;
    }
    return NULL;
}

/* Whether `node` has the field's format (a value of another type has every format). */
static bool format_holds(struct rules *r, const struct schema_field *field, uint32_t node)
{
    const struct json_node *n = &r->doc->nodes[node];
    double value = 0;
    if (field->format == SCHEMA_FORMAT_PORT) {
        if (n->kind == JSON_STRING) {
            struct json_str s = json_node_string(r->doc, node);
            return value_format_port_string(s.ptr, s.len, &value) &&
                   value_format_port_in_range(value);
        }
        if (n->kind != JSON_NUMBER)
            return true;
        json_node_double(r->doc, node, &value); /* as check_port reads it */
        return value_format_port_in_range(value);
    }
    if (n->kind != JSON_STRING)
        return true;
    struct json_str s = json_node_string(r->doc, node);
    return value_format_valid(field->format, s.ptr, s.len);
}

static void check_format(struct rules *r, const struct schema_field *field, uint32_t node,
                         const struct rules_path *path)
{
    if (field->format == SCHEMA_FORMAT_PORT) {
        check_port(r, field, node, path);
        return;
    }
    if (r->doc->nodes[node].kind != JSON_STRING)
        return;
    struct json_str s = json_node_string(r->doc, node);
    if (value_format_valid(field->format, s.ptr, s.len))
        return;
    const char *message =
        field->format == SCHEMA_FORMAT_TIMESTAMP ? timestamp_fault(r, field, s.ptr, s.len) : NULL;
    if (message == NULL)
        message = rules__printf(r, "\"%s\" must be %s", field->name,
                                value_format_expectation(field->format));
    rules__report_at_value(r, CODE_INVALID_FORMAT, node, path, message);
}

static void check_secret(struct rules *r, const struct schema_field *field, uint32_t node,
                         const struct rules_path *path)
{
    struct json_str s = json_node_string(r->doc, node);
    enum diag_code code;
    const char *message;
    switch (secret_classify(s.ptr, s.len)) {
    case SECRET_BASE64_INVALID:
        code = CODE_INVALID_BASE64;
        message = rules__printf(r,
                                "the secret \"%s\" is marked \"" SECRET_BASE64_PREFIX "\" but "
                                "what follows is not valid base64 (A-Z a-z 0-9 + /, "
                                "padded with = to a multiple of 4)",
                                field->name);
        break;
    case SECRET_PLAIN_WITH_COLON:
        code = CODE_SECRET_NEEDS_BASE64;
        message = rules__printf(r,
                                "the plaintext of the secret \"%s\" contains a colon: "
                                "encode it in base64 and write "
                                "\"" SECRET_BASE64_PREFIX "<base64>\"",
                                field->name);
        break;
    case SECRET_NOT_ENCODED:
        code = CODE_SECRET_NOT_ENCODED;
        message = rules__printf(
            r,
            "\"%s\" is a secret and is not encoded: write it as "
            "\"" SECRET_PLAIN_PREFIX "<secret>\" (\"" SECRET_BASE64_PREFIX
            "<base64>\" when it contains a colon), as the placeholder " SECRET_PLACEHOLDER
            ", or as a secret-store reference "
            "(" SECRET_SCHEMES_TEXT ")",
            field->name);
        break;
    case SECRET_PLAIN:
    case SECRET_BASE64:
        code = CODE_INLINE_SECRET;
        message = rules__printf(r,
                                "the secret \"%s\" is written inline: anyone who reads the file "
                                "reads it (base64 is an encoding, not encryption); write a "
                                "secret-store reference (" SECRET_SCHEMES_TEXT ") or "
                                "the placeholder " SECRET_PLACEHOLDER " instead",
                                field->name);
        break;
    default: return;
    }
    rules__report_at_value(r, code, node, path, message);
    rules__annotate(r, node, field, NULL);
}

static const char *shape_message(struct rules *r, const char *name, size_t name_len,
                                 const struct schema_credential *shape)
{
    return rules__printf(r,
                         "\"%.*s\" holds a %s in plain text: anyone who reads the file can use "
                         "it; revoke it, keep it in a secret store and write a placeholder or a "
                         "reference instead",
                         (int)name_len, name, shape->name);
}

void rules__scan_credentials(struct rules *r, struct json_str name, uint32_t node,
                             const struct rules_path *path)
{
    const struct json_node *n = &r->doc->nodes[node];
    if (n->kind == JSON_STRING) {
        struct json_str s = json_node_string(r->doc, node);
        const struct schema_credential *shape = schema_credential_find(r->registry, s.ptr, s.len);
        if (shape != NULL)
            rules__report_at_value(r, CODE_PLAINTEXT_CREDENTIAL, node, path,
                                   shape_message(r, name.ptr, name.len, shape));
        return;
    }
    uint32_t index = 0;
    for (uint32_t c = n->first_child; c != JSON_NONE && !r->failed;
         c = r->doc->nodes[c].next, index++) {
        struct json_str key = n->kind == JSON_OBJECT ? json_node_key(r->doc, c) : name;
        struct rules_path child = n->kind == JSON_OBJECT ? rules__path_key(path, key.ptr, key.len)
                                                         : rules__path_index(path, index);
        rules__scan_credentials(r, key, c, &child);
    }
}

/* A credential in plain text: a well-known shape in a field not marked secret (which has its own
 * codes), or any plain text in a sensitive field. Names the shape or the field, never the value. */
static void check_credential(struct rules *r, const struct schema_field *field, uint32_t node,
                             const struct rules_path *path)
{
    struct json_str s = json_node_string(r->doc, node);
    const struct schema_credential *shape = schema_credential_find(r->registry, s.ptr, s.len);
    const char *message;
    enum diag_severity severity = code_info(CODE_PLAINTEXT_CREDENTIAL)->severity;
    if (shape != NULL) {
        message = shape_message(r, field->name, strlen(field->name), shape);
    } else {
        enum secret_encoding encoding = secret_classify(s.ptr, s.len);
        if (!field->sensitive || field->secret_reference || s.len == 0 || encoding == SECRET_KEPT ||
            encoding == SECRET_REFERENCE)
            return;
        severity = DIAG_INFORMATION; /* as inline-secret for a field marked secret */
        message = rules__printf(r,
                                "\"%s\" carries a credential and holds it in plain text: anyone "
                                "who reads the file reads it; write a secret-store reference "
                                "(" SECRET_SCHEMES_TEXT ") or a placeholder filled in at deploy "
                                "time",
                                field->name);
    }
    const struct json_node *n = &r->doc->nodes[node];
    rules__report_as(r, CODE_PLAINTEXT_CREDENTIAL, severity, n->start, n->end, path, message);
    rules__annotate(r, node, field, NULL);
}

static void check_elements(struct rules *r, const struct schema_field *items, uint32_t array,
                           const struct rules_path *path)
{
    uint32_t index = 0;
    for (uint32_t e = r->doc->nodes[array].first_child; e != JSON_NONE;
         e = r->doc->nodes[e].next, index++) {
        struct rules_path element = rules__path_index(path, index);
        rules__check_value(r, items, e, &element);
    }
}

/* A string that holds a placeholder of the project is filled in later: its value is not known, so
 * no enum, bounds, format or secret rule reads it. Where the field takes no string, a plain
 * substitution leaves one: that is said. True when `node` is such a string. */
static bool check_templated(struct rules *r, const struct schema_field *field, uint32_t node,
                            const struct rules_path *path)
{
    struct placeholder_match m;
    if (!settings_placeholder(r->settings, r->doc, node, &m))
        return false;
    uint32_t accepted = field->types | field->sample_types;
    if (type_accepted(accepted, SCHEMA_STRING))
        return true;
    rules__report_at_value(
        r, CODE_TYPE_MISMATCH, node, path,
        rules__printf(r,
                      "\"%s\" must be %s: a placeholder inside quotes is still a string after a "
                      "plain substitution; the renderer must write the value without the quotes",
                      field->name, schema_types_describe(accepted, r->t->arena)));
    return true;
}

bool rules__value_invalid(struct rules *r, const struct schema_field *field, uint32_t node)
{
    const struct json_node *n = &r->doc->nodes[node];
    struct placeholder_match m;
    if (n->kind == JSON_INVALID || settings_placeholder(r->settings, r->doc, node, &m) ||
        !type_accepted(field->types | field->sample_types, node_type(r->doc, node)))
        return true;
    if (field->enum_count > 0 && !enum_holds(r, field, node))
        return true;
    if (n->kind == JSON_NUMBER && (field->has_minimum || field->has_maximum) &&
        out_of_bounds(r, field, node))
        return true;
    return field->format != SCHEMA_FORMAT_NONE && !format_holds(r, field, node);
}

void rules__check_value(struct rules *r, const struct schema_field *field, uint32_t node,
                        const struct rules_path *path)
{
    const struct json_node *n = &r->doc->nodes[node];
    if (n->kind == JSON_INVALID)
        return; /* a syntax error already speaks for it */
    if (n->kind == JSON_STRING && settings_template_unconfigured(r->settings, r->doc, node))
        rules__report_as(r, CODE_PROJECT_CONFIG, DIAG_HINT, n->start, n->end, path,
                         rules__printf(r,
                                       "\"%s\" looks like a template placeholder, but srcls.json "
                                       "names no \"" SETTINGS_KEY_PLACEHOLDERS "\": it is checked "
                                       "as written and no fix rewrites it; name your renderer's "
                                       "syntax there (" SETTINGS_TEMPLATE_SYNTAXES ")",
                                       field->name));
    if (n->kind == JSON_STRING && check_templated(r, field, node, path))
        return;
    uint32_t actual = node_type(r->doc, node);
    if (!type_accepted(field->types | field->sample_types, actual)) {
        const char *expected =
            schema_types_describe(field->types | field->sample_types, r->t->arena);
        const char *got = actual == SCHEMA_NUMBER ? "a number with a fraction or exponent"
                                                  : schema_types_describe(actual, r->t->arena);
        rules__report_at_value(
            r, CODE_TYPE_MISMATCH, node, path,
            rules__printf(r, "\"%s\" must be %s, not %s", field->name, expected, got));
        rules__annotate(r, node, field, NULL);
        return;
    }
    if (field->enum_count > 0)
        check_enum(r, field, node, path);
    if (n->kind == JSON_NUMBER && (field->has_minimum || field->has_maximum))
        check_bounds(r, field, node, path);
    if (field->format != SCHEMA_FORMAT_NONE)
        check_format(r, field, node, path);
    if (field->secret && n->kind == JSON_STRING)
        check_secret(r, field, node, path);
    else if (n->kind == JSON_STRING)
        check_credential(r, field, node, path);
    if (n->kind == JSON_ARRAY && field->items != NULL)
        check_elements(r, field->items, node, path);
    if (n->kind == JSON_OBJECT && field->object != NULL) {
        struct rules_place place = {node, path, NULL};
        rules__check_object(r, field->object, field->additional_fields, &place);
    }
}
