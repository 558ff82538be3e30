/* lsp_workspace_file: one file of workspace/diagnostic (lsp_workspace_internal.h) — its stat,
 * read and check (walk_check_file, as `srcls --check` checks it) and its report, made on a
 * worker thread, touching only its item, the pull's request (read only) and the
 * project it was resolved with (not changed while workers run: lsp_workspace_quiesce); or, for an
 * open document, from the editor's text on the loop. */
#include "lsp_workspace_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_uri.h"

/* Files larger than this are not read. */
#define WALK_MAX_FILE_SIZE ((uint64_t)16 << 20)

/* The resultId the client last had for `uri`, or {NULL, 0}. */
static struct json_str previous_id(const struct ws_pull *pull, const char *uri)
{
    const struct json_doc *doc = &pull->doc;
    if (pull->previous == JSON_NONE || doc->nodes[pull->previous].kind != JSON_ARRAY)
        return (struct json_str){NULL, 0};
    size_t len = strlen(uri);
    for (uint32_t p = doc->nodes[pull->previous].first_child; p != JSON_NONE;
         p = doc->nodes[p].next) {
        uint32_t u = lsp_jsonrpc_get((struct json_doc *)doc, p, "uri");
        uint32_t v = lsp_jsonrpc_get((struct json_doc *)doc, p, "value");
        if (u == JSON_NONE || v == JSON_NONE || doc->nodes[u].kind != JSON_STRING ||
            doc->nodes[v].kind != JSON_STRING)
            continue;
        struct json_str text = json_node_string((struct json_doc *)doc, u);
        if (text.len == len && memcmp(text.ptr, uri, len) == 0)
            return json_node_string((struct json_doc *)doc, v);
    }
    return (struct json_str){NULL, 0};
}

static bool same_id(struct json_str had, const char *id)
{
    return had.ptr != NULL && had.len == strlen(id) && memcmp(had.ptr, id, had.len) == 0;
}

void lsp_workspace_write_report(const struct ws_pull *pull, struct json_writer *w, const char *uri,
                                const char *id, int64_t version, const struct analysis *a)
{
    bool same = same_id(previous_id(pull, uri), id);
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
        const struct lsp_documents *store = &pull->s->documents;
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
}

/* Reads the file at `path` (`size` bytes) into a malloc'd buffer, or NULL (errno ENOMEM when
 * for memory). Synchronous libuv requests: no loop state is touched, so a worker may make them. */
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

/* The report of `item` into `out`, where it is recorded. */
static void report(const struct ws_pull *pull, struct ws_item *item, struct json_writer *out,
                   const char *id, int64_t version, const struct analysis *a)
{
    item->start = out->len;
    lsp_workspace_write_report(pull, out, item->uri, id, version, a);
    item->end = out->len;
    item->out_of_memory |= out->failed;
}

void lsp_workspace_file_work(struct ws_pull *pull, struct ws_item *item, struct json_writer *out)
{
    if (item->uri == NULL)
        return; /* out of memory: said so */
    uv_loop_t *loop = pull->s->loop;
    uv_fs_t req;
    int status = uv_fs_stat(loop, &req, item->path, NULL);
    uv_stat_t st = req.statbuf;
    uv_fs_req_cleanup(&req);
    if (status != 0 || st.st_size > WALK_MAX_FILE_SIZE)
        return;
    char id[96];
    snprintf(id, sizeof id, "file-%lld.%09ld-%llu-%llu", (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_size,
             (unsigned long long)item->settings_changes);
    struct json_str had = previous_id(pull, item->uri);
    if (same_id(had, id)) { /* unchanged: only its metadata looked at */
        struct analysis none;
        memset(&none, 0, sizeof none);
        report(pull, item, out, id, -1, &none);
        return;
    }
    errno = 0;
    char *text = read_file(loop, item->path, (size_t)st.st_size);
    item->out_of_memory |= text == NULL && errno == ENOMEM;
    if (text == NULL) { /* unreadable: the client keeps what it had */
        if (had.ptr != NULL) {
            struct analysis none;
            memset(&none, 0, sizeof none);
            report(pull, item, out, id, -1, &none);
        }
        return;
    }
    struct walk_file file = {.path = item->path,
                             .explicit = item->explicit,
                             .kind_schema = item->target.kind_schema,
                             .kind_file_name = item->path};
    struct analysis a;
    bool ours = false;
    if (walk_check_file(&a, text, (size_t)st.st_size, &file, &item->options, &ours) != 0) {
        item->out_of_memory = true; /* -1: memory */
    } else {
        if (ours)
            report(pull, item, out, id, -1, &a);
        analysis_free(&a);
    }
    free(text);
}

/* The open document whose file is `path`, or NULL. */
static struct lsp_document *open_document(struct lsp_server *s, const char *path, bool *lost)
{
    for (struct lsp_document *d = s->documents.first; d != NULL; d = d->next) {
        errno = 0;
        char *own = lsp_uri_to_path(d->uri, strlen(d->uri));
        *lost |= own == NULL && errno == ENOMEM;
        bool same = own != NULL && strcmp(own, path) == 0;
        free(own);
        if (same)
            return d;
    }
    return NULL;
}

void lsp_workspace_file_on_loop(struct ws_pull *pull, struct ws_item *item, struct json_writer *out)
{
    struct lsp_document *d = open_document(pull->s, item->path, &item->out_of_memory);
    if (d == NULL) { /* a file with a baseline: its marks are the loop's */
        lsp_workspace_file_work(pull, item, out);
        return;
    }
    char id[48];
    lsp_document_result_id(d, id, sizeof id);
    int analyzed = lsp_document_analyze(d);
    item->out_of_memory |= analyzed != 0;
    if (analyzed == 0 && d->analysis.document != DOCUMENT_UNKNOWN)
        report(pull, item, out, id, d->version, &d->analysis);
}
