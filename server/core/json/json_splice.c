/* json_splice: re-parse the smallest value an edit touched and splice its nodes in.
 *
 * The value is parsed in place (json_parse_value_at): from its start in the new text, inside
 * its ancestors' brackets, with the parser's own recovery, so that a value with a syntax error
 * is parsed as the whole parse would parse it. The splice holds when that parse ends where the
 * old value ended (moved by the edit): the parser is then in the same state after it as before,
 * over the same bytes, so the rest of the tree is the old one moved. What the parse of the
 * text after a value decides from the value itself (a string followed by a stray key) only
 * happens next to a syntax error, so no old syntax error may be near: none in the top-level
 * member or element that holds the value. The placeholder of a missing value is never parsed
 * alone: its member's parse, not its bytes, made it (and, after a string value without a ',',
 * made it without an error to say so).
 *
 * Nodes are in pre-order (a node, then its subtree, then what follows), so a value's subtree is
 * one run of the array and a node's "from" byte (its key's start for a member, else its value's)
 * never decreases with its index. The edited value is found by a binary search on that order and
 * a walk up the parents; the nodes after its subtree move by the change in node count and their
 * bytes by the change in length. Before the subtree only its ancestors refer past it (their
 * `next`) or end after it, so they are the only earlier nodes touched. */
#include "json_splice.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static uint32_t node_from(const struct json_node *n)
{
    return n->key_start != JSON_NONE ? n->key_start : n->start;
}

/* Node `i`'s "from" byte and its end where they are now, through a pending move (binary
 * searches cross it; the nodes read one by one are settled first). */
static uint32_t from_at(const struct json_doc *doc, uint32_t i)
{
    return json_moved(doc, i, node_from(&doc->nodes[i]));
}

static uint32_t end_at(const struct json_doc *doc, uint32_t i)
{
    return json_moved(doc, i, doc->nodes[i].end);
}

/* Adds `bytes` to the offsets of the nodes [from, to) (their keys' when they have one). */
static void move_nodes(struct json_doc *doc, uint32_t from, uint32_t to, uint32_t bytes)
{
    /* What an edit costs on a large document when its move is not deferred: written without
     * branches. */
    for (struct json_node *n = doc->nodes + from, *end = doc->nodes + to; n < end; n++) {
        uint32_t keyed = bytes & (0u - (uint32_t)(n->key_start != JSON_NONE));
        n->start += bytes;
        n->end += bytes;
        n->key_start += keyed;
        n->key_end += keyed;
    }
}

void json_doc_settle(struct json_doc *doc, uint32_t upto)
{
    if (upto > doc->node_count)
        upto = doc->node_count;
    if (doc->moved == 0 || upto <= doc->moved_from) {
        if (upto == doc->node_count)
            doc->moved = 0; /* nothing pending (an edit may add nodes at the end next) */
        return;
    }
    move_nodes(doc, doc->moved_from, upto, doc->moved);
    doc->moved_from = upto;
    if (upto == doc->node_count)
        doc->moved = 0;
}

