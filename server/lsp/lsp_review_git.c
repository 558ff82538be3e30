/* lsp_review_git: srcls.reviewBase natively: git run through lsp_git (uv_spawn, its output read
 * on the loop); HEAD watched with uv_fs_event (see lsp_review.h). */
#include "lsp_review.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "lsp_git.h"
#include "lsp_jsonrpc.h"
#include "lsp_uri.h"
#include "project/project.h"
#include "base/base.h"

#define KEY "srcls.reviewBase"

/* A problem with the setting: logged unless it was the last one, shown once per setting. */
static void problem(struct lsp_review *review, const char *format, ...)
{
    char message[sizeof review->logged];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (strcmp(message, review->logged) == 0)
        return;
    memcpy(review->logged, message, sizeof message);
    lsp_jsonrpc_log(review->rpc, LSP_MESSAGE_WARNING, "%s", message);
    if (!review->shown) {
        review->shown = true;
        lsp_jsonrpc_show(review->rpc, LSP_MESSAGE_WARNING, message);
    }
}

/* The most a git answer may hold: larger documents are not reviewed. */
#define OUTPUT_MAX ((size_t)64 << 20)
/* How long HEAD must stay put before the documents are read again (a commit writes several
 * files). */
#define SETTLE_MS 100

/* A directory watched for HEAD moving. */
struct lsp_review_watch {
    uv_fs_event_t event;
    struct lsp_review *review;
    struct lsp_review_watch *next;
    bool refs; /* a directory of refs: any change counts; else HEAD and packed-refs only */
    char path[];
};

enum step {
    STEP_REPOSITORY, /* git rev-parse: the git directories and the document's folder's prefix */
    STEP_MOVES,      /* git diff -M: whether the document was moved since the revision */
    STEP_BLOB,       /* git cat-file --batch: the revision's commit and the document's blob */
};

/* One git process (lsp_git); freed after `finish`, once the process has ended. */
struct lsp_review_run {
    struct lsp_review *review;
    struct lsp_review_run *next;
    enum step step;
    uint64_t generation;
    char *uri, *dir, *name; /* the document's URI, its directory and file name */
    char *prefix;           /* its directory's path from the work tree's top ("" or "a/b/") */
    char *moved_from;       /* its path at the revision (from the top) when git saw a move */
    char *input;
    struct lsp_git *git; /* running; NULL once it has ended */
    /* what git gave, set while finish() reads it (and may cut it into lines): the output is
     * lsp_git's, freed after */
    char *output;
    size_t len;
    int spawn_error;   /* uv_spawn's error, or 0 */
    int64_t exit_code; /* its exit status */
    bool too_large;
};

static void start_step(struct lsp_review *review, struct lsp_review_run *from, enum step step);

/* ---- watching HEAD ---- */

static void on_settle(uv_timer_t *timer)
{
    struct lsp_review *review = timer->data;
    if (review->base == NULL || review->closing)
        return;
    review->generation++;
    review->hooks.refetch(review->hooks.context, false);
}

static void on_git_event(uv_fs_event_t *event, const char *filename, int events, int status)
{
    (void)events;
    struct lsp_review_watch *watch = event->data;
    struct lsp_review *review = watch->review;
    if (status != 0 || review->closing)
        return;
    if (!watch->refs &&
        (filename == NULL || (strcmp(filename, "HEAD") != 0 && strcmp(filename, "packed-refs"))))
        return; /* the index, a lock, objects: HEAD did not move */
    uv_timer_start(&review->settle, on_settle, SETTLE_MS, 0);
}

static void free_watch(uv_handle_t *handle)
{
    free(handle->data);
}

/* Watches `path` (once), a directory of refs when `refs`. */
static void watch(struct lsp_review *review, const char *path, bool refs)
{
    for (struct lsp_review_watch *w = review->watches; w != NULL; w = w->next) {
        if (strcmp(w->path, path) == 0) {
            w->refs = w->refs || refs;
            return;
        }
    }
    size_t len = strlen(path);
    struct lsp_review_watch *w = malloc(sizeof *w + len + 1);
    if (w == NULL || uv_fs_event_init(review->loop, &w->event) != 0) {
        free(w);
        return;
    }
    memcpy(w->path, path, len + 1);
    w->review = review;
    w->refs = refs;
    w->event.data = w;
    if (uv_fs_event_start(&w->event, on_git_event, w->path, 0) != 0) {
        uv_close((uv_handle_t *)&w->event, free_watch);
        return;
    }
    w->next = review->watches;
    review->watches = w;
}

