/* lsp_projects: finding and reading srcls.json through libuv's file system requests (run
 * synchronously: a stat per directory upwards, one read per configuration). */
#include "lsp_projects.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lsp_uri.h"
#include "project/project.h"

/* The largest srcls.json read, as the command line's limit. */
#define PROJECT_MAX_SIZE ((int64_t)1 << 20)

void lsp_projects_init(struct lsp_projects *projects, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                       const struct schema_registry *registry, const struct settings *editor)
{
    *projects = (struct lsp_projects){loop, rpc, registry, editor, NULL, false, {0}};
}

/* Frees the first project of the list. */
static void forget_first(struct lsp_projects *projects)
{
    struct lsp_project *p = projects->first;
    projects->first = p->next;
    settings_free(&p->merged);
    settings_free(&p->own);
    project_schema_free(&p->schema);
    baseline_index_free(&p->baseline);
    free(p->baseline_dir);
    free(p->baseline_file);
    free(p->path);
    free(p);
}

void lsp_projects_forget(struct lsp_projects *projects)
{
    while (projects->first != NULL)
        forget_first(projects);
    walk_dirs_clear(&projects->dirs);
}

void lsp_projects_free(struct lsp_projects *projects)
{
    lsp_projects_forget(projects);
}

int lsp_projects_editor_changed(struct lsp_projects *projects)
{
    for (struct lsp_project *p = projects->first; p != NULL; p = p->next) {
        if (p->usable && settings_merge(&p->merged, &p->own, projects->editor) != 0) {
            p->usable = false;
            return -1; /* out of memory: not a project with mistakes */
        }
    }
    return 0;
}

/* Whether `path` is a regular file; its size in `*size`. */
static bool regular_file(uv_loop_t *loop, const char *path, int64_t *size)
{
    uv_fs_t req;
    int status = uv_fs_stat(loop, &req, path, NULL);
    bool file = status == 0 && (req.statbuf.st_mode & S_IFMT) == S_IFREG;
    *size = (int64_t)req.statbuf.st_size;
    uv_fs_req_cleanup(&req);
    return file;
}

/* The `size` bytes of the file at `path`, malloc'd (NUL-terminated), or NULL (also when
 * `size` is above `max`). */
static char *read_text_up_to(uv_loop_t *loop, const char *path, int64_t size, int64_t max)
{
    char *text = size <= max ? malloc((size_t)size + 1) : NULL;
    if (text == NULL)
        return NULL;
    uv_fs_t req;
    uv_file fd = uv_fs_open(loop, &req, path, UV_FS_O_RDONLY, 0, NULL);
    uv_fs_req_cleanup(&req);
    int64_t got = 0;
    while (fd >= 0 && got < size) {
        uv_buf_t buf = uv_buf_init(text + got, (unsigned)(size - got));
        int n = uv_fs_read(loop, &req, fd, &buf, 1, got, NULL);
        uv_fs_req_cleanup(&req);
        if (n <= 0)
            break;
        got += n;
    }
    if (fd >= 0) {
        uv_fs_close(loop, &req, fd, NULL);
        uv_fs_req_cleanup(&req);
    }
    if (got != size) {
        free(text);
        return NULL;
    }
    text[size] = '\0';
    return text;
}

/* read_text_up_to for a srcls.json or a kind file. */
static char *read_text(uv_loop_t *loop, const char *path, int64_t size)
{
    return read_text_up_to(loop, path, size, PROJECT_MAX_SIZE);
}

/* The project_reader of the server: the kind files of `dir`, through libuv's file system
 * requests. */
static int read_kind_dir(void *context, const char *dir, struct project_schema *schema, char *why,
                         size_t why_size)
{
    uv_loop_t *loop = context;
    uv_fs_t req;
    int count = uv_fs_scandir(loop, &req, dir, 0, NULL);
    if (count < 0) {
        snprintf(why, why_size, "%s", uv_strerror(count));
        uv_fs_req_cleanup(&req);
        return -1;
    }
    int status = 0;
    uv_dirent_t entry;
    while (status == 0 && uv_fs_scandir_next(&req, &entry) != UV_EOF) {
        int64_t size = 0;
        if (!project_is_kind_file_name(entry.name))
            continue;
        size_t len = strlen(dir) + strlen(entry.name) + 2;
        char *path = malloc(len), *text = NULL;
        if (path != NULL)
            snprintf(path, len, "%s/%s", dir, entry.name);
        if (path != NULL && !regular_file(loop, path, &size)) {
            free(path);
            continue;
        }
        if (path != NULL && (text = read_text(loop, path, size)) == NULL)
            snprintf(why, why_size, "cannot read %s", path);
        if (text == NULL)
            free(path);
        /* project_schema_add takes both over, and frees them when it fails */
        if (text == NULL || project_schema_add(schema, path, text, (size_t)size) != 0)
            status = -1;
    }
    uv_fs_req_cleanup(&req);
    if (status != 0 && why[0] == '\0')
        snprintf(why, why_size, "out of memory");
    return status;
}

