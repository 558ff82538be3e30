/* check_baseline: reading, matching and writing a baseline file (see check_baseline.h). The
 * file:
 *
 *   {
 *     "version": 1,
 *     "findings": [
 *       {"file":"a.source.json","code":"invalid-enum","pointer":"/config/x","hash":"..."},
 *       ...
 *     ]
 *   }
 *
 * An entry is compared by its bytes once written in canonical form (baseline_write_entry's key
 * order, compact), so entries read back are written again that way: a file edited by hand
 * still matches. */
#include "check_baseline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_read.h"
#include "check/check.h"
#include "domain/domain.h"
#include "json/json.h"
#include "base/base.h"

/* One baseline file read: --baseline's, or a srcls.json's "baseline". */
struct baseline_set {
    char *read_path;             /* as named (--baseline) or absolute (srcls.json) */
    char *read_dir;              /* its directory, absolute, normalised */
    struct baseline_index index; /* its entries, sorted */
    char **checked;              /* the paths checked (relative to read_dir), for the fixed count */
    size_t checked_count, checked_cap;
    bool broken; /* could not be read (said once): its files' findings are all new */
    bool out_of_memory; /* ... for want of memory: no verdict on the file */
};

struct check_baseline {
    const char *write_path;
    bool named;      /* --baseline: sets[0], for every file */
    char *cwd;       /* absolute, normalised */
    char *write_dir; /* the directory of --write-baseline's file, absolute, normalised */
    struct baseline_set *sets;
    size_t set_count, set_cap;
    char **written; /* --write-baseline: the lines to write */
    size_t written_count, written_cap;
    /* --write-baseline: the file there before (read at the end) and the paths checked,
     * relative to its directory: its entries of other files that still exist are kept */
    struct baseline_set previous;
    struct report_absent *absent;
    unsigned absent_count;
    size_t absent_cap;
    bool used, failed; /* used: a baseline was read or is written */
};

/* The directory of `path`, absolute and normalised, or NULL. */
static char *directory_of(const char *cwd, const char *path)
{
    char *file = check_path_absolute(cwd, path);
    char *slash = file != NULL ? strrchr(file, '/') : NULL;
    if (slash != NULL)
        slash[slash == file ? 1 : 0] = '\0';
    return file;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool read_file(struct baseline_set *b)
{
    int fd = open(b->read_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uintmax_t)st.st_size > CHECK_MAX_INPUT_SIZE) {
        int error = fd < 0 || errno != 0 ? errno : EINVAL;
        fprintf(stderr, "srcls: baseline %s: cannot read: %s\n", b->read_path,
                fd >= 0 && (uintmax_t)st.st_size > CHECK_MAX_INPUT_SIZE ? "too large"
                : fd >= 0 && !S_ISREG(st.st_mode)                       ? "not a regular file"
                                                                        : strerror(error));
        if (fd >= 0)
            close(fd);
        return false;
    }
    size_t len;
    char *text = read_descriptor(fd, (size_t)st.st_size, &len);
    int error = errno;
    close(fd);
    if (text == NULL) {
        fprintf(stderr, "srcls: baseline %s: cannot read: %s\n", b->read_path,
                check_strerror(error));
        b->out_of_memory = error == ENOMEM;
        return false;
    }
    char why[256];
    bool ok = baseline_parse(&b->index, text, len, why, sizeof why) == 0;
    if (!ok)
        fprintf(stderr, "srcls: %s: %s\n", b->read_path, why);
    b->out_of_memory = !ok && strstr(why, "out of memory") != NULL;
    free(text);
    return ok;
}

static void set_free(struct baseline_set *set)
{
    baseline_index_free(&set->index);
    for (size_t i = 0; i < set->checked_count; i++)
        free(set->checked[i]);
    free(set->checked);
    free(set->read_path);
    free(set->read_dir);
}

/* The set of the baseline file `path`, read on first use; NULL when memory ran out. A file that
 * cannot be read is said once on stderr and gives a broken set. */
