/* check: files, directories (recursing into *.json) and '-' for stdin. A file named
 * explicitly is always reported on; a file found in a directory only when it is a source or
 * a job document (or is named *.source.json / *.job.json). The walk's guarantees are in
 * docs/cli.md: named links are followed, scans follow none and visit each inode once, only
 * regular files are read (opens are non-blocking and confirmed with fstat), nothing over the
 * parser's limit is read, and --fix rewrites through file_replace. */
#include "check_command.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_env.h"
#include "check_ignored.h"
#include "check_names.h"
#include "check_pool.h"
#include "check_read.h"
#include "check_visited.h"
#include "file_replace.h"
#include "assist/assist.h"
#include "report_diff.h"
#include "base/base.h"

/* Directories nested deeper than this below a path named on the command line are not entered. */
#define CHECK_MAX_DEPTH 64u
/* With --jobs N, at most this many files per job are read or waiting to be reported. */
#define CHECK_WINDOW_PER_JOB 16u
#define CHECK_FIX_ROUNDS 8u /* --fix: rounds at most (each applies what the last uncovered) */

struct walk {
    const struct check_options *options;
    struct report_summary summary;
    struct visited visited;
    struct ignored ignored;   /* what git ignores below the directories named */
    struct check_names names; /* each source name of the run and where it was first seen */
    struct check_pool *pool;  /* NULL: one thread does everything */
    bool handing_back;        /* in task_done: the pool is handing back a task */
    bool env_said;            /* --env without "placeholders" said on stderr */
    unsigned fixed_files, fixes_applied, unfixed_files, hidden_fixes; /* hidden: unsafe */
    unsigned *reported;   /* per path named: the files and paths reported from it (or NULL) */
    int named, reporting; /* the path named being walked; the one of the task handed back */
};

/* Reports `path` as unreadable; `message` says why in full. */
static void report_unreadable(struct walk *walk, const char *path, const char *message)
{
    struct checked_file file = {.path = path, .read_error = message};
    if (strstr(message, "out of memory") != NULL) /* the one way: said on stderr, exit 2 */
        fprintf(stderr, "srcls: %s: out of memory\n", path);
    if (walk->pool != NULL && !walk->handing_back)
        check_pool_drain(walk->pool); /* the files before it are reported first */
    walk->summary.unreadable++;
    if (walk->reported != NULL)
        walk->reported[walk->handing_back ? walk->reporting : walk->named]++;
    walk->options->reporter->file(walk->options->reporter, &file);
}

static void report_errno(struct walk *walk, const char *path, int error)
{
    char message[512];
    snprintf(message, sizeof message, "cannot read: %s", check_strerror(error));
    report_unreadable(walk, path, message);
}

static void report_not_regular(struct walk *walk, const char *path, mode_t mode)
{
    char message[128];
    snprintf(message, sizeof message, "not a regular file (%s)", check_file_type_name(mode));
    report_unreadable(walk, path, message);
}

/* `size` is what fstat said, or -1 for a stream that was cut at the limit. */
static void report_too_large(struct walk *walk, const char *path, off_t size)
{
    char message[256];
    if (size >= 0)
        snprintf(message, sizeof message,
                 "file too large: %lld bytes, over the limit of %zu bytes (%zu MiB)",
                 (long long)size, CHECK_MAX_INPUT_SIZE, CHECK_MAX_INPUT_SIZE >> 20);
    else
        snprintf(message, sizeof message,
                 "input too large: more than the limit of %zu bytes (%zu MiB)",
                 CHECK_MAX_INPUT_SIZE, CHECK_MAX_INPUT_SIZE >> 20);
    report_unreadable(walk, path, message);
}

/* One file: analysed by a worker (task_work), reported (--fix: rewritten) in order (task_done). */
struct file_task {
    const struct check_options *options;
    struct check_target target; /* its srcls.json's settings and kinds, or a kind file */
    char *path;
    int fd;         /* open on the file until it is read; -1 for standard input */
    struct stat st; /* unset for standard input */
    bool explicit;
    char *text; /* the text read (standard input's before the task starts) */
    size_t len;
    int read_error; /* 0, or the errno of the read (EFBIG: too large) */
    bool analysed;  /* analysis holds the text's analysis; otherwise memory ran out */
    bool ours;      /* reported: named explicitly, a document, or named like one */
    bool refused;   /* its srcls.json has mistakes: "not checked" if it is ours, else nothing */
    int named;      /* the path named on the command line it was found under */
    struct analysis analysis;
    int collected; /* --fix: what fix_collect_safe said; fix_count the fixes it found, */
    uint32_t fix_count, hidden_count; /* hidden_count the unsafe ones left out at the end */
    char *fixed; /* --fix: the text with the fixes, and (when fixed_analysed) its analysis */
    size_t fixed_len;
    bool fixed_analysed;
    struct analysis fixed_analysis;
};

