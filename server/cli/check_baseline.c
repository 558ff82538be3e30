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

#include "check_command.h"
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
    bool broken;         /* could not be read (said once): its files' findings are all new */
    unsigned unrecorded; /* entries of findings never baselined (baseline_recorded): said */
    bool out_of_memory;  /* ... for want of memory: no verdict on the file */
};

struct check_baseline {
    const char *write_path;
    struct check_configs *configs; /* the srcls.json of each file (a gone file's too) */
    bool named;                    /* --baseline: sets[0], for every file */
    bool no_config;                /* --no-baseline: no srcls.json's "baseline" */
    unsigned shard, shard_count;   /* --shard I/N: a gone file's entry is its owner's to say */
    char *cwd;                     /* absolute, normalised */
    char *write_dir; /* the directory of --write-baseline's file, absolute, normalised */
    struct baseline_set *sets;
    size_t set_count, set_cap;
    char **written; /* --write-baseline: the lines to write */
    size_t written_count, written_cap;
    /* --write-baseline: the file there before (read at the end) and the paths checked,
     * relative to its directory: its entries of other files that still exist are kept */
    struct baseline_set previous;
    bool previous_broken;        /* there, but not a baseline (said): written anew */
    bool previous_out_of_memory; /* ... for want of memory: not written at all */
    unsigned left_out; /* --write-baseline: findings never baselined (baseline_recorded) */
    struct report_absent *absent;
    unsigned absent_count;
    size_t absent_cap;
    bool used, failed; /* used: a baseline was read or is written */
};

/* Writes to stderr the names of the codes no baseline records ("json-syntax, ..."), as
 * baseline_recorded says: the two messages that name them never drift from it. */
static void print_unrecorded_codes(void)
{
    const char *separator = "";
    for (int code = 0; code < CODE_COUNT; code++) {
        if (!baseline_recorded((enum diag_code)code)) {
            fprintf(stderr, "%s%s", separator, code_name((enum diag_code)code));
            separator = ", ";
        }
    }
}

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
    for (size_t i = 0; ok && i < b->index.count; i++)
        b->unrecorded += !baseline_recorded((enum diag_code)code_parse(b->index.entries[i].code));
    b->out_of_memory = !ok && strstr(why, "out of memory") != NULL;
    free(text);
    return ok;
}

/* Whether the file of an entry (its path relative to the directory `context`, a set's
 * read_dir) no longer exists: its findings may have moved (baseline_index's `gone`). */
static bool entry_gone(const char *path, void *context)
{
    const char *dir = context;
    size_t size = strlen(dir) + strlen(path) + 2;
    char *full = malloc(size);
    if (full == NULL)
        return false;
    snprintf(full, size, "%s/%s", dir, path);
    struct stat st;
    bool gone = stat(full, &st) != 0 && errno == ENOENT;
    free(full);
    return gone;
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
    set->index.gone = entry_gone;
    set->index.gone_context = set->read_dir;
    if (set->unrecorded > 0) {
        fprintf(stderr,
                "srcls: baseline %s: %u entr%s of findings that mean a document was not checked "
                "(",
                set->read_path, set->unrecorded, set->unrecorded == 1 ? "y" : "ies");
        print_unrecorded_codes();
        fputs(") match nothing: such findings are always reported\n", stderr);
    }
    b->used = true;
    return set;
}

/* --write-baseline: the file there before read into b->previous (none, or an empty file made
 * for it: nothing), to keep the entries this run does not record again (keep_unchecked). */
static void read_previous(struct check_baseline *b)
{
    struct baseline_set *old = &b->previous;
    struct stat st;
    bool there = stat(b->write_path, &st) == 0;
    if ((!there && errno == ENOENT) || (there && S_ISREG(st.st_mode) && st.st_size == 0))
        return;
    bool copied = (old->read_path = strdup(b->write_path)) != NULL &&
                  (old->read_dir = strdup(b->write_dir)) != NULL;
    b->previous_broken = !copied || !read_file(old);
    b->previous_out_of_memory = !copied || old->out_of_memory;
    if (b->previous_broken)
        baseline_index_free(&old->index);
    old->index.gone = entry_gone;
    old->index.gone_context = old->read_dir;
}