static struct baseline_set *set_for(struct check_baseline *b, const char *path)
{
    for (size_t i = 0; i < b->set_count; i++) {
        if (strcmp(b->sets[i].read_path, path) == 0)
            return &b->sets[i];
    }
    struct baseline_set *grown = vector_grow(b->sets, &b->set_cap, b->set_count + 1, sizeof *grown);
    if (grown == NULL)
        return NULL;
    b->sets = grown;
    struct baseline_set *set = &b->sets[b->set_count];
    *set = (struct baseline_set){.read_path = strdup(path)};
    set->read_dir = set->read_path != NULL ? directory_of(b->cwd, path) : NULL;
    if (set->read_dir == NULL) {
        set_free(set);
        return NULL;
    }
    b->set_count++;
    set->broken = !read_file(set);
    b->used = true;
    return set;
}

int check_baseline_open(const char *read_path, const char *write_path, bool diff,
                        struct check_baseline **out)
{
    *out = NULL;
    if (diff && (read_path != NULL || write_path != NULL)) {
        fprintf(stderr, "srcls: --diff prints a diff: it takes no --baseline or "
                        "--write-baseline\n");
        return 2;
    }
    if (diff)
        return 0;
    errno = 0; /* a stale one would name the wrong failure */
    struct check_baseline *b = calloc(1, sizeof *b);
    char here[4096];
    if (b == NULL || getcwd(here, sizeof here) == NULL ||
        (b->cwd = check_path_absolute("/", here)) == NULL ||
        (write_path != NULL && (b->write_dir = directory_of(b->cwd, write_path)) == NULL)) {
        fprintf(stderr, "srcls: --baseline: %s\n",
                errno != 0 && errno != ENOMEM ? strerror(errno) : "out of memory");
        check_baseline_close(b);
        return 2;
    }
    b->write_path = write_path;
    b->used = write_path != NULL;
    b->named = read_path != NULL;
    struct baseline_set *set = b->named ? set_for(b, read_path) : NULL;
    if (b->named && (set == NULL || set->broken)) {
        if (set == NULL)
            fprintf(stderr, "srcls: --baseline %s: out of memory\n", read_path);
        check_baseline_close(b);
        return 2;
    }
    *out = b;
    return 0;
}

/* Appends a malloc'd string to a vector of them; false (and the string freed) on failure. */
static bool push(char ***items, size_t *count, size_t *cap, char *item)
{
    char **grown = item != NULL ? vector_grow(*items, cap, *count + 1, sizeof *grown) : NULL;
    if (grown == NULL) {
        free(item);
        return false;
    }
    *items = grown;
    grown[(*count)++] = item;
    return true;
}

unsigned char *check_baseline_match(struct check_baseline *b, const char *path, struct analysis *a,
                                    const char *config_baseline)
{
    if (b == NULL || (!b->used && config_baseline == NULL))
        return NULL;
    if (b->write_dir != NULL && !b->named)
        config_baseline = NULL; /* --write-baseline alone: what it writes is the baseline */
    struct baseline_set *set = b->named                  ? &b->sets[0]
                               : config_baseline != NULL ? set_for(b, config_baseline)
                                                         : NULL;
    if (set != NULL && set->broken) {
        b->failed = true; /* said when it was read */
        set = NULL;
    }
    char *file = check_path_absolute(b->cwd, path);
    char *read_rel = file != NULL && set != NULL ? baseline_relative(set->read_dir, file) : NULL;
    char *write_rel =
        file != NULL && b->write_dir != NULL ? baseline_relative(b->write_dir, file) : NULL;
    unsigned char *flags = calloc(a->diags.count + 1, 1);
    bool ok = file != NULL && flags != NULL && (set == NULL || read_rel != NULL) &&
              (b->write_dir == NULL || write_rel != NULL) &&
              (config_baseline == NULL || b->named || set != NULL || b->failed);
    for (uint32_t i = 0; ok && i < a->diags.count; i++) {
        if (read_rel != NULL) {
            int held = baseline_take_finding(&set->index, a, &a->diags.items[i], read_rel);
            ok = held >= 0;
            flags[i] = held > 0;
        }
        if (write_rel != NULL && ok)
            ok = push(&b->written, &b->written_count, &b->written_cap,
                      baseline_entry_line(a, &a->diags.items[i], write_rel));
        if (b->write_dir != NULL && set == NULL) /* --write-baseline alone: it is the baseline */
            flags[i] = 1;
    }
    if (ok && read_rel != NULL) {
        ok = push(&set->checked, &set->checked_count, &set->checked_cap, read_rel);
        read_rel = NULL;
    }
    if (ok && write_rel != NULL) {
        ok = push(&b->previous.checked, &b->previous.checked_count, &b->previous.checked_cap,
                  write_rel);
        write_rel = NULL;
    }
    free(read_rel);
    free(write_rel);
    free(file);
    if (!ok) {
        b->failed = true;
        fprintf(stderr, "srcls: %s: out of memory\n", path); /* its findings shown unmatched */
        free(flags);
        return NULL;
    }
    return flags;
}