/* --fix: collects the safe fixes, applies them to the text and analyses the result, which is
 * reported if the file is then replaced; then again while the result shows safe fixes, so that
 * a second --fix has nothing to do. A document with syntax errors is never touched. */
static void task_prepare_fix(struct file_task *t, const struct analysis_options *options)
{
    if (t->analysis.doc.error_count > 0)
        return;
    struct fix_list fixes;
    fix_list_init(&fixes);
    bool unsafe = t->options->unsafe_fixes;
    t->collected = fix_collect_safe(&t->analysis, &fixes, unsafe, &t->hidden_count);
    t->fix_count = fixes.count;
    if (t->collected == 0 && fixes.count > 0)
        t->fixed = fix_apply(t->text, t->len, &fixes, &t->fixed_len);
    fix_list_free(&fixes);
    uint32_t more = 0; /* the last round's fixes; UINT32_MAX: out of memory, the next unknown */
    if (t->fixed != NULL) { /* analysis_run frees what it made when it fails */
        t->fixed_analysed = analysis_run(&t->fixed_analysis, t->fixed, t->fixed_len, options) == 0;
        more = t->fixed_analysed ? 1 : UINT32_MAX;
    }
    for (unsigned round = 1; more > 0 && more != UINT32_MAX && round < CHECK_FIX_ROUNDS; round++) {
        more = fix_round(&t->fixed_analysis, &t->fixed, &t->fixed_len, options, unsafe,
                         &t->hidden_count);
        t->fix_count += more != UINT32_MAX ? more : 0;
    }
    if (more == UINT32_MAX) { /* never half fixed: unchanged, and "not fixed: out of memory" */
        free(t->fixed);
        t->fixed = NULL;
        t->collected = -1;
    }
}

/* The worker's part: reads the file (the size is checked before anything is read), analyses
 * it and prepares its fixes. Touches only the task and the shared, read-only registry and
 * settings. */
static void task_work(void *task)
{
    struct file_task *t = task;
    if (t->fd >= 0) {
        errno = 0;
        if ((uintmax_t)t->st.st_size > CHECK_MAX_INPUT_SIZE)
            t->read_error = EFBIG;
        else
            t->text = read_descriptor(t->fd, (size_t)t->st.st_size, &t->len);
        if (t->text == NULL && t->read_error == 0)
            t->read_error = errno ? errno : EIO;
        close(t->fd);
        if (t->text == NULL)
            return;
    }
    if (t->target.schema != NULL) { /* a kind file, linted as one: no fixes */
        t->analysed = project_kind_file_analyze(&t->analysis, t->text, t->len,
                                                t->target.kind_file_name, t->target.schema) == 0;
        t->ours = true;
        return;
    }
    enum document_kind named = check_ends_with(t->path, ".source.json") ? DOCUMENT_SOURCE
                               : check_ends_with(t->path, ".job.json")  ? DOCUMENT_JOB
                                                                        : DOCUMENT_UNKNOWN;
    struct analysis_options options = {.report_unknown_document = t->explicit,
                                       .empty_is_error = t->explicit || named != DOCUMENT_UNKNOWN,
                                       .empty_expected = named,
                                       .registry = t->target.registry,
                                       .settings = t->target.settings,
                                       .path = t->target.path};
    t->analysed = analysis_run(&t->analysis, t->text, t->len, &options) == 0;
    if (!t->analysed)
        return;
    t->ours = t->explicit || t->analysis.document != DOCUMENT_UNKNOWN || named != DOCUMENT_UNKNOWN;
    if (t->refused)
        return;
    if (t->ours && t->options->env != NULL) /* checked as rendered; no fixes (command.c) */
        t->analysed = check_env_apply(t->options->env, &t->analysis, &options) == 0;
    else if (t->ours && (t->options->fix || t->options->diff))
        task_prepare_fix(t, &options);
}

