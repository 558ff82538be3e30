/* check_command: files, directories (recursing into *.json) and '-' for stdin. A file named
 * explicitly is always reported on; a file found in a directory only when it is a source or
 * a job document (or is named *.source.json / *.job.json). The walk's guarantees are in
 * docs/cli.md: named links are followed, scans follow none and visit each inode once, only
 * regular files are read (opens are non-blocking and confirmed with fstat), nothing over the
 * parser's limit is read, and --fix rewrites through file_replace. */
#include "check_command_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_ignored.h"
#include "check_names.h"
#include "check_pool.h"
#include "check_read.h"
#include "check_visited.h"
#include "file_replace.h"
#include "base/base.h"
#include "walk/walk.h"

/* With --jobs N, at most this many files per job are read or waiting to be reported. */
#define CHECK_WINDOW_PER_JOB 16u

/* Hands the file `path` to the pool as `shape` says (its descriptor, or standard input's text,
 * which the task then owns); when memory runs out, closes and frees what it held and reports
 * the file. */
static void start_task(struct walk *walk, const char *path, struct file_task shape)
{
    struct file_task *task = walk->pool != NULL ? check_pool_reuse(walk->pool) : NULL;
    if (task == NULL)
        task = malloc(sizeof *task); /* filled below, from `shape` */
    char *copy = task != NULL ? strdup(path) : NULL;
    if (copy == NULL) {
        free(shape.text);
        free(task);
        check_command_unreadable(walk, path, "cannot read: out of memory");
        return;
    }
    if (shape.name != NULL) /* the name ends the path: the task keeps no copy of its own */
        shape.name = copy + strlen(copy) - strlen(shape.name);
    shape.path = copy;
    *task = shape;
    if (task->dir != NULL)
        task->dir->refs++;
    check_command_task(walk, task);
}

/* Checks the regular file `name` of the directory being listed (or a path named, followed if
 * it is a link): a worker opens it, so that the opens run on every core. */
static void check_regular_file(struct walk *walk, const char *name, const char *path, bool explicit,
                               bool included)
{
    start_task(walk, path,
               (struct file_task){.dir = explicit ? NULL : walk->dir,
                                  .name = explicit ? path : name,
                                  .follow = explicit,
                                  .explicit = explicit || included});
}

void check_command_dir_release(struct walk_dir *dir)
{
    if (dir != NULL && --dir->refs == 0) {
        closedir(dir->dir);
        free(dir);
    }
}

/* Standard input, whatever it is (a pipe, a terminal, a file); read up to the limit. */
static void check_stdin(struct walk *walk)
{
    const char *path = walk->options->stdin_name ? walk->options->stdin_name : "<stdin>";
    struct stat st;
    size_t expected = 0;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
        off_t at = (lseek)(STDIN_FILENO, 0, SEEK_CUR); /* not wasi-libc's macro ({...}) */
        off_t left = st.st_size - (at > 0 ? at : 0);
        if ((uintmax_t)left > CHECK_MAX_INPUT_SIZE) {
            check_command_too_large(walk, path, left);
            return;
        }
        expected = left > 0 ? (size_t)left : 0;
    }
    size_t len = 0;
    errno = 0;
    char *text = read_descriptor(STDIN_FILENO, expected, &len);
    if (text == NULL && errno == EFBIG) {
        check_command_too_large(walk, path, -1);
        return;
    }
    if (text == NULL) {
        check_command_errno(walk, path, errno ? errno : EIO);
        return;
    }
    start_task(walk, path,
               (struct file_task){
                   .fd = -1, .from_stdin = true, .text = text, .len = len, .explicit = true});
}

bool check_shard_owns(unsigned shard, unsigned shard_count, const char *path)
{
    if (shard_count <= 1)
        return true;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    /* FNV-1a's low bits depend only on the low bits of each byte: mixed by MurmurHash3's
     * finalizer, so that a shard count that is a power of two still splits evenly */
    uint64_t h = hash_bytes(HASH_START, path, strlen(path));
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    h ^= h >> 33;
    return h % shard_count == shard;
}

/* --exclude: whether a scan skips the entry reached as `path`; a glob with '/' is
 * matched against the path without a leading "./". */
static bool excluded(const struct check_options *options, const char *path)
{
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return walk_glob_match(options->excludes, (size_t)options->exclude_count, path);
}

