/* report_diff: --diff, what --fix would change as a unified diff. The lines are matched by a
 * walk that, where they part, looks for the nearest pair of equal lines within a window: fixes
 * change a few lines here and there, so it finds the same script as a shortest-edit diff at a
 * cost linear in the file (a change with no resync in the window is shown as a replaced block,
 * still a correct diff). Every line is printed through excerpt_line: string values that could
 * hold a secret show as "***" after the prefix that says how they are written ("data:,***"),
 * so the diff is for reading; --fix applies it. */
#include "report_diff.h"

#include <stdlib.h>
#include <string.h>

#include "assist/assist.h"

#define DIFF_CONTEXT 3u
#define DIFF_WINDOW 64u /* lines looked ahead, on both sides together, to resync */

enum op_kind { OP_KEEP, OP_DELETE, OP_INSERT };

struct op {
    uint32_t kind;
    uint32_t i, j; /* the old and new line before this one */
};

struct side {
    const struct analysis *a;
    uint32_t lines; /* without an empty last line after the final line break */
};

static uint32_t line_start(const struct side *s, uint32_t k)
{
    return line_index_start(&s->a->lines, k);
}

static uint32_t line_end(const struct side *s, uint32_t k)
{
    return k + 1 < s->a->lines.count ? line_index_start(&s->a->lines, k + 1) : s->a->doc.len;
}

static struct side side_of(const struct analysis *a)
{
    struct side s = {.a = a, .lines = a->lines.count};
    if (s.lines > 0 && line_start(&s, s.lines - 1) == a->doc.len)
        s.lines--;
    return s;
}

static bool same_line(const struct side *a, uint32_t i, const struct side *b, uint32_t j)
{
    uint32_t la = line_end(a, i) - line_start(a, i), lb = line_end(b, j) - line_start(b, j);
    return la == lb &&
           memcmp(a->a->doc.text + line_start(a, i), b->a->doc.text + line_start(b, j), la) == 0;
}

/* Whether the sides meet again at (i, j): both at their ends, or two equal lines (or one
 * before both ends), so that a lone brace does not resync by chance. */
static bool meets(const struct side *a, uint32_t i, const struct side *b, uint32_t j)
{
    if (i == a->lines || j == b->lines)
        return i == a->lines && j == b->lines;
    if (!same_line(a, i, b, j))
        return false;
    return i + 1 == a->lines || j + 1 == b->lines || same_line(a, i + 1, b, j + 1);
}

static void push(struct op *ops, size_t *count, uint32_t kind, uint32_t i, uint32_t j)
{
    ops[(*count)++] = (struct op){.kind = kind, .i = i, .j = j};
}

/* The edit script: at most old + new operations. */
static struct op *script(const struct side *a, const struct side *b, size_t *count)
{
    struct op *ops = malloc(((size_t)a->lines + b->lines + 1) * sizeof *ops);
    if (ops == NULL)
        return NULL;
    uint32_t i = 0, j = 0;
    *count = 0;
    while (i < a->lines || j < b->lines) {
        if (i < a->lines && j < b->lines && same_line(a, i, b, j)) {
            push(ops, count, OP_KEEP, i++, j++);
            continue;
        }
        uint32_t di = 0, dj = 0;
        bool found = false;
        for (uint32_t k = 1; k <= DIFF_WINDOW && !found; k++) {
            for (uint32_t d = 0; d <= k && !found; d++) {
                if (i + d <= a->lines && j + (k - d) <= b->lines &&
                    meets(a, i + d, b, j + (k - d))) {
                    di = d;
                    dj = k - d;
                    found = true;
                }
            }
        }
        if (!found) { /* no resync near: this block is replaced */
            di = a->lines - i < DIFF_WINDOW ? a->lines - i : DIFF_WINDOW;
            dj = b->lines - j < DIFF_WINDOW ? b->lines - j : DIFF_WINDOW;
        }
        for (uint32_t d = 0; d < di; d++)
            push(ops, count, OP_DELETE, i++, j);
        for (uint32_t d = 0; d < dj; d++)
            push(ops, count, OP_INSERT, i, j++);
    }
    return ops;
}

/* Prints line `k` of `s` after `mark`, masked, with the "\ No newline" note diff(1) writes. */
static void print_line(FILE *out, char mark, const struct side *s, uint32_t k, struct arena *arena)
{
    uint32_t from = line_start(s, k), to = line_end(s, k);
    const char *text = s->a->doc.text;
    bool newline = to > from && (text[to - 1] == '\n' || text[to - 1] == '\r');
    while (to > from && (text[to - 1] == '\n' || text[to - 1] == '\r'))
        to--;
    const char *shown = excerpt_line(s->a, from, to, arena);
    fprintf(out, "%c%s\n%s", mark, shown != NULL ? shown : "(out of memory)",
            newline ? "" : "\\ No newline at end of file\n");
    arena_free(arena);
}

/* The hunk that holds the change at ops[k]: from up to DIFF_CONTEXT kept lines before it to as
 * many after its last change, changes closer than twice the context joined. Returns its end. */
static size_t print_hunk(FILE *out, const struct op *ops, size_t count, size_t k, size_t floor,
                         const struct side *a, const struct side *b, struct arena *arena)
{
    size_t begin = k;
    while (begin > floor && k - begin < DIFF_CONTEXT)
        begin--;
    size_t end = k, q = k;
    while (q < count) {
        if (ops[q].kind != OP_KEEP) {
            end = ++q;
            continue;
        }
        size_t run = 0;
        while (q + run < count && ops[q + run].kind == OP_KEEP)
            run++;
        if (q + run == count || run > 2 * DIFF_CONTEXT)
            break;
        q += run;
    }
    size_t stop = end;
    while (stop < count && stop - end < DIFF_CONTEXT && ops[stop].kind == OP_KEEP)
        stop++;
    uint32_t old_count = 0, new_count = 0;
    for (size_t x = begin; x < stop; x++) {
        old_count += ops[x].kind != OP_INSERT;
        new_count += ops[x].kind != OP_DELETE;
    }
    fprintf(out, "@@ -%u,%u +%u,%u @@\n", ops[begin].i + (old_count > 0), old_count,
            ops[begin].j + (new_count > 0), new_count);
    for (size_t x = begin; x < stop; x++) {
        if (ops[x].kind == OP_INSERT)
            print_line(out, '+', b, ops[x].j, arena);
        else
            print_line(out, ops[x].kind == OP_KEEP ? ' ' : '-', a, ops[x].i, arena);
    }
    return stop;
}

int report_diff(FILE *out, const char *path, const struct analysis *old, const struct analysis *new)
{
    struct side a = side_of(old), b = side_of(new);
    size_t count = 0;
    struct op *ops = script(&a, &b, &count);
    if (ops == NULL)
        return -1;
    bool header = false;
    struct arena arena;
    arena_init(&arena);
    for (size_t k = 0, floor = 0; k < count;) {
        if (ops[k].kind == OP_KEEP) {
            k++;
            continue;
        }
        if (!header)
            fprintf(out, "--- %s\n+++ %s\n", path, path);
        header = true;
        k = floor = print_hunk(out, ops, count, k, floor, &a, &b, &arena);
    }
    arena_free(&arena);
    free(ops);
    return header ? 1 : 0;
}
