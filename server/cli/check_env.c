/* check_env: dotenv files read, and documents checked as rendered with their variables. */
#include "check_env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_read.h"
#include "domain/domain.h"
#include "json/json.h"
#include "base/base.h"

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* A double-quoted value from `p` (after its quote) decoded in place; its end in *end (the byte
 * after the closing quote). NULL when it has no closing quote on the line. */
static char *double_quoted(char *p, char *line_end, size_t *len, char **end)
{
    char *out = p;
    for (char *q = p; q < line_end; q++) {
        if (*q == '"') {
            *len = (size_t)(out - p);
            *end = q + 1;
            return p;
        }
        if (*q == '\\' && q + 1 < line_end) {
            char e = *++q;
            *out++ = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
            if (strchr("ntr\"\\$", e) == NULL) /* another backslash stays as written */
                out[-1] = '\\', *out++ = e;
            continue;
        }
        *out++ = *q;
    }
    return NULL;
}

/* One line [p, end) that is neither blank nor a comment: its variable appended. NULL, or what is
 * wrong with it (never quoting it: it may hold a secret). */
static const char *parse_line(struct check_env *env, char *p, char *end)
{
    while (p < end && blank(*p))
        p++;
    if (end - p > 7 && memcmp(p, "export", 6) == 0 && blank(p[6]))
        for (p += 6; p < end && blank(*p);)
            p++;
    char *name = p;
    while (p < end && *p != '=' && !blank(*p))
        p++;
    size_t name_len = (size_t)(p - name);
    while (p < end && blank(*p))
        p++;
    if (p == end || *p != '=' || !placeholder_name_valid(name, name_len))
        return "expected KEY=VALUE (KEY: letters, digits, _ and ., not starting with a digit)";
    for (p++; p < end && blank(*p);)
        p++;
    char *value = p, *after = end;
    size_t len;
    if (p < end && (*p == '"' || *p == '\'')) {
        char *close = *p == '\'' ? memchr(p + 1, '\'', (size_t)(end - p - 1)) : NULL;
        value = *p == '"' ? double_quoted(p + 1, end, &len, &after) : close ? p + 1 : NULL;
        if (value == NULL)
            return "the quoted value has no closing quote on its line (a value is one line)";
        if (*p == '\'')
            len = (size_t)(close - value), after = close + 1;
        while (after < end && blank(*after))
            after++;
        if (after < end && *after != '#')
            return "text after the closing quote (a comment starts with #)";
    } else {
        char *stop = value;
        while (stop < end && !(*stop == '#' && (stop == value || blank(stop[-1]))))
            stop++;
        while (stop > value && blank(stop[-1]))
            stop--;
        len = (size_t)(stop - value);
    }
    struct placeholder_variable *grown =
        vector_grow(env->variables, &env->cap, env->count + 1, sizeof *env->variables);
    if (grown == NULL)
        return "out of memory";
    env->variables = grown;
    env->variables[env->count++] = (struct placeholder_variable){name, value, name_len, len};
    return NULL;
}

/* Reads the whole file at `path` (at most CHECK_MAX_INPUT_SIZE bytes), NUL-terminated. */
static char *read_path(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return NULL;
    char *text = read_descriptor(fd, 0, len);
    int saved = errno;
    close(fd);
    errno = saved;
    size_t room = *len; /* at least: read_descriptor's buffer may be larger */
    char *terminated = text != NULL ? vector_grow(text, &room, *len + 1, 1) : NULL;
    if (terminated == NULL)
        free(text);
    else
        terminated[*len] = '\0';
    return terminated;
}

int check_env_read(struct check_env *env, const char *path)
{
    size_t len = 0;
    char *text = read_path(path, &len);
    char **texts = text != NULL ? vector_grow(env->texts, &env->text_cap, env->text_count + 1,
                                              sizeof *env->texts)
                                : NULL;
    if (texts == NULL) {
        fprintf(stderr, "srcls: --env %s: cannot read: %s\n", path,
                text == NULL ? check_strerror(errno) : "out of memory");
        free(text);
        return -1;
    }
    env->texts = texts;
    env->texts[env->text_count++] = text;
    size_t before = env->count;
    unsigned number = 1;
    for (char *line = text; line < text + len; number++) {
        char *end = memchr(line, '\n', (size_t)(text + len - line));
        char *next = end != NULL ? end + 1 : text + len;
        end = end != NULL ? end : text + len;
        if (end > line && end[-1] == '\r')
            end--;
        char *first = line;
        while (first < end && blank(*first))
            first++;
        const char *wrong = memchr(line, '\0', (size_t)(end - line)) != NULL
                                ? "a NUL byte (a dotenv file is text)"
                            : first == end || *first == '#' ? NULL
                                                            : parse_line(env, line, end);
        if (wrong != NULL) {
            fprintf(stderr, "srcls: --env %s:%u: %s\n", path, number, wrong);
            return -1;
        }
        line = next;
    }
    if (env->count > before)
        return 0;
    fprintf(stderr, "srcls: --env %s: %s\n", path,
            len == 0 ? "the file is empty: it sets no variable"
                     : "the file sets no variable (only blank lines and comments)");
    return -1;
}

static int compare_variables(const void *a, const void *b)
{
    const struct placeholder_variable *x = a, *y = b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    if (c != 0 || x->name_len == y->name_len)
        return c != 0 ? c : (x < y ? -1 : x > y); /* equal names: in the order read */
    return x->name_len < y->name_len ? -1 : 1;
}

