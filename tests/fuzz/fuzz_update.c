/* fuzz_update: the incremental analysis on arbitrary documents and edits. The input is a
 * document, then edits, separated by the byte 0xFF (which valid UTF-8 never holds): each edit is
 * two bytes of position and one of length (little-endian, taken modulo the text) followed by the
 * bytes inserted. After every edit the analysis updated in place (analysis_update, or
 * analysis_run where it declines) must be the analysis of the new text run afresh: the same
 * nodes, errors, line starts, bulk elements and diagnostics (what the editor shows: code,
 * severity, range, message), field for field. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "fuzz.h"

#define SEPARATOR 0xFF
#define MAX_EDITS 16

static bool same_string(const char *a, const char *b)
{
    return (a == NULL || b == NULL) ? a == b : strcmp(a, b) == 0;
}

static void check_same(const struct analysis *a, const struct analysis *b)
{
    FUZZ_CHECK(a->doc.len == b->doc.len && a->doc.root == b->doc.root);
    FUZZ_CHECK(a->doc.node_count == b->doc.node_count);
    for (uint32_t i = 0; i < a->doc.node_count; i++) {
        /* the updated tree read through the move it left pending (defer_moves) */
        const struct json_node *x = &a->doc.nodes[i], *y = &b->doc.nodes[i];
        FUZZ_CHECK(json_moved(&a->doc, i, x->start) == y->start &&
                   json_moved(&a->doc, i, x->end) == y->end);
        FUZZ_CHECK(x->key_start == JSON_NONE
                       ? y->key_start == JSON_NONE && x->key_end == y->key_end
                       : json_moved(&a->doc, i, x->key_start) == y->key_start &&
                             json_moved(&a->doc, i, x->key_end) == y->key_end);
        FUZZ_CHECK(x->parent == y->parent && x->first_child == y->first_child &&
                   x->next == y->next);
        FUZZ_CHECK(x->kind == y->kind && x->flags == y->flags);
    }
    FUZZ_CHECK(a->doc.error_count == b->doc.error_count);
    FUZZ_CHECK(a->doc.errors_dropped == b->doc.errors_dropped);
    for (uint32_t i = 0; i < a->doc.error_count; i++) {
        const struct json_error *x = &a->doc.errors[i], *y = &b->doc.errors[i];
        FUZZ_CHECK(x->code == y->code && x->start == y->start && x->end == y->end);
        FUZZ_CHECK(x->related_start == y->related_start && x->related_end == y->related_end);
        FUZZ_CHECK(strcmp(x->message, y->message) == 0);
    }
    FUZZ_CHECK(a->lines.count == b->lines.count);
    for (uint32_t line = 0; line < a->lines.count; line++)
        FUZZ_CHECK(line_index_start(&a->lines, line) == line_index_start(&b->lines, line));
    FUZZ_CHECK(a->document == b->document && same_string(a->kind, b->kind));
    FUZZ_CHECK(a->element_count == b->element_count);
    FUZZ_CHECK(a->element_count == 0 ||
               memcmp(a->elements, b->elements, a->element_count * sizeof(uint32_t)) == 0);
    FUZZ_CHECK(a->diags.count == b->diags.count);
    for (uint32_t i = 0; i < a->diags.count; i++) {
        struct diagnostic moved = analysis_diagnostic(a, i); /* through a pending move */
        const struct diagnostic *x = &moved, *y = &b->diags.items[i];
        FUZZ_CHECK(x->code == y->code && x->severity == y->severity);
        FUZZ_CHECK(x->start == y->start && x->end == y->end);
        FUZZ_CHECK(x->related_start == y->related_start && x->related_end == y->related_end);
        FUZZ_CHECK(same_string(x->message, y->message) && same_string(x->pointer, y->pointer));
        FUZZ_CHECK(same_string(x->related_message, y->related_message));
        FUZZ_CHECK(x->node == y->node && x->field == y->field);
        FUZZ_CHECK(same_string(x->suggestion, y->suggestion));
    }
}

/* Applies one encoded edit to `text` (`*len` bytes, room for `cap`); false when the input has
 * no room for one. */
static bool next_edit(const uint8_t **data, const uint8_t *end, char *text, size_t *len, size_t cap,
                      struct json_edit *edit)
{
    if (end - *data < 3)
        return false;
    uint32_t at = (uint32_t)((*data)[0] | (*data)[1] << 8);
    uint32_t removed = (*data)[2];
    *data += 3;
    const uint8_t *stop = memchr(*data, SEPARATOR, (size_t)(end - *data));
    size_t inserted = (size_t)((stop ? stop : end) - *data);
    uint32_t start = *len ? at % (uint32_t)(*len + 1) : 0;
    uint32_t old_end = start + removed <= *len ? start + removed : (uint32_t)*len;
    if (*len - (old_end - start) + inserted > cap)
        inserted = cap - (*len - (old_end - start));
    memmove(text + start + inserted, text + old_end, *len - old_end);
    memcpy(text + start, *data, inserted);
    *len = *len - (old_end - start) + inserted;
    *data = stop ? stop + 1 : end;
    *edit = (struct json_edit){start, old_end, (uint32_t)inserted};
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *end = data + size;
    const uint8_t *cut = memchr(data, SEPARATOR, size);
    size_t len = (size_t)((cut ? cut : end) - data);
    size_t cap = size + 1;
    char *text = malloc(cap);
    if (text == NULL)
        return 0;
    memcpy(text, data, len);
    data = cut ? cut + 1 : end;
    struct analysis_options options = {
        .report_unknown_document = true, .registry = fuzz_registry(), .defer_moves = true};
    struct analysis live;
    if (analysis_run(&live, text, len, &options) != 0) {
        analysis_free(&live);
        free(text);
        return 0;
    }
    struct json_edit edit;
    for (int n = 0; n < MAX_EDITS && next_edit(&data, end, text, &len, cap, &edit); n++) {
        if (analysis_update(&live, text, len, edit, &options, NULL) != 1) {
            analysis_free(&live);
            if (analysis_run(&live, text, len, &options) != 0)
                break;
        }
        struct analysis fresh;
        if (analysis_run(&fresh, text, len, &options) == 0)
            check_same(&live, &fresh);
        analysis_free(&fresh);
    }
    analysis_free(&live);
    free(text);
    return 0;
}
