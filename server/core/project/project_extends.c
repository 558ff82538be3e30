/* project_extends: the srcls.json files a srcls.json builds on through "extends", read through
 * the door's reader and laid under its own settings (project_analyze_schema). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"
#include "project_internal.h"
#include "json/json.h"

/* How deep "extends" may nest: far past any monorepo's, short of a stack's worry. */
#define EXTENDS_DEPTH_MAX 16
/* The files extended that a project keeps (to watch them), and that are read once however
 * many extend them: the first ones read. */
#define EXTENDS_READ_MAX 64
/* The most files one srcls.json's "extends" may read in all: a bound on the work whatever the
 * shape (past EXTENDS_READ_MAX a file two others extend is read again). */
#define EXTENDS_LOADS_MAX 256

struct extends_walk {
    const struct project_reader *reader;
    const char *home;                         /* the extending srcls.json's directory */
    const char *chain[EXTENDS_DEPTH_MAX + 1]; /* the files being read, outermost first */
    uint32_t depth;
    struct arena arena;                 /* paths and messages, for the walk */
    const char *read[EXTENDS_READ_MAX]; /* the files read, as resolved, each once */
    uint32_t read_count;
    uint32_t loads;  /* files read in all */
    const char *why; /* the mistake found */
};

/* `path` without "." and ".." segments and repeated slashes, in place ("/.." is "/", a
 * relative path keeps the ".." it starts with, and an empty one is "."). */
static void tidy(char *path)
{
    bool absolute = path[0] == '/';
    char *start = path + absolute, *out = start, *in = start;
    uint32_t removable = 0; /* segments written that a ".." takes back */
    while (*in != '\0') {
        size_t len = strcspn(in, "/");
        char *next = in + len + (in[len] == '/');
        bool dot = len == 1 && in[0] == '.', up = len == 2 && in[0] == '.' && in[1] == '.';
        if (up && removable > 0) { /* the last segment taken back */
            while (out > start && out[-1] != '/')
                out--;
            out -= out > start;
            removable--;
        } else if (len > 0 && !dot && !(up && absolute)) {
            if (out > start)
                *out++ = '/';
            memmove(out, in, len);
            out += len;
            removable += !up;
        }
        in = next;
    }
    if (out == path)
        *out++ = '.';
    *out = '\0';
}

char *project_path_join(struct arena *arena, const char *dir, const char *path)
{
    char *whole = path[0] == '/' ? arena_strndup(arena, path, strlen(path))
                                 : arena_printf(arena, "%s/%s", dir, path);
    if (whole != NULL)
        tidy(whole);
    return whole;
}

char *project_path_from(struct arena *arena, const char *from, const char *to)
{
    const char *f = from + (from[0] == '/'), *t = to + (to[0] == '/');
    if (strcmp(f, ".") == 0)
        f = "";
    if (strcmp(t, ".") == 0)
        t = "";
    while (*f != '\0' && *t != '\0') { /* the segments both start with */
        size_t fl = strcspn(f, "/"), tl = strcspn(t, "/");
        if (fl != tl || memcmp(f, t, fl) != 0)
            break;
        f += fl + (f[fl] == '/');
        t += tl + (t[tl] == '/');
    }
    size_t ups = 0;
    for (const char *s = f; *s != '\0'; s += *s == '/', ups++)
        s += strcspn(s, "/");
    char *out = arena_alloc(arena, 3 * ups + strlen(t) + 2);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    for (size_t i = 0; i < ups; i++, len += 3)
        memcpy(out + len, "../", 3);
    snprintf(out + len, strlen(t) + 2, "%s%s", t, t[0] != '\0' ? "/" : "");
    return out;
}

/* The directory of the file `path` (in the walk's arena). */
static char *dir_of(struct extends_walk *w, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash == NULL   ? arena_strndup(&w->arena, ".", 1)
           : slash == path ? arena_strndup(&w->arena, "/", 1)
                           : arena_strndup(&w->arena, path, (size_t)(slash - path));
}

/* `path` as shown in a message: from the extending srcls.json's directory. */
static const char *shown(struct extends_walk *w, const char *path)
{
    char *dir = dir_of(w, path), *from = dir ? project_path_from(&w->arena, w->home, dir) : NULL;
    const char *name = strrchr(path, '/');
    char *text =
        from != NULL ? arena_printf(&w->arena, "%s%s", from, name ? name + 1 : path) : NULL;
    return text != NULL ? text : path;
}

