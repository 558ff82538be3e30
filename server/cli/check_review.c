/* check_review: the version of each document at --base REF (see check_review.h), natively and in
 * the WebAssembly build alike: git is run through check_git.h. */
#define _XOPEN_SOURCE 700 /* strndup */

#include "check_review.h"

#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_command.h"
#include "check_gate.h"
#include "check_git.h"
#include "domain/domain.h"
#include "check_read.h"
#include "check/check.h"
#include "platform.h"
#include "project/project.h"
#include "base/base.h"

/* Paths into the listing. */
struct path_list {
    const char **items;
    size_t count, cap;
};

/* A path that differs from REF (relative to the top), and the path it was moved from. */
struct changed_path {
    const char *path;
    const char *old_path; /* NULL unless git saw a move */
    bool added;           /* not there at REF: new, or a srcls.json moved here */
};

struct changed_list {
    struct changed_path *items;
    size_t count, cap;
};

struct check_review {
    char *ref;                     /* as written on the command line, for messages */
    char *commit;                  /* its commit id */
    char *toplevel;                /* the work tree's top directory, real path */
    char *listing;                 /* git diff --name-status -z: status and path, NUL-separated */
    struct changed_list changed;   /* what differs from REF, sorted by path */
    struct path_list deleted;      /* those of them deleted since REF, in git's order */
    struct path_list gone;         /* the srcls.json files deleted or moved away since REF */
    bool configs_moved;            /* a srcls.json is gone since REF, or new */
    struct check_git_batch *batch; /* git cat-file --batch; NULL until a document changed */
    char *dir, *dir_relative;      /* the last directory of relative(), and its path from the top */
    struct check_gate *gate;       /* srcls.json and baseline files reviewed (check_gate.h) */
    bool failed;
};

static int compare(const void *a, const void *b)
{
    return strcmp(((const struct changed_path *)a)->path, ((const struct changed_path *)b)->path);
}

/* git's output for `argv` with the trailing newline removed, or NULL (status says why). */
static char *git_line(char *const argv[], int *status)
{
    size_t len = 0;
    char *out = check_git_output(argv, &len, status);
    if (out != NULL && *status != 0) {
        free(out);
        return NULL;
    }
    while (out != NULL && len > 0 && out[len - 1] == '\n')
        out[--len] = '\0';
    return out;
}

