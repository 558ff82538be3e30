/* project_schema: a project's own kind files, as the doors read them, and the registry built
 * from them (project_analyze_schema in project.c reads the directories). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"
#include "base/base.h"

int project_schema_add(struct project_schema *schema, char *name, char *text, size_t len)
{
    struct schema_file *grown = vector_grow(schema->files, &schema->file_capacity,
                                            schema->file_count + 1, sizeof *schema->files);
    if (grown == NULL) {
        free(name);
        free(text);
        return -1;
    }
    schema->files = grown;
    schema->files[schema->file_count++] = (struct schema_file){name, text, len, true};
    return 0;
}

void project_schema_free(struct project_schema *schema)
{
    if (schema->custom)
        schema_registry_free(&schema->registry);
    for (uint32_t i = 0; i < schema->dir_count; i++)
        free(schema->dirs[i]);
    free(schema->dirs);
    for (size_t i = 0; i < schema->file_count; i++) {
        free((char *)schema->files[i].name);
        free((char *)schema->files[i].text);
    }
    free(schema->files);
    schema_problems_free(&schema->problems);
    memset(schema, 0, sizeof *schema);
}

const struct schema_registry *project_schema_registry(const struct project_schema *schema,
                                                      const struct schema_registry *builtin)
{
    return schema != NULL && schema->custom ? &schema->registry : builtin;
}

/* `path` without "." steps, repeated slashes and a trailing slash, in place. */
static void tidy(char *path)
{
    char *out = path;
    for (const char *in = path; *in != '\0';) {
        if (in[0] == '/' && (in[1] == '/' || (in[1] == '.' && (in[2] == '/' || in[2] == '\0')))) {
            in += in[1] == '/' ? 1 : 2; /* "//" or "/." */
            continue;
        }
        *out++ = *in++;
    }
    *out = '\0';
    if (out - path > 1 && out[-1] == '/')
        out[-1] = '\0';
}

bool project_is_kind_file_name(const char *name)
{
    size_t len = strlen(name), suffix = sizeof SCHEMA_JSON_SCHEMA_SUFFIX - 1;
    return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".json") == 0 &&
           !(len > suffix && strcmp(name + len - suffix, SCHEMA_JSON_SCHEMA_SUFFIX) == 0);
}

/* `path` tidied into `out` (`size` bytes, no allocation: a question asked of every file of a
 * scan cannot fail for memory); false when it is longer than any path the system opens. */
static bool tidied(const char *path, char *out, size_t size)
{
    if ((size_t)snprintf(out, size, "%s", path) >= size)
        return false;
    tidy(out);
    return true;
}

bool project_schema_has(const struct project_schema *schema, const char *path)
{
    const char *base = strrchr(path, '/');
    char file[2 * PATH_MAX], dir[2 * PATH_MAX];
    if (schema == NULL || !project_is_kind_file_name(base != NULL ? base + 1 : path) ||
        !tidied(path, file, sizeof file))
        return false;
    char *slash = strrchr(file, '/');
    bool found = false;
    for (uint32_t i = 0; slash != NULL && !found && i < schema->dir_count; i++) {
        if (!tidied(schema->dirs[i], dir, sizeof dir))
            continue;
        *slash = '\0';
        found = strcmp(file, dir) == 0;
        *slash = '/';
    }
    return found;
}

size_t project_schema_index(const struct project_schema *schema, const char *path)
{
    char wanted[2 * PATH_MAX], name[2 * PATH_MAX];
    size_t found = SIZE_MAX;
    if (!tidied(path, wanted, sizeof wanted))
        return found;
    for (size_t i = 0; found == SIZE_MAX && i < schema->file_count; i++) {
        if (tidied(schema->files[i].name, name, sizeof name) && strcmp(name, wanted) == 0)
            found = i;
    }
    return found;
}