/* The ref HEAD names ("refs/heads/main"), read from `git_dir`/HEAD into `ref`; false when HEAD
 * is detached or cannot be read. A file of a few bytes, read as lsp_projects reads srcls.json. */
static bool head_ref(uv_loop_t *loop, const char *git_dir, char *ref, size_t size)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/HEAD", git_dir) >= sizeof path)
        return false;
    uv_fs_t req;
    uv_file fd = uv_fs_open(loop, &req, path, UV_FS_O_RDONLY, 0, NULL);
    uv_fs_req_cleanup(&req);
    if (fd < 0)
        return false;
    char text[512];
    uv_buf_t buf = uv_buf_init(text, sizeof text - 1);
    int n = uv_fs_read(loop, &req, fd, &buf, 1, 0, NULL);
    uv_fs_req_cleanup(&req);
    uv_fs_close(loop, &req, fd, NULL);
    uv_fs_req_cleanup(&req);
    if (n <= 5 || strncmp(text, "ref: ", 5) != 0)
        return false;
    text[n] = '\0';
    text[strcspn(text, "\r\n")] = '\0';
    if (strstr(text, "..") != NULL || strlen(text + 5) >= size)
        return false;
    strcpy(ref, text + 5);
    return true;
}

/* rev-parse's answer, "GIT_DIR\nCOMMON_DIR\n" (the second relative to the document's
 * directory, as git may write it): the git directory, the common one (a linked work tree's
 * refs are there) and the directory of HEAD's ref are watched. */
static void watch_repository(struct lsp_review *review, struct lsp_review_run *run)
{
    char *git_dir = run->output;
    char *common = strchr(git_dir, '\n');
    if (common == NULL)
        return;
    *common++ = '\0';
    common[strcspn(common, "\n")] = '\0';
    char path[4096];
    if (common[0] != '/' &&
        (size_t)snprintf(path, sizeof path, "%s/%s", run->dir, common) < sizeof path)
        common = path;
    char real[4096], ref[400];
    uv_fs_t req;
    int status = uv_fs_realpath(review->loop, &req, common, NULL);
    if (status == 0 && strlen(req.ptr) < sizeof real)
        strcpy(real, req.ptr);
    else
        status = -1;
    uv_fs_req_cleanup(&req);
    watch(review, git_dir, false);
    if (status != 0)
        return;
    watch(review, real, false);
    if (!head_ref(review->loop, git_dir, ref, sizeof ref))
        return;
    char refs_dir[4096];
    if ((size_t)snprintf(refs_dir, sizeof refs_dir, "%s/%s", real, ref) >= sizeof refs_dir)
        return;
    *strrchr(refs_dir, '/') = '\0';
    watch(review, refs_dir, true);
}

/* ---- git processes ---- */

static void free_run(struct lsp_review_run *run)
{
    free(run->uri);
    free(run->dir);
    free(run->name);
    free(run->prefix);
    free(run->moved_from);
    free(run->input);
    free(run);
}

/* Reads the header "OID TYPE SIZE\n" at `*at` of cat-file's answer into `object` and moves
 * `*at` past it; false when the object is missing (the header then says "NAME missing") or its
 * bytes are not all there. */
static bool batch_header(const struct lsp_review_run *run, size_t *at, struct review_object *object)
{
    const char *line = run->output + *at;
    const char *end = memchr(line, '\n', run->len - *at);
    if (end == NULL)
        return false;
    *at = (size_t)(end - run->output) + 1;
    return review_batch_header(line, (size_t)(end - line), run->len - *at, object) == 1;
}

/* cat-file's answer: the commit (else the revision is no commit), then the blob (else the
 * document is not in the revision: nothing to compare with). */