/* The last node whose "from" byte is at or before `offset` (the first node is the root). */
static uint32_t last_node_from(const struct json_doc *doc, uint32_t offset)
{
    uint32_t lo = 0, hi = doc->node_count; /* the answer is in [lo, hi) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (from_at(doc, mid) <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The index just past the nodes the parse of `node`'s value made: its subtree, and the nodes a
 * recovery made and did not link (a '{' where a key should be is parsed and dropped). They
 * are the nodes after it that begin before its end. */
static uint32_t subtree_end(const struct json_doc *doc, uint32_t node)
{
    uint32_t end = end_at(doc, node);
    uint32_t lo = node + 1, hi = doc->node_count; /* the first index in [lo, hi] from `end` on */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (from_at(doc, mid) < end)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether `n` is the placeholder of a missing value: the empty JSON_INVALID the parse of a member
 * makes when its key has no value after it. No parse of its bytes made it: the member's parse
 * decided, from what follows the key, that there is no value (and whether to say so: after a
 * string value without a ',', where the key may be the rest of that value, it says nothing).
 * Text typed there is read by that decision, so only a parse of the member (its object) can
 * tell what it becomes. */
static bool is_missing_value(const struct json_node *n)
{
    return n->kind == JSON_INVALID && n->start == n->end;
}

static unsigned depth_of(const struct json_doc *doc, uint32_t node)
{
    unsigned depth = 0;
    for (uint32_t n = doc->nodes[node].parent; n != JSON_NONE; n = doc->nodes[n].parent)
        depth++;
    return depth;
}

/* The child of the root that holds `node` (or `node` itself). */
static uint32_t top_level_of(const struct json_doc *doc, uint32_t node)
{
    while (doc->nodes[node].parent != JSON_NONE &&
           doc->nodes[doc->nodes[node].parent].parent != JSON_NONE)
        node = doc->nodes[node].parent;
    return node;
}

/* Whether a syntax error (not a duplicate key, which no parse decision reads) of the old text
 * is in, or points into, the top-level member or element that holds `node`. */
static bool syntax_error_near(const struct json_doc *doc, uint32_t node)
{
    const struct json_node *unit = &doc->nodes[top_level_of(doc, node)];
    uint32_t from = node_from(unit), to = unit->end;
    for (uint32_t i = 0; i < doc->error_count; i++) {
        const struct json_error *e = &doc->errors[i];
        if (e->code == JSON_ERROR_DUPLICATE_KEY)
            continue;
        if ((e->start >= from && e->start <= to) ||
            (e->related_start != JSON_NONE && e->related_start >= from && e->related_start <= to))
            return true;
    }
    return false;
}

/* Parses the new text of `node` in place into `sub`: 1 when the parse ends where the old value
 * ended (moved by `delta`) without a limit or a dropped error, 0 when not, -1 when memory ran
 * out. */
static int parse_in_place(const struct json_doc *doc, uint32_t node, const char *text, uint32_t len,
                          int64_t delta, const struct json_parse_options *options,
                          struct json_doc *sub)
{
    const struct json_node *n = &doc->nodes[node];
    int64_t end = (int64_t)n->end + delta;
    unsigned depth = depth_of(doc, node);
    if (end < (int64_t)n->start || depth >= options->max_depth)
        return 0;
    char *closers = malloc(depth + 1);
    if (closers == NULL)
        return -1;
    unsigned level = depth;
    for (uint32_t a = n->parent; a != JSON_NONE; a = doc->nodes[a].parent)
        closers[--level] = doc->nodes[a].kind == JSON_OBJECT ? '}' : ']';
    uint32_t stopped;
    int status = json_parse_value_at(sub, text, len, n->start, closers, depth, (uint32_t)end,
                                     options, &stopped);
    free(closers);
    if (status != 0) {
        json_doc_free(sub);
        return -1;
    }
    bool same_end = sub->root == 0 && stopped == (uint32_t)end && sub->nodes[0].end == stopped;
    bool limited = sub->errors_dropped > 0;
    for (uint32_t i = 0; i < sub->error_count; i++)
        limited |= sub->errors[i].code == JSON_ERROR_LIMIT;
    if (same_end && !limited)
        return 1;
    json_doc_free(sub);
    return 0;
}

/* Writes the new subtree over the old one's place (the array has room for it and the nodes
 * after it have moved already). */
static void copy_subtree(struct json_doc *doc, uint32_t at, const struct json_doc *sub,
                         const struct json_node *old_root, int64_t node_delta)
{
    for (uint32_t i = 0; i < sub->node_count; i++) {
        struct json_node n = sub->nodes[i]; /* its bytes are of the whole text already */
        if (n.parent != JSON_NONE)
            n.parent += at;
        if (n.first_child != JSON_NONE)
            n.first_child += at;
        if (n.next != JSON_NONE)
            n.next += at;
        doc->nodes[at + i] = n;
    }
    /* The root keeps its place in the tree and its key. */
    enum {
        KEY_FLAGS = JSON_FLAG_KEY_ESCAPED | JSON_FLAG_KEY_UNTERMINATED | JSON_FLAG_KEY_BARE |
                    JSON_FLAG_KEY_RECOVERED
    };
    struct json_node *root = &doc->nodes[at];
    root->key_start = old_root->key_start;
    root->key_end = old_root->key_end;
    root->parent = old_root->parent;
    root->next =
        old_root->next == JSON_NONE ? JSON_NONE : (uint32_t)((int64_t)old_root->next + node_delta);
    root->flags = (uint8_t)((root->flags & ~KEY_FLAGS) | (old_root->flags & KEY_FLAGS));
}

/* Moves the links and bytes of the nodes after the new subtree, and of its ancestors. With
 * `defer_moves` and the same node count, the nodes after the top-level value (from `unit_tail`)
 * are moved by the pending move, not one by one; everything before them is settled. */
static void shift_rest(struct json_doc *doc, uint32_t node, uint32_t old_tail, uint32_t unit_tail,
                       int64_t node_delta, int64_t byte_delta)
{
    uint32_t nd = (uint32_t)node_delta, bd = (uint32_t)byte_delta; /* modulo 2^32 */
    for (uint32_t a = doc->nodes[node].parent; a != JSON_NONE; a = doc->nodes[a].parent) {
        struct json_node *n = &doc->nodes[a];
        if (n->next != JSON_NONE && n->next >= old_tail)
            n->next += nd;
        n->end += bd;
    }
    uint32_t first = (uint32_t)((int64_t)old_tail + node_delta);
    if (nd == 0 && doc->defer_moves) {
        move_nodes(doc, first, unit_tail, bd);
        if (doc->moved == 0)
            doc->moved_from = unit_tail;
        move_nodes(doc, unit_tail, doc->moved_from, bd); /* before a move pending further on */
        doc->moved += bd;
        return;
    }
    if (nd == 0) {
        move_nodes(doc, first, doc->node_count, bd);
        return;
    }
    /* The loop below touches every later node: without branches. */
    struct json_node *n = doc->nodes + first, *end = doc->nodes + doc->node_count;
    for (; n < end; n++) {
        uint32_t keyed = bd & (0u - (uint32_t)(n->key_start != JSON_NONE));
        n->start += bd;
        n->end += bd;
        n->key_start += keyed;
        n->key_end += keyed;
        /* a parent before the old tail is an ancestor of the edited value: it did not move */
        n->parent += nd & (0u - (uint32_t)(n->parent != JSON_NONE && n->parent >= old_tail));
        n->first_child += nd & (0u - (uint32_t)(n->first_child != JSON_NONE));
        n->next += nd & (0u - (uint32_t)(n->next != JSON_NONE));
    }
}

/* Whether the error `e` was reported before parsing reached `offset`: a syntax error is reported
 * where it is found, a duplicate key when its object closes. */
static bool reported_before(const struct json_doc *doc, const struct json_error *e, uint32_t offset)
{
    if (e->code != JSON_ERROR_DUPLICATE_KEY)
        return e->start < offset; /* reported where the parse found it */
    uint32_t member = last_node_from(doc, e->start);
    uint32_t object = doc->nodes[member].parent;
    return object != JSON_NONE && end_at(doc, object) <= offset;
}

static void shift_error(struct json_error *e, uint32_t old_end, uint32_t bytes)
{
    if (e->start >= old_end) {
        e->start += bytes;
        e->end += bytes;
    }
    if (e->related_start != JSON_NONE && e->related_start >= old_end) {
        e->related_start += bytes;
        e->related_end += bytes;
    }
}

/* The errors of the document once `node`'s value is `sub`, in the order a parse of the whole
 * reports them: those of objects closed before the value, the value's own, then the rest. In
 * `*out` (malloc'd, `*count` of them); 0, or 1 when there would be more than the parse keeps,
 * or -1 when memory ran out. */
static int merge_errors(struct json_doc *doc, uint32_t node, const struct json_doc *sub,
                        int64_t byte_delta, unsigned max_errors, struct json_error **out,
                        uint32_t *count)
{
    const struct json_node *v = &doc->nodes[node];
    uint32_t bytes = (uint32_t)byte_delta, kept = 0, at = 0;
    *out = NULL;
    *count = 0;
    for (uint32_t i = 0; i < doc->error_count; i++) {
        uint32_t s = doc->errors[i].start;
        kept += !(s >= v->start && s < v->end);
    }
    if ((uint64_t)kept + sub->error_count > max_errors)
        return 1;
    uint32_t total = kept + sub->error_count;
    if (total == 0)
        return 0;
    struct json_error *errors = malloc((size_t)total * sizeof *errors);
    if (errors == NULL)
        return -1;
    uint32_t i = 0;
    for (; i < doc->error_count && reported_before(doc, &doc->errors[i], v->start); i++)
        errors[at++] = doc->errors[i];
    for (uint32_t j = 0; j < sub->error_count; j++) {
        struct json_error e = sub->errors[j]; /* its bytes are of the whole text already */
        e.message = arena_strndup(&doc->arena, e.message, strlen(e.message));
        if (e.message == NULL) {
            free(errors);
            return -1;
        }
        errors[at++] = e;
    }
    for (; i < doc->error_count; i++) {
        struct json_error e = doc->errors[i];
        if (e.start >= v->start && e.start < v->end)
            continue; /* the old value's own */
        shift_error(&e, v->end, bytes);
        errors[at++] = e;
    }
    *out = errors;
    *count = at;
    return 0;
}

/* Replaces the subtree of `node` with `sub`; -1 when memory ran out (nothing changed). */
static int replace_subtree(struct json_doc *doc, uint32_t node, uint32_t unit_tail,
                           const struct json_doc *sub, int64_t byte_delta, struct json_splice *out)
{
    uint32_t tail = subtree_end(doc, node);
    uint32_t old_nodes = tail - node, new_nodes = sub->node_count;
    uint64_t count = (uint64_t)doc->node_count - old_nodes + new_nodes;
    if (count >= JSON_NONE)
        return -1;
    if (count > doc->node_count) {
        size_t cap = doc->node_cap;
        struct json_node *grown = vector_grow(doc->nodes, &cap, (size_t)count, sizeof *grown);
        if (grown == NULL)
            return -1;
        doc->nodes = grown;
        doc->node_cap = (uint32_t)(cap < JSON_NONE ? cap : JSON_NONE - 1);
    }
    struct json_node old_root = doc->nodes[node];
    int64_t node_delta = (int64_t)new_nodes - old_nodes;
    if (node_delta != 0 || !doc->defer_moves)
        json_doc_settle(doc, JSON_NONE); /* the nodes move one by one */
    if (node_delta != 0)
        memmove(doc->nodes + node + new_nodes, doc->nodes + tail,
                (size_t)(doc->node_count - tail) * sizeof *doc->nodes);
    doc->node_count = (uint32_t)count;
    copy_subtree(doc, node, sub, &old_root, node_delta);
    shift_rest(doc, node, tail, unit_tail, node_delta, byte_delta);
    *out = (struct json_splice){node, old_root.start, old_root.end, old_nodes, new_nodes};
    return 0;
}

void json_doc_settle_at(struct json_doc *doc, uint32_t offset)
{
    if (doc->moved != 0 && doc->node_count > 0)
        json_doc_settle(doc, subtree_end(doc, top_level_of(doc, last_node_from(doc, offset))));
}

int json_splice(struct json_doc *doc, const char *text, uint32_t len, struct json_edit edit,
                const struct json_parse_options *options, struct json_splice *out)
{
    static const struct json_parse_options defaults = {
        .max_size = JSON_DEFAULT_MAX_SIZE,
        .max_depth = JSON_DEFAULT_MAX_DEPTH,
        .max_errors = JSON_DEFAULT_MAX_ERRORS,
    };
    if (options == NULL)
        options = &defaults;
    if (doc->errors_dropped > 0 || doc->root != 0 || doc->node_count == 0 ||
        edit.old_end < edit.start || edit.old_end > doc->len || len > options->max_size ||
        len >= JSON_NONE)
        return 0;
    int64_t delta = (int64_t)edit.inserted - (edit.old_end - edit.start);
    if ((int64_t)doc->len + delta != (int64_t)len)
        return 0;
    /* The innermost value holding the edit, then its ancestors, short of the root; the nodes
     * up to the end of its top-level value are read as they are. */
    uint32_t node = last_node_from(doc, edit.start);
    uint32_t unit_tail = subtree_end(doc, top_level_of(doc, node));
    json_doc_settle(doc, unit_tail);
    for (; node != JSON_NONE && doc->nodes[node].parent != JSON_NONE;
         node = doc->nodes[node].parent) {
        const struct json_node *n = &doc->nodes[node];
        if (n->start > edit.start || edit.old_end > n->end || is_missing_value(n))
            continue;
        if (syntax_error_near(doc, node))
            return 0;
        struct json_doc sub;
        int parsed = parse_in_place(doc, node, text, len, delta, options, &sub);
        if (parsed < 0)
            return -1;
        if (parsed == 0)
            continue;
        struct json_error *errors;
        uint32_t error_count;
        int merged =
            merge_errors(doc, node, &sub, delta, options->max_errors, &errors, &error_count);
        int status = merged != 0 ? merged : replace_subtree(doc, node, unit_tail, &sub, delta, out);
        json_doc_free(&sub);
        if (status != 0) {
            free(errors);
            return status > 0 ? 0 : -1;
        }
        free(doc->errors);
        doc->errors = errors;
        doc->error_count = doc->error_cap = error_count;
        doc->text = text;
        doc->len = len;
        return 1;
    }
    return 0;
}
