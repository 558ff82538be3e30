/* line_index: byte offsets <-> (line, character) positions, in UTF-16 code units (the LSP
 * default) or UTF-8 bytes. Lines end at LF, CRLF or a lone CR, as LSP says. */
#ifndef SRCLS_LINE_INDEX_H
#define SRCLS_LINE_INDEX_H

#include <stddef.h>
#include <stdint.h>

enum position_encoding {
    POSITION_UTF16,
    POSITION_UTF8,
    POSITION_UTF32, /* code points, for human-facing columns */
};

struct text_position {
    uint32_t line;
    uint32_t character;
};

struct line_columns; /* column checkpoints for long lines (line_index.c) */

struct line_index {
    const char *text; /* not owned */
    uint32_t len;
    /* owned: byte offset of each line's first byte; read through line_index_start (an update
     * leaves the move of the later ones pending) */
    uint32_t *starts;
    uint32_t count;
    size_t cap; /* starts allocated (vector_grow) */
    /* The pending move of an update that kept the line count: the starts from `moved_from` on
     * are `moved` bytes further on than they say (modulo 2^32; 0: nothing pending). */
    uint32_t moved_from, moved;
    /* owned: filled on the first UTF-16 or code-point conversion inside a long line, so that
     * every later one costs a bounded scan instead of one from the line's start (a minified
     * file is one line: without them, N diagnostics on it cost N times the line). */
    struct line_columns *columns;
};

/* Builds the index of `text`; returns 0, or -1 when memory ran out. */
int line_index_build(struct line_index *index, const char *text, size_t len);
void line_index_free(struct line_index *index);
/* The text changed: bytes [start, old_end) of the old text became `inserted` bytes, and `text`
 * (`len` bytes) is the new text. Costs the inserted bytes plus a shift of the line starts after
 * the edit when their count changed; when not, of those between this edit and the one before
 * (the move of the rest is left pending: line_index_start); the column checkpoints are dropped and
 * built again when next needed. Returns 0, or -1 when memory ran out (the index is then unchanged,
 * of the old text). */
int line_index_update(struct line_index *index, const char *text, size_t len, uint32_t start,
                      uint32_t old_end, uint32_t inserted);
/* The byte offset of line `line`'s first byte (line < count). */
static inline uint32_t line_index_start(const struct line_index *index, uint32_t line)
{
    return line >= index->moved_from ? index->starts[line] + index->moved : index->starts[line];
}
/* Invariant: every conversion costs O(log lines + LINE_INDEX_BLOCK), whatever the line's
 * length; the checkpoints cost one pass over the text, once. */
/* The position of byte `offset` (clamped to the text; an offset inside a multi-byte character
 * counts from that character's start). */
struct text_position line_index_position(const struct line_index *index, uint32_t offset,
                                         enum position_encoding encoding);
/* The byte offset of `position`; a character past the line's end means the line's end, a line
 * past the last means the end of the text, a character inside a surrogate pair rounds down. */
uint32_t line_index_offset(const struct line_index *index, struct text_position position,
                           enum position_encoding encoding);

struct json_writer;
/* Writes the position of byte `offset` as LSP's Position, {"line": L, "character": C} (0-based,
 * in `encoding`): the one writer of the server's positions and of the JSON report's. */
void line_index_write_position(struct json_writer *w, const struct line_index *index,
                               uint32_t offset, enum position_encoding encoding);
/* The same for a position already computed (a place in a document no longer at hand). */
void line_index_write_text_position(struct json_writer *w, struct text_position position);
/* Writes the bytes [start, end) as LSP's Range, {"start": Position, "end": Position}. */
void line_index_write_range(struct json_writer *w, const struct line_index *index, uint32_t start,
                            uint32_t end, enum position_encoding encoding);

#endif
