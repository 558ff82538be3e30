/* lsp_workspace: the workspace folders, and workspace/diagnostic over them. A pull walks the
 * folders as `srcls --check` walks a directory (the rules of core/walk: hidden entries and
 * node_modules skipped, *.json files and what a srcls.json includes, its "exclude" and what git
 * ignores left out — git asked through uv_spawn, lsp_workspace_posix.c; no symbolic link followed),
 * then hands its files to the workers in batches (lsp_workspace_file.c does one file),
 * and sends their reports in walk order as the batches come back: the loop answers other messages
 * meanwhile. With a partialResultToken, the reports go out in $/progress notifications of
 * WALK_PART_REPORTS each, and the answer itself has no items. Pulls are answered one after the
 * other; $/cancelRequest answers one at once and drops what is left of it. */
#include "lsp_workspace.h"
#include "lsp_workspace_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_uri.h"
#include "base/base.h"

#define WALK_MAX_FILES 20000u
#define WALK_PART_REPORTS 256u
/* Files per batch. Batches in the pool at once: three per core, so that a worker that finishes
 * one finds the next queued rather than waiting for the loop to wake and queue it (with one per
 * core and one more, each worker slept and was woken some 90 times a pull); measured in
 * docs/performance.md. */
#define WALK_BATCH_FILES 64u

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void items_free(struct ws_item *items, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        free(items[i].path);
        free(items[i].uri);
        lsp_projects_target_free(&items[i].target);
    }
    free(items);
}

/* Frees a pull that has nothing in flight. */
static void pull_free(struct ws_pull *pull)
{
    while (pull->first != NULL) {
        struct ws_batch *b = pull->first;
        pull->first = b->next;
        items_free(b->items, b->count);
        json_writer_free(&b->out);
        free(b);
    }
    for (size_t i = pull->next_file; i < pull->file_count; i++)
        free(pull->files[i].path);
    for (size_t i = 0; i < pull->open_count; i++)
        free(pull->open_paths[i]);
    free(pull->open_paths);
    free(pull->files);
    walk_ignored_free(&pull->ignored);
    json_writer_free(&pull->w);
    json_writer_free(&pull->part);
    json_doc_free(&pull->doc);
    free(pull->body);
    free(pull);
}