/* The project_reader's srcls.json that another extends, through libuv. */
static int read_extended(void *context, const char *path, char **text, size_t *len, char *why,
                         size_t why_size)
{
    uv_loop_t *loop = context;
    uv_fs_t req;
    int status = uv_fs_stat(loop, &req, path, NULL);
    int64_t size = (int64_t)req.statbuf.st_size;
    bool file = status == 0 && (req.statbuf.st_mode & S_IFMT) == S_IFREG;
    uv_fs_req_cleanup(&req);
    if (status != 0 || !file || size > PROJECT_MAX_SIZE) {
        snprintf(why, why_size, "%s",
                 status != 0 ? uv_strerror(status)
                 : !file     ? "not a regular file"
                             : "larger than 1 MiB");
        return 0;
    }
    errno = 0;
    *text = read_text(loop, path, size);
    *len = (size_t)size;
    if (*text == NULL)
        snprintf(why, why_size, "cannot read it");
    return *text != NULL ? 1 : errno == ENOMEM ? -1 : 0;
}

/* Whether the file of a baseline entry (its `path` relative to the baseline's directory
 * `context`) no longer exists: a document without entries may take its findings' entries, as
 * --check lets a moved file keep them (baseline_index's `gone`). */
static bool baseline_file_gone(const char *path, void *context)
{
    const char *dir = context;
    char *full = malloc(strlen(dir) + strlen(path) + 2);
    if (full == NULL)
        return false;
    sprintf(full, "%s/%s", dir, path);
    struct stat st;
    bool gone = stat(full, &st) != 0 && errno == ENOENT;
    free(full);
    return gone;
}

/* The baseline file p's srcls.json (in the directory `dir`) names ("baseline" in its settings),
 * read into p->baseline (as large as --check reads); one that cannot be read or is not a
 * baseline leaves it empty, and a window/logMessage says why, once for each time the srcls.json
 * is read. False when memory ran out. */
static bool load_baseline(struct lsp_projects *projects, struct lsp_project *p, const char *dir)
{
    char *path = settings_baseline_path(&p->own, dir);
    if (path == NULL)
        return p->own.baseline == NULL;
    char why[256] = "";
    uv_fs_t req;
    int status = uv_fs_stat(projects->loop, &req, path, NULL);
    int64_t size = status == 0 ? (int64_t)req.statbuf.st_size : 0;
    bool file = status == 0 && (req.statbuf.st_mode & S_IFMT) == S_IFREG;
    uv_fs_req_cleanup(&req);
    char *text = NULL;
    if (status != 0)
        snprintf(why, sizeof why, "cannot read it: %s", uv_strerror(status));
    else if (!file)
        snprintf(why, sizeof why, "cannot read it: not a regular file");
    else if ((uint64_t)size > JSON_DEFAULT_MAX_SIZE)
        snprintf(why, sizeof why, "cannot read it: too large (%lld bytes; the most is %zu)",
                 (long long)size, JSON_DEFAULT_MAX_SIZE);
    else if ((errno = 0, text = read_text_up_to(projects->loop, path, size, size)) == NULL)
        snprintf(why, sizeof why, "%s", errno == ENOMEM ? "out of memory" : "cannot read it");
    bool parsed =
        text != NULL && baseline_parse(&p->baseline, text, (size_t)size, why, sizeof why) == 0;
    if (parsed && (p->baseline_file = strdup(path)) == NULL)
        snprintf(why, sizeof why, "out of memory"); /* read again */
    if (parsed && p->baseline_file != NULL) {
        char *slash = strrchr(path, '/');
        slash[slash == path] = '\0'; /* its directory */
        p->baseline_dir = path;
        p->baseline.gone = baseline_file_gone;
        p->baseline.gone_context = p->baseline_dir;
        path = NULL;
    }
    bool enough = path == NULL || strstr(why, "out of memory") == NULL; /* else read again */
    if (path != NULL && enough && projects->rpc != NULL)
        lsp_jsonrpc_log(projects->rpc, LSP_MESSAGE_WARNING,
                        "srcls: baseline %s (the \"baseline\" of %s): %s; its findings are "
                        "shown as new",
                        path, p->path, why);
    free(text);
    free(path);
    return enough;
}

/* Reads srcls.json at `path` into a new project entry (usable when it has no mistake), with the
 * kinds of its "schemas". */
