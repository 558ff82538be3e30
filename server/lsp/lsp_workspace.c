/* lsp_workspace: walking the workspace folders (through libuv's file system requests, run
 * synchronously) for `*.json` files, and reporting those that are sources or jobs. The walk
 * follows no symbolic link, skips hidden entries and node_modules, and stops at a depth and a
 * file count; an open document is reported from its editor text, others from the file. When the
 * client gives a partialResultToken, the reports go out in $/progress notifications of
 * WALK_PART_REPORTS each as the walk finds them, and the answer itself has no items. */
#include "lsp_workspace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_uri.h"
#include "base/base.h"

#define WALK_MAX_DEPTH 32
#define WALK_MAX_FILES 20000u
#define WALK_MAX_FILE_SIZE ((uint64_t)16 << 20)
#define WALK_PART_REPORTS 256u

struct walk {
    struct lsp_server *s;
    struct lsp_request *req;
    struct json_writer *w;
    uint32_t previous; /* params.previousResultIds */
    uint32_t files;
    bool out_of_memory;      /* a file may be missing: the request is answered so */
    uint32_t token;          /* params.partialResultToken (a string or a number), or JSON_NONE */
    struct json_writer part; /* the $/progress being written, when in_part != 0 */
    uint32_t in_part;        /* reports in it */
};

/* Sends the partial result being written, if any. */
static void part_send(struct walk *walk)
{
    if (walk->in_part == 0)
        return;
    json_write_array_end(&walk->part);
    json_write_object_end(&walk->part);
    json_write_object_end(&walk->part);
    walk->out_of_memory |= !lsp_jsonrpc_send(&walk->s->rpc, &walk->part);
    walk->in_part = 0;
}

/* Where the next report is written: the answer, or a partial result (begun when none is). */
static struct json_writer *report_writer(struct walk *walk)
{
    if (walk->token == JSON_NONE)
        return walk->w;
    if (walk->in_part == 0) {
        const struct json_doc *doc = walk->req->doc;
        const struct json_node *token = &doc->nodes[walk->token];
        lsp_jsonrpc_notification_begin(&walk->s->rpc, &walk->part, "$/progress");
        json_write_object_begin(&walk->part);
        json_write_key(&walk->part, "token");
        json_write_raw(&walk->part, doc->text + token->start, token->end - token->start);
        json_write_key(&walk->part, "value");
        json_write_object_begin(&walk->part);
        json_write_key(&walk->part, "items");
        json_write_array_begin(&walk->part);
    }
    return &walk->part;
}

void lsp_workspace_free(struct lsp_server *s)
{
    for (uint32_t i = 0; i < s->folder_count; i++)
        free(s->folders[i]);
    free(s->folders);
    s->folders = NULL;
    s->folder_count = 0;
    s->folder_capacity = 0;
}

static void add_folder(struct lsp_server *s, char *path)
{
    bool lost = path == NULL && errno == ENOMEM; /* path_of sets errno to 0 first */
    char **grown = path ? vector_grow(s->folders, &s->folder_capacity, (size_t)s->folder_count + 1,
                                      sizeof *s->folders)
                        : NULL;
    if (grown == NULL) {
        s->folders_lost |= lost || path != NULL;
        free(path);
        return;
    }
    s->folders = grown;
    s->folders[s->folder_count++] = path;
}

/* A path from a URI string node, or NULL. */
static char *path_of(struct json_doc *doc, uint32_t uri)
{
    errno = 0; /* ENOMEM after a NULL: out of memory */
    if (uri == JSON_NONE || doc->nodes[uri].kind != JSON_STRING)
        return NULL;
    struct json_str text = json_node_string(doc, uri);
    return lsp_uri_to_path(text.ptr, text.len);
}

void lsp_workspace_initialize(struct lsp_server *s, struct lsp_request *initialize,
                              struct json_writer *w)
{
    (void)w;
    struct json_doc *doc = initialize->doc;
    uint32_t folders = lsp_jsonrpc_get(doc, initialize->params, "workspaceFolders");
    if (folders != JSON_NONE && doc->nodes[folders].kind == JSON_ARRAY) {
        for (uint32_t f = doc->nodes[folders].first_child; f != JSON_NONE; f = doc->nodes[f].next)
            add_folder(s, path_of(doc, lsp_jsonrpc_get(doc, f, "uri")));
        return;
    }
    char *root = path_of(doc, lsp_jsonrpc_get(doc, initialize->params, "rootUri"));
    uint32_t root_path = lsp_jsonrpc_get(doc, initialize->params, "rootPath");
    if (root == NULL && root_path != JSON_NONE && doc->nodes[root_path].kind == JSON_STRING) {
        struct json_str text = json_node_string(doc, root_path);
        root = memchr(text.ptr, '\0', text.len) ? NULL : strndup(text.ptr, text.len);
        s->folders_lost |= root == NULL && !memchr(text.ptr, '\0', text.len);
    }
    if (root != NULL)
        add_folder(s, root);
}

