/* project: srcls.json read as settings, its mistakes placed by their JSON Pointers. */
#include "project.h"
#include "project_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"

bool project_is_config(const char *path, size_t len)
{
    size_t name = sizeof PROJECT_FILE_NAME - 1;
    return len >= name && memcmp(path + len - name, PROJECT_FILE_NAME, name) == 0 &&
           (len == name || path[len - name - 1] == '/');
}

int project_config_find(const char *dir, bool (*exists)(void *ctx, const char *candidate),
                        void *ctx, char **found)
{
    size_t len = strlen(dir);
    char *candidate = malloc(len + sizeof "/" PROJECT_FILE_NAME);
    *found = NULL;
    if (candidate == NULL)
        return -1;
    memcpy(candidate, dir, len);
    for (;;) { /* from `dir` upwards */
        memcpy(candidate + len, "/" PROJECT_FILE_NAME, sizeof "/" PROJECT_FILE_NAME);
        if (exists(ctx, candidate)) {
            *found = candidate;
            return 1;
        }
        while (len > 0 && candidate[len - 1] != '/')
            len--;
        if (len == 0)
            break; /* no directory above */
        len--;     /* the directory above, without its '/' */
    }
    free(candidate);
    return 0;
}

/* Adds a project-config diagnostic on the bytes [start, end). */
static int report_range(struct analysis *a, uint32_t start, uint32_t end, const char *pointer,
                        const char *message)
{
    struct diagnostic d = {
        .code = CODE_PROJECT_CONFIG,
        .severity = code_info(CODE_PROJECT_CONFIG)->severity,
        .start = start,
        .end = end,
        .related_start = JSON_NONE,
        .related_end = JSON_NONE,
        .message = arena_strndup(&a->arena, message, strlen(message)),
        .pointer = arena_strndup(&a->arena, pointer, strlen(pointer)),
        .node = JSON_NONE,
    };
    if (d.message == NULL || d.pointer == NULL)
        return -1;
    return diag_list_add(&a->diags, &d);
}

/* Adds a project-config diagnostic at `node` (its key when it is a member, else its value). */
static int report(struct analysis *a, uint32_t node, const char *pointer, const char *message)
{
    const struct json_node *n = &a->doc.nodes[node];
    bool key = n->key_start != JSON_NONE && n->parent != JSON_NONE;
    return report_range(a, key ? n->key_start : n->start, key ? n->key_end : n->end, pointer,
                        message);
}

/* Each "POINTER: message" line of `problems` as a diagnostic where the pointer leads. */
static int report_problems(struct analysis *a, const char *problems)
{
    for (const char *line = problems, *end; *line != '\0'; line = end + (*end != '\0')) {
        end = line + strcspn(line, "\n");
        const char *colon = memchr(line, ':', (size_t)(end - line));
        size_t pointer_len = colon ? (size_t)(colon - line) : 0;
        uint32_t node = json_pointer_find(&a->doc, line, pointer_len);
        char pointer[256], message[512];
        snprintf(pointer, sizeof pointer, "%.*s", (int)pointer_len, line);
        const char *text = colon ? colon + 1 + (colon[1] == ' ') : line;
        snprintf(message, sizeof message, "%.*s", (int)(end - text), text);
        if (report(a, node != JSON_NONE ? node : a->doc.root, pointer, message) != 0)
            return -1;
    }
    return 0;
}

/* The "types" entries that name no kind. */
static int report_unknown_types(struct analysis *a, const struct settings *read,
                                const struct schema_registry *registry)
{
    for (uint32_t i = 0; registry != NULL && i < read->type_count; i++) {
        const char *kind = read->types[i].kind_type;
        if (schema_find_kind(registry, kind, strlen(kind)) != NULL)
            continue;
        const char *pointer =
            json_pointer_append(&a->arena, "/types", read->types[i].id, strlen(read->types[i].id));
        uint32_t node = pointer ? json_pointer_find(&a->doc, pointer, strlen(pointer)) : JSON_NONE;
        char message[256];
        snprintf(message, sizeof message,
                 "\"%s\" is the type of no kind (srcls --list-kinds lists them)", kind);
        if (report(a, node != JSON_NONE ? node : a->doc.root, pointer ? pointer : "/types",
                   message) != 0)
            return -1;
    }
    return 0;
}