/* --fix on the walk's thread: replaces the file with the fixed text. True when it was
 * replaced; a file with fixes that cannot be applied (memory, or file_replace refusing) is
 * counted as unfixed and named on stderr. */
static bool task_replace(struct walk *walk, struct file_task *t)
{
    struct stat written;
    char why[512] = "out of memory";
    /* The visited set makes room first, so that the new inode is recorded once the file is
     * replaced: otherwise a later path to the same file would check it again. */
    bool replaced =
        t->fixed != NULL && visited_reserve(&walk->visited) == 0 &&
        file_replace(t->path, &t->st, t->fixed, t->fixed_len, &written, why, sizeof why) == 0;
    if (replaced) {
        walk->fixed_files++;
        walk->fixes_applied += t->fix_count;
        visited_insert(&walk->visited, &written); /* the same file, under a new inode */
    } else if (t->collected != 0 || t->fix_count > 0) {
        fprintf(stderr, "srcls: %s: not fixed: %s (the file is unchanged)\n", t->path, why);
        walk->unfixed_files++;
    }
    return replaced;
}

/* --fix on standard input: the fixed document on standard output, or the text as it was when
 * nothing could be fixed (a syntax error), so that a pipe never loses it. True when fixed. */
static bool task_print_fixed(struct walk *walk, struct file_task *t)
{
    const char *text = t->fixed != NULL ? t->fixed : t->text;
    size_t len = t->fixed != NULL ? t->fixed_len : t->len;
    errno = 0;
    if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "srcls: %s: cannot write the fixed document: %s\n", t->path,
                errno != 0 ? strerror(errno) : "write error");
        walk->unfixed_files++;
        return false;
    }
    if (t->fixed == NULL)
        return false;
    walk->fixed_files++;
    walk->fixes_applied += t->fix_count;
    return true;
}

static void task_free(struct file_task *t)
{
    if (t->analysed)
        analysis_free(&t->analysis);
    if (t->fixed_analysed)
        analysis_free(&t->fixed_analysis);
    free(t->fixed);
    free(t->text);
    free(t->path);
    free(t->target.kind_file_name);
    free(t->target.path);
    free(t);
}

/* --diff: what --fix would change in the file, or nothing. */
static void task_diff(struct walk *walk, struct file_task *t)
{
    int differs = 0;
    if (t->fixed != NULL && !t->fixed_analysed)
        differs = -1; /* memory ran out analysing the fixed text */
    else if (t->fixed != NULL)
        differs =
            report_diff(walk->options->reporter->out, t->path, &t->analysis, &t->fixed_analysis);
    if (differs < 0)
        report_unreadable(walk, t->path, "cannot show the fixes: out of memory");
    if (differs > 0) {
        walk->fixed_files++;
        walk->fixes_applied += t->fix_count;
    }
}

/* The walk's part, in walk order: --fix's rewrite, then the report. Frees the task. */
static void task_done(void *context, void *task)
{
    struct walk *walk = context;
    struct file_task *t = task;
    walk->handing_back = true;
    if (t->refused && (t->ours || !t->analysed)) /* a document, or one it cannot tell */
        report_unreadable(walk, t->path, check_configs_refusal(walk->options->configs));
    if (t->refused) {
        walk->handing_back = false;
        task_free(t);
        return;
    }
    walk->hidden_fixes += t->hidden_count;
    if (t->ours && walk->options->env != NULL)
        check_env_untemplated(t->target.settings, t->path, &walk->env_said);
    walk->reporting = t->named;
    if (walk->reported != NULL && t->ours) /* a document, reported, diffed or not readable */
        walk->reported[t->named]++;
    bool replaced = false;
    if (t->read_error == EFBIG) /* -1: it grew while being read */
        report_too_large(walk, t->path,
                         (uintmax_t)t->st.st_size > CHECK_MAX_INPUT_SIZE ? t->st.st_size : -1);
    else if (t->read_error != 0)
        report_errno(walk, t->path, t->read_error);
    else if (t->analysed && t->ours && t->options->diff)
        task_diff(walk, t);
    else if (!t->analysed) {
        if (t->fd < 0 && t->options->fix) /* standard input goes on down the pipe */
            task_print_fixed(walk, t);
        report_unreadable(walk, t->path, "cannot read: out of memory");
    } else if (t->ours && t->options->fix &&
               (replaced = t->fd < 0 ? task_print_fixed(walk, t) : task_replace(walk, t)) &&
               !t->fixed_analysed)
        report_unreadable(walk, t->path, "fixed, but cannot be checked again: out of memory");
    else if (t->ours) { /* after a fix, what is left */
        struct analysis *reported = replaced ? &t->fixed_analysis : &t->analysis;
        check_names_add(&walk->names, walk->options->reporter, t->path, reported, &t->target);
        check_base_review(walk->options->base, t->path, reported); /* --base: the changes */
        unsigned char *in_baseline =
            check_baseline_match(walk->options->baseline, t->path, reported, &t->target);
        struct checked_file file = {
            .path = t->path, .analysis = reported, .baselined = in_baseline};
        for (uint32_t i = 0; reported->ignore_hits != NULL && i < t->target.ignore_count; i++)
            t->target.ignore_hits[i] |= reported->ignore_hits[i]; /* "ignore" entries used */
        walk->summary.files++;
        report_count(&walk->summary, reported, in_baseline);
        walk->options->reporter->file(walk->options->reporter, &file);
        free(in_baseline);
    }
    walk->handing_back = false;
    task_free(t);
}