static void take_blob(struct lsp_review *review, struct lsp_review_run *run)
{
    struct lsp_review_base *now = review->hooks.base_of(review->hooks.context, run->uri);
    if (now == NULL)
        return; /* closed meanwhile */
    size_t at = 0;
    struct review_object commit, blob;
    if (!batch_header(run, &at, &commit) || strcmp(commit.type, "commit") != 0) {
        problem(review, "%s: \"%s\" names no commit in the repository of %s", KEY, review->base,
                run->dir);
        if (now->text != NULL) {
            lsp_review_base_free(now);
            review->hooks.changed(review->hooks.context, run->uri);
        }
        return;
    }
    at += commit.size + 1;
    struct lsp_review_base base = {0};
    if (at <= run->len && batch_header(run, &at, &blob) && strcmp(blob.type, "blob") == 0 &&
        at + blob.size <= run->len) {
        memcpy(base.blob, blob.oid, sizeof base.blob);
        if (strcmp(base.blob, now->blob) == 0 && now->text != NULL)
            return; /* the same blob: its analysis is kept */
        base.text = malloc(blob.size + 1);
        if (base.text == NULL)
            return;
        memcpy(base.text, run->output + at, blob.size);
        base.text[blob.size] = '\0';
        base.len = blob.size;
        base.project = project_is_config(run->uri, strlen(run->uri)); /* what it does to the gate */
    } else if (now->text == NULL) {
        return; /* not in the revision, as before */
    }
    lsp_review_base_free(now);
    *now = base;
    review->hooks.changed(review->hooks.context, run->uri);
}

/* rev-parse's third line, --show-prefix: the document's folder from the top (empty at it). */
static void take_prefix(struct lsp_review_run *run)
{
    char *line = strchr(run->output, '\n');
    line = line != NULL ? strchr(line + 1, '\n') : NULL;
    if (line == NULL)
        return;
    line++;
    size_t len = strcspn(line, "\n");
    free(run->prefix);
    run->prefix = strndup(line, len);
}

/* git diff -M's listing (read by the core's review_listing_next, as the CLI's is): when the
 * document's path is the new path of a move, its path at the revision. */
static void take_move(struct lsp_review_run *run)
{
    if (run->prefix == NULL)
        return;
    size_t prefix_len = strlen(run->prefix), at = 0;
    struct review_change change;
    while (review_listing_next(run->output, run->len, &at, &change)) {
        if (change.old_path != NULL && strncmp(change.path, run->prefix, prefix_len) == 0 &&
            strcmp(change.path + prefix_len, run->name) == 0) {
            run->moved_from = strdup(change.old_path);
            return;
        }
    }
}

static void finish(struct lsp_review_run *run)
{
    struct lsp_review *review = run->review;
    for (struct lsp_review_run **p = &review->runs; *p != NULL; p = &(*p)->next) {
        if (*p == run) {
            *p = run->next;
            break;
        }
    }
    if (review->closing || review->base == NULL || run->generation != review->generation)
        return; /* stopped, or an older question */
    if (run->spawn_error != 0) {
        problem(review, "%s: git could not be started (%s): no review diagnostics", KEY,
                uv_strerror(run->spawn_error));
    } else if (run->too_large) {
        lsp_jsonrpc_log(review->rpc, LSP_MESSAGE_INFO, "%s: %s at %s is too large to review", KEY,
                        run->uri, review->base);
    } else if (run->step == STEP_REPOSITORY && run->exit_code != 0) {
        problem(review, "%s: %s is not in a git work tree: no review diagnostics", KEY, run->dir);
    } else if (run->step == STEP_REPOSITORY) {
        take_prefix(run);
        watch_repository(review, run);
        start_step(review, run, STEP_MOVES);
    } else if (run->step == STEP_MOVES) {
        if (run->exit_code == 0) /* else no such revision: the next step says so */
            take_move(run);
        start_step(review, run, STEP_BLOB);
    } else if (run->exit_code != 0) {
        problem(review, "%s: git cat-file failed in %s (exit %lld)", KEY, run->dir,
                (long long)run->exit_code);
    } else {
        take_blob(review, run);
    }
}

/* lsp_git's callback: what git gave, read by finish(); then the run is freed. */
static void on_git_done(void *context, const struct lsp_git_result *result)
{
    struct lsp_review_run *run = context;
    run->git = NULL;
    run->output = result->output;
    run->len = result->len;
    run->spawn_error = result->spawn_error;
    run->exit_code = result->exit_code;
    run->too_large = result->cut && result->spawn_error == 0;
    finish(run);
    free_run(run);
}

/* Starts git with `args` in the document's directory, the run's input on its standard input. */
static void spawn(struct lsp_review_run *run, char **args)
{
    struct lsp_review *review = run->review;
    run->git =
        lsp_git_start(review->loop, args, run->dir, run->input, OUTPUT_MAX, on_git_done, run);
    if (run->git == NULL) {
        free_run(run); /* out of memory: no review of this document */
        return;
    }
    run->next = review->runs;
    review->runs = run;
}

