/* format: printing the tree back, one member or element per line; empty containers stay
 * "{}" and "[]". */
#include "format.h"

#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "base/base.h"

struct printer {
    const struct json_doc *doc;
    struct json_writer out;
    unsigned indent;
    bool tabs;
};

static void newline(struct printer *p, unsigned depth)
{
    json_write_bytes(&p->out, "\n", 1);
    for (unsigned i = 0; i < depth; i++) {
        if (p->tabs) {
            json_write_bytes(&p->out, "\t", 1);
        } else {
            for (unsigned k = 0; k < p->indent; k++)
                json_write_bytes(&p->out, " ", 1);
        }
    }
}

static void print_node(struct printer *p, uint32_t index, unsigned depth)
{
    const struct json_node *n = &p->doc->nodes[index];
    if (n->kind != JSON_OBJECT && n->kind != JSON_ARRAY) {
        json_write_bytes(&p->out, p->doc->text + n->start, n->end - n->start);
        return;
    }
    char open = n->kind == JSON_OBJECT ? '{' : '[', close = n->kind == JSON_OBJECT ? '}' : ']';
    json_write_bytes(&p->out, &open, 1);
    if (n->first_child == JSON_NONE) {
        json_write_bytes(&p->out, &close, 1);
        return;
    }
    for (uint32_t c = n->first_child; c != JSON_NONE; c = p->doc->nodes[c].next) {
        newline(p, depth + 1);
        const struct json_node *child = &p->doc->nodes[c];
        if (n->kind == JSON_OBJECT) {
            json_write_bytes(&p->out, p->doc->text + child->key_start,
                             child->key_end - child->key_start);
            json_write_bytes(&p->out, ": ", 2);
        }
        print_node(p, c, depth + 1);
        if (child->next != JSON_NONE)
            json_write_bytes(&p->out, ",", 1);
    }
    newline(p, depth);
    json_write_bytes(&p->out, &close, 1);
}

char *format_document(const struct json_doc *doc, unsigned indent, bool tabs, size_t *len)
{
    if (doc->error_count > 0 || doc->root == JSON_NONE)
        return NULL;
    struct printer p = {.doc = doc, .indent = indent, .tabs = tabs};
    json_writer_init(&p.out, 0);
    print_node(&p, doc->root, 0);
    json_write_bytes(&p.out, "\n", 1);
    if (p.out.failed) {
        json_writer_free(&p.out);
        return NULL;
    }
    *len = p.out.len;
    return p.out.buf; /* ownership passes to the caller */
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copies the token byte at a[*i] (== b[*j]) and, inside a string, an escaped byte after it;
 * false when the texts differ there. */
static bool same_token_byte(const char *a, size_t a_len, size_t *i, const char *b, size_t b_len,
                            size_t *j, bool *in_string)
{
    if (*i >= a_len || *j >= b_len || a[*i] != b[*j])
        return false;
    char c = a[(*i)++];
    (*j)++;
    if (*in_string && c == '\\') {
        if (*i >= a_len || *j >= b_len || a[*i] != b[*j])
            return false;
        (*i)++;
        (*j)++;
    } else if (c == '"') {
        *in_string = !*in_string;
    }
    return true;
}

int64_t format_edits(const char *text, size_t len, const char *formatted, size_t formatted_len,
                     uint32_t from, uint32_t to, struct format_edit **out)
{
    struct format_edit *edits = NULL;
    size_t cap = 0, count = 0, i = 0, j = 0;
    bool in_string = false;
    *out = NULL;
    while (i < len || j < formatted_len) {
        size_t gap = i, formatted_gap = j;
        while (!in_string && i < len && is_space(text[i]))
            i++;
        while (!in_string && j < formatted_len && is_space(formatted[j]))
            j++;
        bool differs = i - gap != j - formatted_gap ||
                       memcmp(text + gap, formatted + formatted_gap, i - gap) != 0;
        if (differs && i >= from && gap <= to) {
            struct format_edit *grown = vector_grow(edits, &cap, count + 1, sizeof *grown);
            if (grown == NULL)
                goto fail;
            edits = grown;
            edits[count++] = (struct format_edit){(uint32_t)gap, (uint32_t)i,
                                                  formatted + formatted_gap, j - formatted_gap};
        }
        if ((i < len || j < formatted_len) &&
            !same_token_byte(text, len, &i, formatted, formatted_len, &j, &in_string))
            goto fail;
    }
    *out = edits;
    return (int64_t)count;
fail:
    free(edits);
    return -1;
}
