/* text_buffer: an editor's text with room on both sides (see text_buffer.h). */
#include "text_buffer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vector.h"

/* The room left on each side when the whole text moves: an eighth of it, at least 4 KiB. */
static size_t slack_for(size_t len)
{
    size_t slack = len / 8;
    return slack < 4096 ? 4096 : slack;
}

char *text_buffer_reserve(struct text_buffer *t, size_t len)
{
    size_t slack = slack_for(len); /* the first edit near either end moves little too */
    if (len > SIZE_MAX / 2 - 2 * slack)
        return NULL;
    char *grown = vector_grow(t->base, &t->cap, 2 * slack + len + 1, 1);
    if (grown == NULL)
        return NULL;
    t->base = grown;
    t->front = slack;
    return grown + slack;
}

void text_buffer_set_length(struct text_buffer *t, size_t len)
{
    t->len = len;
    t->base[t->front + len] = '\0';
}

/* Lays the text out again with `slack` bytes before it and room for `len` more after it, the
 * gap [start, end) of the old text becoming `grow` bytes (left unwritten); -1 when memory ran
 * out. */
static int relayout(struct text_buffer *t, size_t start, size_t end, size_t grow)
{
    size_t len = t->len - (end - start) + grow, slack = slack_for(len);
    if (len > SIZE_MAX / 2 - 2 * slack)
        return -1;
    size_t cap = 0;
    char *fresh = vector_grow(NULL, &cap, 2 * slack + len + 1, 1);
    if (fresh == NULL)
        return -1;
    if (t->base != NULL) {
        const char *old = text_buffer_text(t);
        memcpy(fresh + slack, old, start);
        memcpy(fresh + slack + start + grow, old + end, t->len - end);
    }
    free(t->base);
    t->base = fresh;
    t->cap = cap;
    t->front = slack;
    t->len = len;
    t->base[slack + len] = '\0';
    return 0;
}

int text_buffer_splice(struct text_buffer *t, size_t start, size_t end, const char *bytes,
                       size_t len)
{
    if (end < start || end > t->len || len > SIZE_MAX / 2 - t->len)
        return -1;
    size_t removed = end - start, after = t->len - end;
    size_t back = t->base != NULL ? t->cap - t->front - t->len - 1 : 0; /* room after the NUL */
    if (t->base != NULL && start <= after && (len <= removed || t->front >= len - removed)) {
        /* the bytes before the edit move: left by what it adds, right by what it removes */
        char *from = text_buffer_text(t);
        size_t front = t->front + removed - len;
        memmove(t->base + front, from, start);
        t->front = front;
    } else if (t->base != NULL && start > after && (len <= removed || back >= len - removed)) {
        char *text = text_buffer_text(t);
        memmove(text + start + len, text + end, after + 1); /* and the NUL */
    } else { /* no room on that side, or no text yet */
        if (relayout(t, start, end, len) != 0)
            return -1;
        memcpy(text_buffer_text(t) + start, bytes, len);
        return 0;
    }
    t->len = t->len - removed + len;
    memcpy(text_buffer_text(t) + start, bytes, len);
    t->base[t->front + t->len] = '\0';
    return 0;
}

void text_buffer_free(struct text_buffer *t)
{
    free(t->base);
    *t = (struct text_buffer){NULL, 0, 0, 0};
}
