/* read_files: the floor for `srcls --check DIR` — walks the same directories (no symbolic
 * links followed, *.json only), opens and reads every file into memory and does nothing else.
 * Prints the file count and the bytes read. usage: read_files PATH... */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buffer[1 << 20];
static unsigned long files_read;
static unsigned long long bytes_read;

static int ends_with_json(const char *name)
{
    size_t n = strlen(name);
    return n >= 5 && strcmp(name + n - 5, ".json") == 0;
}

static void read_file(const char *path)
{
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
    DIR *dir = opendir(path);
    if (dir == NULL) {
        perror(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: read_files PATH...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        walk(argv[i]);
    printf("%lu files, %llu bytes\n", files_read, bytes_read);
    return 0;
}
