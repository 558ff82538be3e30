/* cli_harness: the scratch directory and the runner shared by the command-line tests
 * (test_check_cli.c, test_cli_files.c). */
#define _DEFAULT_SOURCE /* setgroups */

#include "cli_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 16
#define DEFAULT_TIMEOUT 60
#define NOBODY_CANNOT_RUN 125 /* the scratch directory or the binary is out of nobody's reach */

static char workdir[4096]; /* the scratch directory: every test's files, srcls's cwd */
static char origin[4096];  /* the current directory before it */

int scratch_create(const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(workdir, sizeof workdir, "%s/srcls-test-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    if (getcwd(origin, sizeof origin) == NULL || mkdtemp(workdir) == NULL)
        return -1;
    return chdir(workdir);
}

void scratch_remove(void)
{
    if (chdir(origin) != 0 && chdir("/") != 0)
        return;
    remove_tree(workdir);
}

const char *scratch_dir(void)
{
    return workdir;
}

int scratch_git(const char *dir, const char *args)
{
    char command[4096];
    snprintf(command, sizeof command,
             "cd '%s/%s' && git -c user.name=srcls -c user.email=srcls@example.invalid "
             "-c init.defaultBranch=main %s >/dev/null 2>&1",
             scratch_dir(), dir, args);
    return system(command);
}

int scratch_git_base(const char *dir)
{
    int status = scratch_git(dir, "init -q");
    if (status == 0)
        status = scratch_git(dir, "add -A");
    return status == 0 ? scratch_git(dir, "commit -q -m base") : status;
}

void write_file(const char *relative, const char *content)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", workdir, relative);
    for (char *slash = strchr(path + strlen(workdir) + 1, '/'); slash != NULL;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            fail_msg("mkdir %s: %s", path, strerror(errno));
        *slash = '/';
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    fputs(content, f);
    fclose(f);
}

char *read_all(const char *path)
{
    size_t len;
    return read_all_len(path, &len);
}

char *read_all_len(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (grown == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    fclose(f);
    if (buf != NULL)
        buf[len] = '\0';
    *length = len;
    return buf;
}

char *example(const char *name)
{
    const char *root = getenv("SRCLS_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/examples/%s", root ? root : ".", name);
    char *text = read_all(path);
    if (text == NULL)
        fail_msg("cannot read %s (is SRCLS_SOURCE_ROOT set?)", path);
    return text;
}

void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0700); /* a test may have left it read-only */
        DIR *dir = opendir(path);
        struct dirent *entry;
        while (dir != NULL && (entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            char child[8192];
            snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
            remove_tree(child);
        }
        if (dir != NULL)
            closedir(dir);
        rmdir(path);
    } else {
        unlink(path);
    }
}

