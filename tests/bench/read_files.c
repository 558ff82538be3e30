/* read_files: the floor for `srcls --check DIR` — walks the same directories (no symbolic
 * links followed, *.json only), opens and reads every file into memory and does nothing else.
 * Prints the file count and the bytes read.
 *
 * --threads N: what N cores allow for the same reads, the floor of `--check --jobs N` against
 * `--jobs 1`: one thread lists the files (the type each listing gives, as srcls), then N
 * threads each open (in its directory), fstat, read and close a share of them. --threads 1 is
 * the same work on one thread. usage: read_files [--threads N] PATH... */
#define _DEFAULT_SOURCE /* d_type */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buffer[1 << 20];
static unsigned long files_read;
static unsigned long long bytes_read;

/* --threads: the files listed (a name in a directory open on `at`, as srcls opens them), read
 * by the threads afterwards. */
struct listed_file {
    int at;
    char *name;
};
static struct listed_file *listed;
static size_t listed_count, listed_cap;
static unsigned threads;

static int ends_with_json(const char *name)
{
    size_t n = strlen(name);
    return n >= 5 && strcmp(name + n - 5, ".json") == 0;
}

static void list_file(int at, const char *name)
{
    if (listed_count == listed_cap) {
        listed_cap = listed_cap ? 2 * listed_cap : 1024;
        struct listed_file *grown = realloc(listed, listed_cap * sizeof *listed);
        if (grown == NULL)
            exit(2);
        listed = grown;
    }
    listed[listed_count].at = at;
    if ((listed[listed_count++].name = strdup(name)) == NULL)
        exit(2);
}

/* The next entry of `dir` other than "." and "..", or NULL at the end. */
static struct dirent *next_entry(DIR *dir)
{
    struct dirent *e;
    while ((e = readdir(dir)) != NULL &&
           (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0))
        ;
    return e;
}

/* --threads: lists the directory `path` and those below it, the entries' types taken from
 * the listing as srcls takes them, and keeps each open for the threads. */
static void list_tree(const char *path)
{
    DIR *dir = opendir(path);
    if (dir == NULL) {
        perror(path);
        return;
    }
    for (struct dirent *e; (e = next_entry(dir)) != NULL;) {
        unsigned char type = e->d_type;
        struct stat cs;
        if (type == DT_UNKNOWN && fstatat(dirfd(dir), e->d_name, &cs, AT_SYMLINK_NOFOLLOW) == 0)
            type = S_ISDIR(cs.st_mode) ? DT_DIR : S_ISREG(cs.st_mode) ? DT_REG : DT_UNKNOWN;
        if (type == DT_REG && ends_with_json(e->d_name)) {
            list_file(dirfd(dir), e->d_name);
        } else if (type == DT_DIR) {
            size_t len = strlen(path) + strlen(e->d_name) + 2;
            char *child = malloc(len);
            if (child == NULL)
                exit(2);
            snprintf(child, len, "%s/%s", path, e->d_name);
            list_tree(child);
            free(child);
        }
    }
    /* not closed: the threads open the files in it */
}

static void read_file(const char *path)
{
    if (threads > 0) { /* a file named: listed now, read by the threads */
        list_file(AT_FDCWD, path);
        return;
    }
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0) {
        perror(path);
        return;
    }
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0)
        bytes_read += (unsigned long long)n;
    close(fd);
    files_read++;
}

static void walk(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        perror(path);
        return;
    }
    if (S_ISREG(st.st_mode)) {
        read_file(path);
        return;
    }
    if (!S_ISDIR(st.st_mode))
        return;
    if (threads > 0) {
        list_tree(path);
        return;
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        perror(path);
        return;
    }
    for (struct dirent *e; (e = next_entry(dir)) != NULL;) {
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(len);
        if (child == NULL)
            break;
        snprintf(child, len, "%s/%s", path, e->d_name);
        struct stat cs;
        if (lstat(child, &cs) == 0 &&
            (S_ISDIR(cs.st_mode) || (S_ISREG(cs.st_mode) && ends_with_json(e->d_name))))
            walk(child);
        free(child);
    }
    closedir(dir);
}

struct share {
    unsigned first; /* the thread's index: it reads listed[first], [first + threads], ... */
    unsigned long files;
    unsigned long long bytes;
};

static void *read_share(void *arg)
{
    struct share *share = arg;
    char *own = malloc(1 << 20);
    if (own == NULL)
        return NULL;
    for (size_t i = share->first; i < listed_count; i += threads) {
        int fd = openat(listed[i].at, listed[i].name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            perror(listed[i].name);
            if (fd >= 0)
                close(fd);
            continue;
        }
        ssize_t n;
        while ((n = read(fd, own, 1 << 20)) > 0)
            share->bytes += (unsigned long long)n;
        close(fd);
        share->files++;
    }
    free(own);
    return NULL;
}

int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--threads") == 0) {
        threads = (unsigned)atoi(argv[2]);
        first = 3;
    }
    if (argc <= first || (first == 3 && (threads < 1 || threads > 64))) {
        fprintf(stderr, "usage: read_files [--threads N] PATH...\n");
        return 2;
    }
    for (int i = first; i < argc; i++)
        walk(argv[i]);
    if (threads > 0) {
        pthread_t ids[64];
        struct share shares[64] = {{0}};
        for (unsigned t = 0; t < threads; t++) {
            shares[t].first = t;
            if (pthread_create(&ids[t], NULL, read_share, &shares[t]) != 0)
                return 2;
        }
        for (unsigned t = 0; t < threads; t++) {
            pthread_join(ids[t], NULL);
            files_read += shares[t].files;
            bytes_read += shares[t].bytes;
        }
    }
    printf("%lu files, %llu bytes\n", files_read, bytes_read);
    return 0;
}