static int by_file_name(const void *a, const void *b)
{
    const struct schema_file *x = a, *y = b;
    return strcmp(x->name, y->name);
}

/* Each directory of "schemas" (`read`'s, those of the files extended first) read into
 * `schema`; one that cannot be read is reported at its entry (an extended file's at "extends").
 * Then, when there was one at least and all could be read, the project's registry. */
static int read_schemas(struct analysis *a, const char *config_dir,
                        const struct project_reader *reader, const struct settings *read,
                        struct project_schema *schema)
{
    struct json_doc *doc = &a->doc;
    const struct settings_strings *dirs = &read->schemas;
    uint32_t list = json_object_get(doc, doc->root, JSON_LITERAL(SETTINGS_KEY_SCHEMAS));
    uint32_t own = list != JSON_NONE ? doc->nodes[list].first_child : JSON_NONE;
    uint32_t extends = json_object_get(doc, doc->root, JSON_LITERAL(SETTINGS_KEY_EXTENDS));
    if (dirs->count == 0)
        return 0;
    schema->dirs = calloc(dirs->count + 1, sizeof *schema->dirs);
    if (schema->dirs == NULL)
        return -1;
    bool readable = true;
    for (uint32_t i = 0; i < dirs->count; i++) {
        uint32_t e = i < dirs->inherited ? extends : own; /* where it is written */
        if (i >= dirs->inherited && own != JSON_NONE)
            own = doc->nodes[own].next;
        const char *name = dirs->items[i];
        char *dir = name[0] == '/' ? arena_strndup(&a->arena, name, strlen(name))
                                   : arena_printf(&a->arena, "%s/%s", config_dir, name);
        if (dir == NULL || (schema->dirs[schema->dir_count] = vector_copy_string(dir)) == NULL)
            return -1;
        schema->dir_count++;
        char why[256] = "", message[512];
        size_t before = schema->file_count;
        int status = reader->read_dir(reader->context, dir, schema, why, sizeof why);
        /* each directory's files in name order, whatever order the door met them in: kinds
         * without a number are numbered in that order */
        if (schema->file_count > before) /* none: files may still be NULL */
            qsort(schema->files + before, schema->file_count - before, sizeof *schema->files,
                  by_file_name);
        if (status == 0)
            continue;
        readable = false;
        snprintf(message, sizeof message, "cannot read the directory of kind files %s: %s", dir,
                 why);
        const char *pointer = e != JSON_NONE ? json_pointer_of(doc, e, &a->arena) : NULL;
        if (report(a, e != JSON_NONE ? e : doc->root, pointer ? pointer : "/" SETTINGS_KEY_SCHEMAS,
                   message) != 0)
            return -1;
    }
    if (!readable)
        return 0;
    if (schema_registry_load_custom(&schema->registry, schema->files, schema->file_count,
                                    &schema->problems) != 0)
        return -1;
    schema->custom = true;
    return 0;
}

