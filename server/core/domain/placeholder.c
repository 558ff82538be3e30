/* placeholder: the pattern language of templated values, finding placeholders in a string's
 * text, and rendering a template with the variables' values. */
#include "placeholder.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* The most distinct variable names placeholder_names collects from one text. */
#define PLACEHOLDER_NAMES_MAX 1000

static bool name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '.';
}

bool placeholder_name_valid(const char *name, size_t len)
{
    if (len == 0 || !name_start(name[0]))
        return false;
    for (size_t i = 1; i < len; i++) {
        if (!name_char(name[i]))
            return false;
    }
    return true;
}

const char *placeholder_pattern_parse(const char *text, size_t len, struct placeholder_pattern *out)
{
    if (len > PLACEHOLDER_PATTERN_MAX)
        return "a placeholder pattern is at most 64 bytes";
    const char *name = NULL;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == '"' || c == '\\')
            return "a placeholder pattern holds no quote, backslash or control character";
        if (i + 4 <= len && memcmp(text + i, PLACEHOLDER_NAME, 4) == 0) {
            if (name != NULL)
                return "a placeholder pattern holds NAME once";
            name = text + i;
        }
    }
    if (name == NULL)
        return "a placeholder pattern holds NAME where the variable's name goes "
               "(\"${NAME}\", \"{{ NAME }}\")";
    bool literal = false;
    for (const char *p = text; p < name; p++)
        literal |= *p != ' ';
    if (!literal)
        return "a placeholder pattern starts with text other than spaces before NAME";
    *out = (struct placeholder_pattern){text, text, name + 4, (uint32_t)(name - text),
                                        (uint32_t)(text + len - (name + 4))};
    return NULL;
}

/* Whether `literal` is at text[at...]: a run of spaces in it matches any run of spaces and
 * tabs, none included. Sets *used to the bytes of `text` it took. */
static bool literal_at(const char *literal, uint32_t literal_len, const char *text, size_t len,
                       size_t at, size_t *used)
{
    size_t t = at;
    for (uint32_t i = 0; i < literal_len;) {
        if (literal[i] == ' ') {
            while (i < literal_len && literal[i] == ' ')
                i++;
            while (t < len && (text[t] == ' ' || text[t] == '\t'))
                t++;
            continue;
        }
        if (t >= len || text[t] != literal[i])
            return false;
        t++;
        i++;
    }
    *used = t - at;
    return true;
}

static bool match_at(const struct placeholder_pattern *p, const char *text, size_t len, size_t at,
                     struct placeholder_match *m)
{
    size_t used;
    if (!literal_at(p->prefix, p->prefix_len, text, len, at, &used))
        return false;
    size_t name = at + used, n = name;
    if (n >= len || !name_start(text[n]))
        return false;
    while (n < len && name_char(text[n]))
        n++;
    if (!literal_at(p->suffix, p->suffix_len, text, len, n, &used))
        return false;
    *m =
        (struct placeholder_match){(uint32_t)at, (uint32_t)(n + used), (uint32_t)name, (uint32_t)n};
    return true;
}

bool placeholder_find(const struct placeholder_pattern *patterns, uint32_t count, const char *text,
                      size_t len, size_t from, struct placeholder_match *m)
{
    /* each pattern from the next byte its prefix can start with (memchr: most strings hold
     * none), the earliest match winning */
    bool found = false;
    for (uint32_t i = 0; i < count; i++) {
        char first = patterns[i].prefix[0];
        size_t limit = found ? m->start : len;
        for (size_t at = from; at < limit; at++) {
            if (first != ' ') {
                const char *next = memchr(text + at, first, limit - at);
                if (next == NULL)
                    break;
                at = (size_t)(next - text);
            }
            struct placeholder_match here;
            if (match_at(&patterns[i], text, len, at, &here)) {
                *m = here;
                found = true;
                break;
            }
        }
    }
    return found;
}

bool placeholder_open_before(const struct placeholder_pattern *patterns, uint32_t count,
                             const char *text, size_t from, size_t at, size_t *start)
{
    size_t name = at;
    while (name > from && name_char(text[name - 1]))
        name--;
    for (size_t q = name; q-- > from && name - q <= PLACEHOLDER_PATTERN_MAX;) {
        for (uint32_t i = 0; i < count; i++) {
            size_t used;
            if (literal_at(patterns[i].prefix, patterns[i].prefix_len, text, at, q, &used) &&
                q + used == name) {
                *start = q;
                return true;
            }
        }
    }
    return false;
}

/* The text of the string `node` between its quotes, as document offsets. */
static bool string_body(const struct json_doc *doc, uint32_t node, uint32_t *start, uint32_t *end)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_STRING || n->end < n->start + 1)
        return false;
    *start = n->start + 1;
    *end = (n->flags & JSON_FLAG_UNTERMINATED) || n->end < n->start + 2 ? n->end : n->end - 1;
    return true;
}

bool placeholder_in_string(const struct placeholder_pattern *patterns, uint32_t count,
                           const struct json_doc *doc, uint32_t node, uint32_t from,
                           struct placeholder_match *m)
{
    uint32_t start, end;
    if (count == 0 || !string_body(doc, node, &start, &end) || from > end)
        return false;
    if (!placeholder_find(patterns, count, doc->text + start, end - start,
                          from > start ? from - start : 0, m))
        return false;
    m->start += start;
    m->end += start;
    m->name_start += start;
    m->name_end += start;
    return true;
}

