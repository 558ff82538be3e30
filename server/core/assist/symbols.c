/* symbols: the tree of members as an outline. */
#include "symbols.h"

#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "check/check.h"

/* Deeper levels are left out of the outline: nobody reads them, and each costs writer depth. */
#define MAX_SYMBOL_DEPTH 16

static enum symbol_kind kind_of(const struct json_node *n)
{
    switch (n->kind) {
    case JSON_OBJECT: return SYMBOL_KIND_OBJECT;
    case JSON_ARRAY: return SYMBOL_KIND_ARRAY;
    case JSON_STRING: return SYMBOL_KIND_STRING;
    case JSON_NUMBER: return SYMBOL_KIND_NUMBER;
    case JSON_TRUE:
    case JSON_FALSE: return SYMBOL_KIND_BOOLEAN;
    case JSON_NULL: return SYMBOL_KIND_NULL;
    default: return SYMBOL_KIND_INVALID;
    }
}

struct builder {
    struct analysis *a;
    const struct schema_registry *registry;
    const struct settings *settings;
    struct arena *arena;
};

static struct symbol *children_of(struct builder *b, uint32_t container, uint32_t *count,
                                  unsigned depth);

/* The name of a member: its key, or a placeholder for a key the parser guessed while
 * recovering (it may be the continuation of a secret value). */
static const char *member_name(struct builder *b, uint32_t node)
{
    struct json_doc *doc = &b->a->doc;
    if (doc->nodes[node].flags & JSON_FLAG_KEY_RECOVERED)
        return "(not shown)";
    struct json_str key = json_node_key(doc, node);
    return key.len ? arena_strndup(b->arena, key.ptr, key.len) : "\"\"";
}

/* The most bytes of a source's name an outline entry shows. */
#define NAME_IN_OUTLINE_MAX 80

/* An element's name: "[index]", and the source's own name when it is a source of a bulk file
 * with a `name` string ("[3] lake-prod"). */
static const char *element_name(struct builder *b, uint32_t node, uint32_t index)
{
    struct json_doc *doc = &b->a->doc;
    const struct json_node *n = &doc->nodes[node];
    if (b->a->document == DOCUMENT_BULK && n->parent == doc->root && n->kind == JSON_OBJECT) {
        uint32_t name = envelope_name(doc, node);
        if (name != JSON_NONE && doc->nodes[name].kind == JSON_STRING) {
            struct json_str text = json_node_string(doc, name);
            int shown = (int)(text.len < NAME_IN_OUTLINE_MAX ? text.len : NAME_IN_OUTLINE_MAX);
            while (shown > 0 && (size_t)shown < text.len &&
                   ((unsigned char)text.ptr[shown] & 0xC0) == 0x80)
                shown--; /* cut between characters */
            if (shown > 0 && memchr(text.ptr, '\0', (size_t)shown) == NULL)
                return arena_printf(b->arena, "[%u] %.*s%s", index, shown, text.ptr,
                                    text.len > NAME_IN_OUTLINE_MAX ? "..." : "");
        }
    }
    return arena_printf(b->arena, "[%u]", index);
}

static void fill(struct builder *b, struct symbol *s, uint32_t node, uint32_t index, unsigned depth)
{
    struct json_doc *doc = &b->a->doc;
    const struct json_node *n = &doc->nodes[node];
    memset(s, 0, sizeof *s);
    if (n->key_start != JSON_NONE) {
        s->name = member_name(b, node);
        s->start = n->key_start;
        s->selection_start = n->key_start;
        s->selection_end = n->key_end;
    } else {
        s->name = element_name(b, node, index);
        s->start = n->start;
        s->selection_start = n->start;
        s->selection_end = n->end;
    }
    s->end = n->end > s->start ? n->end : s->start;
    s->kind = kind_of(n);
    if (n->kind == JSON_OBJECT && n->key_start != JSON_NONE && envelope_is_config(doc, node)) {
        struct schema_place place = schema_at_object(doc, node, b->registry, b->settings);
        if (place.kind != NULL) {
            s->detail = place.kind->title;
            s->kind = SYMBOL_KIND_CONFIG;
        }
    }
    if ((n->kind == JSON_OBJECT || n->kind == JSON_ARRAY) && depth < MAX_SYMBOL_DEPTH)
        s->children = children_of(b, node, &s->child_count, depth + 1);
}

static struct symbol *children_of(struct builder *b, uint32_t container, uint32_t *count,
                                  unsigned depth)
{
    struct json_doc *doc = &b->a->doc;
    *count = json_child_count(doc, container);
    if (*count == 0)
        return NULL;
    struct symbol *list = arena_alloc(b->arena, *count * sizeof *list);
    if (list == NULL) {
        *count = 0;
        return NULL;
    }
    uint32_t i = 0;
    for (uint32_t c = doc->nodes[container].first_child; c != JSON_NONE;
         c = doc->nodes[c].next, i++)
        fill(b, &list[i], c, i, depth);
    return list;
}

struct symbol *symbols_of(struct analysis *a, const struct schema_registry *registry,
                          const struct settings *settings, struct arena *arena, uint32_t *count)
{
    struct builder b = {a, registry, settings, arena};
    *count = 0;
    if (a->doc.root == JSON_NONE)
        return NULL;
    const struct json_node *root = &a->doc.nodes[a->doc.root];
    if (root->kind != JSON_OBJECT && root->kind != JSON_ARRAY)
        return NULL;
    return children_of(&b, a->doc.root, count, 0);
}