void lsp_workspace_free(struct lsp_server *s)
{
    while (s->pulls != NULL) { /* the loop has ended: none has work in flight */
        struct ws_pull *pull = s->pulls;
        s->pulls = pull->next;
        pull_free(pull);
    }
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

/* ---- the walk ---- */

static void add_file(struct ws_pull *pull, char *path, bool explicit)
{
    struct ws_found *grown =
        vector_grow(pull->files, &pull->file_cap, pull->file_count + 1, sizeof *grown);
    if (grown == NULL) {
        free(path);
        pull->out_of_memory = true;
        return;
    }
    pull->files = grown;
    pull->files[pull->file_count++] = (struct ws_found){path, explicit};
}

static void walk_dir(struct ws_pull *pull, const char *dir, unsigned depth)
{
    struct lsp_server *s = pull->s;
    uv_fs_t req;
    int count = uv_fs_scandir(s->loop, &req, dir, 0, NULL);
    pull->out_of_memory |= count == UV_ENOMEM;
    if (count < 0) {
        uv_fs_req_cleanup(&req);
        return;
    }
    uv_dirent_t entry;
    while (pull->file_count < WALK_MAX_FILES && uv_fs_scandir_next(&req, &entry) != UV_EOF) {
        if (walk_skips_name(entry.name))
            continue; /* hidden (.git) and dependency trees */
        size_t len = strlen(dir) + strlen(entry.name) + 2;
        char *path = malloc(len);
        if (path == NULL) {
            pull->out_of_memory = true;
            break;
        }
        snprintf(path, len, "%s/%s", dir, entry.name);
        enum walk_scan scan = walk_ignored_has(&pull->ignored, path)
                                  ? WALK_SCAN_EXCLUDED
                                  : lsp_projects_scan(&s->documents.projects, path);
        if (scan != WALK_SCAN_EXCLUDED && entry.type == UV_DIRENT_DIR && depth < WALK_MAX_DEPTH)
            walk_dir(pull, path, depth + 1);
        if (scan != WALK_SCAN_EXCLUDED && entry.type == UV_DIRENT_FILE &&
            walk_wants_file(entry.name, scan == WALK_SCAN_INCLUDED)) {
            add_file(pull, path, scan == WALK_SCAN_INCLUDED);
            continue;
        }
        free(path); /* links (UV_DIRENT_LINK) are not followed */
    }
    while (uv_fs_scandir_next(&req, &entry) != UV_EOF)
        continue; /* to the end: libuv's cleanup misses the last entry otherwise (a leak) */
    uv_fs_req_cleanup(&req);
}

/* ---- the answer ---- */

/* Sends the partial result being written, if any. */
static void part_send(struct ws_pull *pull)
{
    if (pull->in_part == 0)
        return;
    json_write_array_end(&pull->part);
    json_write_object_end(&pull->part);
    json_write_object_end(&pull->part);
    pull->out_of_memory |= !lsp_jsonrpc_send(&pull->s->rpc, &pull->part);
    pull->in_part = 0;
}

/* Where the next report is written: the answer, or a partial result (begun when none is). */
static struct json_writer *report_writer(struct ws_pull *pull)
{
    if (pull->token == JSON_NONE)
        return &pull->w;
    if (pull->in_part == 0) {
        const struct json_node *token = &pull->doc.nodes[pull->token];
        lsp_jsonrpc_notification_begin(&pull->s->rpc, &pull->part, "$/progress");
        json_write_object_begin(&pull->part);
        json_write_key(&pull->part, "token");
        json_write_raw(&pull->part, pull->doc.text + token->start, token->end - token->start);
        json_write_key(&pull->part, "value");
        json_write_object_begin(&pull->part);
        json_write_key(&pull->part, "items");
        json_write_array_begin(&pull->part);
    }
    return &pull->part;
}

static void pull_start(struct ws_pull *pull);

/* The pull is over (answered, or cancelled with nothing in flight): freed, and the next one
 * started. */
static void pull_end(struct ws_pull *pull)
{
    struct lsp_server *s = pull->s;
    s->pulls = pull->next;
    pull_free(pull);
    if (s->pulls != NULL && !s->exiting) /* stopped: lsp_workspace_free frees the others */
        pull_start(s->pulls);
    else if (s->pulls_over != NULL)
        s->pulls_over(s); /* an exit waiting for the pulls */
}

static void pull_answer(struct ws_pull *pull)
{
    part_send(pull);
    json_write_array_end(&pull->w);
    json_write_object_end(&pull->w);
    if (pull->out_of_memory)
        pull->w.failed = true; /* answered -32603 "out of memory": not a report lacking files */
    const struct lsp_request *was = pull->s->rpc.current;
    pull->s->rpc.current = &pull->req; /* for that answer */
    lsp_jsonrpc_finish(&pull->s->rpc, &pull->w);
    pull->s->rpc.current = was;
    pull_end(pull);
}

/* What the file of `item` is checked with, resolved on the loop from the projects as they are
 * now (its target freed first). */
static void item_target(struct ws_pull *pull, struct ws_item *item)
{
    struct lsp_documents *store = &pull->s->documents;
    lsp_projects_target_free(&item->target);
    item->out_of_memory |= lsp_projects_target(&store->projects, item->uri, &item->target) != 0;
    item->options = lsp_projects_options(&item->target, store->baseline_mode);
    item->settings_changes = store->settings_changes;
}

/* Sends the reports of the batches that are back, in walk order. */
static void deliver(struct ws_pull *pull)
{
    while (pull->first != NULL && pull->first->done) {
        struct ws_batch *b = pull->first;
        for (uint32_t i = 0; i < b->count; i++) {
            struct ws_item *item = &b->items[i];
            /* settings or a srcls.json changed since it was queued: the projects it was resolved
             * with are gone (the workers were quiesced first; this item is worked now) */
            if (item->on_loop && item->settings_changes != pull->s->documents.settings_changes)
                item_target(pull, item);
            if (item->on_loop)
                lsp_workspace_file_on_loop(pull, item, &b->out);
            pull->out_of_memory |= item->out_of_memory;
            if (item->end == item->start || b->out.failed)
                continue;
            size_t at = item->start + (b->out.buf[item->start] == ','); /* the writer's comma */
            json_write_raw(report_writer(pull), b->out.buf + at, item->end - at);
            if (pull->token != JSON_NONE && ++pull->in_part == WALK_PART_REPORTS)
                part_send(pull);
        }
        pull->first = b->next;
        if (pull->first == NULL)
            pull->last = NULL;
        items_free(b->items, b->count);
        json_writer_free(&b->out);
        free(b);
    }
}

static void on_work(struct ws_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        if (!b->items[i].on_loop)
            lsp_workspace_file_work(b->pull, &b->items[i], &b->out);
    }
    atomic_fetch_sub(&b->pull->working, 1u);
}

