/* check_read: how `--check` opens and reads a file — non-blocking opens confirmed with fstat,
 * and reads that stop at the parser's limit. */
#include "check_read.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

#define CHECK_STREAM_FIRST_READ (64 * 1024) /* a stream of unknown size: the first read */

const char *check_strerror(int error)
{
    return error == ENOMEM ? "out of memory" : strerror(error);
}

char *read_descriptor(int fd, size_t expected, size_t *len)
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
            char *grown = vector_grow(buf, &cap, n + 1, 1);
            if (grown == NULL)
                goto fail;
            buf = grown;
        }
        /* never past limit + 1 bytes, the first one too many */
        ssize_t got = read(fd, buf + n, (cap < limit + 1 ? cap : limit + 1) - n);
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
        /* a regular file gave the size fstat said and less than asked: that was all of it (no
         * read to see its end) */
        if (expected > 0 && n == expected && n < cap)
            break;
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

const char *check_file_type_name(mode_t mode)
{
    return S_ISFIFO(mode)   ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISLNK(mode)  ? "a symbolic link"
                            : "an unknown kind of file";
}

int open_entry(int at, const char *name, bool follow, struct stat *st)
{
    int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW);
    int fd = openat(at, name, flags);
    if (fd < 0)
        return -1;
    /* O_NONBLOCK stays: it means nothing to a regular file on Linux, and a read that would
     * block anyway waits in read_descriptor's poll */
    if (fstat(fd, st) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

char *check_path_absolute(const char *cwd, const char *path)
{
    size_t size = strlen(cwd) + strlen(path) + 3;
    char *joined = malloc(size), *out = malloc(size);
    if (joined == NULL || out == NULL) {
        free(joined);
        free(out);
        return NULL;
    }
    size_t head = path[0] == '/' ? 0 : strlen(cwd), tail = strlen(path); /* cwd "/" path */
    memcpy(joined, cwd, head);
    joined[head] = '/';
    memcpy(joined + head + 1, path, tail + 1);
    size_t len = 0;
    for (char *segment = joined; *segment != '\0';) {
        size_t n = strcspn(segment, "/");
        if (n == 2 && segment[0] == '.' && segment[1] == '.') {
            while (len > 0 && out[--len] != '/')
                ;
        } else if (n > 0 && !(n == 1 && segment[0] == '.')) {
            out[len++] = '/';
            memcpy(out + len, segment, n);
            len += n;
        }
        segment += n + (segment[n] == '/');
    }
    if (len == 0)
        out[len++] = '/';
    out[len] = '\0';
    free(joined);
    return out;
}

bool check_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

char *check_read_config(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    /* room for the size the file has now, and more if it grows meanwhile */
    size_t cap = f != NULL && fstat(fileno(f), &st) == 0 && st.st_size >= 0 &&
                         (uintmax_t)st.st_size <= CONFIG_MAX_SIZE
                     ? (size_t)st.st_size + 1
                     : CONFIG_MAX_SIZE + 1;
    size_t room = cap + 1;
    char *text = f != NULL ? malloc(room) : NULL;
    *len = 0;
    while (text != NULL && *len <= CONFIG_MAX_SIZE) {
        *len += fread(text + *len, 1, cap - *len, f);
        if (*len < cap || cap > CONFIG_MAX_SIZE)
            break; /* the end, an error, or past the limit */
        char *grown = vector_grow(text, &room, 2 * cap + 1, 1);
        if (grown == NULL)
            break;
        text = grown;
        cap *= 2;
    }
    int error = f == NULL ? errno : text == NULL ? ENOMEM : ferror(f) ? EIO : 0;
    if (f != NULL)
        fclose(f);
    if (error == 0 && *len > CONFIG_MAX_SIZE)
        error = EFBIG;
    if (error == 0 && *len == cap) /* could not grow */
        error = ENOMEM;
    if (error != 0) {
        free(text);
        errno = error;
        return NULL;
    }
    text[*len] = '\0';
    return text;
}
