/* analysis_update: the short road an edit takes (see analysis.h): the smallest value holding it
 * parsed again, the source holding that checked again, the rest moved. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "duplicate_names.h"
#include "domain/domain.h"
#include "json/json.h"
#include "base/base.h"

/* Whether the arenas hold so much that updates left behind that a whole analysis should start
 * them afresh: twice what the last one settled at, and a megabyte. */
static bool arenas_overgrown(const struct analysis *a)
{
    enum { SLACK = 1 << 20 };
    return a->arena.total > 2 * a->settled_arena + SLACK ||
           a->doc.arena.total > 2 * a->settled_doc_arena + SLACK;
}

/* The position of the element that holds `node` (a bulk document), by binary search over the
 * element list; the element's node in `*element`. */
static uint32_t element_holding(const struct analysis *a, uint32_t node, uint32_t *element)
{
    uint32_t lo = 0, hi = a->element_count; /* the last element whose node is <= node */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->elements[mid] <= node)
            lo = mid;
        else
            hi = mid;
    }
    *element = a->elements[lo];
    return lo;
}

/* Moves a diagnostic of what follows the splice (which ended at `old_end`) by its byte and
 * node shifts; its related place only when that follows the splice too (a duplicate-name's
 * earlier source stays where it was). */
static void shift_diagnostic(struct diagnostic *d, uint32_t bytes, uint32_t old_end,
                             uint32_t old_tail, uint32_t nodes)
{
    d->start += bytes;
    d->end += bytes;
    if (d->related_start != JSON_NONE && d->related_start >= old_end) {
        d->related_start += bytes;
        d->related_end += bytes;
    }
    if (d->node != JSON_NONE && d->node >= old_tail)
        d->node += nodes;
}