static void pump(struct ws_pull *pull);

static void after_work(struct ws_batch *b)
{
    struct ws_pull *pull = b->pull;
    b->done = true;
    pull->in_flight--;
    pull->cancelled |= pull->s->exiting;
    if (pull->cancelled) {
        if (pull->in_flight == 0)
            pull_end(pull);
        return;
    }
    deliver(pull);
    pump(pull);
}

/* One item of the next batch: what its file is checked with, resolved on the loop. */
static void item_prepare(struct ws_pull *pull, struct ws_item *item, struct ws_found found)
{
    *item = (struct ws_item){.path = found.path, .explicit = found.explicit};
    item->uri = lsp_uri_from_path(found.path);
    if (item->uri == NULL) {
        item->out_of_memory = true; /* NULL only then: the item is left out */
        return;
    }
    item_target(pull, item);
    /* an open document's report is the editor's text: it is made on the loop when it is sent
     * (one opened since the walk began is read from its file); a baseline's entries are marked
     * as findings use them: one thread at a time */
    item->on_loop =
        (pull->open_count > 0 && bsearch(&found.path, pull->open_paths, pull->open_count,
                                         sizeof *pull->open_paths, compare_paths) != NULL) ||
        item->target.baseline != NULL;
}

/* Hands batches to the pool while fewer than three a core are there; answers once every file
 * is reported. */
static void pump(struct ws_pull *pull)
{
    static unsigned cores;
    if (cores == 0)
        cores = lsp_workspace_cores();
    while (pull->in_flight < 3 * cores && pull->next_file < pull->file_count &&
           !pull->out_of_memory) {
        size_t left = pull->file_count - pull->next_file;
        uint32_t count = left < WALK_BATCH_FILES ? (uint32_t)left : WALK_BATCH_FILES;
        struct ws_batch *b = calloc(1, sizeof *b);
        struct ws_item *items = b != NULL ? calloc(count, sizeof *items) : NULL;
        if (items == NULL) {
            free(b);
            pull->out_of_memory = true;
            break;
        }
        *b = (struct ws_batch){.pull = pull, .items = items, .count = count};
        json_writer_init(&b->out, 0);
        for (uint32_t i = 0; i < count; i++)
            item_prepare(pull, &items[i], pull->files[pull->next_file++]);
        if (pull->last != NULL)
            pull->last->next = b;
        else
            pull->first = b;
        pull->last = b;
        pull->in_flight++;
        atomic_fetch_add(&pull->working, 1u);
        lsp_workspace_pool_submit(pull->s->pool, b);
    }
    if (pull->in_flight == 0 && (pull->next_file == pull->file_count || pull->out_of_memory))
        pull_answer(pull);
}

/* The paths of the open documents, sorted, for item_prepare. */
static void list_open(struct ws_pull *pull)
{
    for (struct lsp_document *d = pull->s->documents.first; d != NULL; d = d->next) {
        char **grown =
            vector_grow(pull->open_paths, &pull->open_cap, pull->open_count + 1, sizeof *grown);
        errno = 0;
        char *own = grown != NULL ? lsp_uri_to_path(d->uri, strlen(d->uri)) : NULL;
        if (grown != NULL)
            pull->open_paths = grown;
        pull->out_of_memory |= grown == NULL || (own == NULL && errno == ENOMEM);
        if (own != NULL)
            pull->open_paths[pull->open_count++] = own;
    }
    if (pull->open_count > 1)
        qsort(pull->open_paths, pull->open_count, sizeof *pull->open_paths, compare_paths);
}

static void walk_and_pump(struct ws_pull *pull)
{
    list_open(pull);
    for (uint32_t i = 0; i < pull->s->folder_count && !pull->out_of_memory; i++)
        walk_dir(pull, pull->s->folders[i], 0);
    pump(pull);
}

static void ask_git(struct ws_pull *pull);

static void on_git(void *context, const char *names, size_t len)
{
    struct ws_pull *pull = context;
    pull->git_running = false;
    if (names != NULL && pull->git_folder < pull->s->folder_count &&
        !walk_ignored_add(&pull->ignored, pull->s->folders[pull->git_folder], names, len))
        pull->out_of_memory = true;
    pull->git_folder++;
    pull->cancelled |= pull->s->exiting;
    if (pull->cancelled)
        pull_end(pull);
    else
        ask_git(pull);
}

