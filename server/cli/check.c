/* check: files, directories (recursing into *.json) and '-' for stdin. A file named
 * explicitly is always reported on; a file found in a directory only when it is a source or
 * a job document (or is named *.source.json / *.job.json).
 *
 * What the walk guarantees (docs/cli.md): a path named on the command line is followed if it
 * is a symbolic link; a directory scan follows no link, so it cannot loop, and it visits every
 * directory and every file (by device and inode) at most once. Only regular files are read: a
 * FIFO, socket or device is refused before it is opened, and every open is non-blocking and
 * confirmed with fstat on the descriptor, so a file swapped in between cannot make srcls block.
 * Nothing larger than the parser's limit is read. `--fix` rewrites files through file_replace. */
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_replace.h"
#include "fix.h"
#include "vector.h"

/* One limit for every input: the parser refuses larger documents anyway, so reading more would
 * only cost memory. */
#define CHECK_MAX_INPUT_SIZE JSON_DEFAULT_MAX_SIZE
/* Directories nested deeper than this below a path named on the command line are not entered. */
#define CHECK_MAX_DEPTH 64u
/* The first read of a stream whose size is unknown (standard input from a pipe). */
#define CHECK_STREAM_FIRST_READ (64 * 1024)
/* The visited set's first table: a power of two, as visited_slot needs. */
#define CHECK_VISITED_FIRST_SLOTS 256

/* The (device, inode) pairs already visited: an open-addressing hash set. */
struct file_id {
    dev_t dev;
    ino_t ino;
    bool used;
};

struct visited {
    struct file_id *slots;
    size_t count, cap; /* cap is 0 or a power of two */
};

