/* check_visited: what a `--check` walk visits: the names of a directory, and the (device, inode)
 * pairs already visited. */
#ifndef SRCLS_CHECK_VISITED_H
#define SRCLS_CHECK_VISITED_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

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

/* Makes room for one more file, so that the next visited_insert cannot fail; -1 when memory
 * ran out. */
int visited_reserve(struct visited *v);
/* Records the file of `st` in a set that has room for it (visited_reserve); false when it was
 * there already. */
bool visited_insert(struct visited *v, const struct stat *st);
/* Records the file of `st`. Returns 1 when it is new, 0 when it was already visited, -1 when
 * memory ran out. */
int visited_add(struct visited *v, const struct stat *st);

/* What a directory listing says an entry is, when it says (d_type): a walk need not look at a
 * regular file or a directory before opening it. */
enum visited_type { VISITED_UNKNOWN, VISITED_FILE, VISITED_DIRECTORY };

struct visited_name {
    char *name; /* malloc'd */
    enum visited_type type;
};

/* Reads the names of `dir` that a scan visits, skipping hidden entries (among them srcls's own
 * temporary files) and node_modules, into `*names` (a malloc'd array, which the caller frees
 * with each name) in name order. Returns 0, or an errno value (ENOMEM, or readdir's) with the
 * names read before it. */
int visited_list_names(DIR *dir, struct visited_name **names, size_t *count);

#endif
