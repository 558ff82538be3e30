/* check_command_task: one file of `srcls --check` (see check_command_internal.h): read,
 * analysed and --fix prepared by a worker, then reported or rewritten in the order the walk met
 * the files, and the files that cannot be read reported as such. */
#include "check_command_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_env.h"
#include "check_read.h"
#include "file_replace.h"
#include "assist/assist.h"
#include "report_diff.h"
#include "base/base.h"
#include "walk/walk.h"

#define CHECK_FIX_ROUNDS 8u /* --fix: rounds at most (each applies what the last uncovered) */

/* Reports `path` as unreadable; `message` says why in full. */
void check_command_unreadable(struct walk *walk, const char *path, const char *message)
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

void check_command_errno(struct walk *walk, const char *path, int error)
{
    char message[512];
    snprintf(message, sizeof message, "cannot read: %s", check_strerror(error));
    check_command_unreadable(walk, path, message);
}

void check_command_not_regular(struct walk *walk, const char *path, mode_t mode)
{
    char message[128];
    snprintf(message, sizeof message, "not a regular file (%s)", check_file_type_name(mode));
    check_command_unreadable(walk, path, message);
}

/* `size` is what fstat said, or -1 for a stream that was cut at the limit. */
void check_command_too_large(struct walk *walk, const char *path, off_t size)
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
    check_command_unreadable(walk, path, message);
}

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
void check_command_task_work(void *task)
{
    struct file_task *t = task;
    if (t->name != NULL) {
        int at = t->dir != NULL ? dirfd(t->dir->dir) : AT_FDCWD;
        t->fd = open_entry(at, t->name, t->follow, &t->st);
        if (t->fd < 0) {
            t->open_error = errno;
            return;
        }
        if (!S_ISREG(t->st.st_mode)) { /* replaced since the walk looked: reported when named */
            close(t->fd);
            return;
        }
    }
    if (!t->from_stdin) {
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
    struct walk_file file = {.path = t->path,
                             .explicit = t->explicit,
                             .kind_schema = t->target.schema,
                             .kind_file_name = t->target.kind_file_name};
    struct analysis_options options = {
        .registry = t->target.registry, .settings = t->target.settings, .path = t->target.path};
    t->analysed = walk_check_file(&t->analysis, t->text, t->len, &file, &options, &t->ours) == 0;
    if (!t->analysed || t->refused || t->target.schema != NULL) /* a kind file: no fixes */
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

/* What the walk's thread allocated for the task (its path and settings' strings, and the hold
 * on its directory): freed by that thread. */
static void task_free_walk_part(struct file_task *t)
{
    free(t->path);
    free(t->target.kind_file_name);
    free(t->target.path);
    check_command_dir_release(t->dir);
    t->path = t->target.kind_file_name = t->target.path = NULL;
    t->dir = NULL;
}

void check_command_task_release(void *task)
{
    struct file_task *t = task;
    if (t->analysed)
        analysis_free(&t->analysis);
    if (t->fixed_analysed)
        analysis_free(&t->fixed_analysis);
    free(t->fixed);
    free(t->text);
}

/* A task never handed to the pool: all of it. */
static void task_free(struct file_task *t)
{
    task_free_walk_part(t);
    check_command_task_release(t);
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
        check_command_unreadable(walk, t->path, "cannot show the fixes: out of memory");
    if (differs > 0) {
        walk->fixed_files++;
        walk->fixes_applied += t->fix_count;
    }
}

/* The walk's part of the open a worker made, in walk order: true when the file is to be
 * reported; false when its open failed (reported), it is no regular file any more (reported
 * when named) or it was visited before (through a hard link, a bind mount or a repeated path:
 * the first path in walk order is the one checked). */
static bool task_opened(struct walk *walk, struct file_task *t)
{
    if (t->name == NULL) /* standard input */
        return true;
    if (t->open_error != 0) {
        check_command_errno(walk, t->path, t->open_error);
        return false;
    }
    if (!S_ISREG(t->st.st_mode)) {
        if (t->follow)
            check_command_not_regular(walk, t->path, t->st.st_mode);
        return false;
    }
    int added = visited_add(&walk->visited, &t->st);
    if (added < 0)
        check_command_unreadable(walk, t->path, "cannot read: out of memory");
    return added > 0;
}

/* The walk's part, in walk order: --fix's rewrite, then the report. Frees the walk's part of
 * the task; the rest is check_command_task_release's, on the thread that worked it. */
void check_command_task_done(void *context, void *task)
{
    struct walk *walk = context;
    struct file_task *t = task;
    walk->handing_back = true;
    walk->reporting = t->named;
    if (!task_opened(walk, t)) {
        walk->handing_back = false;
        task_free_walk_part(t);
        return;
    }
    if (t->refused && (t->ours || !t->analysed)) /* a document, or one it cannot tell */
        check_command_unreadable(walk, t->path, check_configs_refusal(walk->options->configs));
    if (t->refused) {
        walk->handing_back = false;
        task_free_walk_part(t);
        return;
    }
    walk->hidden_fixes += t->hidden_count;
    if (t->ours && walk->options->env != NULL)
        check_env_untemplated(t->target.settings, t->path, &walk->env_said);
    if (walk->reported != NULL && t->ours) /* a document, reported, diffed or not readable */
        walk->reported[t->named]++;
    bool replaced = false;
    if (t->read_error == EFBIG) /* -1: it grew while being read */
        check_command_too_large(
            walk, t->path, (uintmax_t)t->st.st_size > CHECK_MAX_INPUT_SIZE ? t->st.st_size : -1);
    else if (t->read_error != 0)
        check_command_errno(walk, t->path, t->read_error);
    else if (t->analysed && t->ours && t->options->diff)
        task_diff(walk, t);
    else if (!t->analysed) {
        if (t->from_stdin && t->options->fix) /* standard input goes on down the pipe */
            task_print_fixed(walk, t);
        check_command_unreadable(walk, t->path, "cannot read: out of memory");
    } else if (t->ours && t->options->fix &&
               (replaced = t->from_stdin ? task_print_fixed(walk, t) : task_replace(walk, t)) &&
               !t->fixed_analysed)
        check_command_unreadable(walk, t->path,
                                 "fixed, but cannot be checked again: out of memory");
    else if (t->ours) { /* after a fix, what is left */
        struct analysis *reported = replaced ? &t->fixed_analysis : &t->analysis;
        check_names_add(&walk->names, walk->options->reporter, t->path, reported, &t->target);
        check_review_review(walk->options->base, t->path, reported); /* --base: the changes */
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
    task_free_walk_part(t);
}

/* Checks the file of `task` (path, and text or descriptor): on a worker if any, else here. */
void check_command_task(struct walk *walk, struct file_task *task)
{
    task->options = walk->options;
    task->named = walk->named;
    bool nameless = task->from_stdin && walk->options->stdin_name == NULL; /* stdin, unnamed */
    /* its srcls.json unreadable or wrong: said on stderr */
    if (!check_configs_for(walk->options->configs, nameless ? NULL : task->path, &task->target)) {
        if (task->from_stdin && walk->options->fix) /* standard input goes on down the pipe */
            task_print_fixed(walk, task);
        if (walk->pool != NULL)
            check_pool_drain(walk->pool); /* the files before it are reported first */
        bool itself =
            check_configs_report_mistakes(walk->options->configs, nameless ? NULL : task->path,
                                          walk->options->reporter, &walk->summary);
        task->refused = !itself && !task->explicit && !task->from_stdin &&
                        !walk->options->configs->out_of_memory;
        if (!task->refused) { /* the srcls.json itself is reported, not left unchecked */
            if (!itself)
                check_command_unreadable(walk, task->path,
                                         check_configs_refusal(walk->options->configs));
            task_free(task);
            return;
        } /* else read with the built-in kinds alone, to learn whether it is a document */
        task->target = (struct check_target){.registry = walk->options->configs->registry};
    }
    if (walk->pool != NULL) {
        check_pool_submit(walk->pool, task);
        return;
    }
    check_command_task_work(task);
    check_command_task_done(walk, task);
    check_command_task_release(task);
    free(task);
}
