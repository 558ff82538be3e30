/* field_text: a field described in Markdown or plain text. */
#include "field_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "domain/domain.h"

/* A condition in words. */
#define CONDITION_TEXT_MAX 512

const char *field_text_code(enum text_markup markup)
{
    return markup == TEXT_MARKDOWN ? "`" : "";
}

const char *field_text_strong(enum text_markup markup)
{
    return markup == TEXT_MARKDOWN ? "**" : "";
}

static void append(char *out, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *out, size_t size, const char *format, ...)
{
    size_t used = strlen(out);
    if (used + 1 >= size)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(out + used, size - used, format, args);
    va_end(args);
}

/* The first line: name, types, whether it is required, secret. */
static void describe_head(const struct schema_field *field, enum text_markup markup, char *out,
                          size_t size, struct arena *arena)
{
    const char *c = field_text_code(markup), *b = field_text_strong(markup);
    const char *types = schema_types_describe(field->types | field->sample_types, arena);
    append(out, size, "%s%s%s%s%s — %s", b, c, field->name, c, b, types ? types : "");
    if (field->required) {
        append(out, size, ", %srequired%s", b, b);
    } else if (field->required_when != NULL) {
        char condition[CONDITION_TEXT_MAX];
        condition_describe(field->required_when, condition, sizeof condition);
        append(out, size, ", required when %s", condition);
    } else {
        append(out, size, ", optional");
    }
    if (field->secret)
        append(out, size, ", secret");
    else if (field->sensitive)
        append(out, size, ", sensitive");
    append(out, size, "\n\n");
}

/* Default, range, format, applicability, on one line. */
static void describe_facts(const struct schema_field *field, enum text_markup markup, char *out,
                           size_t size)
{
    const char *c = field_text_code(markup);
    bool facts = false;
    if (field->has_default) {
        append(out, size, "Default: %s%s%s", c,
               field->default_value.type == SCHEMA_STRING ? schema_value_text(&field->default_value)
                                                          : field->default_value.text,
               c);
        facts = true;
    }
    if (field->has_minimum || field->has_maximum) {
        append(out, size, "%sRange: ", facts ? " · " : "");
        if (field->has_minimum && field->has_maximum)
            append(out, size, "%g to %g", field->minimum, field->maximum);
        else if (field->has_minimum)
            append(out, size, "at least %g", field->minimum);
        else
            append(out, size, "at most %g", field->maximum);
        facts = true;
    }
    if (field->format != SCHEMA_FORMAT_NONE) {
        append(out, size, "%sFormat: %s", facts ? " · " : "", schema_format_name(field->format));
        facts = true;
    }
    if (field->applicable != NULL) {
        char condition[CONDITION_TEXT_MAX];
        condition_describe(field->applicable, condition, sizeof condition);
        append(out, size, "%sApplies when %s", facts ? " · " : "", condition);
        facts = true;
    }
    if (facts)
        append(out, size, "\n\n");
}

const char *field_text_describe(const struct schema_field *field, enum text_markup markup,
                                struct arena *arena)
{
    const char *c = field_text_code(markup);
    char text[4096] = "";
    describe_head(field, markup, text, sizeof text, arena);
    describe_facts(field, markup, text, sizeof text);
    if (field->enum_count > 0) {
        append(text, sizeof text, "Values:\n");
        for (uint32_t i = 0; i < field->enum_count; i++) {
            const struct schema_enum_value *e = &field->enums[i];
            append(text, sizeof text, "- %s%s%s%s%s\n", c, schema_value_text(&e->value), c,
                   e->description ? " — " : "", e->description ? e->description : "");
        }
        append(text, sizeof text, "\n");
    }
    if (field->secret)
        append(text, sizeof text,
               "Write secrets as %s" SECRET_PLAIN_PREFIX "<text>%s (or %s" SECRET_BASE64_PREFIX
               "<base64>%s when the text has a colon), %s" SECRET_PLACEHOLDER "%s, or a "
               "secret-store reference.\n\n",
               c, c, c, c, c, c);
    if (field->description != NULL)
        append(text, sizeof text, "%s", field->description);
    return arena_strndup(arena, text, strlen(text));
}