static void check_entry(struct walk *walk, int at, const char *name, const char *path,
                        bool explicit, bool included, unsigned depth, enum visited_type type);

/* Visits the entries of the directory open on `fd` (which it closes) in name order. A
 * directory that cannot be listed whole is reported, and what was listed is still checked. */
static void check_directory(struct walk *walk, int fd, const char *path, unsigned depth)
{
    struct walk_dir *held = malloc(sizeof *held);
    DIR *dir = held != NULL ? fdopendir(fd) : NULL;
    if (dir == NULL) {
        int saved = held != NULL ? errno : ENOMEM;
        close(fd);
        free(held);
        check_command_errno(walk, path, saved);
        return;
    }
    *held = (struct walk_dir){.dir = dir, .refs = 1};
    struct walk_dir *outer = walk->dir;
    walk->dir = held;
    struct visited_name *names;
    size_t count_names;
    int error = visited_list_names(dir, &names, &count_names);
    if (error != 0)
        check_command_errno(walk, path, error);
    size_t base = strlen(path);
    bool slash = base > 0 && path[base - 1] == '/';
    for (size_t i = 0; i < count_names; i++) {
        size_t name_len = strlen(names[i].name);
        char *child = malloc(base + 1 + name_len + 1);
        if (child != NULL) { /* path "/" name */
            memcpy(child, path, base);
            child[base] = '/';
            memcpy(child + base + !slash, names[i].name, name_len + 1);
            enum walk_scan scan = WALK_SCAN_EXCLUDED;
            if (!excluded(walk->options, child) && !ignored_has(&walk->ignored, child))
                scan = check_configs_scan(walk->options->configs, child);
            if (scan != WALK_SCAN_EXCLUDED)
                check_entry(walk, dirfd(dir), names[i].name, child, false,
                            scan == WALK_SCAN_INCLUDED, depth + 1, names[i].type);
            free(child);
        } else {
            check_command_unreadable(walk, path, "cannot read: out of memory");
        }
        free(names[i].name);
    }
    free(names);
    walk->dir = outer;
    check_command_dir_release(held); /* closed once its files in flight are handed back */
}

/* Whether an entry is checked: all named explicitly (the caller refuses what is not a regular
 * file or directory); in a scan directories, regular *.json files, what srcls.json includes. */
static bool wanted(mode_t mode, const char *name, bool explicit, bool included)
{
    if (explicit || S_ISDIR(mode))
        return true;
    return S_ISREG(mode) && walk_wants_file(name, included);
}

/* Checks `name` (of the `type` its directory's listing said) in the directory `at`, shown as
 * `path`. An explicit path is followed if it is a symbolic link; an entry of a scan is not. */
static void check_entry(struct walk *walk, int at, const char *name, const char *path,
                        bool explicit, bool included, unsigned depth, enum visited_type type)
{
    /* A first look without opening anything: opening a FIFO or a device can block or act (the
     * listing's word for a regular file or a directory is that look, open_entry confirms it). */
    struct stat st = {.st_mode = type == VISITED_FILE ? S_IFREG : S_IFDIR};
    if (type == VISITED_UNKNOWN &&
        fstatat(at, name, &st, explicit ? 0 : AT_SYMLINK_NOFOLLOW) != 0) {
        check_command_errno(walk, path, errno);
        return;
    }
    if (!wanted(st.st_mode, name, explicit, included))
        return;
    if (S_ISREG(st.st_mode) &&
        !check_shard_owns(walk->options->shard, walk->options->shard_count, path)) {
        if (walk->reported != NULL) /* another shard's file: its path named is not empty */
            walk->reported[walk->named]++;
        return;
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        check_command_not_regular(walk, path, st.st_mode);
        return;
    }
    if (S_ISREG(st.st_mode)) { /* opened by a worker, and checked as below when handed back */
        check_regular_file(walk, name, path, explicit, included);
        return;
    }
    if (depth > WALK_MAX_DEPTH) {
        char message[96];
        snprintf(message, sizeof message, "cannot read: directories nested deeper than %u levels",
                 WALK_MAX_DEPTH);
        check_command_unreadable(walk, path, message);
        return;
    }
    int fd = open_entry(at, name, explicit, &st);
    if (fd < 0) {
        check_command_errno(walk, path, errno);
        return;
    }
    /* the directory may have been replaced since the first look */
    if (!S_ISDIR(st.st_mode)) {
        close(fd);
        if (explicit)
            check_command_not_regular(walk, path, st.st_mode);
        return;
    }
    int added = visited_add(&walk->visited, &st);
    if (added <= 0) { /* seen before: through a bind mount or a repeated path */
        close(fd);
        if (added < 0)
            check_command_unreadable(walk, path, "cannot read: out of memory");
        return;
    }
    if (explicit && !walk->options->no_gitignore && !ignored_add_git(&walk->ignored, path))
        close(fd); /* not checked, as ignored_add_git said: exit 2 */
    else
        check_directory(walk, fd, path, depth);
}