static struct lsp_project *load(struct lsp_projects *projects, const char *path, int64_t size)
{
    struct lsp_project *p = calloc(1, sizeof *p);
    if (p == NULL || (p->path = strdup(path)) == NULL) {
        free(p);
        projects->out_of_memory = true;
        return NULL;
    }
    settings_init(&p->own);
    settings_init(&p->merged);
    errno = 0;
    char *text = read_text(projects->loop, path, size);
    bool enough = text != NULL || errno != ENOMEM; /* memory, for all that follows */
    char *dir = strdup(path);
    if (text != NULL && dir != NULL) {
        *strrchr(dir, '/') = '\0'; /* a path from nearest(): absolute */
        struct analysis a;
        struct project_reader reader = {read_kind_dir, read_extended, projects->loop};
        int read = project_analyze_schema(&a, text, (size_t)size, projects->registry, dir, &reader,
                                          &p->own, &p->schema);
        p->usable = read == 1 && settings_merge(&p->merged, &p->own, projects->editor) == 0;
        enough = read >= 0 && p->usable == (read == 1) &&
                 (!p->usable || load_baseline(projects, p, dir));
        analysis_free(&a);
    }
    enough = enough && dir != NULL;
    free(dir);
    free(text);
    p->next = projects->first;
    projects->first = p;
    if (!enough) { /* not kept: read again when next needed */
        projects->out_of_memory = true;
        forget_first(projects);
        return NULL;
    }
    return p;
}

/* The project entry for `path` (read on first use), or NULL. */
static struct lsp_project *project_at(struct lsp_projects *projects, const char *path)
{
    for (struct lsp_project *p = projects->first; p != NULL; p = p->next) {
        if (strcmp(p->path, path) == 0)
            return p;
    }
    int64_t size;
    return regular_file(projects->loop, path, &size) ? load(projects, path, size) : NULL;
}

/* project_config_find's question of the editor: a regular file (its size into *size). */
struct found_file {
    uv_loop_t *loop;
    int64_t *size;
};

static bool file_exists(void *ctx, const char *candidate)
{
    struct found_file *f = ctx;
    return regular_file(f->loop, candidate, f->size);
}

/* The nearest srcls.json upwards from the file of `uri` (malloc'd, NULL when none), its size;
 * `*dir` (malloc'd) the file's directory. */
static char *nearest(struct lsp_projects *projects, const char *uri, char **dir, int64_t *size)
{
    *dir = NULL;
    char *path = lsp_uri_to_path(uri, strlen(uri));
    char *slash = path != NULL ? strrchr(path, '/') : NULL;
    char *found = NULL;
    struct found_file f = {projects->loop, size};
    if (slash != NULL) {
        *slash = '\0'; /* the file's directory */
        if ((*dir = strdup(path)) != NULL &&
            project_config_find(path, file_exists, &f, &found) < 0) {
            free(*dir); /* out of memory (errno says so to the caller) */
            *dir = NULL;
        }
    }
    free(path);
    return found;
}

int lsp_projects_config_text(struct lsp_projects *projects, const char *uri, char **config_path,
                             char **text, size_t *len)
{
    char *dir;
    int64_t size = 0;
    char *path = nearest(projects, uri, &dir, &size);
    *text = NULL;
    *len = 0;
    if (path == NULL) {
        *config_path = dir ? malloc(strlen(dir) + sizeof "/" PROJECT_FILE_NAME) : NULL;
        if (*config_path != NULL)
            sprintf(*config_path, "%s/%s", dir, PROJECT_FILE_NAME);
        free(dir);
        return *config_path != NULL ? 0 : -1;
    }
    free(dir);
    *text = read_text(projects->loop, path, size);
    *len = (size_t)size;
    *config_path = path;
    if (*text == NULL) {
        free(path);
        *config_path = NULL;
        return -1;
    }
    return 1;
}

/* project_config_find's question of a project: one read (or loaded) there, into *ctx. */
struct found_project {
    struct lsp_projects *projects;
    struct lsp_project *project;
};

static bool project_exists(void *ctx, const char *candidate)
{
    struct found_project *f = ctx;
    return (f->project = project_at(f->projects, candidate)) != NULL;
}

/* The project of the nearest srcls.json upwards from the file `path`, or NULL; searched once
 * per directory until the projects are forgotten. */
static struct lsp_project *project_for(struct lsp_projects *projects, const char *path)
{
    char *dir = strdup(path), *config = NULL;
    char *slash = dir != NULL ? strrchr(dir, '/') : NULL;
    struct found_project f = {projects, NULL};
    void *known = NULL;
    if (dir == NULL)
        projects->out_of_memory = true;
    if (slash != NULL) {
        *slash = '\0'; /* the file's directory */
        if (walk_dirs_get(&projects->dirs, dir, &known)) {
            free(dir);
            return known;
        }
        bool lost = projects->out_of_memory;
        projects->out_of_memory = false;
        if (project_config_find(dir, project_exists, &f, &config) < 0)
            projects->out_of_memory = true;
        if (!projects->out_of_memory) /* a search cut short by memory is not remembered */
            walk_dirs_put(&projects->dirs, dir, config != NULL ? f.project : NULL);
        projects->out_of_memory |= lost;
    }
    struct lsp_project *found = config != NULL ? f.project : NULL;
    free(config);
    free(dir);
    return found;
}

