/* placeholder: templated values — the syntaxes a team's renderer fills in (srcls.json
 * "placeholders": "${NAME}", "{{ NAME }}", ...), found in the text of string values, and a
 * document rendered with the variables' values (`srcls --check --env`), each substitution
 * recorded so that what is found in the rendered text is placed back on the template.
 *
 * The pattern language: NAME stands for the variable, [A-Za-z_][A-Za-z0-9_.]*; the text around
 * it is literal, except that a run of spaces matches any run of spaces and tabs, none included
 * ("{{ NAME }}" matches "{{DB}}" and "{{  DB }}"). A pattern holds NAME once, some text other
 * than spaces before it, no quote, backslash or control character, and is at most
 * PLACEHOLDER_PATTERN_MAX bytes. Patterns are matched on a string's text as written, between its
 * quotes. */
#ifndef SRCLS_PLACEHOLDER_H
#define SRCLS_PLACEHOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "json/json.h"

#define PLACEHOLDER_NAME "NAME"
#define PLACEHOLDER_PATTERN_MAX 64
#define PLACEHOLDER_PATTERNS_MAX 16

struct placeholder_pattern {
    const char *text; /* as written */
    const char *prefix, *suffix;
    uint32_t prefix_len, suffix_len;
};

/* One placeholder in a text: bytes [start, end), its variable's name at [name_start, name_end). */
struct placeholder_match {
    uint32_t start, end, name_start, name_end;
};

/* Reads `text` as a pattern into `out` (pointing into `text`). NULL, or what is wrong. */
const char *placeholder_pattern_parse(const char *text, size_t len,
                                      struct placeholder_pattern *out);

/* Whether a variable name is [A-Za-z_][A-Za-z0-9_.]*. */
bool placeholder_name_valid(const char *name, size_t len);

/* The first placeholder of any of `patterns` in `text` from byte `from` on, in `m` (offsets in
 * `text`). */
bool placeholder_find(const struct placeholder_pattern *patterns, uint32_t count, const char *text,
                      size_t len, size_t from, struct placeholder_match *m);

/* Whether a placeholder is being typed before byte `at` of `text` (`from` the first byte to look
 * at): a pattern's prefix, then only name characters up to `at`; its start in *start. */
bool placeholder_open_before(const struct placeholder_pattern *patterns, uint32_t count,
                             const char *text, size_t from, size_t at, size_t *start);

/* The first placeholder in the string value `node` of `doc` from document offset `from` on
 * (offsets in the document). False for anything but a string. */
bool placeholder_in_string(const struct placeholder_pattern *patterns, uint32_t count,
                           const struct json_doc *doc, uint32_t node, uint32_t from,
                           struct placeholder_match *m);
/* Whether the string value `node` is one placeholder and nothing else. */
bool placeholder_is_whole(const struct placeholder_pattern *patterns, uint32_t count,
                          const struct json_doc *doc, uint32_t node);

/* The distinct variable names of the placeholders in `text`, sorted, appended to `names` (in
 * `arena`; *count names, *names grown with vector_grow up to the caller's free). -1 when memory
 * ran out. */
int placeholder_names(const struct placeholder_pattern *patterns, uint32_t count, const char *text,
                      size_t len, struct arena *arena, const char ***names, uint32_t *name_count,
                      size_t *name_cap);

/* Sorts variable names (strcmp order). */
void placeholder_names_sort(const char **names, uint32_t count);

/* A variable's value, for rendering. */
struct placeholder_variable {
    const char *name, *value;
    size_t name_len, value_len;
};

/* One substitution: the template's bytes [start, end) are the rendered text's
 * [rendered_start, rendered_end). */
struct placeholder_segment {
    uint32_t start, end, rendered_start, rendered_end;
};

/* A template rendered: its text (`text.buf`, NUL-terminated, `text.len` bytes), the
 * substitutions in order, and the placeholders whose variable was not given (left as they were). */
struct placeholder_render {
    struct json_writer text;
    struct placeholder_segment *segments;
    uint32_t segment_count;
    size_t segment_cap;
    struct placeholder_match *missing;
    uint32_t missing_count;
    size_t missing_cap;
};

/* Renders `doc`: every placeholder in a string value whose variable `variables` (sorted by name,
 * strcmp order) gives is replaced by its value, escaped for a JSON string. 0, or -1 when memory
 * ran out. Free with placeholder_render_free. */
int placeholder_render(const struct placeholder_pattern *patterns, uint32_t count,
                       const struct json_doc *doc, const struct placeholder_variable *variables,
                       size_t variable_count, struct placeholder_render *out);
void placeholder_render_free(struct placeholder_render *render);
/* The template's offset for the rendered text's `offset`: inside a substitution, its start (or,
 * for an `end` of a range, its end). */
uint32_t placeholder_render_map(const struct placeholder_render *render, uint32_t offset, bool end);

#endif
