/* replay_main: runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer, so
 * that the regression inputs (and the examples) go through the same harness in every build,
 * gcc included. usage: TARGET_replay PATH... — a file is one input; a directory gives each
 * regular file in it (not recursing, skipping dot files); a missing path is skipped with a
 * note, since a target without regressions has no directory. Fails when nothing ran. */
#define _DEFAULT_SOURCE /* DT_REG */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Reads a whole file into an exact-size buffer (so AddressSanitizer sees any read past the
 * input, as under libFuzzer); returns 0, or -1 after printing why. */
static int read_file(const char *path, uint8_t **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (grown == NULL) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(data);
                fclose(f);
                return -1;
            }
            data = grown;
        }
        size_t n = fread(data + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: read error\n", path);
        free(data);
        return -1;
    }
    uint8_t *exact = malloc(len > 0 ? len : 1);
    if (exact == NULL) {
        free(data);
        return -1;
    }
    if (len > 0)
        memcpy(exact, data, len);
    free(data);
    *out = exact;
    *size = len;
    return 0;
}

static int replay_file(const char *path, unsigned *count)
{
    uint8_t *data;
    size_t size;
    if (read_file(path, &data, &size) != 0)
        return -1;
    fprintf(stderr, "replay %s (%zu bytes)\n", path, size);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    (*count)++;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of `dir`, in name order so that runs are reproducible. */
static int replay_directory(const char *dir, unsigned *count)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t grown_cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, grown_cap * sizeof *grown);
            if (grown == NULL) {
                status = -1;
                break;
            }
            names = grown;
            cap = grown_cap;
        }
        size_t len = strlen(dir) + 1 + strlen(entry->d_name) + 1;
        char *path = malloc(len);
        if (path == NULL) {
            status = -1;
            break;
        }
        snprintf(path, len, "%s/%s", dir, entry->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(path);
            continue;
        }
        names[n++] = path;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        if (status == 0 && replay_file(names[i], count) != 0)
            status = -1;
        free(names[i]);
    }
    free(names);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    unsigned count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            if (errno != ENOENT) {
                perror(argv[i]);
                return 1;
            }
            fprintf(stderr, "%s: absent, skipped\n", argv[i]);
            continue;
        }
        int status =
            S_ISDIR(st.st_mode) ? replay_directory(argv[i], &count) : replay_file(argv[i], &count);
        if (status != 0)
            return 1;
    }
    if (count == 0) {
        fprintf(stderr, "no input replayed\n");
        return 1;
    }
    fprintf(stderr, "%u inputs replayed\n", count);
    return 0;
}
