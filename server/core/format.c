/* format: printing the tree back, one member or element per line; empty containers stay
 * "{}" and "[]". */
#include "format.h"

#include <stdlib.h>
#include <string.h>

#include "json_write.h"

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