/* Starts `step` for the document of `from` (a run whose names are copied). */
static void start_step(struct lsp_review *review, struct lsp_review_run *from, enum step step)
{
    struct lsp_review_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return;
    run->review = review;
    run->step = step;
    run->generation = from->generation;
    run->uri = strdup(from->uri);
    run->dir = strdup(from->dir);
    run->name = strdup(from->name);
    run->prefix = from->prefix != NULL ? strdup(from->prefix) : NULL;
    run->moved_from = from->moved_from != NULL ? strdup(from->moved_from) : NULL;
    if (step == STEP_BLOB) {
        const char *path = run->moved_from != NULL ? run->moved_from : run->name;
        size_t size = 2 * strlen(review->base) + strlen(path) + 16;
        run->input = malloc(size);
        if (run->input != NULL) /* a move's path is from the top; the document's, from here */
            snprintf(run->input, size, "%s^{commit}\n%s:%s%s\n", review->base, review->base,
                     run->moved_from != NULL ? "" : "./", path);
    } else {
        run->input = strdup("");
    }
    if (run->uri == NULL || run->dir == NULL || run->name == NULL || run->input == NULL) {
        free_run(run);
        return;
    }
    static char *rev_parse[] = {
        "git", "rev-parse", "--absolute-git-dir", "--git-common-dir", "--show-prefix", NULL};
    static char *cat_file[] = {"git", "cat-file", "--batch", NULL};
    char *diff[] = {"git", "diff", "--name-status", "-M", "-z", review->base, "--", NULL};
    spawn(run, step == STEP_BLOB ? cat_file : step == STEP_MOVES ? diff : rev_parse);
}

void lsp_review_fetch(struct lsp_review *review, const char *uri)
{
    if (review->base == NULL || review->closing)
        return;
    char *path = lsp_uri_to_path(uri, strlen(uri));
    char *slash = path != NULL ? strrchr(path, '/') : NULL;
    if (slash == NULL || strchr(path, '\n') != NULL) {
        free(path); /* not a file on disk (untitled:): nothing to compare with */
        return;
    }
    *slash = '\0';
    struct lsp_review_run from = {
        .generation = review->generation,
        .uri = (char *)uri, /* copied by start_step */
        .dir = path[0] != '\0' ? path : "/",
        .name = slash + 1,
    };
    start_step(review, &from, STEP_REPOSITORY);
    free(path);
}

void lsp_review_init(struct lsp_review *review, uv_loop_t *loop, struct lsp_jsonrpc *rpc,
                     struct lsp_review_hooks hooks)
{
    *review = (struct lsp_review){.loop = loop, .rpc = rpc, .hooks = hooks};
    review->settle.data = review;
}

void lsp_review_close(struct lsp_review *review)
{
    review->closing = true;
    free(review->base);
    review->base = NULL;
    while (review->watches != NULL) {
        struct lsp_review_watch *w = review->watches;
        review->watches = w->next;
        uv_close((uv_handle_t *)&w->event, free_watch);
    }
    for (struct lsp_review_run *run = review->runs; run != NULL; run = run->next) {
        if (run->git != NULL)
            lsp_git_stop(run->git);
    }
    if (review->started)
        uv_close((uv_handle_t *)&review->settle, NULL);
    review->started = false;
}

void lsp_review_set(struct lsp_review *review, const char *ref, size_t len)
{
    if (ref != NULL && len > 0 &&
        (len > LSP_REVIEW_REF_MAX || ref[0] == '-' || memchr(ref, '\n', len) != NULL ||
         memchr(ref, '\0', len) != NULL)) {
        lsp_jsonrpc_log(review->rpc, LSP_MESSAGE_WARNING,
                        "srcls settings: reviewBase must be a git revision such as \"HEAD\" or "
                        "\"origin/main\" (review is off)");
        ref = NULL;
    }
    if (ref == NULL || len == 0) {
        bool was_on = review->base != NULL;
        free(review->base);
        review->base = NULL;
        if (was_on)
            review->hooks.refetch(review->hooks.context, true); /* drops them all */
        return;
    }
    if (review->base != NULL && strlen(review->base) == len && memcmp(review->base, ref, len) == 0)
        return;
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return;
    memcpy(copy, ref, len);
    copy[len] = '\0';
    free(review->base);
    review->base = copy;
    review->shown = false;
    review->logged[0] = '\0';
    if (!review->started && uv_timer_init(review->loop, &review->settle) == 0) {
        review->started = true;
        review->settle.data = review;
    }
    review->generation++;
    review->hooks.refetch(review->hooks.context, true);
}