bool placeholder_is_whole(const struct placeholder_pattern *patterns, uint32_t count,
                          const struct json_doc *doc, uint32_t node)
{
    uint32_t start, end;
    struct placeholder_match m;
    if (!string_body(doc, node, &start, &end))
        return false;
    for (uint32_t i = 0; i < count; i++) {
        if (match_at(&patterns[i], doc->text + start, end - start, 0, &m) && m.end == end - start)
            return true;
    }
    return false;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int placeholder_names(const struct placeholder_pattern *patterns, uint32_t count, const char *text,
                      size_t len, struct arena *arena, const char ***names, uint32_t *name_count,
                      size_t *name_cap)
{
    struct placeholder_match m;
    for (size_t at = 0; *name_count < PLACEHOLDER_NAMES_MAX &&
                        placeholder_find(patterns, count, text, len, at, &m);
         at = m.end) {
        size_t n = m.name_end - m.name_start;
        bool known = false;
        for (uint32_t i = 0; i < *name_count && !known; i++)
            known = strlen((*names)[i]) == n && memcmp((*names)[i], text + m.name_start, n) == 0;
        if (known)
            continue;
        const char **grown = vector_grow(*names, name_cap, *name_count + 1, sizeof **names);
        if (grown == NULL)
            return -1;
        *names = grown; /* before anything else can fail: the old array may be freed */
        char *copy = arena_strndup(arena, text + m.name_start, n);
        if (copy == NULL)
            return -1;
        (*names)[(*name_count)++] = copy;
    }
    placeholder_names_sort(*names, *name_count);
    return 0;
}

void placeholder_names_sort(const char **names, uint32_t count)
{
    if (count > 1)
        qsort(names, count, sizeof *names, compare_names);
}

/* Appends `len` bytes to the rendered text: 0, or -1 when memory ran out. */
static int put(struct placeholder_render *r, const char *bytes, size_t len)
{
    json_write_bytes(&r->text, bytes, len);
    return r->text.failed ? -1 : 0;
}

/* Appends a variable's value as a renderer's plain substitution inside a JSON string makes it:
 * escaped, and any byte that is not UTF-8 kept, so that the rendering's parse reports it. */
static int put_escaped(struct placeholder_render *r, const char *value, size_t len)
{
    json_write_escaped(&r->text, value, len, false);
    return r->text.failed ? -1 : 0;
}

static const struct placeholder_variable *lookup(const struct placeholder_variable *variables,
                                                 size_t count, const char *name, size_t len)
{
    size_t low = 0, high = count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        size_t n = variables[mid].name_len;
        int c = memcmp(variables[mid].name, name, n < len ? n : len);
        if (c == 0)
            c = n < len ? -1 : n > len;
        if (c == 0)
            return &variables[mid];
        if (c < 0)
            low = mid + 1;
        else
            high = mid;
    }
    return NULL;
}

/* One placeholder at template bytes m: its value, or recorded as missing. `*copied` is where
 * the template has been copied up to. */
static int substitute(struct placeholder_render *r, const struct json_doc *doc,
                      const struct placeholder_match *m,
                      const struct placeholder_variable *variables, size_t variable_count,
                      uint32_t *copied)
{
    const struct placeholder_variable *v =
        lookup(variables, variable_count, doc->text + m->name_start, m->name_end - m->name_start);
    if (v == NULL) {
        struct placeholder_match *grown =
            vector_grow(r->missing, &r->missing_cap, r->missing_count + 1, sizeof *r->missing);
        if (grown == NULL)
            return -1;
        r->missing = grown;
        r->missing[r->missing_count++] = *m;
        return 0;
    }
    struct placeholder_segment *segments =
        vector_grow(r->segments, &r->segment_cap, r->segment_count + 1, sizeof *r->segments);
    if (segments == NULL)
        return -1;
    r->segments = segments; /* before anything else can fail: the old array may be freed */
    if (put(r, doc->text + *copied, m->start - *copied) != 0)
        return -1;
    uint32_t rendered_start = (uint32_t)r->text.len;
    if (put_escaped(r, v->value, v->value_len) != 0)
        return -1;
    r->segments[r->segment_count++] =
        (struct placeholder_segment){m->start, m->end, rendered_start, (uint32_t)r->text.len};
    *copied = m->end;
    return 0;
}

int placeholder_render(const struct placeholder_pattern *patterns, uint32_t count,
                       const struct json_doc *doc, const struct placeholder_variable *variables,
                       size_t variable_count, struct placeholder_render *out)
{
    memset(out, 0, sizeof *out);
    uint32_t copied = 0;
    for (uint32_t node = 0; node < doc->node_count; node++) {
        struct placeholder_match m;
        for (uint32_t from = 0; placeholder_in_string(patterns, count, doc, node, from, &m);
             from = m.end) {
            if (substitute(out, doc, &m, variables, variable_count, &copied) != 0)
                goto fail;
        }
    }
    if (put(out, doc->text + copied, doc->len - copied) == 0)
        return 0;
fail:
    placeholder_render_free(out);
    return -1;
}

void placeholder_render_free(struct placeholder_render *render)
{
    json_writer_free(&render->text);
    free(render->segments);
    free(render->missing);
    memset(render, 0, sizeof *render);
}

uint32_t placeholder_render_map(const struct placeholder_render *render, uint32_t offset, bool end)
{
    /* the last segment that starts at or before `offset` (for an end: before it) */
    uint32_t low = 0, high = render->segment_count;
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        uint32_t s = render->segments[mid].rendered_start;
        if (end ? s < offset : s <= offset)
            low = mid + 1;
        else
            high = mid;
    }
    if (low == 0)
        return offset;
    const struct placeholder_segment *s = &render->segments[low - 1];
    if (end ? offset <= s->rendered_end : offset < s->rendered_end)
        return end ? s->end : s->start;
    return offset - s->rendered_end + s->end;
}