/* A path named that held nothing to check (a directory without a document, or only files
 * excluded): a warning on stderr, and counted for the summary. Not an error: exit status 0. */
static void check_report_nothing_checked(const struct check_options *options,
                                         const unsigned *reported, struct report_summary *summary)
{
    for (int i = 0; reported != NULL && i < options->path_count; i++) {
        if (reported[i] > 0)
            continue;
        summary->nothing_checked++;
        fprintf(stderr, "srcls: warning: %s: nothing checked: no source or job document in it\n",
                options->paths[i]);
    }
}

int check_run(const struct check_options *options)
{
    struct walk walk = {.options = options,
                        .reported = calloc((size_t)options->path_count + 1, sizeof(unsigned))};
    struct reporter *reporter = options->reporter;
    if (options->fix)
        file_replace_install_cleanup();
    if (options->jobs > 1)
        walk.pool = check_pool_create(options->jobs, CHECK_WINDOW_PER_JOB * options->jobs,
                                      check_command_task_work, check_command_task_done,
                                      check_command_task_release, &walk);
    if (!options->diff)
        reporter->begin(reporter);
    options->configs->base = options->base; /* --base: each srcls.json is reviewed too */
    for (int i = 0; i < options->path_count; i++) {
        walk.named = i;
        if (strcmp(options->paths[i], "-") == 0)
            check_stdin(&walk);
        else
            check_entry(&walk, AT_FDCWD, options->paths[i], options->paths[i], true, false, 0,
                        VISITED_UNKNOWN);
    }
    check_pool_destroy(walk.pool); /* reports the files still in flight */
    walk.pool = NULL;
    check_report_nothing_checked(options, walk.reported, &walk.summary);
    /* "ignore" entries that silenced nothing (before --base's srcls.json); a shard sees too few
     * files to say */
    if (!options->diff && options->shard_count <= 1)
        check_configs_report_unused(options->configs, options->paths, options->path_count, reporter,
                                    &walk.summary);
    check_review_report_deleted(options, &walk.summary); /* --base: files deleted since */
    check_baseline_finish(options->baseline, &walk.summary);
    if (!options->diff)
        reporter->end(reporter, &walk.summary);
    int status = report_flush(reporter);
    if (options->fix)
        file_replace_restore_signals();
    if (options->fix || options->diff) {
        fprintf(stderr, "srcls: %s %u fix%s in %u file%s",
                options->diff ? "--fix would apply" : "applied", walk.fixes_applied,
                walk.fixes_applied == 1 ? "" : "es", walk.fixed_files,
                walk.fixed_files == 1 ? "" : "s");
        if (walk.unfixed_files > 0)
            fprintf(stderr, "; %u file%s could not be fixed", walk.unfixed_files,
                    walk.unfixed_files == 1 ? "" : "s");
        if (walk.hidden_fixes > 0) /* as ruff says it */
            fprintf(stderr, "; %u hidden fix%s can be enabled with --unsafe-fixes",
                    walk.hidden_fixes, walk.hidden_fixes == 1 ? "" : "es");
        fputc('\n', stderr);
    }
    free(walk.visited.slots);
    free(walk.reported);
    ignored_free(&walk.ignored);
    check_names_free(&walk.names);
    if (status != 0 || walk.summary.unreadable > 0 || walk.unfixed_files > 0 ||
        check_review_failed(options->base) || check_baseline_failed(options->baseline) ||
        walk.ignored.unavailable > 0)
        return 2;
    if (options->diff) /* 1: --fix would change something */
        return walk.fixed_files > 0 && !options->exit_zero;
    return check_exit_status(&walk.summary, options);
}