/* Whether the entry's file was checked in this run, or no longer exists. */
static bool file_gone_or_checked(const struct baseline_set *b, const struct baseline_entry *e)
{
    const char *key = e->path;
    if (b->checked_count > 0 &&
        bsearch(&key, b->checked, b->checked_count, sizeof *b->checked, compare_strings) != NULL)
        return true;
    size_t size = strlen(b->read_dir) + strlen(e->path) + 2;
    char *full = malloc(size);
    if (full == NULL)
        return false;
    snprintf(full, size, "%s/%s", b->read_dir, e->path);
    struct stat st;
    bool gone = stat(full, &st) != 0 && errno == ENOENT;
    free(full);
    return gone;
}

/* The fixed entries of `set` into b->absent and `summary`. */
static void finish_set(struct check_baseline *b, struct baseline_set *set,
                       struct report_summary *summary)
{
    if (set->checked_count > 1)
        qsort(set->checked, set->checked_count, sizeof *set->checked, compare_strings);
    summary->baseline_entries += (unsigned)set->index.count;
    for (size_t i = 0; i < set->index.count; i++) {
        struct baseline_entry *e = &set->index.entries[i];
        summary->baseline_unchanged += e->used;
        if (e->used || !file_gone_or_checked(set, e))
            continue;
        summary->baseline_fixed++;
        char *full = malloc(strlen(set->read_dir) + strlen(e->path) + 2);
        char *shown = NULL;
        if (full != NULL) {
            sprintf(full, "%s/%s", set->read_dir, e->path);
            char *normal = check_path_absolute("/", full);
            shown = normal != NULL ? baseline_relative(b->cwd, normal) : NULL;
            free(normal);
        }
        free(full);
        struct report_absent *grown =
            shown != NULL
                ? vector_grow(b->absent, &b->absent_cap, b->absent_count + 1, sizeof *grown)
                : NULL;
        if (grown == NULL) {
            free(shown);
            b->failed = true;
            continue;
        }
        b->absent = grown;
        free(e->path); /* from now on shown from the current directory */
        e->path = shown;
        b->absent[b->absent_count++] =
            (struct report_absent){shown, e->code, e->element, e->pointer};
    }
}

void check_baseline_finish(struct check_baseline *b, struct report_summary *summary)
{
    if (b == NULL || !b->used)
        return;
    summary->baseline = true;
    if (b->set_count == 0) { /* --write-baseline alone */
        summary->baseline_entries = summary->baseline_unchanged = (unsigned)b->written_count;
        return;
    }
    for (size_t i = 0; i < b->set_count; i++)
        finish_set(b, &b->sets[i], summary);
    summary->absent = b->absent;
    summary->absent_count = b->absent_count;
}

/* The entries of the baseline file at b->write_path (if any) of files this run did not check
 * and that still exist, added to b->written (as ESLint's --suppress-all keeps the suppressions
 * of the files it did not lint); how many, or -1 when the file is there but cannot be read or
 * is not a baseline (said), or -2 when memory ran out (b->written then holds this run's alone). */