void check_env_finish(struct check_env *env)
{
    if (env->count < 2)
        return;
    qsort(env->variables, env->count, sizeof *env->variables, compare_variables);
    size_t kept = 0;
    for (size_t i = 0; i < env->count; i++) {
        const struct placeholder_variable *v = &env->variables[i], *next = v + 1;
        if (i + 1 < env->count && next->name_len == v->name_len &&
            memcmp(next->name, v->name, v->name_len) == 0)
            continue; /* a later one of the same name wins */
        env->variables[kept++] = *v;
    }
    env->count = kept;
}

void check_env_free(struct check_env *env)
{
    for (size_t i = 0; i < env->text_count; i++)
        free(env->texts[i]);
    free(env->texts);
    free(env->variables);
    memset(env, 0, sizeof *env);
}

/* The diagnostics of `rendered` placed on the template `analysis`, strings copied into its
 * arena, with no fix (a fix of the rendered text is not one of the template). */
static int place_rendered(struct analysis *analysis, const struct analysis *rendered,
                          const struct placeholder_render *render, struct diag_list *out)
{
    for (uint32_t i = 0; i < rendered->diags.count; i++) {
        struct diagnostic d = rendered->diags.items[i];
        d.start = placeholder_render_map(render, d.start, false);
        d.end = placeholder_render_map(render, d.end, true);
        if (d.related_start != UINT32_MAX) {
            d.related_start = placeholder_render_map(render, d.related_start, false);
            d.related_end = placeholder_render_map(render, d.related_end, true);
        }
        d.message = arena_strndup(&analysis->arena, d.message, strlen(d.message));
        d.pointer = arena_strndup(&analysis->arena, d.pointer, strlen(d.pointer));
        if (d.related_message != NULL)
            d.related_message =
                arena_strndup(&analysis->arena, d.related_message, strlen(d.related_message));
        d.node = JSON_NONE;
        d.field = NULL;
        d.suggestion = NULL;
        if (d.message == NULL || d.pointer == NULL || diag_list_add(out, &d) != 0)
            return -1;
    }
    return 0;
}

/* An unset-variable finding on each placeholder whose variable no file gives. */
static int place_unset(struct analysis *analysis, const struct placeholder_render *render,
                       struct diag_list *out)
{
    enum diag_severity severity = settings_severity(analysis->settings, CODE_UNSET_VARIABLE,
                                                    code_info(CODE_UNSET_VARIABLE)->severity);
    for (uint32_t i = 0; severity != DIAG_OFF && i < render->missing_count; i++) {
        const struct placeholder_match *m = &render->missing[i];
        struct json_location at = json_locate(&analysis->doc, m->start);
        struct diagnostic d = {
            .code = CODE_UNSET_VARIABLE,
            .severity = severity,
            .start = m->start,
            .end = m->end,
            .related_start = UINT32_MAX,
            .related_end = UINT32_MAX,
            .message = arena_printf(&analysis->arena,
                                    "the variable \"%.*s\" is set in none of the --env files: "
                                    "the rendered document would keep this placeholder",
                                    (int)(m->name_end - m->name_start),
                                    analysis->doc.text + m->name_start),
            .pointer = json_pointer_of(&analysis->doc, at.node, &analysis->arena),
            .node = JSON_NONE,
        };
        if (d.message == NULL || d.pointer == NULL || diag_list_add(out, &d) != 0)
            return -1;
    }
    return 0;
}

void check_env_untemplated(const struct settings *settings, const char *path, bool *said)
{
    if (*said || (settings != NULL && settings->placeholder_count > 0))
        return;
    fprintf(stderr,
            "srcls: --env: the srcls.json of %s names no \"" SETTINGS_KEY_PLACEHOLDERS "\", so "
            "nothing in it is templated: it is checked as written\n",
            path);
    *said = true;
}

int check_env_apply(const struct check_env *env, struct analysis *analysis,
                    const struct analysis_options *options)
{
    const struct settings *s = options->settings;
    /* a template with syntax errors is checked as written: its structure is not sure */
    if (s == NULL || s->placeholder_count == 0 || analysis->doc.error_count > 0)
        return 0;
    struct placeholder_render render;
    if (placeholder_render(s->placeholders, s->placeholder_count, &analysis->doc, env->variables,
                           env->count, &render) != 0)
        goto fail;
    if (render.segment_count == 0 && render.missing_count == 0) {
        placeholder_render_free(&render);
        return 0;
    }
    struct analysis rendered;
    struct diag_list diags = {0};
    struct analysis_options unquoted = *options;
    unquoted.values_unquoted = true; /* the rendering holds the files' values */
    int status = analysis_run(&rendered, render.text.buf, render.text.len, &unquoted);
    if (status == 0) {
        status = place_rendered(analysis, &rendered, &render, &diags) != 0 ||
                         place_unset(analysis, &render, &diags) != 0
                     ? -1
                     : 0;
        analysis_free(&rendered);
    }
    placeholder_render_free(&render);
    if (status != 0) {
        diag_list_free(&diags);
        goto fail;
    }
    diag_list_free(&analysis->diags);
    analysis->diags = diags;
    diag_list_sort(&analysis->diags);
    return 0;
fail:
    analysis_free(analysis);
    return -1;
}
