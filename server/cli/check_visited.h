/* check_visited: the (device, inode) pairs a `--check` walk has visited. */
#ifndef SRCLS_CHECK_VISITED_H
#define SRCLS_CHECK_VISITED_H

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

#endif