static long keep_unchecked(struct check_baseline *b)
{
    struct baseline_set *old = &b->previous;
    struct stat st;
    bool there = stat(b->write_path, &st) == 0;
    if ((!there && errno == ENOENT) || (there && S_ISREG(st.st_mode) && st.st_size == 0))
        return 0; /* none, or an empty file made for it */
    if ((old->read_path = strdup(b->write_path)) == NULL ||
        (old->read_dir = strdup(b->write_dir)) == NULL || !read_file(old))
        return old->read_dir == NULL || old->out_of_memory ? -2 : -1;
    if (old->checked_count > 1)
        qsort(old->checked, old->checked_count, sizeof *old->checked, compare_strings);
    size_t first = b->written_count;
    for (size_t i = 0; i < old->index.count; i++) {
        const struct baseline_entry *e = &old->index.entries[i];
        if (!file_gone_or_checked(old, e) &&
            !push(&b->written, &b->written_count, &b->written_cap, strdup(e->line))) {
            while (b->written_count > first)
                free(b->written[--b->written_count]);
            return -2;
        }
    }
    return (long)(b->written_count - first);
}

int check_baseline_end(struct check_baseline *b, int status)
{
    if (b == NULL || b->write_path == NULL)
        return status;
    if (status == 2) { /* only a whole run is recorded */
        fprintf(stderr, "srcls: --write-baseline %s: not written (not every path was checked)\n",
                b->write_path);
        return status;
    }
    long kept = keep_unchecked(b);
    if (kept == -2) { /* the entries kept from the file there would be lost */
        fprintf(stderr, "srcls: --write-baseline %s: not written: out of memory\n", b->write_path);
        return 2;
    }
    if (kept < 0) { /* a baseline broken by hand, or by a merge: written anew */
        fprintf(stderr,
                "srcls: --write-baseline %s: the file there is not read as a baseline "
                "(above): written anew with this run's findings alone\n",
                b->write_path);
        kept = 0;
    }
    if (b->written_count > 1)
        qsort(b->written, b->written_count, sizeof *b->written, compare_strings);
    size_t size = strlen(b->write_path) + 16;
    char *temporary = malloc(size);
    FILE *out = NULL;
    if (temporary != NULL) {
        snprintf(temporary, size, "%s.tmp", b->write_path);
        out = fopen(temporary, "w");
    }
    if (out != NULL) {
        fputs("{\n  \"version\": 1,\n  \"findings\": [", out);
        for (size_t i = 0; i < b->written_count; i++)
            fprintf(out, "%s\n    %s", i > 0 ? "," : "", b->written[i]);
        fputs(b->written_count > 0 ? "\n  ]\n}\n" : "]\n}\n", out);
    }
    int error = out == NULL ? errno : 0;
    if (out != NULL && (fflush(out) != 0 || ferror(out) || fsync(fileno(out)) != 0))
        error = errno != 0 ? errno : EIO;
    if (out != NULL && fclose(out) != 0 && error == 0)
        error = errno;
    if (error == 0 && rename(temporary, b->write_path) != 0)
        error = errno;
    if (error != 0) {
        fprintf(stderr, "srcls: --write-baseline %s: cannot write: %s\n", b->write_path,
                temporary == NULL ? "out of memory" : strerror(error));
        if (temporary != NULL)
            unlink(temporary);
    } else {
        fprintf(stderr, "srcls: wrote %zu finding%s to %s", b->written_count,
                b->written_count == 1 ? "" : "s", b->write_path);
        if (kept > 0)
            fprintf(stderr, " (%ld of files not checked in this run, kept)", kept);
        fputs("\n", stderr);
    }
    free(temporary);
    return error == 0 ? status : 2;
}

bool check_baseline_failed(const struct check_baseline *b)
{
    return b != NULL && b->failed;
}

void check_baseline_close(struct check_baseline *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->set_count; i++)
        set_free(&b->sets[i]);
    for (size_t i = 0; i < b->written_count; i++)
        free(b->written[i]);
    set_free(&b->previous);
    free(b->sets);
    free(b->written);
    free(b->absent);
    free(b->cwd);
    free(b->write_dir);
    free(b);
}
