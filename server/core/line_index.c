/* line_index: line starts found in one pass; columns counted within one line on demand. */
#include "line_index.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Appends a line start; returns -1 when memory ran out. */
static int push_start(uint32_t **starts, uint32_t *count, uint32_t *cap, uint32_t start)
{
    if (*count == *cap) {
        uint32_t *grown = realloc(*starts, (size_t)*cap * 2 * sizeof *grown);
        if (grown == NULL)
            return -1;
        *starts = grown;
        *cap *= 2;
    }
    (*starts)[(*count)++] = start;
    return 0;
}

int line_index_build(struct line_index *index, const char *text, size_t len)
{
    uint32_t cap = 64, count = 0;
    uint32_t *starts = malloc(cap * sizeof *starts);
    if (starts == NULL)
        return -1;
    starts[count++] = 0;
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
            return -1;
        }
    }
    index->text = text;
    index->len = (uint32_t)len;
    index->starts = starts;
    index->count = count;
    return 0;
}

void line_index_free(struct line_index *index)
{
    free(index->starts);
    index->starts = NULL;
    index->count = 0;
}

/* The byte where line `line`'s content ends (before its line break). */
static uint32_t line_content_end(const struct line_index *index, uint32_t line)
{
    uint32_t end = line + 1 < index->count ? index->starts[line + 1] : index->len;
    if (end > index->starts[line] && line + 1 < index->count) {
        end--; /* the LF, or the lone CR */
        if (end > index->starts[line] && index->text[end] == '\n' && index->text[end - 1] == '\r')
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

struct text_position line_index_position(const struct line_index *index, uint32_t offset,
                                         enum position_encoding encoding)
{
    if (offset > index->len)
        offset = index->len;
    uint32_t lo = 0, hi = index->count - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (index->starts[mid] <= offset)
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
        while (offset > index->starts[line] && offset < end && (s[offset] & 0xC0) == 0x80)
            offset--; /* inside a character: count from its start */
        return (struct text_position){line, offset - index->starts[line]};
    }
    uint32_t units = 0;
    for (uint32_t i = index->starts[line]; i < offset;) {
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
    uint32_t start = index->starts[position.line];
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