/* Resolves REF to a commit; says why not (a shallow clone named) on stderr. */
static bool resolve(struct check_review *base)
{
    int status;
    size_t size = strlen(base->ref) + sizeof "^{commit}";
    char *spec = malloc(size);
    if (spec == NULL) {
        fputs("srcls: out of memory\n", stderr);
        return false;
    }
    snprintf(spec, size, "%s^{commit}", base->ref);
    char *argv[] = {"git", "rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL};
    base->commit = git_line(argv, &status);
    free(spec);
    if (base->commit != NULL)
        return true;
    if (status == CHECK_GIT_NO_MEMORY) {
        fprintf(stderr, "srcls: --base %s: out of memory\n", base->ref);
        return false;
    }
    char *shallow_argv[] = {"git", "rev-parse", "--is-shallow-repository", NULL};
    char *shallow = git_line(shallow_argv, &status);
    bool is_shallow = shallow != NULL && strcmp(shallow, "true") == 0;
    free(shallow);
    fprintf(stderr, "srcls: --base %s: no such commit in this repository%s\n", base->ref,
            is_shallow ? " (the clone is shallow: fetch it, e.g. git fetch --unshallow, or "
                         "fetch-depth: 0 in actions/checkout)"
                       : "");
    return false;
}

static bool push(struct path_list *list, const char *path)
{
    const char **grown = vector_grow(list->items, &list->cap, list->count + 1, sizeof *grown);
    if (grown == NULL)
        return false;
    list->items = grown;
    list->items[list->count++] = path;
    return true;
}

static bool push_changed(struct changed_list *list, const struct changed_path *entry)
{
    struct changed_path *grown =
        vector_grow(list->items, &list->cap, list->count + 1, sizeof *grown);
    if (grown == NULL)
        return false;
    list->items = grown;
    list->items[list->count++] = *entry;
    return true;
}

/* Lists what differs between REF and the work tree, with git's rename detection: a file moved
 * (git mv, or a move git sees in the index) is compared with its old path's version, and its
 * old path is no deletion. A move beyond git's similarity threshold is a deletion and a new
 * file, as git says. */
static bool list_changed(struct check_review *base)
{
    int status;
    size_t len = 0;
    char *argv[] = {"git", "-C", base->toplevel, "diff", "--name-status",
                    "-M",  "-z", base->commit,   "--",   NULL};
    base->listing = check_git_output(argv, &len, &status);
    if (status != 0) {
        fprintf(stderr, "srcls: --base %s: %s\n", base->ref,
                status == CHECK_GIT_NO_MEMORY ? "out of memory" : "git diff failed");
        return false;
    }
    struct review_change change;
    for (size_t at = 0; review_listing_next(base->listing, len, &at, &change);) {
        struct changed_path entry = {.path = change.path, .old_path = change.old_path};
        /* a srcls.json governs its directory: moved, it is gone from there (a deletion) and
         * new where it is now, never compared with its old path's version */
        const char *gone = change.status == 'D' ? change.path : change.old_path;
        bool config = gone != NULL && project_is_config(gone, strlen(gone));
        entry.added = change.status == 'A' || (change.old_path != NULL &&
                                               project_is_config(change.path, strlen(change.path)));
        base->configs_moved |=
            config || (entry.added && project_is_config(change.path, strlen(change.path)));
        if (config)
            entry.old_path = NULL;
        if (!push_changed(&base->changed, &entry) ||
            ((change.status == 'D' || config) && !push(&base->deleted, gone)) ||
            (config && !push(&base->gone, gone))) {
            fputs("srcls: out of memory\n", stderr);
            return false;
        }
    }
    if (base->changed.count > 0) /* qsort's array may not be NULL, even empty */
        qsort(base->changed.items, base->changed.count, sizeof *base->changed.items, compare);
    return true;
}

struct check_review *check_review_open(const char *ref, const char *baseline)
{
    struct check_review *base = calloc(1, sizeof *base);
    if (base == NULL || (base->ref = strdup(ref)) == NULL) {
        fputs("srcls: out of memory\n", stderr);
        free(base);
        return NULL;
    }
    int status;
    /* The top as a path from here, not git's absolute name of it: the same in every build (the
     * WebAssembly build names a Windows drive /c:, git C:). Inside .git: "false", no top. */
    char *argv[] = {"git", "rev-parse", "--is-inside-work-tree", "--show-cdup", NULL};
    char *top = git_line(argv, &status);
    if (top == NULL || strncmp(top, "true", 4) != 0 || (top[4] != '\n' && top[4] != '\0')) {
        const char *missing = check_git_missing();
        if (status == CHECK_GIT_NO_MEMORY)
            fprintf(stderr, "srcls: --base %s: out of memory\n", ref);
        else if (status >= 0)
            fprintf(stderr, "srcls: --base %s: not in a git work tree (run it from inside one)\n",
                    ref);
        else
            fprintf(stderr, "srcls: --base %s: git cannot be run (%s)\n", ref,
                    missing != NULL ? missing : "is it installed?");
        free(top);
        check_review_close(base);
        return NULL;
    }
    char resolved[PATH_MAX];
    const char *cdup = top[4] == '\n' && top[5] != '\0' ? top + 5 : ".";
    errno = 0;
    base->toplevel = platform_realpath(cdup, resolved) != NULL ? strdup(resolved) : NULL;
    if (base->toplevel == NULL)
        fprintf(stderr, "srcls: --base %s: %s: %s\n", ref, cdup,
                errno == ENOMEM || errno == 0 ? "out of memory" : strerror(errno));
    free(top);
    if (base->toplevel == NULL || !resolve(base) || !list_changed(base)) {
        check_review_close(base);
        return NULL;
    }
    if (baseline != NULL)
        check_gate_baseline(base, baseline);
    return base;
}

/* The real path of `dir` (a directory, or a path named on the command line) relative to the
 * top ("" for the top itself), or NULL outside the work tree or when it does not exist. */
static char *directory_relative(const struct check_review *base, const char *dir)
{
    char resolved[PATH_MAX];
    char *real = platform_realpath(dir, resolved) != NULL ? strdup(resolved) : NULL;
    size_t top = strlen(base->toplevel);
    if (real == NULL || strncmp(real, base->toplevel, top) != 0 ||
        (real[top] != '/' && real[top] != '\0')) {
        free(real);
        return NULL;
    }
    memmove(real, real + top + (real[top] == '/'), strlen(real + top) + (real[top] != '/'));
    return real;
}

/* `path` relative to the work tree's top (malloc'd), or NULL when it is outside it. Its
 * directory is resolved once for all the files of a directory the walk visits in a row (a
 * scan follows no link to a file, so the name is taken as it is). */
static char *relative(struct check_review *base, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash != NULL ? (size_t)(slash - path) : 0;
    if (base->dir == NULL || strlen(base->dir) != dir_len ||
        strncmp(base->dir, path, dir_len) != 0) {
        free(base->dir);
        free(base->dir_relative);
        base->dir = strndup(path, dir_len);
        base->dir_relative = NULL;
        if (base->dir == NULL)
            return NULL;
        base->dir_relative = directory_relative(base, slash == NULL  ? "."
                                                      : dir_len == 0 ? "/"
                                                                     : base->dir);
    }
    if (base->dir_relative == NULL)
        return NULL;
    const char *name = slash != NULL ? slash + 1 : path;
    size_t size = strlen(base->dir_relative) + strlen(name) + 2;
    char *rel = malloc(size);
    if (rel != NULL)
        snprintf(rel, size, "%s%s%s", base->dir_relative, base->dir_relative[0] ? "/" : "", name);
    return rel;
}

/* Opens the batch and announces the blobs at the base of every changed path (and of the path
 * it moved from): the WebAssembly build asks git them in one run rather than one per document.
 * Out of memory announces nothing (each is then asked alone). */
static bool open_batch(struct check_review *base)
{
    if ((base->batch = check_git_batch_open(base->toplevel)) == NULL)
        return false;
    size_t count = 0, max = base->changed.count * 2;
    char **specs = max > 0 ? calloc(max, sizeof *specs) : NULL;
    for (size_t i = 0; specs != NULL && i < base->changed.count; i++) {
        const char *paths[] = {base->changed.items[i].path, base->changed.items[i].old_path};
        for (size_t p = 0; p < 2 && paths[p] != NULL; p++) {
            size_t size = strlen(base->commit) + strlen(paths[p]) + 2;
            if ((specs[count] = malloc(size)) != NULL)
                snprintf(specs[count++], size, "%s:%s", base->commit, paths[p]);
        }
    }
    if (specs != NULL)
        check_git_batch_expect(base->batch, specs, count);
    for (size_t i = 0; i < count; i++)
        free(specs[i]);
    free(specs);
    return true;
}

/* The blob of `rel` at the base commit: 1 with its text (malloc'd), 0 when it is not there (a
 * new file), -1 when git does not answer as it should. */
static int read_blob(struct check_review *base, const char *rel, char **text, size_t *len)
{
    if (base->batch == NULL && !open_batch(base))
        return -1;
    size_t size = strlen(base->commit) + strlen(rel) + 2;
    char *spec = malloc(size);
    if (spec != NULL)
        snprintf(spec, size, "%s:%s", base->commit, rel);
    FILE *answer = spec != NULL ? check_git_batch_ask(base->batch, spec) : NULL;
    free(spec);
    char header[256];
    if (answer == NULL || fgets(header, sizeof header, answer) == NULL ||
        strchr(header, '\n') == NULL)
        return -1;
    struct review_object blob;
    int found = review_batch_header(header, strcspn(header, "\n"), CHECK_MAX_INPUT_SIZE, &blob);
    if (found <= 0)
        return found;
    char *buf = malloc(blob.size + 1);
    if (buf == NULL || fread(buf, 1, blob.size, answer) != blob.size || fgetc(answer) != '\n' ||
        strcmp(blob.type, "blob") != 0) {
        free(buf);
        return -1;
    }
    buf[blob.size] = '\0';
    *text = buf;
    *len = blob.size;
    return 1;
}

/* Says that `path` could not be compared with its version at the base: the run fails (2). */
static void compare_failed(struct check_review *base, const char *path)
{
    fprintf(stderr,
            "srcls: %s: cannot compare it with its version at %s (git failed or out of memory)\n",
            path, base->ref);
    base->failed = true;
}

int check_review_read(struct check_review *base, const char *path, char **text, size_t *len)
{
    *text = NULL;
    if (base->failed)
        return -1;
    errno = 0;
    char *rel = relative(base, path);
    if (rel == NULL && errno == ENOMEM) { /* not outside the work tree: unknown */
        compare_failed(base, path);
        return -1;
    }
    struct changed_path key = {.path = rel};
    int found = rel == NULL || base->changed.count == 0 ||
                        bsearch(&key, base->changed.items, base->changed.count,
                                sizeof *base->changed.items, compare) == NULL
                    ? 2
                    : check_review_read_rel(base, rel, path, text, len);
    free(rel);
    return found;
}

int check_review_read_rel(struct check_review *base, const char *rel, const char *shown,
                          char **text, size_t *len)
{
    *text = NULL;
    int found = base->failed ? -1 : read_blob(base, rel, text, len);
    if (found < 0 && !base->failed)
        compare_failed(base, shown);
    return found;
}

void check_review_fail(struct check_review *base, const char *path)
{
    compare_failed(base, path);
}

const char *check_review_name(const struct check_review *base)
{
    return base->ref;
}

struct check_gate **check_review_gate(struct check_review *base)
{
    return &base->gate;
}

/* The analysis of `rel` (shown as `shown`) at the base: 1 with `old` and `*text` (its text, to
 * free after it), 0 when it is not there, -1 when git or memory failed (said; the run fails). */
static int analyse_at_base(struct check_review *base, const char *rel, const char *shown,
                           const struct analysis_options *options, struct analysis *old,
                           char **text)
{
    size_t len = 0;
    *text = NULL;
    int found = read_blob(base, rel, text, &len);
    if (found > 0 && analysis_run(old, *text, len, options) != 0) {
        analysis_free(old);
        found = -1;
    }
    if (found < 0)
        compare_failed(base, shown);
    return found;
}

void check_review_review(struct check_review *base, const char *path, struct analysis *now)
{
    if (base != NULL && now->document == DOCUMENT_UNKNOWN && check_gate_take(base, path, now) != 0)
        compare_failed(base, path); /* a srcls.json named: its review with it */
    if (base == NULL || base->failed || now->document == DOCUMENT_UNKNOWN)
        return;
    errno = 0;
    char *rel = relative(base, path);
    if (rel == NULL && errno == ENOMEM) { /* not outside the work tree: unknown */
        compare_failed(base, path);
        return;
    }
    struct changed_path key = {.path = rel};
    const struct changed_path *found = rel != NULL && base->changed.count > 0
                                           ? bsearch(&key, base->changed.items, base->changed.count,
                                                     sizeof *base->changed.items, compare)
                                           : NULL;
    if (found == NULL) {
        free(rel);
        return; /* outside the work tree, or unchanged since the base */
    }
    const char *at_base = found->old_path != NULL ? found->old_path : rel; /* moved: from there */
    char *text;
    struct analysis old;
    struct analysis_options options = {.registry = now->registry, .settings = now->settings};
    if (analyse_at_base(base, at_base, path, &options, &old, &text) > 0) {
        if (review_compare(now, &old, base->ref) != 0)
            compare_failed(base, path);
        analysis_free(&old);
    }
    free(text);
    free(rel);
}

char *check_review_relative(struct check_review *base, const char *path)
{
    return relative(base, path);
}

const char *check_review_top(const struct check_review *base)
{
    return base->toplevel;
}

bool check_review_configs_moved(const struct check_review *base)
{
    return base->configs_moved;
}

bool check_review_gone(const struct check_review *base, const char *rel)
{
    for (size_t i = 0; i < base->gone.count; i++) {
        if (strcmp(base->gone.items[i], rel) == 0)
            return true;
    }
    return false;
}

bool check_review_added(const struct check_review *base, const char *rel)
{
    struct changed_path key = {.path = rel};
    const struct changed_path *found = base->changed.count > 0
                                           ? bsearch(&key, base->changed.items, base->changed.count,
                                                     sizeof *base->changed.items, compare)
                                           : NULL;
    return found != NULL && found->added;
}

/* The message for a deleted file that held `old` at the base, in `arena`. */
static const char *deleted_message(struct analysis *old, const char *ref, struct arena *arena)
{
    struct json_doc *doc = &old->doc;
    if (old->document == DOCUMENT_BULK)
        return arena_printf(arena,
                            "the file was deleted since %s, and with it the %u sources it held",
                            ref, json_child_count(doc, doc->root));
    uint32_t name = old->document == DOCUMENT_SOURCE ? envelope_name(doc, doc->root) : JSON_NONE;
    if (name != JSON_NONE && json_node_at(doc, name)->kind == JSON_STRING) {
        struct json_str text = json_node_string(doc, name);
        return arena_printf(arena, "the file was deleted since %s, and with it the source \"%.*s\"",
                            ref, (int)text.len, text.ptr);
    }
    return arena_printf(arena, "the file was deleted since %s", ref);
}

/* Reports the file `rel`, deleted since the base and shown as `shown`, if it held a source or
 * a job there: one risky-change about the whole file. */
static void report_deleted(struct check_review *base, const struct check_options *options,
                           const char *rel, const char *shown, struct report_summary *summary)
{
    char *text = NULL;
    struct analysis_options analysis_options = {.registry = options->registry};
    struct analysis old, gone;
    enum diag_severity severity = check_gate_severity(options->configs, shown);
    if (severity == DIAG_OFF ||
        analyse_at_base(base, rel, shown, &analysis_options, &old, &text) <= 0) {
        free(text);
        return;
    }
    if (old.document != DOCUMENT_UNKNOWN && analysis_run(&gone, "", 0, &analysis_options) != 0) {
        analysis_free(&gone);
        compare_failed(base, shown);
    } else if (old.document != DOCUMENT_UNKNOWN) {
        gone.diags.count = 0;
        struct diagnostic d = {.code = CODE_RISKY_CHANGE,
                               .severity = severity,
                               .related_start = UINT32_MAX,
                               .related_end = UINT32_MAX,
                               .message = deleted_message(&old, base->ref, &gone.arena),
                               .pointer = "",
                               .node = JSON_NONE};
        if (d.message != NULL && diag_list_add(&gone.diags, &d) == 0) {
            struct checked_file file = {.path = shown, .analysis = &gone, .deleted = true};
            summary->files++;
            summary->warnings += d.severity == DIAG_WARNING;
            summary->errors += d.severity == DIAG_ERROR;
            options->reporter->file(options->reporter, &file);
        } else {
            compare_failed(base, shown);
        }
        analysis_free(&gone);
    }
    analysis_free(&old);
    free(text);
}

void check_review_report_deleted(const struct check_options *options,
                                 struct report_summary *summary)
{
    struct check_review *base = options->base;
    for (size_t i = 0; base != NULL && !options->diff && i < base->deleted.count; i++) {
        const char *rel = base->deleted.items[i];
        size_t rel_len = strlen(rel);
        if (rel_len < 5 || strcmp(rel + rel_len - 5, ".json") != 0)
            continue; /* only documents */
        for (int p = 0; p < options->path_count && !base->failed; p++) {
            char *prefix = strcmp(options->paths[p], "-") != 0
                               ? directory_relative(base, options->paths[p])
                               : NULL;
            size_t n = prefix != NULL ? strlen(prefix) : 0;
            bool below =
                prefix != NULL && (n == 0 || (strncmp(rel, prefix, n) == 0 && rel[n] == '/'));
            free(prefix);
            if (!below)
                continue;
            const char *named = options->paths[p];
            size_t size = strlen(named) + rel_len + 2;
            char *shown = malloc(size);
            if (shown == NULL) {
                base->failed = true;
                break;
            }
            bool slash = named[strlen(named) - 1] == '/';
            snprintf(shown, size, "%s%s%s", named, slash ? "" : "/", rel + (n > 0 ? n + 1 : 0));
            if (!check_shard_owns(options->shard, options->shard_count,
                                  shown)) /* --shard: another shard's file */
                ;
            else if (project_is_config(rel, rel_len))
                check_gate_deleted(base, options, rel, shown, summary);
            else
                report_deleted(base, options, rel, shown, summary);
            free(shown);
            break;
        }
    }
    if (base != NULL && !options->diff)
        check_gate_report(base, options, summary);
}

bool check_review_failed(const struct check_review *base)
{
    return base != NULL && base->failed;
}

void check_review_close(struct check_review *base)
{
    if (base == NULL)
        return;
    check_git_batch_close(base->batch);
    check_gate_free(base->gate);
    free(base->dir);
    free(base->dir_relative);
    free(base->changed.items);
    free(base->deleted.items);
    free(base->gone.items);
    free(base->listing);
    free(base->toplevel);
    free(base->commit);
    free(base->ref);
    free(base);
}