/* The mistake of a file read (syntax, shape, settings), as the walk's `why`; false when it has
 * none. */
static bool mistaken(struct extends_walk *w, const char *path, struct analysis *a,
                     const char *problems)
{
    const char *what = NULL;
    if (a->diags.count > 0 || a->doc.root == JSON_NONE) {
        struct text_position at =
            a->diags.count > 0
                ? line_index_position(&a->lines, a->diags.items[0].start, POSITION_UTF32)
                : (struct text_position){0, 0};
        what = arena_printf(&w->arena, "line %u: %s", at.line + 1,
                            a->diags.count > 0 ? a->diags.items[0].message : "empty");
    } else if (a->doc.nodes[a->doc.root].kind != JSON_OBJECT)
        what = "it must be an object";
    else if (problems[0] != '\0')
        what = arena_strndup(&w->arena, problems, strcspn(problems, "\n"));
    else
        return false;
    w->why = arena_printf(&w->arena, "%s, which this file extends, has a mistake (%s)",
                          shown(w, path), what != NULL ? what : "out of memory");
    return true;
}

static int load(struct extends_walk *w, const char *path, struct settings *out);

/* The files `own` (of the file in `dir`) extends, each loaded, into `out` (later ones win). */
static int load_extended(struct extends_walk *w, const struct settings *own, const char *dir,
                         struct settings *out)
{
    int status = 1;
    for (uint32_t i = 0; status == 1 && i < own->extends.count; i++) {
        const char *path = project_path_join(&w->arena, dir, own->extends.items[i]);
        struct settings one, both;
        settings_init(&one);
        settings_init(&both);
        status = path == NULL ? -1 : load(w, path, &one);
        if (status == 1 && settings_extend(&both, out, &one) != 0)
            status = -1;
        if (status == 1) {
            settings_free(out);
            *out = both; /* moved: its arena holds its strings */
        } else
            settings_free(&both);
        settings_free(&one);
    }
    return status;
}

/* Whether `path` is being read already: then `why` says the cycle. */
static bool cycle(struct extends_walk *w, const char *path)
{
    uint32_t first = 0;
    while (first < w->depth && strcmp(w->chain[first], path) != 0)
        first++;
    if (first == w->depth)
        return false;
    const char *text = "";
    for (uint32_t i = first; text != NULL && i < w->depth; i++)
        text = arena_printf(&w->arena, "%s%s → ", text, shown(w, w->chain[i]));
    w->why = text != NULL
                 ? arena_printf(&w->arena, "\"extends\" makes a cycle: %s%s", text, shown(w, path))
                 : NULL;
    return true;
}

/* The configuration at `path` (tidied) and what it extends, rebased to the walk's home, into
 * `out`: 1, 0 with a mistake (`why`), -1 when memory ran out. */
static int load(struct extends_walk *w, const char *path, struct settings *out)
{
    if (cycle(w, path))
        return w->why != NULL ? 0 : -1;
    for (uint32_t i = 0; i < w->read_count; i++) {
        if (strcmp(w->read[i], path) == 0)
            return 1; /* read already (two files extend it): its settings lie under both once */
    }
    if (++w->loads > EXTENDS_LOADS_MAX) {
        w->why = "\"extends\" reads more than 256 files";
        return 0;
    }
    if (w->depth == EXTENDS_DEPTH_MAX) {
        w->why = "\"extends\" nests more than 16 files deep";
        return 0;
    }
    char reason[256] = "", *text = NULL, problems[1024] = "";
    size_t len = 0;
    int got = w->reader->read_file(w->reader->context, path, &text, &len, reason, sizeof reason);
    if (got <= 0) {
        w->why = got == 0 ? arena_printf(&w->arena, "cannot read %s, which this file extends: %s",
                                         shown(w, path), reason)
                          : NULL;
        return got == 0 && w->why != NULL ? 0 : -1;
    }
    struct analysis a;
    struct analysis_options options = {0};
    struct settings own, base;
    settings_init(&own);
    settings_init(&base);
    int status = analysis_run(&a, text, len, &options) == 0 ? 1 : -1;
    if (status == 1) {
        settings_read(&own, &a.doc, a.doc.root, problems, sizeof problems);
        status = own.arena.failed ? -1 : mistaken(w, path, &a, problems) ? 0 : 1;
        analysis_free(&a);
    }
    free(text);
    char *dir = dir_of(w, path), *from = dir ? project_path_from(&w->arena, dir, w->home) : NULL;
    if (status == 1 && (dir == NULL || from == NULL))
        status = -1;
    if (w->read_count < EXTENDS_READ_MAX) /* not read before: load() looked */
        w->read[w->read_count++] = path;  /* in the walk's arena */
    w->chain[w->depth++] = path;
    if (status == 1)
        status = load_extended(w, &own, dir, &base);
    w->depth--;
    if (status == 1 && (settings_rebase(&own, from, dir, path) != 0 || own.arena.failed ||
                        settings_extend(out, &base, &own) != 0))
        status = -1;
    settings_free(&own);
    settings_free(&base);
    return status == 0 && w->why == NULL ? -1 : status;
}