/* Checks the file of `task` (path, and text or descriptor): on a worker if any, else here. */
static void check_task(struct walk *walk, struct file_task *task)
{
    task->options = walk->options;
    task->named = walk->named;
    bool nameless = task->fd < 0 && walk->options->stdin_name == NULL; /* stdin, unnamed */
    /* its srcls.json unreadable or wrong: said on stderr */
    if (!check_configs_for(walk->options->configs, nameless ? NULL : task->path, &task->target)) {
        if (task->fd < 0 && walk->options->fix) /* standard input goes on down the pipe */
            task_print_fixed(walk, task);
        if (walk->pool != NULL)
            check_pool_drain(walk->pool); /* the files before it are reported first */
        bool itself =
            check_configs_report_mistakes(walk->options->configs, nameless ? NULL : task->path,
                                          walk->options->reporter, &walk->summary);
        task->refused =
            !itself && !task->explicit && task->fd >= 0 && !walk->options->configs->out_of_memory;
        if (!task->refused) { /* the srcls.json itself is reported, not left unchecked */
            if (!itself)
                report_unreadable(walk, task->path, check_configs_refusal(walk->options->configs));
            task_free(task);
            return;
        } /* else read with the built-in kinds alone, to learn whether it is a document */
        task->target = (struct check_target){.registry = walk->options->configs->registry};
    }
    if (walk->pool != NULL) {
        check_pool_submit(walk->pool, task);
        return;
    }
    task_work(task);
    task_done(walk, task);
}

/* Checks the regular file open on `fd` (with stat `st`), which the task closes. */
static void check_regular_file(struct walk *walk, int fd, const struct stat *st, const char *path,
                               bool explicit)
{
    struct file_task *task = calloc(1, sizeof *task);
    char *copy = task != NULL ? strdup(path) : NULL;
    if (copy == NULL) {
        close(fd);
        free(task);
        report_unreadable(walk, path, "cannot read: out of memory");
        return;
    }
    *task = (struct file_task){.path = copy, .fd = fd, .st = *st, .explicit = explicit};
    check_task(walk, task);
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
            report_too_large(walk, path, left);
            return;
        }
        expected = left > 0 ? (size_t)left : 0;
    }
    size_t len = 0;
    errno = 0;
    char *text = read_descriptor(STDIN_FILENO, expected, &len);
    if (text == NULL && errno == EFBIG) {
        report_too_large(walk, path, -1);
        return;
    }
    if (text == NULL) {
        report_errno(walk, path, errno ? errno : EIO);
        return;
    }
    struct file_task *task = calloc(1, sizeof *task);
    char *copy = task != NULL ? strdup(path) : NULL;
    if (copy == NULL) {
        free(task);
        free(text);
        report_unreadable(walk, path, "cannot read: out of memory");
        return;
    }
    *task = (struct file_task){.path = copy, .fd = -1, .text = text, .len = len, .explicit = true};
    check_task(walk, task);
}

/* --exclude: whether a scan skips the entry `name` reached as `path`; a glob with '/' is
 * matched against the path without a leading "./". */
static bool excluded(const struct check_options *options, const char *path, const char *name)
{
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return check_glob_match(options->excludes, (size_t)options->exclude_count, path, name);
}

