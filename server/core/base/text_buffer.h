/* text_buffer: a document's text as an editor edits it. One run of bytes (NUL-terminated) with
 * room on both sides, so that an edit moves the bytes on its shorter side: one near the start of
 * a 50 MB file moves what comes before it, not the 50 MB after it. Offsets are of the text, as
 * ever; where the text starts in the allocation changes, so a caller reads text_buffer_text again
 * after each change. */
#ifndef SRCLS_TEXT_BUFFER_H
#define SRCLS_TEXT_BUFFER_H

#include <stddef.h>

struct text_buffer {
    char *base;   /* owned; NULL before the first text */
    size_t cap;   /* bytes allocated (vector_grow) */
    size_t front; /* the text starts at base + front */
    size_t len;   /* bytes of text; a NUL follows them */
};

static inline char *text_buffer_text(const struct text_buffer *t)
{
    return t->base + t->front;
}

/* Room for a whole new text of `len` bytes, with room on both sides, for the caller to write and
 * then set with text_buffer_set_length; NULL when memory ran out (the text is then as it was).
 * The old text's bytes are not kept. */
char *text_buffer_reserve(struct text_buffer *t, size_t len);
/* The text written after text_buffer_reserve is `len` bytes (at most the reserved); NUL added. */
void text_buffer_set_length(struct text_buffer *t, size_t len);
/* Replaces bytes [start, end) of the text with `len` bytes of `bytes`: moves the shorter side of
 * the edit, and the whole text only when the room on that side ran out (then it leaves room on
 * both sides, in proportion to the text: the moves of the whole text are amortised). Returns 0,
 * or -1 when memory ran out (the text is then as it was). */
int text_buffer_splice(struct text_buffer *t, size_t start, size_t end, const char *bytes,
                       size_t len);
void text_buffer_free(struct text_buffer *t);

#endif
