/* schema_custom: the built-in schema with a team's own kind files over it (srcls.json's
 * "schemas"). The loader stops at the first mistake; a custom file with one is left out and the
 * rest loaded again, so each broken file is reported with its place and never takes the others,
 * nor the built-in kinds, down. */
#include "schema_custom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_embedded.h"
#include "schema_internal.h"
#include "base/base.h"

void schema_problems_free(struct schema_problems *problems)
{
    for (size_t i = 0; i < problems->count; i++)
        free(problems->items[i].text);
    free(problems->items);
    problems->items = NULL;
    problems->count = 0;
    problems->capacity = 0;
}

int schema_problems_add(struct schema_problems *problems, size_t file, const struct schema_error *e,
                        const char *text)
{
    struct schema_problem *grown = vector_grow(problems->items, &problems->capacity,
                                               problems->count + 1, sizeof *problems->items);
    if (grown == NULL)
        return -1;
    problems->items = grown;
    struct schema_problem *p = &problems->items[problems->count];
    *p = (struct schema_problem){.file = file, .start = e->start, .end = e->end};
    snprintf(p->pointer, sizeof p->pointer, "%s", e->pointer);
    snprintf(p->message, sizeof p->message, "%s", e->message);
    if ((p->text = vector_copy_string(text)) == NULL)
        return -1;
    problems->count++;
    return 0;
}

static int by_file(const void *a, const void *b)
{
    const struct schema_problem *x = a, *y = b;
    return (x->file > y->file) - (x->file < y->file);
}

int schema_registry_load_custom(struct schema_registry *registry, const struct schema_file *custom,
                                size_t count, struct schema_problems *problems)
{
    *problems = (struct schema_problems){0};
    size_t builtin = schema_embedded_count;
    struct schema_file *files = calloc(builtin + count + 1, sizeof *files);
    size_t *origin =
        calloc(count + 1, sizeof *origin); /* files[builtin + i] is custom[origin[i]] */
    int status = -1;
    if (files == NULL || origin == NULL)
        goto done;
    for (size_t i = 0; i < builtin; i++) {
        files[i] =
            (struct schema_file){schema_embedded_files[i].name, schema_embedded_files[i].text,
                                 schema_embedded_files[i].len, false};
    }
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        files[builtin + kept] = custom[i];
        files[builtin + kept].custom = true;
        origin[kept++] = i;
    }
    /* A round sets aside each file with a mistake of its own and goes on; a mistake that only
     * shows with other files (a name, number or identifier twice) ends it, and the next round
     * leaves that file out: at most count + 1 rounds, and one in the common case. */
    for (;;) {
        struct schema_error where = {.file = SIZE_MAX};
        struct schema_problems round = {0};
        char error[640] = "";
        if (schema__load(registry, files, builtin + kept, &where, error, sizeof error, &round) ==
            0) {
            status = 0;
            for (size_t i = 0; status == 0 && i < round.count; i++) {
                struct schema_problem *p = &round.items[i];
                struct schema_error e = {0, p->start, p->end, "", ""};
                snprintf(e.pointer, sizeof e.pointer, "%s", p->pointer);
                snprintf(e.message, sizeof e.message, "%s", p->message);
                status = schema_problems_add(problems, origin[p->file - builtin], &e, p->text);
            }
            schema_problems_free(&round);
            break;
        }
        schema_problems_free(&round);
        if (error[0] == '\0')
            break; /* out of memory: no message */
        bool theirs = where.file != SIZE_MAX && where.file >= builtin;
        size_t at = theirs ? where.file - builtin : 0;
        if (schema_problems_add(problems, theirs ? origin[at] : SIZE_MAX, &where, error) != 0)
            break;
        if (!theirs) { /* a built-in file refused with these over it: none of them is loaded */
            status = schema_registry_load_embedded(registry, error, sizeof error);
            break;
        }
        memmove(&files[builtin + at], &files[builtin + at + 1], (kept - at - 1) * sizeof *files);
        memmove(&origin[at], &origin[at + 1], (kept - at - 1) * sizeof *origin);
        kept--;
    }
done:
    if (problems->count > 1) /* found in the loader's order: shown in the files' */
        qsort(problems->items, problems->count, sizeof *problems->items, by_file);
    free(files);
    free(origin);
    return status;
}