/* The resultId the client last had for `uri`, or NULL. */
static struct json_str previous_id(struct walk *walk, const char *uri)
{
    struct json_doc *doc = walk->req->doc;
    if (walk->previous == JSON_NONE || doc->nodes[walk->previous].kind != JSON_ARRAY)
        return (struct json_str){NULL, 0};
    size_t len = strlen(uri);
    for (uint32_t p = doc->nodes[walk->previous].first_child; p != JSON_NONE;
         p = doc->nodes[p].next) {
        uint32_t u = lsp_jsonrpc_get(doc, p, "uri"), v = lsp_jsonrpc_get(doc, p, "value");
        if (u == JSON_NONE || v == JSON_NONE || doc->nodes[u].kind != JSON_STRING ||
            doc->nodes[v].kind != JSON_STRING)
            continue;
        struct json_str text = json_node_string(doc, u);
        if (text.len == len && memcmp(text.ptr, uri, len) == 0)
            return json_node_string(doc, v);
    }
    return (struct json_str){NULL, 0};
}

/* Writes the report of one document: unchanged when the client has `id`, else full. */
static void write_report(struct walk *walk, const char *uri, const char *id, int64_t version,
                         const struct analysis *a)
{
    struct json_writer *w = report_writer(walk);
    struct json_str had = previous_id(walk, uri);
    bool same = had.ptr != NULL && had.len == strlen(id) && memcmp(had.ptr, id, had.len) == 0;
    json_write_object_begin(w);
    json_write_key(w, "kind");
    json_write_string(w, same ? "unchanged" : "full");
    json_write_key(w, "uri");
    json_write_string(w, uri);
    json_write_key(w, "version");
    if (version >= 0)
        json_write_int(w, version);
    else
        json_write_null(w);
    json_write_key(w, "resultId");
    json_write_string(w, id);
    if (!same) {
        struct lsp_documents *store = &walk->s->documents;
        uint32_t count = a->diags.count;
        if (store->max_diagnostics != 0 && count > store->max_diagnostics)
            count = store->max_diagnostics;
        json_write_key(w, "items");
        json_write_array_begin(w);
        for (uint32_t i = 0; i < count; i++)
            lsp_diagnostic_write(w, a, uri, store->encoding, i);
        json_write_array_end(w);
    }
    json_write_object_end(w);
    if (walk->token != JSON_NONE && ++walk->in_part == WALK_PART_REPORTS)
        part_send(walk);
}

/* The open document whose file is `path`, or NULL. */
static struct lsp_document *open_document(struct walk *walk, const char *path)
{
    for (struct lsp_document *d = walk->s->documents.first; d != NULL; d = d->next) {
        errno = 0;
        char *own = lsp_uri_to_path(d->uri, strlen(d->uri));
        walk->out_of_memory |= own == NULL && errno == ENOMEM;
        bool same = own != NULL && strcmp(own, path) == 0;
        free(own);
        if (same)
            return d;
    }
    return NULL;
}

