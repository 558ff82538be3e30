/* uv_wasi_fs: libuv's file system requests over WASI's calls (part of server/wasm's libuv
 * stand-in, uv.h): each runs at once, synchronously; one given a callback has it queued for the
 * loop's next turn, as libuv would call it from its thread pool. */
#include "uv.h"
#include "uv_wasi_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vector.h"

static int fs_done(uv_loop_t *loop, uv_fs_t *req, uv_fs_type type, ssize_t result, uv_fs_cb cb)
{
    req->fs_type = type;
    req->loop = loop;
    req->result = result;
    req->cb = cb;
    if (cb != NULL) {
        uv__wasi_queue(loop, (uv_req_t *)req, UV__WASI_REQ_FS, 0);
        return 0;
    }
    return (int)result;
}

static void fs_clear(uv_fs_t *req)
{
    req->names = NULL;
    req->types = NULL;
    req->count = req->next = 0;
    req->ptr = NULL;
    req->path = NULL;
}

int uv_fs_open(uv_loop_t *loop, uv_fs_t *req, const char *path, int flags, int mode, uv_fs_cb cb)
{
    fs_clear(req);
    int fd = open(path, flags == UV_FS_O_RDONLY ? O_RDONLY : flags, mode);
    return fs_done(loop, req, UV_FS_OPEN, fd < 0 ? uv__wasi_error(errno) : fd, cb);
}

int uv_fs_close(uv_loop_t *loop, uv_fs_t *req, uv_file file, uv_fs_cb cb)
{
    fs_clear(req);
    return fs_done(loop, req, UV_FS_CLOSE, close(file) != 0 ? uv__wasi_error(errno) : 0, cb);
}

/* Reads into or writes from `bufs` in turn (at `offset` onward, or at the file's position when
 * negative) until one is short: the bytes moved, or the error of the first request. */
static ssize_t transfer(uv_file file, const uv_buf_t bufs[], unsigned int nbufs, int64_t offset,
                        bool writing)
{
    ssize_t total = 0;
    for (unsigned i = 0; i < nbufs; i++) {
        off_t at = (off_t)(offset + total);
        ssize_t n = writing ? (offset < 0 ? write(file, bufs[i].base, bufs[i].len)
                                          : pwrite(file, bufs[i].base, bufs[i].len, at))
                            : (offset < 0 ? read(file, bufs[i].base, bufs[i].len)
                                          : pread(file, bufs[i].base, bufs[i].len, at));
        if (n < 0) {
            if (total == 0)
                total = uv__wasi_error(errno);
            break;
        }
        total += n;
        if ((size_t)n < bufs[i].len)
            break;
    }
    return total;
}

int uv_fs_read(uv_loop_t *loop, uv_fs_t *req, uv_file file, const uv_buf_t bufs[],
               unsigned int nbufs, int64_t offset, uv_fs_cb cb)
{
    fs_clear(req);
    return fs_done(loop, req, UV_FS_READ, transfer(file, bufs, nbufs, offset, false), cb);
}

int uv_fs_write(uv_loop_t *loop, uv_fs_t *req, uv_file file, const uv_buf_t bufs[],
                unsigned int nbufs, int64_t offset, uv_fs_cb cb)
{
    fs_clear(req);
    return fs_done(loop, req, UV_FS_WRITE, transfer(file, bufs, nbufs, offset, true), cb);
}

static uv_timespec_t timespec_of(struct timespec ts)
{
    uv_timespec_t out = {(long)ts.tv_sec, ts.tv_nsec};
    return out;
}

int uv_fs_stat(uv_loop_t *loop, uv_fs_t *req, const char *path, uv_fs_cb cb)
{
    fs_clear(req);
    memset(&req->statbuf, 0, sizeof req->statbuf);
    struct stat st;
    if (stat(path, &st) != 0)
        return fs_done(loop, req, UV_FS_STAT, uv__wasi_error(errno), cb);
    uv_stat_t *out = &req->statbuf;
    out->st_dev = (uint64_t)st.st_dev;
    out->st_ino = (uint64_t)st.st_ino;
    out->st_mode = (uint64_t)st.st_mode;
    out->st_nlink = (uint64_t)st.st_nlink;
    out->st_size = (uint64_t)st.st_size;
    out->st_atim = timespec_of(st.st_atim);
    out->st_mtim = timespec_of(st.st_mtim);
    out->st_ctim = timespec_of(st.st_ctim);
    req->ptr = out;
    return fs_done(loop, req, UV_FS_STAT, 0, cb);
}

static uv_dirent_type_t dirent_type(unsigned char type)
{
    switch (type) {
    case DT_REG: return UV_DIRENT_FILE;
    case DT_DIR: return UV_DIRENT_DIR;
    case DT_LNK: return UV_DIRENT_LINK;
    default: return UV_DIRENT_UNKNOWN;
    }
}

static int name_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads a directory's entries (without "." and ".."), sorted by name as libuv's scandir does. */
static ssize_t scandir_read(uv_fs_t *req, const char *path)
{
    DIR *dir = opendir(path);
    if (dir == NULL)
        return uv__wasi_error(errno);
    size_t cap = 0; /* of req->names */
    struct dirent *e;
    ssize_t result = 0;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (req->count == cap) {
            char **names = vector_grow(req->names, &cap, req->count + 1, sizeof *names);
            if (names == NULL) {
                result = UV_ENOMEM;
                break;
            }
            req->names = names;
        }
        /* the type rides in the name's first byte, so that sorting keeps the two together */
        size_t len = strlen(e->d_name);
        char *name = malloc(len + 2);
        if (name == NULL) {
            result = UV_ENOMEM;
            break;
        }
        name[0] = (char)dirent_type(e->d_type);
        memcpy(name + 1, e->d_name, len + 1);
        req->names[req->count++] = name;
    }
    closedir(dir);
    if (result == 0 && req->count > 0)
        qsort(req->names, req->count, sizeof *req->names, name_order);
    return result == 0 ? (ssize_t)req->count : result;
}

int uv_fs_scandir(uv_loop_t *loop, uv_fs_t *req, const char *path, int flags, uv_fs_cb cb)
{
    (void)flags;
    fs_clear(req);
    return fs_done(loop, req, UV_FS_SCANDIR, scandir_read(req, path), cb);
}

int uv_fs_scandir_next(uv_fs_t *req, uv_dirent_t *ent)
{
    if (req->result < 0)
        return (int)req->result;
    if (req->next >= req->count)
        return UV_EOF;
    const char *name = req->names[req->next++];
    ent->type = (uv_dirent_type_t)name[0];
    ent->name = name + 1;
    return 0;
}

void uv_fs_req_cleanup(uv_fs_t *req)
{
    for (size_t i = 0; i < req->count; i++)
        free(req->names[i]);
    free(req->names);
    fs_clear(req);
}