int lsp_projects_target(struct lsp_projects *projects, const char *uri, struct lsp_target *out)
{
    *out = (struct lsp_target){projects->editor, projects->registry, NULL, NULL, NULL, NULL, false};
    errno = 0;
    char *path = lsp_uri_to_path(uri, strlen(uri));
    if (path == NULL || project_is_config(path, strlen(path))) {
        free(path); /* a srcls.json is checked on its own */
        return path == NULL && errno == ENOMEM ? -1 : 0;
    }
    projects->out_of_memory = false;
    struct lsp_project *p = project_for(projects, path);
    if (p != NULL && p->usable) {
        out->settings = &p->merged;
        out->registry = project_schema_registry(&p->schema, projects->registry);
        size_t dir = strlen(p->path) - strlen(PROJECT_FILE_NAME); /* with its slash */
        if (p->merged.ignore_count > 0 && strncmp(path, p->path, dir) == 0 &&
            (out->relative = strdup(path + dir)) == NULL)
            projects->out_of_memory = true;
        if (p->baseline_dir != NULL &&
            (out->baseline_path = baseline_relative(p->baseline_dir, path)) == NULL)
            projects->out_of_memory = true; /* NULL only then */
        if (out->baseline_path != NULL)
            out->baseline = &p->baseline;
    }
    for (struct lsp_project *q = projects->first; q != NULL; q = q->next) {
        if (q->usable && project_schema_has(&q->schema, path))
            out->kind_schema = &q->schema; /* a kind file of that project */
        out->baseline_file |= q->baseline_file != NULL && strcmp(q->baseline_file, path) == 0;
    }
    free(path);
    return projects->out_of_memory ? -1 : 0;
}

enum walk_scan lsp_projects_scan(struct lsp_projects *projects, const char *path)
{
    struct lsp_project *p = project_for(projects, path);
    if (p == NULL || !p->usable)
        return WALK_SCAN_DEFAULT;
    size_t dir = strlen(p->path) - strlen(PROJECT_FILE_NAME); /* with its slash */
    if (strncmp(path, p->path, dir) != 0)
        return WALK_SCAN_DEFAULT;
    return walk_scan_entry(&p->own, path + dir);
}

bool lsp_projects_watches(struct lsp_projects *projects, const char *uri, size_t len)
{
    if (project_is_config(uri, len))
        return true;
    char *path = lsp_uri_to_path(uri, len);
    bool read = false; /* a kind file of a project, or a srcls.json one extends */
    for (struct lsp_project *p = projects->first; path != NULL && p != NULL; p = p->next) {
        read |= project_schema_has(&p->schema, path);
        for (uint32_t i = 0; i < p->own.extended.count; i++)
            read |= strcmp(p->own.extended.items[i], path) == 0;
    }
    free(path);
    return read;
}

int lsp_projects_analyze(struct lsp_projects *projects, const char *uri, const char *text,
                         size_t len, const struct project_schema *kind_schema, struct analysis *out)
{
    char *path = lsp_uri_to_path(uri, strlen(uri));
    if (kind_schema == NULL) { /* a srcls.json: with the files it extends */
        struct settings read;
        settings_init(&read);
        char *slash = path != NULL ? strrchr(path, '/') : NULL;
        if (slash != NULL)
            *slash = '\0';
        struct project_reader reader = {NULL, read_extended, projects->loop};
        int status =
            project_analyze_schema(out, text, len, projects->registry, slash != NULL ? path : ".",
                                   slash != NULL ? &reader : NULL, &read, NULL) < 0
                ? -1
                : 0;
        settings_free(&read);
        free(path);
        return status;
    }
    int status = path != NULL ? project_kind_file_analyze(out, text, len, path, kind_schema) : -1;
    free(path);
    return status;
}

void lsp_projects_target_free(struct lsp_target *target)
{
    free(target->relative);
    free(target->baseline_path);
    target->relative = target->baseline_path = NULL;
}

struct analysis_options lsp_projects_options(const struct lsp_target *target,
                                             enum lsp_baseline_mode mode)
{
    return (struct analysis_options){
        .registry = target->registry,
        .settings = target->settings,
        .path = target->relative,
        .baseline = mode != LSP_BASELINE_SHOW ? target->baseline : NULL,
        .baseline_path = target->baseline_path,
        .baseline_hide = mode == LSP_BASELINE_HIDE,
    };
}
