/* line_index: line starts found in one pass; columns counted within one line on demand, from
 * the nearest checkpoint when the line is long. */
#include "line_index.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "base/base.h"

/* A checkpoint every BLOCK bytes: conversions inside a line scan at most about two blocks. */
#define BLOCK 512u
#define NO_MARK UINT32_MAX

/* The first character start at or after a block's first byte (in whichever line it is), with
 * the columns of its line before it. */
struct column_mark {
    uint32_t offset; /* NO_MARK when no character starts in the block (line breaks only) */
    uint32_t utf16;
    uint32_t utf32;
};

struct line_columns {
    bool built;                /* marks were built, or could not be (then marks is NULL) */
    struct column_mark *marks; /* one per block */
};

/* Appends a line start; returns -1 when memory ran out. */
static int push_start(uint32_t **starts, uint32_t *count, size_t *cap, uint32_t start)
{
    if (*count == *cap) { /* checked here too: this runs once a line */
        uint32_t *grown = vector_grow(*starts, cap, (size_t)*count + 1, sizeof *grown);
        if (grown == NULL)
            return -1;
        *starts = grown;
    }
    (*starts)[(*count)++] = start;
    return 0;
}

int line_index_build(struct line_index *index, const char *text, size_t len)
{
    uint32_t count = 0;
    size_t cap = 0;
    uint32_t *starts = NULL;
    struct line_columns *columns = calloc(1, sizeof *columns);
    if (columns == NULL || push_start(&starts, &count, &cap, 0) != 0) {
        free(starts);
        free(columns);
        return -1;
    }
    /* memchr finds LF fast; lone CRs, rare, take the byte-by-byte path. */
    bool has_cr = memchr(text, '\r', len) != NULL;
    for (uint32_t i = 0; i < len; i++) {
        if (!has_cr) {
            const char *lf = memchr(text + i, '\n', len - i);
            if (lf == NULL)
                break;
            i = (uint32_t)(lf - text);
        } else if (text[i] != '\n' && text[i] != '\r') {
            continue;
        } else if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') {
            i++;
        }
        if (push_start(&starts, &count, &cap, i + 1) != 0) {
            free(starts);
            free(columns);
            return -1;
        }
    }
    index->text = text;
    index->len = (uint32_t)len;
    index->starts = starts;
    index->count = count;
    index->cap = cap;
    index->moved_from = 0;
    index->moved = 0;
    index->columns = columns;
    return 0;
}

/* Whether a line starts at byte `p` of `text`: after an LF, or after a CR not followed by LF. */
static bool starts_line(const char *text, size_t len, size_t p)
{
    if (p == 0)
        return true;
    return text[p - 1] == '\n' || (text[p - 1] == '\r' && (p >= len || text[p] != '\n'));
}

