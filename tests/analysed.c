/* analysed: the feature tests' documents and their diagnostics. */
#include "analysed.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "domain/domain.h"

const struct schema_registry *analysed_registry;
struct schema_registry analysed_schema;

int analysed_setup(void **state)
{
    (void)state;
    char error[512];
    int status = schema_registry_load_embedded(&analysed_schema, error, sizeof error);
    if (status != 0)
        fprintf(stderr, "schema: %s\n", error);
    else
        analysed_registry = &analysed_schema;
    return status;
}

int analysed_teardown(void **state)
{
    (void)state;
    schema_registry_free(&analysed_schema);
    analysed_registry = NULL;
    return 0;
}

void analyse_n(struct analysed *d, const char *text, size_t len)
{
    d->text = malloc(len + 1);
    assert_non_null(d->text);
    memcpy(d->text, text, len);
    d->text[len] = '\0';
    d->len = len;
    struct analysis_options options = {.report_unknown_document = true,
                                       .registry = analysed_registry};
    assert_int_equal(analysis_run(&d->a, d->text, len, &options), 0);
}

void analyse(struct analysed *d, const char *text)
{
    analyse_n(d, text, strlen(text));
}

uint32_t analyse_at(struct analysed *d, const char *marked)
{
    const char *bar = strchr(marked, '|');
    assert_non_null(bar);
    assert_null(strchr(bar + 1, '|'));
    size_t len = strlen(marked) - 1, cursor = (size_t)(bar - marked);
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, marked, cursor);
    memcpy(text + cursor, bar + 1, len - cursor + 1);
    analyse_n(d, text, len);
    free(text);
    return (uint32_t)cursor;
}

void analysed_free(struct analysed *d)
{
    analysis_free(&d->a);
    free(d->text);
}

void print_diagnostics(const struct analysed *d)
{
    fprintf(stderr, "in: %s\n", d->text);
    for (uint32_t i = 0; i < d->a.diags.count; i++)
        fprintf(stderr, "  %s at \"%s\": %s\n", code_name(d->a.diags.items[i].code),
                d->a.diags.items[i].pointer, d->a.diags.items[i].message);
}

char *diagnostic_lines(const struct schema_registry *registry, const char *text)
{
    struct analysis a;
    struct analysis_options options = {.report_unknown_document = true, .registry = registry};
    assert_int_equal(analysis_run(&a, text, strlen(text), &options), 0);
    size_t cap = 4096, len = 0;
    char *out = calloc(1, cap);
    assert_non_null(out);
    for (uint32_t i = 0; i < a.diags.count; i++) {
        const struct diagnostic *d = &a.diags.items[i];
        len += (size_t)snprintf(out + len, cap - len, "%s %s\n", code_name(d->code), d->pointer);
        assert_true(len < cap);
    }
    analysis_free(&a);
    return out;
}

int diagnostic_index(const struct analysed *d, const char *code, const char *pointer)
{
    for (uint32_t i = 0; i < d->a.diags.count; i++) {
        if (strcmp(code_name(d->a.diags.items[i].code), code) == 0 &&
            strcmp(d->a.diags.items[i].pointer, pointer) == 0)
            return (int)i;
    }
    return -1;
}

uint32_t diagnostic_at(const struct analysed *d, const char *code, const char *pointer)
{
    int index = diagnostic_index(d, code, pointer);
    if (index < 0) {
        fprintf(stderr, "expected %s at \"%s\"\n", code, pointer);
        print_diagnostics(d);
    }
    assert_true(index >= 0);
    return (uint32_t)index;
}

void assert_no_diagnostic(const struct analysed *d, const char *code, const char *pointer)
{
    int index = diagnostic_index(d, code, pointer);
    if (index >= 0) {
        fprintf(stderr, "unexpected %s at \"%s\"\n", code, pointer);
        print_diagnostics(d);
    }
    assert_int_equal(index, -1);
}

uint32_t validity_count(const struct analysed *d)
{
    uint32_t count = 0;
    for (uint32_t k = 0; k < d->a.diags.count; k++)
        count += !code_in_group(d->a.diags.items[k].code, CODE_GROUP_SECURITY);
    return count;
}