void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* In the child: standard streams, the scratch directory, the user, the alarm; then srcls. */
static void exec_srcls(const char *binary, char **argv, const char *in_path, const char *out_path,
                       const char *err_path, const struct run_options *options)
{
    int in = open(in_path, O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(126);
    bool switch_user = options->as_nobody && geteuid() == 0;
    if (switch_user &&
        (setgroups(0, NULL) != 0 || setgid(NOBODY_ID) != 0 || setuid(NOBODY_ID) != 0))
        _exit(126);
    if (chdir(workdir) != 0 || (options->subdir != NULL && chdir(options->subdir) != 0))
        _exit(switch_user ? NOBODY_CANNOT_RUN : 126);
    alarm(options->timeout ? options->timeout : DEFAULT_TIMEOUT); /* kept across execv */
    execv(binary, argv);
    _exit(switch_user ? NOBODY_CANNOT_RUN : 127);
}

struct run run_srcls_with(const struct run_options *options, const char *const *args)
{
    const char *binary = getenv("SRCLS_BINARY");
    if (binary == NULL)
        fail_msg("SRCLS_BINARY is not set: run the tests through meson test");
    char in_path[8192], out_path[8192], err_path[8192];
    snprintf(in_path, sizeof in_path, "%s/.stdin", workdir);
    snprintf(out_path, sizeof out_path, "%s/.stdout", workdir);
    snprintf(err_path, sizeof err_path, "%s/.stderr", workdir);
    if (options->stdout_path != NULL)
        snprintf(out_path, sizeof out_path, "%s", options->stdout_path);
    if (options->stdin_path != NULL)
        snprintf(in_path, sizeof in_path, "%s", options->stdin_path);
    else
        write_file(".stdin", options->input ? options->input : "");
    if (options->as_nobody && geteuid() == 0)
        chmod(workdir, 0755); /* so that user nobody can work in it */

    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)binary;
    for (; args[argc - 1] != NULL; argc++) {
        assert_true(argc <= MAX_ARGS);
        argv[argc] = (char *)args[argc - 1];
    }
    argv[argc] = NULL;

    fflush(stdout);
    fflush(stderr);
    double started = now_seconds();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        exec_srcls(binary, argv, in_path, out_path, err_path, options);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            fail_msg("waitpid: %s", strerror(errno));
    }
    struct run r = {
        .exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1,
        .out = options->stdout_path != NULL ? strdup("") : read_all(out_path),
        .err = read_all(err_path),
        .seconds = now_seconds() - started,
    };
    assert_non_null(r.out);
    assert_non_null(r.err);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        fail_msg("srcls did not finish in %u s; stderr:\n%s",
                 options->timeout ? options->timeout : DEFAULT_TIMEOUT, r.err);
    if (r.exit_status == -1)
        fail_msg("srcls was killed by signal %d; stderr:\n%s", WTERMSIG(status), r.err);
    if (r.exit_status == NOBODY_CANNOT_RUN && options->as_nobody && geteuid() == 0) {
        run_free(&r);
        print_message("user nobody cannot reach %s or %s: skipped\n", workdir, binary);
        harness_skipped++;
        skip();
    }
    if (r.exit_status == 126 || r.exit_status == 127)
        fail_msg("cannot run %s", binary);
    return r;
}

struct run run_srcls(const char *input, const char *const *args)
{
    struct run_options options = {.input = input};
    return run_srcls_with(&options, args);
}

unsigned occurrences(const char *haystack, const char *needle)
{
    unsigned n = 0;
    for (const char *at = haystack; (at = strstr(at, needle)) != NULL; at += strlen(needle))
        n++;
    return n;
}

bool has_line(const char *output, const char *line)
{
    size_t len = strlen(line);
    for (const char *at = strstr(output, line); at != NULL; at = strstr(at + 1, line)) {
        if ((at == output || at[-1] == '\n') && at[len] == '\n')
            return true;
    }
    return false;
}

void assert_line(const struct run *r, const char *line)
{
    if (!has_line(r->out, line))
        fail_msg("no line\n  %s\nin the output:\n%s", line, r->out);
}

void assert_exit(const struct run *r, int expected)
{
    if (r->exit_status != expected)
        fail_msg("exit status %d, expected %d; stdout:\n%s\nstderr:\n%s", r->exit_status, expected,
                 r->out, r->err);
}

void assert_has(const struct run *r, const char *part)
{
    if (strstr(r->out, part) == NULL)
        fail_msg("\"%s\" not in the output:\n%s", part, r->out);
}

void assert_lacks(const struct run *r, const char *part)
{
    if (strstr(r->out, part) != NULL || strstr(r->err, part) != NULL)
        fail_msg("\"%s\" unexpectedly in the output:\n%s%s", part, r->out, r->err);
}

unsigned harness_skipped;

int harness_status(int failed)
{
    if (failed != 0)
        return failed;
    if (harness_skipped > 0) {
        fprintf(stderr, "%u test(s) skipped a part they cannot run here: SKIP\n", harness_skipped);
        return 77;
    }
    return 0;
}

size_t encode_wide(const char *ascii, size_t unit, bool big_endian, bool bom, char *out)
{
    size_t n = 0, count = strlen(ascii);
    for (size_t i = bom ? 0 : 1; i <= count; i++) {
        uint32_t code = i == 0 ? 0xFEFFu : (unsigned char)ascii[i - 1];
        for (size_t b = 0; b < unit; b++) {
            size_t significance = big_endian ? unit - 1 - b : b;
            out[n++] = (char)((code >> (8 * significance)) & 0xFF);
        }
    }
    return n;
}