int check_baseline_open(const char *read_path, const char *write_path, bool diff, bool no_config,
                        struct check_configs *configs, struct check_baseline **out)
{
    *out = NULL;
    if (diff && (read_path != NULL || write_path != NULL)) {
        fprintf(stderr, "srcls: --diff prints a diff: it takes no --baseline or "
                        "--write-baseline\n");
        return 2;
    }
    if (no_config && read_path != NULL) {
        fprintf(stderr, "srcls: --no-baseline reads no baseline: it takes no --baseline\n");
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
    b->configs = configs;
    b->no_config = no_config;
    b->used = write_path != NULL;
    b->named = read_path != NULL;
    struct baseline_set *set = b->named ? set_for(b, read_path) : NULL;
    if (b->named && (set == NULL || set->broken)) {
        if (set == NULL)
            fprintf(stderr, "srcls: --baseline %s: out of memory\n", read_path);
        check_baseline_close(b);
        return 2;
    }
    if (write_path != NULL)
        read_previous(b);
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
                                    const struct check_target *target)
{
    const char *config_baseline = b != NULL && !b->no_config ? target->baseline : NULL;
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
    bool checked = baseline_document_checked(a); /* else none of its findings is written */
    for (uint32_t i = 0; ok && i < a->diags.count; i++) {
        const struct diagnostic *d = &a->diags.items[i];
        bool recorded = checked && baseline_recorded(d->code); /* else never written */
        if (read_rel != NULL) {
            int held = baseline_take_finding(&set->index, a, d, read_rel);
            ok = held >= 0;
            flags[i] = held > 0;
        }
        b->left_out += write_rel != NULL && !recorded;
        if (write_rel != NULL && ok && recorded)
            ok = push(&b->written, &b->written_count, &b->written_cap,
                      baseline_entry_line(a, d, write_rel));
        if (b->write_dir != NULL && set == NULL) /* --write-baseline alone: it is the baseline */
            flags[i] = recorded;
    }
    /* the entries whose finding this run did not look for: neither matched nor fixed, kept */
    if (ok && read_rel != NULL && !checked)
        baseline_hide_all(&set->index, read_rel);
    else if (ok && read_rel != NULL)
        baseline_hide_unchecked(&set->index, read_rel, target->settings, target->path, a);
    if (ok && write_rel != NULL && !checked) { /* its entries stay, as of a file not checked */
        free(write_rel);
        write_rel = NULL;
    } else if (ok && write_rel != NULL)
        baseline_hide_unchecked(&b->previous.index, write_rel, target->settings, target->path, a);
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

/* What became of the finding of an entry in this run. */
enum entry_state {
    ENTRY_MATCHED,   /* a finding took it */
    ENTRY_FIXED,     /* looked for and gone: its file checked, or deleted */
    ENTRY_UNCHECKED, /* not looked for: its code "off", or silenced by an "ignore" entry */
    ENTRY_ELSEWHERE, /* its file is there and was not checked */
};

/* The state of the entry `e` of `set` (whose `checked` is sorted). A deleted file's entry is
 * fixed unless a check of the file under the srcls.json that would govern it left it out. */
static enum entry_state entry_state(struct check_baseline *b, const struct baseline_set *set,
                                    const struct baseline_entry *e)
{
    if (e->used)
        return ENTRY_MATCHED;
    if (e->hidden)
        return ENTRY_UNCHECKED;
    const char *key = e->path;
    if (set->checked_count > 0 &&
        bsearch(&key, set->checked, set->checked_count, sizeof *set->checked, compare_strings))
        return ENTRY_FIXED;
    if (!entry_gone(e->path, set->read_dir))
        return ENTRY_ELSEWHERE;
    size_t size = strlen(set->read_dir) + strlen(e->path) + 2;
    char *full = malloc(size);
    struct check_target target = {0};
    if (full != NULL)
        snprintf(full, size, "%s/%s", set->read_dir, e->path);
    if (full != NULL && b->shard_count > 1) { /* owned by its path from here, as a walk shows it */
        char *normal = check_path_absolute("/", full);
        char *shown = normal != NULL ? baseline_relative(b->cwd, normal) : NULL;
        bool owned = shown == NULL || check_shard_owns(b->shard, b->shard_count, shown);
        free(normal);
        free(shown);
        if (!owned) {
            free(full);
            return ENTRY_ELSEWHERE;
        }
    }
    /* its srcls.json unusable (said), or memory: not known to be looked for */
    bool hidden = full == NULL || b->configs == NULL ||
                  !check_configs_for(b->configs, full, &target) ||
                  baseline_entry_hidden(e, target.settings, target.path, NULL);
    free(target.path);
    free(target.kind_file_name);
    free(full);
    return hidden ? ENTRY_UNCHECKED : ENTRY_FIXED;
}

/* The fixed entries of `set` into b->absent and `summary`. */
static void finish_set(struct check_baseline *b, struct baseline_set *set,
                       struct report_summary *summary)
{
    if (set->checked_count > 1)
        qsort(set->checked, set->checked_count, sizeof *set->checked, compare_strings);
    summary->baseline_entries += (unsigned)(set->index.count - set->unrecorded);
    for (size_t i = 0; i < set->index.count; i++) {
        struct baseline_entry *e = &set->index.entries[i];
        if (!baseline_recorded((enum diag_code)code_parse(e->code)))
            continue; /* it matches nothing (said when read) */
        enum entry_state state = entry_state(b, set, e);
        summary->baseline_unchanged += state == ENTRY_MATCHED;
        summary->baseline_unchecked += state == ENTRY_UNCHECKED;
        if (state != ENTRY_FIXED)
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

void check_baseline_shard(struct check_baseline *b, unsigned shard, unsigned shard_count)
{
    if (b != NULL) {
        b->shard = shard;
        b->shard_count = shard_count;
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

/* The entries of the baseline file at b->write_path (if any) whose finding this run did not
 * look for, added to b->written: those of files it did not check that still exist (as
 * ESLint's --suppress-all keeps the suppressions of the files it did not lint), and those of
 * codes it did not check (not selected, "off", silenced by an "ignore" entry), so that nothing
 * leaves a baseline but an entry whose finding was looked for and is gone; never one of a
 * finding that is not recorded (baseline_recorded: counted in b->left_out). How many, or -1
 * when the file is there but cannot be read or is not a baseline (said), or -2 when memory
 * ran out (b->written then holds this run's alone). */
static long keep_unchecked(struct check_baseline *b)
{
    struct baseline_set *old = &b->previous;
    if (b->previous_broken)
        return b->previous_out_of_memory ? -2 : -1;
    if (old->checked_count > 1)
        qsort(old->checked, old->checked_count, sizeof *old->checked, compare_strings);
    b->left_out += old->unrecorded;
    size_t first = b->written_count;
    for (size_t i = 0; i < old->index.count; i++) {
        const struct baseline_entry *e = &old->index.entries[i];
        enum entry_state state = entry_state(b, old, e);
        if (baseline_recorded((enum diag_code)code_parse(e->code)) && state != ENTRY_FIXED &&
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
            fprintf(stderr, " (%ld of files or codes not checked in this run, kept)", kept);
        fputs("\n", stderr);
    }
    if (b->left_out > 0) {
        fprintf(stderr,
                "srcls: --write-baseline %s: left out %u finding%s of what was not checked (",
                b->write_path, b->left_out, b->left_out == 1 ? "" : "s");
        print_unrecorded_codes();
        fputs(", and the other findings of a document with a syntax error): never baselined, "
              "always reported\n",
              stderr);
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