/* The first diagnostic whose start is at or after `offset`, in the sorted range [lo, hi). */
static uint32_t first_diagnostic_from(const struct analysis *a, uint32_t lo, uint32_t hi,
                                      uint32_t offset)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (analysis_diagnostic(a, mid).start < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether the document has a syntax error (not a duplicate key). */
static bool has_syntax_error(const struct json_doc *doc)
{
    for (uint32_t i = 0; i < doc->error_count; i++) {
        if (doc->errors[i].code != JSON_ERROR_DUPLICATE_KEY)
            return true;
    }
    return false;
}

/* A bulk document whose element `index` (node `element`, bytes [start, old_end] before the
 * edit) was spliced: its diagnostics are made again, the others move. 1, 0 or -1 as
 * analysis_update. */
static int recheck_element(struct analysis *a, const struct analysis_options *options,
                           const struct json_splice *splice, uint32_t element, uint32_t index,
                           uint32_t old_end, struct analysis_delta *delta)
{
    const struct json_node *e = &a->doc.nodes[element];
    uint32_t bytes = e->end - old_end; /* modulo 2^32 */
    uint32_t nodes = splice->new_nodes - splice->old_nodes;
    uint32_t old_tail = splice->node + splice->old_nodes;
    uint32_t count = a->diags.count;
    if (analysis__add_parse_errors_in(a, e->start, e->end) != 0 ||
        analysis__check_rules(a, options, element, index) != 0)
        return -1;
    if (options->settings)
        analysis__apply_severities(a, options, count, false);
    diag_list_sort_from(&a->diags, count);
    if (analysis__apply_baseline(a, options, count, index) != 0)
        return -1;
    /* [0, lo): before the element; [lo, hi): its old diagnostics; [hi, count): after it;
     * [count, total): its new ones. */
    uint32_t lo = first_diagnostic_from(a, 0, count, e->start);
    uint32_t hi = first_diagnostic_from(a, lo, count, old_end + 1);
    /* The diagnostics after the element move by a pending move when the tree's do: a related
     * place of theirs is then in their own source (a duplicate key's; a syntax error's may be
     * the root's bracket, which does not move). */
    bool defer = a->doc.defer_moves && nodes == 0 && !has_syntax_error(&a->doc);
    analysis__settle_diagnostics(a, defer ? hi : count, count);
    uint32_t added = a->diags.count - count;
    struct diagnostic *fresh = NULL;
    if (added > 0) {
        fresh = malloc((size_t)added * sizeof *fresh);
        if (fresh == NULL)
            return -1;
        memcpy(fresh, a->diags.items + count, (size_t)added * sizeof *fresh);
    }
    struct diagnostic *items = a->diags.items;    /* NULL when there never was a diagnostic */
    uint32_t at = lo + added, after = count - hi; /* where those after the element go */
    if (after > 0 && at != hi)
        memmove(items + at, items + hi, (size_t)after * sizeof *items);
    /* moved one by one: all of them, or those before a move pending further on */
    uint32_t pending = !defer                ? at + after
                       : a->diags_moved != 0 ? a->diags_moved_from - hi + at
                                             : at;
    for (uint32_t i = at; i < pending; i++)
        shift_diagnostic(&items[i], bytes, old_end, old_tail, nodes);
    if (defer) {
        a->diags_moved_from = pending;
        a->diags_moved += bytes;
    }
    if (added > 0)
        memcpy(items + lo, fresh, (size_t)added * sizeof *fresh);
    free(fresh);
    a->diags.count = lo + added + (count - hi);
    *delta = (struct analysis_delta){lo, hi - lo, added};
    for (uint32_t i = index + 1; nodes != 0 && i < a->element_count; i++)
        a->elements[i] += nodes;
    return 1;
}

/* Whether another element of a bulk document has the "name" of element `index`: the baseline's
 * entries of that name hold the findings of both. The nodes of the elements after `index` are
 * `shift` further on than a->elements says (a splice inside `index`, modulo 2^32). */
static bool name_shared(struct analysis *a, uint32_t index, uint32_t shift)
{
    uint32_t name = json_object_get(&a->doc, a->elements[index], JSON_LITERAL(ENVELOPE_NAME));
    if (name == JSON_NONE || a->doc.nodes[name].kind != JSON_STRING)
        return false;
    struct json_str mine = json_node_string(&a->doc, name);
    for (uint32_t i = 0; i < a->element_count; i++) {
        uint32_t node = a->elements[i] + (i > index ? shift : 0);
        uint32_t other =
            i != index ? json_object_get(&a->doc, node, JSON_LITERAL(ENVELOPE_NAME)) : JSON_NONE;
        if (other == JSON_NONE || a->doc.nodes[other].kind != JSON_STRING)
            continue;
        struct json_str s = json_node_string(&a->doc, other);
        if (s.len == mine.len && memcmp(s.ptr, mine.ptr, s.len) == 0)
            return true;
    }
    return false;
}

/* Whether the name of element `index`, after an edit of that element, is now another element's:
 * counted by hash (the same hash as before, kept by no other, is the common case), and when
 * another has the same hash, compared with every other (the tree settled first). The old text is
 * not read: the buffer that held it may hold the new one now (text_buffer moves either side). */
static bool name_maybe_shared(struct analysis *a, uint32_t index)
{
    if (a->names != NULL && !duplicate_names_recount(a, a->names, index))
        return false;
    analysis_settle_moves(a);
    return duplicate_names_shared(&a->doc, a->elements, a->element_count, index);
}

/* Any other document: classified and checked again whole (the parse is what the splice saved;
 * such documents are one source or one job). */
static int rediagnose(struct analysis *a, const struct analysis_options *options,
                      struct analysis_delta *delta)
{
    uint32_t removed = a->diags.count;
    analysis_settle_moves(a); /* every reader of the tree runs */
    a->diags.count = 0;
    arena_free(&a->arena);
    arena_init(&a->arena);
    a->ignore_hits = NULL; /* it was in the arena (written after the free: a message lost) */
    if (analysis__diagnose(a, options) != 0)
        return -1;
    *delta = (struct analysis_delta){0, removed, a->diags.count};
    return 1;
}

int analysis_update(struct analysis *a, const char *text, size_t len, struct json_edit edit,
                    const struct analysis_options *options, struct analysis_delta *delta)
{
    struct analysis_delta ignored;
    if (delta == NULL)
        delta = &ignored;
    static const struct analysis_options syntax_only = {0};
    if (options == NULL)
        options = &syntax_only;
    if (arenas_overgrown(a) || (a->document == DOCUMENT_BULK && a->duplicate_names))
        return 0; /* a name's duplicates are elsewhere in the file: a whole analysis */
    /* the names the whole analysis listed: an edit moves and changes nodes */
    analysis__forget_names(a);
    a->registry = options->registry;
    a->settings = options->settings;
    if (len >= JSON_NONE)
        return 0;
    /* What reads other sources than the edited one (the "ignore" entries' pointers, the
     * baseline's names) reads a settled tree; the rest only the edited source. */
    a->doc.defer_moves = options->defer_moves && options->baseline == NULL &&
                         (options->settings == NULL || options->settings->ignore_count == 0);
    if (!a->doc.defer_moves)
        analysis_settle_moves(a);
    json_doc_settle_at(&a->doc, edit.start);
    struct json_splice splice;
    int spliced = json_splice(&a->doc, text, (uint32_t)len, edit, options->parse, &splice);
    if (spliced <= 0)
        return spliced;
    if (line_index_update(&a->lines, text, len, edit.start, edit.old_end, edit.inserted) != 0)
        return -1;
    if (a->document != DOCUMENT_BULK || options->registry == NULL)
        return rediagnose(a, options, delta);
    uint32_t element;
    uint32_t index = element_holding(a, splice.node, &element);
    if (!envelope_is_source(&a->doc, element))
        return 0; /* no longer a bulk document */
    /* The element's start did not move; its end moved with the edit (it holds it). */
    uint32_t old_end = a->doc.nodes[element].end - (edit.inserted - (edit.old_end - edit.start));
    if (options->baseline != NULL && name_shared(a, index, splice.new_nodes - splice.old_nodes))
        return 0; /* the other element's findings take the same entries: a whole analysis */
    int status = recheck_element(a, options, &splice, element, index, old_end, delta);
    if (status == 1 && name_maybe_shared(a, index))
        return 0; /* its name is now another's: both are reported, a whole analysis */
    return status;
}