struct walk {
    const struct check_options *options;
    struct report_summary summary;
    struct visited visited;
    unsigned fixed_files, fixes_applied, unfixed_files;
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static size_t hash_id(dev_t dev, ino_t ino)
{
    uint64_t h = ((uint64_t)dev * 0x9E3779B97F4A7C15u) ^ (uint64_t)ino;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 32;
    return (size_t)h;
}

static struct file_id *visited_slot(struct file_id *slots, size_t cap, dev_t dev, ino_t ino)
{
    size_t i = hash_id(dev, ino) & (cap - 1);
    while (slots[i].used && (slots[i].dev != dev || slots[i].ino != ino))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* Makes room for one more file, so that the next visited_add cannot fail; -1 when memory ran
 * out. The table stays at most half full. */
static int visited_reserve(struct visited *v)
{
    if (2 * (v->count + 1) <= v->cap)
        return 0;
    size_t cap = v->cap ? v->cap * 2 : CHECK_VISITED_FIRST_SLOTS;
    struct file_id *slots = calloc(cap, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (size_t i = 0; i < v->cap; i++) {
        if (v->slots[i].used)
            *visited_slot(slots, cap, v->slots[i].dev, v->slots[i].ino) = v->slots[i];
    }
    free(v->slots);
    v->slots = slots;
    v->cap = cap;
    return 0;
}

/* Records the file of `st` in a set that has room for it (visited_reserve); false when it was
 * there already. */
static bool visited_insert(struct visited *v, const struct stat *st)
{
    struct file_id *slot = visited_slot(v->slots, v->cap, st->st_dev, st->st_ino);
    if (slot->used)
        return false;
    *slot = (struct file_id){.dev = st->st_dev, .ino = st->st_ino, .used = true};
    v->count++;
    return true;
}

/* Records the file of `st`. Returns 1 when it is new, 0 when it was already visited, -1 when
 * memory ran out. */
static int visited_add(struct visited *v, const struct stat *st)
{
    if (visited_reserve(v) != 0)
        return -1;
    return visited_insert(v, st) ? 1 : 0;
}

static const char *file_type_name(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "an unknown kind of file";
}

static void count(struct report_summary *s, const struct analysis *a)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        switch (a->diags.items[i].severity) {
        case DIAG_ERROR: s->errors++; break;
        case DIAG_WARNING: s->warnings++; break;
        case DIAG_INFORMATION: s->information++; break;
        case DIAG_HINT: s->hints++; break;
        case DIAG_OFF: break;
        }
    }
}

/* Reports `path` as unreadable; `message` says why in full. */
static void report_unreadable(struct walk *walk, const char *path, const char *message)
{
    struct checked_file file = {.path = path, .read_error = message};
    walk->summary.unreadable++;
    walk->options->reporter->file(walk->options->reporter, &file);
}

static void report_errno(struct walk *walk, const char *path, int error)
{
    char message[512];
    snprintf(message, sizeof message, "cannot read: %s", strerror(error));
    report_unreadable(walk, path, message);
}

static void report_not_regular(struct walk *walk, const char *path, mode_t mode)
{
    char message[128];
    snprintf(message, sizeof message, "not a regular file (%s)", file_type_name(mode));
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

/* Reads `fd` to its end into a malloc'd buffer the caller frees. `expected` (the size fstat
 * gave, or 0 for a stream) sizes the first allocation, so a regular file is read with one; a
 * file that grows meanwhile is still read whole. NULL with errno set on failure, EFBIG when
 * there is more than CHECK_MAX_INPUT_SIZE bytes: reading stops there. */
static char *read_descriptor(int fd, size_t expected, size_t *len)
{
    size_t limit = CHECK_MAX_INPUT_SIZE;
    /* + 1: the first read of a regular file also sees its end */
    size_t cap = expected > 0 ? expected + 1 : CHECK_STREAM_FIRST_READ;
    if (cap > limit + 1)
        cap = limit + 1;
    size_t n = 0;
    char *buf = malloc(cap);
    if (buf == NULL)
        return NULL;
    for (;;) {
        if (n == cap) {
            size_t bigger = cap > (limit + 1) / 2 ? limit + 1 : cap * 2;
            char *grown = realloc(buf, bigger);
            if (grown == NULL)
                goto fail;
            buf = grown;
            cap = bigger;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* standard input may be a non-blocking pipe or terminal: wait for it */
            struct pollfd wait_for = {.fd = fd, .events = POLLIN};
            if (poll(&wait_for, 1, -1) >= 0 || errno == EINTR)
                continue;
            goto fail;
        }
        if (got < 0)
            goto fail;
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > limit) {
            errno = EFBIG;
            goto fail;
        }
    }
    *len = n;
    return buf;
fail:;
    int saved = errno;
    free(buf);
    errno = saved;
    return NULL;
}

/* Makes `fd` blocking again: it was opened non-blocking only so that the open itself could
 * not wait on a FIFO. */
static int clear_nonblock(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        return -1;
    return fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

/* Opens `name` (relative to the directory `at`) for reading, following a final symbolic link
 * only when `follow` is set, and fills `st` from the descriptor: the one stat that cannot race
 * with the open. Returns the descriptor, or -1 with errno set. */
static int open_entry(int at, const char *name, bool follow, struct stat *st)
{
    int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW);
    int fd = openat(at, name, flags);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || (S_ISREG(st->st_mode) && clear_nonblock(fd) != 0)) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* Applies the safe fixes of `analysis` to the file (read with stat `st`; NULL for stdin);
 * returns the new text (malloc'd) when the file was rewritten, NULL otherwise. A document with
 * syntax errors is never touched. A file with fixes that cannot be applied (memory, or
 * file_replace refusing) is counted as unfixed and named on stderr. */
static char *fix_file(struct walk *walk, const char *path, const struct stat *st,
                      struct analysis *analysis, const char *text, size_t len, size_t *new_len)
{
    if (analysis->doc.error_count > 0 || st == NULL)
        return NULL;
    struct fix_list fixes;
    fix_list_init(&fixes);
    int collected = fix_collect_safe(analysis, &fixes);
    char *fixed = NULL;
    struct stat written;
    char why[512] = "out of memory";
    /* The visited set makes room first, so that the new inode is recorded once the file is
     * replaced: otherwise a later path to the same file would check it again. */
    bool replaced = collected == 0 && fixes.count > 0 &&
                    (fixed = fix_apply(text, len, &fixes, new_len)) != NULL &&
                    visited_reserve(&walk->visited) == 0 &&
                    file_replace(path, st, fixed, *new_len, &written, why, sizeof why) == 0;
    if (replaced) {
        walk->fixed_files++;
        walk->fixes_applied += fixes.count;
        visited_insert(&walk->visited, &written); /* the same file, under a new inode */
    } else if (collected != 0 || fixes.count > 0) {
        fprintf(stderr, "srcls: %s: not fixed: %s (the file is unchanged)\n", path, why);
        walk->unfixed_files++;
        free(fixed);
        fixed = NULL;
    }
    fix_list_free(&fixes);
    return fixed;
}

/* ---- checking ---- */

static void check_text(struct walk *walk, const char *path, const struct stat *st, const char *text,
                       size_t len, bool explicit)
{
    struct analysis analysis;
    struct analysis_options options = {.report_unknown_document = explicit,
                                       .registry = walk->options->registry,
                                       .settings = walk->options->settings};
    if (analysis_run(&analysis, text, len, &options) != 0) {
        analysis_free(&analysis);
        report_unreadable(walk, path, "cannot read: out of memory");
        return;
    }
    bool ours = explicit || analysis.document != DOCUMENT_UNKNOWN ||
                ends_with(path, ".source.json") || ends_with(path, ".job.json");
    char *fixed = NULL;
    if (ours && walk->options->fix) {
        size_t fixed_len = 0;
        fixed = fix_file(walk, path, st, &analysis, text, len, &fixed_len);
        if (fixed != NULL) { /* report what is left */
            analysis_free(&analysis);
            if (analysis_run(&analysis, fixed, fixed_len, &options) != 0) {
                analysis_free(&analysis);
                free(fixed);
                report_unreadable(walk, path, "fixed, but cannot be checked again: out of memory");
                return;
            }
        }
    }
    if (ours) {
        struct checked_file file = {.path = path, .analysis = &analysis};
        walk->summary.files++;
        count(&walk->summary, &analysis);
        walk->options->reporter->file(walk->options->reporter, &file);
    }
    analysis_free(&analysis);
    free(fixed);
}

/* Checks the regular file open on `fd` (with stat `st`), then closes it. The size is checked
 * before anything is read. */
static void check_regular_file(struct walk *walk, int fd, const struct stat *st, const char *path,
                               bool explicit)
{
    if ((uintmax_t)st->st_size > CHECK_MAX_INPUT_SIZE) {
        close(fd);
        report_too_large(walk, path, st->st_size);
        return;
    }
    size_t len = 0;
    char *text = read_descriptor(fd, (size_t)st->st_size, &len);
    int saved = errno;
    close(fd);
    if (text == NULL && saved == EFBIG) {
        report_too_large(walk, path, -1); /* it grew while being read */
        return;
    }
    if (text == NULL) {
        report_errno(walk, path, saved ? saved : EIO);
        return;
    }
    check_text(walk, path, st, text, len, explicit);
    free(text);
}

/* Standard input, whatever it is (a pipe, a terminal, a file); read up to the limit. */
static void check_stdin(struct walk *walk)
{
    const char *path = "<stdin>";
    struct stat st;
    size_t expected = 0;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
        off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);
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
    check_text(walk, path, NULL, text, len, true);
    free(text);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_entry(struct walk *walk, int at, const char *name, const char *path,
                        bool explicit, unsigned depth);

/* Reads the names of `dir` that a scan visits, skipping hidden entries (among them srcls's own
 * temporary files) and node_modules, into `*names` (malloc'd strings in a malloc'd array, which
 * the caller frees) in name order. Returns 0, or an errno value (ENOMEM, or readdir's) with the
 * names read before it. */
static int list_names(DIR *dir, char ***names, size_t *count)
{
    size_t cap = 0;
    int error = 0;
    *names = NULL;
    *count = 0;
    for (;;) {
        errno = 0;
        struct dirent *entry = readdir(dir);
        if (entry == NULL) {
            error = errno;
            break;
        }
        const char *name = entry->d_name;
        if (name[0] == '.' || strcmp(name, "node_modules") == 0)
            continue;
        char **grown = vector_grow(*names, &cap, *count + 1, sizeof *grown);
        if (grown != NULL)
            *names = grown;
        char *copy = grown != NULL ? strdup(name) : NULL;
        if (copy == NULL) {
            error = ENOMEM;
            break;
        }
        (*names)[(*count)++] = copy;
    }
    if (*count > 1)
        qsort(*names, *count, sizeof **names, compare_names);
    return error;
}

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
    char **names;
    size_t count_names;
    int error = list_names(dir, &names, &count_names);
    if (error != 0)
        report_errno(walk, path, error);
    size_t base = strlen(path);
    bool slash = base > 0 && path[base - 1] == '/';
    for (size_t i = 0; i < count_names; i++) {
        size_t size = base + 1 + strlen(names[i]) + 1;
        char *child = malloc(size);
        if (child != NULL) {
            snprintf(child, size, "%s%s%s", path, slash ? "" : "/", names[i]);
            check_entry(walk, dirfd(dir), names[i], child, false, depth + 1);
            free(child);
        } else {
            report_unreadable(walk, path, "cannot read: out of memory");
        }
        free(names[i]);
    }
    free(names);
    closedir(dir);
}

/* Whether an entry of type `mode` named `name` is checked: everything named explicitly (the
 * caller refuses what is not a regular file or directory), and in a scan directories and
 * regular *.json files only. */
static bool wanted(mode_t mode, const char *name, bool explicit)
{
    if (explicit || S_ISDIR(mode))
        return true;
    return S_ISREG(mode) && ends_with(name, ".json");
}

/* Checks `name` in the directory `at`, shown as `path`. An explicit path is followed if it is
 * a symbolic link; an entry found in a scan is not. */
static void check_entry(struct walk *walk, int at, const char *name, const char *path,
                        bool explicit, unsigned depth)
{
    /* A first look without opening anything: opening a FIFO or a device can block or act. */
    struct stat st;
    if (fstatat(at, name, &st, explicit ? 0 : AT_SYMLINK_NOFOLLOW) != 0) {
        report_errno(walk, path, errno);
        return;
    }
    if (!wanted(st.st_mode, name, explicit))
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
    if (!wanted(st.st_mode, name, explicit) || (!regular && !directory)) {
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
    if (directory)
        check_directory(walk, fd, path, depth);
    else
        check_regular_file(walk, fd, &st, path, explicit);
}

/* Flushes the report. 0, or -1 after saying on stderr why the report is not whole: a write
 * failed (a full disk, a closed pipe) or a format could not build its output. */
static int output_status(struct reporter *reporter)
{
    errno = 0;
    bool written = fflush(reporter->out) == 0 && !ferror(reporter->out);
    if (written && !reporter->failed)
        return 0;
    fprintf(stderr, "srcls: cannot write the report: %s\n",
            reporter->failed ? "out of memory"
            : errno != 0     ? strerror(errno)
                             : "write error");
    return -1;
}

int check_run(const struct check_options *options)
{
    struct walk walk = {.options = options};
    struct reporter *reporter = options->reporter;
    struct sigaction old_actions[3];
    if (options->fix)
        file_replace_install_cleanup(old_actions);
    reporter->begin(reporter);
    for (int i = 0; i < options->path_count; i++) {
        if (strcmp(options->paths[i], "-") == 0)
            check_stdin(&walk);
        else
            check_entry(&walk, AT_FDCWD, options->paths[i], options->paths[i], true, 0);
    }
    reporter->end(reporter, &walk.summary);
    int status = output_status(reporter);
    if (options->fix) {
        file_replace_restore_signals(old_actions);
        fprintf(stderr, "srcls: applied %u fix%s in %u file%s", walk.fixes_applied,
                walk.fixes_applied == 1 ? "" : "es", walk.fixed_files,
                walk.fixed_files == 1 ? "" : "s");
        if (walk.unfixed_files > 0)
            fprintf(stderr, "; %u file%s could not be fixed", walk.unfixed_files,
                    walk.unfixed_files == 1 ? "" : "s");
        fputc('\n', stderr);
    }
    free(walk.visited.slots);
    if (status != 0 || walk.summary.unreadable > 0 || walk.unfixed_files > 0)
        return 2;
    return walk.summary.errors > 0 ? 1 : 0;
}
