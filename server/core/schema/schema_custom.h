/* schema_custom: a registry of the built-in kinds with a team's own kind and group files over
 * them (the directories srcls.json's "schemas" names; docs/schema-format.md, "Your own kinds").
 * The doors read the files; this builds the registry and says what is wrong with which file. */
#ifndef SRCLS_SCHEMA_CUSTOM_H
#define SRCLS_SCHEMA_CUSTOM_H

#include <stddef.h>
#include <stdint.h>

struct schema_error;
struct schema_file;
struct schema_registry;

/* A custom file left out: which (its index in the files given; SIZE_MAX when the built-in
 * schema refused them all), the bytes at fault ([start, end); 0 0 for the whole file), their JSON
 * Pointer, the message alone, and the whole line "PATH:LINE:COLUMN at POINTER: MESSAGE". */
struct schema_problem {
    size_t file;
    uint32_t start, end;
    char pointer[256];
    char message[256];
    char *text; /* owned */
};

struct schema_problems {
    struct schema_problem *items;
    size_t count, capacity;
};

/* Builds `registry` from the built-in schema and the `count` custom files (each loaded as
 * `custom` whatever its flag says). A file the loader refuses is left out, its problem added to
 * `problems`, and the rest loaded again; so the registry holds every built-in kind and every
 * custom file that loads. Returns 0 (the registry is built, perhaps with problems), or -1 when
 * memory ran out. `problems` is set in both cases; free it with schema_problems_free. */
int schema_registry_load_custom(struct schema_registry *registry, const struct schema_file *custom,
                                size_t count, struct schema_problems *problems);
void schema_problems_free(struct schema_problems *problems);
/* Adds the problem of file `file` (`where`, and the whole line `text`); -1 when memory ran out. */
int schema_problems_add(struct schema_problems *problems, size_t file,
                        const struct schema_error *where, const char *text);

#endif