static void check_entry(struct walk *walk, int at, const char *name, const char *path,
                        bool explicit, bool included, unsigned depth, enum visited_type type);

/* Visits the entries of the directory open on `fd` (which it closes) in name order. A
 * directory that cannot be listed whole is reported, and what was listed is still checked. */
static void check_directory(struct walk *walk, int fd, const char *path, unsigned depth)
{
    DIR *dir = fdopendir(fd);
    if (dir == NULL) {
        int saved = errno;
        close(fd);
        report_errno(walk, path, saved);
        return;
    }
    struct visited_name *names;
    size_t count_names;
    int error = visited_list_names(dir, &names, &count_names);
    if (error != 0)
        report_errno(walk, path, error);
    size_t base = strlen(path);
    bool slash = base > 0 && path[base - 1] == '/';
    for (size_t i = 0; i < count_names; i++) {
        size_t size = base + 1 + strlen(names[i].name) + 1;
        char *child = malloc(size);
        if (child != NULL) {
            snprintf(child, size, "%s%s%s", path, slash ? "" : "/", names[i].name);
            enum check_scan scan = CHECK_SCAN_EXCLUDED;
            if (!excluded(walk->options, child, names[i].name) &&
                !ignored_has(&walk->ignored, child))
                scan = check_configs_scan(walk->options->configs, child, names[i].name);
            if (scan != CHECK_SCAN_EXCLUDED)
                check_entry(walk, dirfd(dir), names[i].name, child, false,
                            scan == CHECK_SCAN_INCLUDED, depth + 1, names[i].type);
            free(child);
        } else {
            report_unreadable(walk, path, "cannot read: out of memory");
        }
        free(names[i].name);
    }
    free(names);
    closedir(dir);
}

/* Whether an entry is checked: all named explicitly (the caller refuses what is not a regular
 * file or directory); in a scan directories, regular *.json files, what srcls.json includes. */
static bool wanted(mode_t mode, const char *name, bool explicit, bool included)
{
    if (explicit || S_ISDIR(mode))
        return true;
    return S_ISREG(mode) && (included || check_ends_with(name, ".json"));
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
        report_errno(walk, path, errno);
        return;
    }
    if (!wanted(st.st_mode, name, explicit, included))
        return;
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        report_not_regular(walk, path, st.st_mode);
        return;
    }
    if (S_ISDIR(st.st_mode) && depth > CHECK_MAX_DEPTH) {
        char message[96];
        snprintf(message, sizeof message, "cannot read: directories nested deeper than %u levels",
                 CHECK_MAX_DEPTH);
        report_unreadable(walk, path, message);
        return;
    }
    int fd = open_entry(at, name, explicit, &st);
    if (fd < 0) {
        report_errno(walk, path, errno);
        return;
    }
    /* the file may have been replaced since the first look */
    bool regular = S_ISREG(st.st_mode), directory = S_ISDIR(st.st_mode);
    if (!wanted(st.st_mode, name, explicit, included) || (!regular && !directory)) {
        close(fd);
        if (explicit)
            report_not_regular(walk, path, st.st_mode);
        return;
    }
    int added = visited_add(&walk->visited, &st);
    if (added <= 0) { /* seen before: through a hard link, a bind mount or a repeated path */
        close(fd);
        if (added < 0)
            report_unreadable(walk, path, "cannot read: out of memory");
        return;
    }
    if (directory && explicit && !walk->options->no_gitignore &&
        !ignored_add_git(&walk->ignored, path))
        close(fd); /* not checked, as ignored_add_git said: exit 2 */
    else if (directory)
        check_directory(walk, fd, path, depth);
    else
        check_regular_file(walk, fd, &st, path, explicit || included);
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
                                      task_work, task_done, &walk);
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
    if (!options->diff) /* "ignore" entries that silenced nothing (before --base's srcls.json) */
        check_configs_report_unused(options->configs, options->paths, options->path_count, reporter,
                                    &walk.summary);
    check_base_report_deleted(options, &walk.summary); /* --base: files deleted since */
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
        check_base_failed(options->base) || check_baseline_failed(options->baseline) ||
        walk.ignored.unavailable > 0)
        return 2;
    if (options->diff) /* 1: --fix would change something */
        return walk.fixed_files > 0 && !options->exit_zero;
    return check_exit_status(&walk.summary, options);
}