int project_analyze_schema(struct analysis *out, const char *text, size_t len,
                           const struct schema_registry *builtin, const char *config_dir,
                           const struct project_reader *reader, struct settings *settings,
                           struct project_schema *schema)
{
    if (schema != NULL) {
        project_schema_free(schema);
    }
    struct analysis_options options = {0}; /* syntax only: srcls.json is no source or job */
    if (analysis_run(out, text, len, &options) != 0)
        return -1;
    if (out->doc.root == JSON_NONE && out->diags.count == 1) /* an empty file */
        out->diags.items[0].message = "the configuration is empty: it holds an object "
                                      "({} at least)";
    if (out->doc.error_count > 0 || out->doc.root == JSON_NONE)
        return 0;
    if (out->doc.nodes[out->doc.root].kind != JSON_OBJECT) {
        if (report(out, out->doc.root, "", "the configuration must be an object") != 0)
            return -1;
        diag_list_sort(&out->diags);
        return 0;
    }
    struct settings read;
    settings_init(&read);
    char problems[4096] = "";
    settings_read(&read, &out->doc, out->doc.root, problems, sizeof problems);
    int status = read.arena.failed ? -1 : report_problems(out, problems); /* a part missing */
    if (status == 0 && out->diags.count == 0 && reader != NULL && reader->read_file != NULL)
        status = project_extend(out, config_dir, reader, &read);
    if (status == 0 && out->diags.count == 0 && schema != NULL && reader != NULL)
        status = read_schemas(out, config_dir, reader, &read, schema);
    const struct schema_registry *registry =
        schema != NULL ? project_schema_registry(schema, builtin) : builtin;
    if (status == 0)
        status = report_unknown_types(out, &read, registry);
    diag_list_sort(&out->diags);
    if (status == 0 && out->diags.count == 0) {
        settings_free(settings);
        *settings = read; /* moved: its arena holds its strings */
        return 1;
    }
    settings_free(&read);
    if (schema != NULL)
        project_schema_free(schema);
    return status;
}

int project_analyze(struct analysis *out, const char *text, size_t len,
                    const struct schema_registry *registry, struct settings *settings)
{
    return project_analyze_schema(out, text, len, registry, NULL, NULL, settings, NULL);
}

int project_kind_file_analyze(struct analysis *out, const char *text, size_t len, const char *name,
                              const struct project_schema *schema)
{
    struct analysis_options options = {0}; /* syntax first: the loader needs a parsed file */
    if (analysis_run(out, text, len, &options) != 0)
        return -1;
    if (out->doc.error_count > 0 || out->doc.root == JSON_NONE)
        return 0;
    struct schema_file *files = calloc(schema->file_count + 1, sizeof *files);
    if (files == NULL) {
        analysis_free(out); /* as analysis_run leaves it when memory runs out */
        return -1;
    }
    size_t count = 0, self = project_schema_index(schema, name);
    for (size_t i = 0; i < schema->file_count; i++) {
        if (i != self)
            files[count++] = schema->files[i];
    }
    files[count++] = (struct schema_file){name, text, len, true};
    struct schema_registry registry;
    struct schema_problems problems;
    int status = schema_registry_load_custom(&registry, files, count, &problems);
    for (size_t i = 0; status == 0 && i < problems.count; i++) {
        const struct schema_problem *p = &problems.items[i];
        if (p->file != count - 1 && p->file != SIZE_MAX)
            continue; /* another file's */
        uint32_t start = p->end > p->start ? p->start : out->doc.nodes[out->doc.root].start;
        uint32_t end = p->end > p->start ? p->end : start + 1;
        status = report_range(out, start, end, p->pointer, p->message);
    }
    if (status == 0)
        schema_registry_free(&registry);
    schema_problems_free(&problems);
    free(files);
    diag_list_sort(&out->diags);
    if (status != 0)
        analysis_free(out); /* as analysis_run leaves it when memory runs out */
    return status;
}

/* `text` as a JSON string (quoted, escaped), in `arena`; NULL when out of memory. */
static const char *quoted(const char *text, struct arena *arena)
{
    struct json_writer w;
    json_writer_init(&w, 0);
    json_write_string(&w, text);
    const char *out = w.failed ? NULL : arena_strndup(arena, w.buf, w.len);
    json_writer_free(&w);
    return out;
}

/* `"id": "kind"` with both strings escaped as JSON, in `arena`. */
static const char *mapping(const char *id, const char *kind_type, struct arena *arena)
{
    const char *key = quoted(id, arena), *value = quoted(kind_type, arena);
    return key && value ? arena_printf(arena, "%s: %s", key, value) : NULL;
}

const char *project_map_type(const char *text, size_t len, const char *id, const char *kind_type,
                             struct arena *arena, uint32_t *start, uint32_t *end)
{
    const char *member = mapping(id, kind_type, arena);
    return member != NULL ? settings_edit_add(text, len, SETTINGS_KEY_TYPES, false, id, member,
                                              arena, start, end)
                          : NULL;
}
