/* json_splice: an edit applied to a parsed document without parsing all of it again.
 *
 * The smallest value whose bytes hold the edit is parsed again on its own; when its new text
 * is one valid value, its nodes replace the old ones in place and everything after it moves
 * by the edit's length. The tree is then node for node the tree a fresh parse of the new text
 * builds (same indices, same ranges, same links), which is what makes the splice safe for
 * every reader of the tree. Only a document without syntax errors is spliced: error recovery
 * reads context beyond a value, so an erroneous document is always parsed whole. */
#ifndef SRCLS_JSON_SPLICE_H
#define SRCLS_JSON_SPLICE_H

#include <stdint.h>

#include "json_doc.h"

/* Bytes [start, old_end) of the old text became `inserted` bytes; the new text is the old one
 * with that change. */
struct json_edit {
    uint32_t start, old_end, inserted;
};

/* What a splice replaced: the old value's node and bytes, and what moved. */
struct json_splice {
    uint32_t node;               /* the value re-parsed: its index, before and after */
    uint32_t old_start, old_end; /* its bytes before the edit */
    uint32_t old_nodes;          /* nodes in its subtree before; after: see new_nodes */
    uint32_t new_nodes;
};

/* Applies `edit` to `doc`, whose text is now `text` (`len` bytes). Returns 1 when the tree was
 * spliced (`out` says what changed), 0 when it cannot be (a syntax error before or after, the
 * edit reaches beyond every value but the root, a limit): then `doc` is unchanged and still of
 * the old text, and the caller parses the new text whole; -1 when memory ran out, with the same
 * guarantee. `options` as for json_parse (NULL: the defaults). */
int json_splice(struct json_doc *doc, const char *text, uint32_t len, struct json_edit edit,
                const struct json_parse_options *options, struct json_splice *out);

#endif
