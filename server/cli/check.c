/* check: files, directories (recursing into *.json) and '-' for stdin. A file named
 * explicitly is always reported on; a file found in a directory only when it is a source or
 * a job document (or is named *.source.json / *.job.json). */
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix.h"

struct walk {
    const struct check_options *options;
    struct report_summary summary;
    unsigned fixed_files, fixes_applied;
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Reads all of `stream` into a malloc'd buffer; NULL with errno set on failure. */
static char *read_stream(FILE *stream, size_t *len)
{
    size_t cap = 64 * 1024, n = 0;
    char *buf = malloc(cap);
    if (buf == NULL)
        return NULL;
    for (;;) {
        if (n == cap) {
            if (cap > ((size_t)1 << 30)) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                return NULL;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, stream);
        n += got;
        if (got == 0) {
            if (ferror(stream)) {
                int saved = errno ? errno : EIO;
                free(buf);
                errno = saved;
                return NULL;
            }
            break;
        }
    }
    *len = n;
    return buf;
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

static void report_unreadable(struct walk *walk, const char *path, const char *why)
{
    char message[512];
    snprintf(message, sizeof message, "cannot read: %s", why);
    struct checked_file file = {.path = path, .read_error = message};
    walk->summary.unreadable++;
    walk->options->reporter->file(walk->options->reporter, &file);
}

/* Writes `text` to `path` through a temporary file in the same folder and a rename, keeping
 * the file's mode, so that a crash or a full disk never leaves a half-written file. */
static int write_atomically(const char *path, const char *text, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    size_t size = strlen(path) + 16;
    char *temp = malloc(size);
    if (temp == NULL)
        return -1;
    snprintf(temp, size, "%s.srcls-XXXXXX", path);
    int fd = mkstemp(temp);
    if (fd < 0) {
        free(temp);
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    int status = (done == len && fchmod(fd, st.st_mode & 07777) == 0 && fsync(fd) == 0) ? 0 : -1;
    if (close(fd) != 0)
        status = -1;
    if (status == 0 && rename(temp, path) != 0)
        status = -1;
    if (status != 0)
        unlink(temp);
    free(temp);
    return status;
}

/* Applies the safe fixes of `analysis` to the file; returns the new text (malloc'd) when the
 * file was rewritten, NULL otherwise. A document with syntax errors is never touched. */
static char *fix_file(struct walk *walk, const char *path, struct analysis *analysis,
                      const char *text, size_t len, size_t *new_len)
{
    if (analysis->doc.error_count > 0 || strcmp(path, "<stdin>") == 0)
        return NULL;
    struct fix_list fixes;
    fix_list_init(&fixes);
    char *fixed = NULL;
    if (fix_collect_safe(analysis, &fixes) == 0 && fixes.count > 0)
        fixed = fix_apply(text, len, &fixes, new_len);
    if (fixed != NULL && write_atomically(path, fixed, *new_len) != 0) {
        fprintf(stderr, "srcls: %s: cannot write the fixes: %s (the file is unchanged)\n", path,
                strerror(errno));
        free(fixed);
        fixed = NULL;
    }
    if (fixed != NULL) {
        walk->fixed_files++;
        walk->fixes_applied += fixes.count;
    }
    fix_list_free(&fixes);
    return fixed;
}

static void check_text(struct walk *walk, const char *path, const char *text, size_t len,
                       bool explicit)
{
    struct analysis analysis;
    struct analysis_options options = {.report_unknown_document = explicit,
                                       .registry = walk->options->registry,
                                       .settings = walk->options->settings};
    if (analysis_run(&analysis, text, len, &options) != 0) {
        analysis_free(&analysis);
        report_unreadable(walk, path, "out of memory");
        return;
    }
    bool ours = explicit || analysis.document != DOCUMENT_UNKNOWN ||
                ends_with(path, ".source.json") || ends_with(path, ".job.json");
    char *fixed = NULL;
    if (ours && walk->options->fix) {
        size_t fixed_len = 0;
        fixed = fix_file(walk, path, &analysis, text, len, &fixed_len);
        if (fixed != NULL) { /* report what is left */
            analysis_free(&analysis);
            analysis_run(&analysis, fixed, fixed_len, &options);
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

static void check_file(struct walk *walk, const char *path, bool explicit)
{
    FILE *stream = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (stream == NULL) {
        report_unreadable(walk, path, strerror(errno));
        return;
    }
    size_t len = 0;
    errno = 0;
    char *text = read_stream(stream, &len);
    int saved = errno;
    if (stream != stdin)
        fclose(stream);
    if (text == NULL) {
        report_unreadable(walk, path, strerror(saved ? saved : EIO));
        return;
    }
    check_text(walk, strcmp(path, "-") == 0 ? "<stdin>" : path, text, len, explicit);
    free(text);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_path(struct walk *walk, const char *path, bool explicit, unsigned depth);

/* Visits a directory's entries in name order, skipping hidden entries and node_modules. */
static void check_directory(struct walk *walk, const char *path, unsigned depth)
{
    if (depth > 64) {
        report_unreadable(walk, path, "directories nested deeper than 64 levels");
        return;
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        report_unreadable(walk, path, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t count_names = 0, cap = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        const char *name = entry->d_name;
        if (name[0] == '.' || strcmp(name, "node_modules") == 0)
            continue;
        if (count_names == cap) {
            cap = cap ? cap * 2 : 32;
            char **grown = realloc(names, cap * sizeof *grown);
            if (grown == NULL)
                break;
            names = grown;
        }
        names[count_names] = strdup(name);
        if (names[count_names] != NULL)
            count_names++;
    }
    closedir(dir);
    if (count_names > 1)
        qsort(names, count_names, sizeof *names, compare_names);
    size_t base = strlen(path);
    bool slash = base > 0 && path[base - 1] == '/';
    for (size_t i = 0; i < count_names; i++) {
        size_t size = base + 1 + strlen(names[i]) + 1;
        char *child = malloc(size);
        if (child != NULL) {
            snprintf(child, size, "%s%s%s", path, slash ? "" : "/", names[i]);
            check_path(walk, child, false, depth + 1);
            free(child);
        }
        free(names[i]);
    }
    free(names);
}

static void check_path(struct walk *walk, const char *path, bool explicit, unsigned depth)
{
    if (strcmp(path, "-") == 0) {
        check_file(walk, path, true);
        return;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        report_unreadable(walk, path, strerror(errno));
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        check_directory(walk, path, depth);
        return;
    }
    if (!explicit && (!S_ISREG(st.st_mode) || !ends_with(path, ".json")))
        return;
    check_file(walk, path, explicit);
}

int check_run(const struct check_options *options)
{
    struct walk walk = {.options = options};
    struct reporter *reporter = options->reporter;
    reporter->begin(reporter);
    for (int i = 0; i < options->path_count; i++)
        check_path(&walk, options->paths[i], true, 0);
    reporter->end(reporter, &walk.summary);
    fflush(reporter->out);
    if (options->fix)
        fprintf(stderr, "srcls: applied %u fix%s in %u file%s\n", walk.fixes_applied,
                walk.fixes_applied == 1 ? "" : "es", walk.fixed_files,
                walk.fixed_files == 1 ? "" : "s");
    if (walk.summary.unreadable > 0)
        return 2;
    return walk.summary.errors > 0 ? 1 : 0;
}