/* Asks git what it ignores in the next folder, one folder after the other; then walks. */
static void ask_git(struct ws_pull *pull)
{
    while (pull->git_folder < pull->s->folder_count) {
        pull->git_running =
            lsp_workspace_git_ignored(pull->s->loop, pull->s->folders[pull->git_folder], on_git,
                                      pull) == 0;
        if (pull->git_running)
            return;         /* on_git goes on */
        pull->git_folder++; /* not started (WebAssembly): nothing known, as before */
    }
    walk_and_pump(pull);
}

static void pull_start(struct ws_pull *pull)
{
    struct lsp_server *s = pull->s;
    if (s->pool == NULL)
        s->pool = lsp_workspace_pool_new(s->loop, lsp_workspace_cores(), on_work, after_work);
    pull->out_of_memory |= s->pool == NULL;
    lsp_jsonrpc_result_begin(&pull->w, &pull->req);
    json_write_object_begin(&pull->w);
    json_write_key(&pull->w, "items");
    json_write_array_begin(&pull->w);
    ask_git(pull);
}

void lsp_workspace_diagnostic_request(struct lsp_server *s, struct lsp_request *req)
{
    struct ws_pull *pull = calloc(1, sizeof *pull);
    size_t len = req->doc->len;
    char *body = pull != NULL ? malloc(len + 1) : NULL;
    if (body == NULL) {
        free(pull);
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    memcpy(body, req->doc->text, len);
    body[len] = '\0';
    pull->s = s;
    pull->body = body;
    /* the same text: the same nodes, unless memory ran out */
    json_parse(&pull->doc, body, len, NULL);
    if (pull->doc.node_count != req->doc->node_count) {
        pull_free(pull);
        lsp_jsonrpc_reply_error(&s->rpc, req, LSP_INTERNAL_ERROR, "out of memory");
        return;
    }
    pull->req = *req;
    pull->req.doc = &pull->doc;
    pull->req.id_text = body + (req->id_text - req->doc->text);
    pull->req.method = (struct json_str){"workspace/diagnostic", sizeof "workspace/diagnostic" - 1};
    pull->previous = lsp_jsonrpc_get(&pull->doc, req->params, "previousResultIds");
    pull->token = lsp_jsonrpc_get(&pull->doc, req->params, "partialResultToken");
    if (pull->token != JSON_NONE && pull->doc.nodes[pull->token].kind != JSON_STRING &&
        pull->doc.nodes[pull->token].kind != JSON_NUMBER)
        pull->token = JSON_NONE; /* a ProgressToken is an integer or a string */
    pull->out_of_memory = s->folders_lost || s->documents.open_lost;
    struct ws_pull **at = &s->pulls;
    while (*at != NULL)
        at = &(*at)->next;
    *at = pull;
    if (s->pulls == pull)
        pull_start(pull);
}

void lsp_workspace_cancel(struct lsp_server *s, struct lsp_request *req)
{
    uint32_t id = lsp_jsonrpc_get(req->doc, req->params, "id");
    if (id == JSON_NONE)
        return;
    const struct json_node *n = &req->doc->nodes[id];
    for (struct ws_pull **at = &s->pulls; *at != NULL; at = &(*at)->next) {
        struct ws_pull *pull = *at;
        if (pull->cancelled || n->end - n->start != pull->req.id_len ||
            memcmp(req->doc->text + n->start, pull->req.id_text, pull->req.id_len) != 0)
            continue;
        lsp_jsonrpc_reply_error(&s->rpc, &pull->req, LSP_REQUEST_CANCELLED,
                                "the request was cancelled");
        pull->cancelled = true;
        if (pull != s->pulls) { /* waiting: not started */
            *at = pull->next;
            pull_free(pull);
            return;
        }
        if (pull->in_flight == 0 && !pull->git_running) /* else once they are back */
            pull_end(pull);
        return;
    }
}

void lsp_workspace_close(struct lsp_server *s)
{
    if (s->pool != NULL)
        lsp_workspace_pool_close(s->pool);
    s->pool = NULL;
}

void lsp_workspace_quiesce(struct lsp_server *s)
{
    while (s->pulls != NULL && atomic_load(&s->pulls->working) > 0)
        sched_yield(); /* a batch's worth of files at most */
}