/* Reads the file at `path` (`size` bytes) into a malloc'd buffer, or NULL. */
static char *read_file(uv_loop_t *loop, const char *path, size_t size)
{
    uv_fs_t req;
    uv_file fd = uv_fs_open(loop, &req, path, UV_FS_O_RDONLY, 0, NULL);
    uv_fs_req_cleanup(&req);
    if (fd < 0)
        return NULL;
    char *text = malloc(size + 1);
    size_t got = 0;
    while (text != NULL && got < size) {
        uv_buf_t buf = uv_buf_init(text + got, (unsigned)(size - got));
        int n = uv_fs_read(loop, &req, fd, &buf, 1, (int64_t)got, NULL);
        uv_fs_req_cleanup(&req);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    uv_fs_close(loop, &req, fd, NULL);
    uv_fs_req_cleanup(&req);
    if (text == NULL)
        errno = ENOMEM; /* for the caller: libuv's requests clear errno */
    if (text != NULL && got != size) {
        free(text);
        return NULL;
    }
    return text;
}

static void visit_file(struct walk *walk, const char *path)
{
    struct lsp_server *s = walk->s;
    char *uri = lsp_uri_from_path(path);
    if (uri == NULL) {
        walk->out_of_memory = true; /* NULL only then */
        return;
    }
    struct lsp_document *d = open_document(walk, path);
    if (d != NULL) {
        char id[48];
        lsp_document_result_id(d, id, sizeof id);
        int analyzed = lsp_document_analyze(d);
        walk->out_of_memory |= analyzed != 0;
        if (analyzed == 0 && d->analysis.document != DOCUMENT_UNKNOWN)
            write_report(walk, uri, id, d->version, &d->analysis);
        free(uri);
        return;
    }
    uv_fs_t req;
    int status = uv_fs_stat(s->loop, &req, path, NULL);
    uv_stat_t st = req.statbuf;
    uv_fs_req_cleanup(&req);
    if (status != 0 || st.st_size > WALK_MAX_FILE_SIZE) {
        free(uri);
        return;
    }
    char id[96];
    snprintf(id, sizeof id, "file-%lld.%09ld-%llu-%llu", (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_size,
             (unsigned long long)s->documents.settings_changes);
    struct json_str had = previous_id(walk, uri);
    char *text = NULL;
    bool unchanged = had.ptr != NULL && had.len == strlen(id) && memcmp(had.ptr, id, had.len) == 0;
    errno = 0;
    if (!unchanged)
        text = read_file(s->loop, path, (size_t)st.st_size);
    walk->out_of_memory |= !unchanged && text == NULL && errno == ENOMEM;
    struct analysis a;
    struct lsp_target target; /* as an open document would be checked */
    walk->out_of_memory |= lsp_projects_target(&s->documents.projects, uri, &target) != 0;
    struct analysis_options options = lsp_projects_options(&target, s->documents.baseline_mode);
    if (text == NULL) {
        /* unchanged (or unreadable: then the client keeps what it had) */
        memset(&a, 0, sizeof a);
        if (had.ptr != NULL)
            write_report(walk, uri, id, -1, &a);
    } else {
        int analysed =
            target.kind_schema != NULL
                ? project_kind_file_analyze(&a, text, (size_t)st.st_size, path, target.kind_schema)
                : analysis_run(&a, text, (size_t)st.st_size, &options);
        walk->out_of_memory |= analysed != 0; /* -1: memory */
        if (analysed == 0 && (target.kind_schema != NULL || a.document != DOCUMENT_UNKNOWN))
            write_report(walk, uri, id, -1, &a);
        analysis_free(&a);
    }
    free(text);
    free(uri);
    lsp_projects_target_free(&target);
}

static bool is_json_file(const char *name)
{
    size_t len = strlen(name);
    return len > 5 && strcmp(name + len - 5, ".json") == 0;
}

static void walk_dir(struct walk *walk, const char *dir, unsigned depth)
{
    uv_fs_t req;
    int count = depth <= WALK_MAX_DEPTH ? uv_fs_scandir(walk->s->loop, &req, dir, 0, NULL) : 0;
    walk->out_of_memory |= count == UV_ENOMEM;
    if (depth > WALK_MAX_DEPTH || count < 0) {
        if (depth <= WALK_MAX_DEPTH)
            uv_fs_req_cleanup(&req);
        return;
    }
    uv_dirent_t entry;
    while (walk->files < WALK_MAX_FILES && uv_fs_scandir_next(&req, &entry) != UV_EOF) {
        if (entry.name[0] == '.' || strcmp(entry.name, "node_modules") == 0)
            continue; /* hidden (.git) and dependency trees */
        size_t len = strlen(dir) + strlen(entry.name) + 2;
        char *path = malloc(len);
        if (path == NULL) {
            walk->out_of_memory = true;
            break;
        }
        snprintf(path, len, "%s/%s", dir, entry.name);
        if (entry.type == UV_DIRENT_DIR) {
            walk_dir(walk, path, depth + 1);
        } else if (entry.type == UV_DIRENT_FILE && is_json_file(entry.name)) {
            walk->files++;
            visit_file(walk, path);
        }
        free(path); /* links (UV_DIRENT_LINK) are not followed */
    }
    while (uv_fs_scandir_next(&req, &entry) != UV_EOF)
        continue; /* to the end: libuv's cleanup misses the last entry otherwise (a leak) */
    uv_fs_req_cleanup(&req);
}

void lsp_workspace_diagnostic_request(struct lsp_server *s, struct lsp_request *req)
{
    struct json_writer w;
    lsp_jsonrpc_result_begin(&w, req);
    json_write_object_begin(&w);
    json_write_key(&w, "items");
    json_write_array_begin(&w);
    struct walk walk = {.s = s,
                        .req = req,
                        .w = &w,
                        .previous = lsp_jsonrpc_get(req->doc, req->params, "previousResultIds"),
                        .out_of_memory = s->folders_lost || s->documents.open_lost,
                        .token = lsp_jsonrpc_get(req->doc, req->params, "partialResultToken")};
    if (walk.token != JSON_NONE && req->doc->nodes[walk.token].kind != JSON_STRING &&
        req->doc->nodes[walk.token].kind != JSON_NUMBER)
        walk.token = JSON_NONE; /* a ProgressToken is an integer or a string */
    for (uint32_t i = 0; i < s->folder_count && !walk.out_of_memory; i++)
        walk_dir(&walk, s->folders[i], 0);
    part_send(&walk);
    json_write_array_end(&w);
    json_write_object_end(&w);
    if (walk.out_of_memory)
        w.failed = true; /* answered -32603 "out of memory": not a report lacking files */
    lsp_jsonrpc_finish(&s->rpc, &w);
}
