/* check_command_internal: what the two files of the --check command share (check_command.c:
 * the walk over the paths named, directories and standard input, and the run; check_command_task.c:
 * one file's work, analysed by a worker and reported, or rewritten by --fix, in order). One module
 * split for size: its files call each other through this header, and only they include it. */
#ifndef SRCLS_CHECK_COMMAND_INTERNAL_H
#define SRCLS_CHECK_COMMAND_INTERNAL_H

#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "check_command.h"
#include "check_names.h"
#include "check_pool.h"
#include "check_visited.h"
#include "check_ignored.h"

/* A directory whose files are opened by the workers: open until the walk has left it and the
 * last of its tasks is handed back (the refs, counted on the walk's thread alone). */
struct walk_dir {
    DIR *dir;
    unsigned refs;
};

struct walk {
    const struct check_options *options;
    struct report_summary summary;
    struct visited visited;
    struct ignored ignored;   /* what git ignores below the directories named */
    struct check_names names; /* each source name of the run and where it was first seen */
    struct check_pool *pool;  /* NULL: one thread does everything */
    struct walk_dir *dir;     /* the directory being listed, or NULL */
    bool handing_back;        /* in task_done: the pool is handing back a task */
    bool env_said;            /* --env without "placeholders" said on stderr */
    unsigned fixed_files, fixes_applied, unfixed_files, hidden_fixes; /* hidden: unsafe */
    unsigned *reported;   /* per path named: the files and paths reported from it (or NULL) */
    int named, reporting; /* the path named being walked; the one of the task handed back */
};

/* One file: analysed by a worker (check_command_task_work), reported (--fix: rewritten) in order
 * (check_command_task_done). */
struct file_task {
    const struct check_options *options;
    struct check_target target; /* its srcls.json's settings and kinds, or a kind file */
    char *path;
    /* The worker opens `name` in `dir` (or from the working directory when NULL), as
     * open_entry does; `follow`: a path named, followed if it is a link. Then the walk's thread
     * reports what the open found, and skips a file already visited (check_command_task_done). */
    struct walk_dir *dir;
    const char *name; /* within path */
    bool follow;
    int open_error; /* the errno of the open, or 0 */
    int fd;         /* open on the file until it is read; -1 for standard input */
    struct stat st; /* unset for standard input */
    bool from_stdin;
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

/* Reports `path` as unreadable; `message` says why in full. */
void check_command_unreadable(struct walk *walk, const char *path, const char *message);
/* The same for a read that failed with `error` (an errno). */
void check_command_errno(struct walk *walk, const char *path, int error);
/* The same for a path that is no regular file (a directory named is walked instead). */
void check_command_not_regular(struct walk *walk, const char *path, mode_t mode);
/* The same for a file over the parser's limit: `size` is what fstat said, or -1 for a stream that
 * was cut at the limit. */
void check_command_too_large(struct walk *walk, const char *path, off_t size);
/* One file's work, on a worker of the pool (or in line): read, analysed, --fix prepared. */
void check_command_task_work(void *task);
/* Lets go of the walk's or a task's hold on `dir`: the last one closes it. */
void check_command_dir_release(struct walk_dir *dir);
/* A task handed back, in the order the walk met the files: reported, or rewritten by --fix;
 * what the walk's thread allocated for it is freed. */
void check_command_task_done(void *context, void *task);
/* After check_command_task_done, on the thread that worked the task: frees what the work
 * allocated (the text, the analyses, the fixed text), not the task. */
void check_command_task_release(void *task);
/* Finds the settings of a file the walk met (or refuses it) and hands it to the pool, or works
 * and reports it at once without one. */
void check_command_task(struct walk *walk, struct file_task *task);

#endif