/* Adds a project-config error on the value `node` of "extends" (or its element). */
static int report_at(struct analysis *a, uint32_t node, const char *message)
{
    const struct json_node *n = &a->doc.nodes[node];
    const char *pointer = json_pointer_of(&a->doc, node, &a->arena);
    struct diagnostic d = {
        .code = CODE_PROJECT_CONFIG,
        .severity = code_info(CODE_PROJECT_CONFIG)->severity,
        .start = n->start,
        .end = n->end,
        .related_start = JSON_NONE,
        .related_end = JSON_NONE,
        .message = arena_strndup(&a->arena, message, strlen(message)),
        .pointer = pointer,
        .node = JSON_NONE,
    };
    if (d.message == NULL || d.pointer == NULL)
        return -1;
    return diag_list_add(&a->diags, &d);
}

/* The files the walk read, into settings->extended (in its arena). */
static int keep_read(struct extends_walk *w, struct settings *settings)
{
    struct settings_strings *list = &settings->extended;
    list->items = arena_alloc(&settings->arena, (w->read_count + 1) * sizeof *list->items);
    for (uint32_t i = 0; list->items != NULL && i < w->read_count; i++) {
        if ((list->items[i] = arena_strndup(&settings->arena, w->read[i], strlen(w->read[i]))) ==
            NULL)
            return -1;
        list->count++;
    }
    return list->items != NULL ? 0 : -1;
}

int project_extend(struct analysis *a, const char *config_dir, const struct project_reader *reader,
                   struct settings *settings)
{
    uint32_t value = json_object_get(&a->doc, a->doc.root, JSON_LITERAL(SETTINGS_KEY_EXTENDS));
    if (value == JSON_NONE || settings->extends.count == 0)
        return 0;
    struct extends_walk w = {.reader = reader, .home = config_dir};
    arena_init(&w.arena);
    w.chain[w.depth++] = project_path_join(&w.arena, config_dir, PROJECT_FILE_NAME);
    struct settings base;
    settings_init(&base);
    bool list = a->doc.nodes[value].kind == JSON_ARRAY;
    uint32_t element = list ? a->doc.nodes[value].first_child : value;
    int status = w.chain[0] == NULL ? -1 : 0;
    for (uint32_t i = 0; status == 0 && i < settings->extends.count; i++) {
        struct settings one = {0};
        one.extends = (struct settings_strings){.items = &settings->extends.items[i], .count = 1};
        w.why = NULL;
        int loaded = load_extended(&w, &one, config_dir, &base);
        status = loaded < 0 ? -1 : loaded == 0 ? report_at(a, element, w.why) : 0;
        element = list && element != JSON_NONE ? a->doc.nodes[element].next : element;
    }
    struct settings merged;
    settings_init(&merged);
    if (status == 0 && a->diags.count == 0)
        status = settings_extend(&merged, &base, settings) == 0 ? keep_read(&w, &merged) : -1;
    if (status == 0 && a->diags.count == 0) {
        settings_free(settings);
        *settings = merged; /* moved: its arena holds its strings */
    } else
        settings_free(&merged);
    settings_free(&base);
    arena_free(&w.arena);
    return status;
}