/* The first line whose start is at or after `offset` (count when none). */
static uint32_t first_start_from(const struct line_index *index, uint32_t offset)
{
    uint32_t lo = 0, hi = index->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (line_index_start(index, mid) < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Applies the pending move to the starts before `upto`. */
static void settle(struct line_index *index, uint32_t upto)
{
    for (uint32_t i = index->moved_from; index->moved != 0 && i < upto; i++)
        index->starts[i] += index->moved;
    if (upto > index->moved_from)
        index->moved_from = upto;
    if (upto >= index->count)
        index->moved = 0; /* nothing pending (an edit may add lines at the end next) */
}

int line_index_update(struct line_index *index, const char *text, size_t len, uint32_t start,
                      uint32_t old_end, uint32_t inserted)
{
    if (len >= UINT32_MAX || old_end < start || old_end > index->len)
        return -1;
    /* A line start at p depends on bytes p - 1 and p only: the starts in [start, old_end] are
     * found again in [start, start + inserted] of the new text; the later ones move. */
    uint32_t from = start > 0 ? start : 1;
    uint32_t lo = first_start_from(index, from), hi = first_start_from(index, old_end + 1);
    uint32_t added = 0;
    for (size_t p = from; p <= (size_t)start + inserted && p <= len; p++)
        added += starts_line(text, len, p);
    size_t count = (size_t)index->count - (hi - lo) + added;
    uint32_t *starts = vector_grow(index->starts, &index->cap, count, sizeof *starts);
    if (starts == NULL)
        return -1;
    index->starts = starts;
    uint32_t delta = inserted - (old_end - start); /* modulo 2^32 */
    if (count == index->count) {                   /* the later starts move by the pending move */
        settle(index, hi);
        if (index->moved == 0)
            index->moved_from = hi;
        for (uint32_t i = hi; i < index->moved_from; i++)
            starts[i] += delta; /* before a move pending further on */
        index->moved += delta;
    } else {
        settle(index, index->count);
        memmove(starts + lo + added, starts + hi, (size_t)(index->count - hi) * sizeof *starts);
        for (size_t i = lo + added; i < count; i++)
            starts[i] += delta;
    }
    uint32_t at = lo;
    for (size_t p = from; p <= (size_t)start + inserted && p <= len; p++) {
        if (starts_line(text, len, p))
            starts[at++] = (uint32_t)p;
    }
    index->count = (uint32_t)count;
    index->text = text;
    index->len = (uint32_t)len;
    if (index->columns != NULL) {
        free(index->columns->marks);
        index->columns->marks = NULL;
        index->columns->built = false;
    }
    return 0;
}

void line_index_free(struct line_index *index)
{
    if (index->columns != NULL)
        free(index->columns->marks);
    free(index->columns);
    free(index->starts);
    index->columns = NULL;
    index->starts = NULL;
    index->count = 0;
    index->cap = 0;
}

/* The byte where line `line`'s content ends (before its line break). */
static uint32_t line_content_end(const struct line_index *index, uint32_t line)
{
    uint32_t end = line + 1 < index->count ? line_index_start(index, line + 1) : index->len;
    if (end > line_index_start(index, line) && line + 1 < index->count) {
        end--; /* the LF, or the lone CR */
        if (end > line_index_start(index, line) && index->text[end] == '\n' &&
            index->text[end - 1] == '\r')
            end--;
    }
    return end;
}

/* Bytes in the UTF-8 character that starts with byte `c` (1 for a stray continuation byte). */
static uint32_t char_bytes(unsigned char c)
{
    if (c >= 0xF0)
        return 4;
    if (c >= 0xE0)
        return 3;
    if (c >= 0xC0)
        return 2;
    return 1;
}

/* Walks every line the way the conversions below do, character by character from its start,
 * and marks each block's first character start. One pass, once per index; when memory runs
 * out the conversions scan from the line's start instead. */
static void build_marks(const struct line_index *index)
{
    struct line_columns *columns = index->columns;
    columns->built = true;
    uint32_t blocks = index->len / BLOCK + 1;
    struct column_mark *marks = malloc((size_t)blocks * sizeof *marks);
    if (marks == NULL)
        return;
    for (uint32_t b = 0; b < blocks; b++)
        marks[b].offset = NO_MARK;
    const unsigned char *s = (const unsigned char *)index->text;
    for (uint32_t line = 0; line < index->count; line++) {
        uint32_t i = line_index_start(index, line), end = line_content_end(index, line);
        uint32_t utf16 = 0, utf32 = 0;
        while (i < end) {
            struct column_mark *mark = &marks[i / BLOCK];
            if (mark->offset == NO_MARK)
                *mark = (struct column_mark){i, utf16, utf32};
            uint32_t width = char_bytes(s[i]);
            utf16 += width == 4 ? 2 : 1;
            utf32++;
            i += width;
        }
    }
    columns->marks = marks;
}

/* The marks, built on first use; NULL when the line from `start` to `end` is short enough to
 * scan or memory ran out. */
static const struct column_mark *marks_for(const struct line_index *index, uint32_t start,
                                           uint32_t end)
{
    if (end - start <= 2 * BLOCK || index->columns == NULL)
        return NULL;
    if (!index->columns->built)
        build_marks(index);
    return index->columns->marks;
}

static uint32_t mark_units(const struct column_mark *mark, enum position_encoding encoding)
{
    return encoding == POSITION_UTF16 ? mark->utf16 : mark->utf32;
}

struct text_position line_index_position(const struct line_index *index, uint32_t offset,
                                         enum position_encoding encoding)
{
    if (offset > index->len)
        offset = index->len;
    uint32_t lo = 0, hi = index->count - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (line_index_start(index, mid) <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint32_t line = lo;
    uint32_t end = line_content_end(index, line);
    if (offset > end)
        offset = end; /* inside a CRLF: the end of the line */
    const unsigned char *s = (const unsigned char *)index->text;
    if (encoding == POSITION_UTF8) {
        while (offset > line_index_start(index, line) && offset < end && (s[offset] & 0xC0) == 0x80)
            offset--; /* inside a character: count from its start */
        return (struct text_position){line, offset - line_index_start(index, line)};
    }
    uint32_t units = 0, from = line_index_start(index, line);
    const struct column_mark *marks = marks_for(index, from, offset);
    /* The nearest mark of this line at or before offset: in offset's block, or (when offset
     * comes before that block's first character) in an earlier one. */
    for (uint32_t b = offset / BLOCK; marks != NULL; b--) {
        const struct column_mark *mark = &marks[b];
        if (mark->offset != NO_MARK && mark->offset <= offset) {
            if (mark->offset >= from) {
                units = mark_units(mark, encoding);
                from = mark->offset;
            }
            break;
        }
        if (b == 0 || b * BLOCK <= line_index_start(index, line))
            break;
    }
    for (uint32_t i = from; i < offset;) {
        uint32_t width = char_bytes(s[i]);
        if (i + width > offset)
            break; /* offset inside a character */
        units += (width == 4 && encoding == POSITION_UTF16) ? 2 : 1;
        i += width;
    }
    return (struct text_position){line, units};
}

uint32_t line_index_offset(const struct line_index *index, struct text_position position,
                           enum position_encoding encoding)
{
    if (position.line >= index->count)
        return index->len;
    uint32_t start = line_index_start(index, position.line);
    uint32_t end = line_content_end(index, position.line);
    if (encoding == POSITION_UTF8) {
        uint32_t offset = start + position.character;
        if (offset > end || offset < start)
            return end;
        const unsigned char *s = (const unsigned char *)index->text;
        while (offset > start && offset < end && (s[offset] & 0xC0) == 0x80)
            offset--; /* round down to a character boundary; the line's end is one */
        return offset;
    }
    const unsigned char *s = (const unsigned char *)index->text;
    uint32_t units = 0, i = start;
    const struct column_mark *marks = marks_for(index, start, end);
    if (marks != NULL) {
        /* The last mark of this line whose column is at most the one asked for: columns grow
         * with offsets, so a binary search over the line's blocks finds it. */
        uint32_t lo = start / BLOCK, hi = end / BLOCK;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1) / 2;
            const struct column_mark *mark = &marks[mid];
            bool before =
                mark->offset != NO_MARK && mark->offset < end &&
                (mark->offset < start || mark_units(mark, encoding) <= position.character);
            if (before)
                lo = mid;
            else
                hi = mid - 1;
        }
        const struct column_mark *mark = &marks[lo];
        if (mark->offset != NO_MARK && mark->offset >= start && mark->offset < end &&
            mark_units(mark, encoding) <= position.character) {
            units = mark_units(mark, encoding);
            i = mark->offset;
        }
    }
    while (i < end && units < position.character) {
        uint32_t width = char_bytes(s[i]);
        uint32_t cost = (width == 4 && encoding == POSITION_UTF16) ? 2 : 1;
        if (units + cost > position.character)
            break; /* inside a surrogate pair */
        units += cost;
        i += width;
        if (i > end)
            i = end;
    }
    return i;
}

void line_index_write_position(struct json_writer *w, const struct line_index *index,
                               uint32_t offset, enum position_encoding encoding)
{
    line_index_write_text_position(w, line_index_position(index, offset, encoding));
}

void line_index_write_text_position(struct json_writer *w, struct text_position position)
{
    json_write_object_begin(w);
    json_write_key(w, "line");
    json_write_int(w, position.line);
    json_write_key(w, "character");
    json_write_int(w, position.character);
    json_write_object_end(w);
}

void line_index_write_range(struct json_writer *w, const struct line_index *index, uint32_t start,
                            uint32_t end, enum position_encoding encoding)
{
    json_write_object_begin(w);
    json_write_key(w, "start");
    line_index_write_position(w, index, start, encoding);
    json_write_key(w, "end");
    line_index_write_position(w, index, end, encoding);
    json_write_object_end(w);
}
