/* diagnostic: a growable list of diagnostics and severity names. */
#include "diagnostic.h"

#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "base/base.h"

int diag_list_add(struct diag_list *list, const struct diagnostic *diag)
{
    if (list->count == UINT32_MAX)
        return -1;
    struct diagnostic *grown =
        vector_grow(list->items, &list->cap, (size_t)list->count + 1, sizeof *grown);
    if (grown == NULL)
        return -1;
    list->items = grown;
    list->items[list->count++] = *diag;
    return 0;
}

void diag_list_free(struct diag_list *list)
{
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->cap = 0;
}

static const char *or_empty(const char *text)
{
    return text != NULL ? text : "";
}

static int compare_diagnostics(const void *a, const void *b)
{
    const struct diagnostic *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    int by = strcmp(code_name(x->code), code_name(y->code));
    if (by == 0)
        by = strcmp(or_empty(x->message), or_empty(y->message));
    if (by == 0)
        by = strcmp(or_empty(x->pointer), or_empty(y->pointer));
    return by;
}

void diag_list_sort_from(struct diag_list *list, uint32_t first)
{
    if (list->count > first + 1)
        qsort(list->items + first, list->count - first, sizeof *list->items, compare_diagnostics);
}

void diag_list_sort(struct diag_list *list)
{
    diag_list_sort_from(list, 0);
}

const char *diag_severity_name(enum diag_severity severity)
{
    switch (severity) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_INFORMATION: return "information";
    case DIAG_HINT: return "hint";
    case DIAG_OFF: break;
    }
    return "off";
}

int diag_severity_parse(const char *name)
{
    static const struct {
        const char *name;
        enum diag_severity severity;
    } names[] = {
        {"error", DIAG_ERROR},      {"warning", DIAG_WARNING}, {"information", DIAG_INFORMATION},
        {"info", DIAG_INFORMATION}, {"hint", DIAG_HINT},       {"off", DIAG_OFF}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0)
            return (int)names[i].severity;
    }
    return -1;
}
