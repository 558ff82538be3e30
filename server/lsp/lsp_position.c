/* lsp_position: positions and ranges in and out of LSP messages. */
#include "lsp_position.h"

#include "lsp_jsonrpc.h"

enum position_encoding lsp_position_negotiate(struct json_doc *doc, uint32_t encodings)
{
    if (encodings == JSON_NONE || doc->nodes[encodings].kind != JSON_ARRAY)
        return POSITION_UTF16;
    for (uint32_t e = doc->nodes[encodings].first_child; e != JSON_NONE; e = doc->nodes[e].next) {
        if (json_node_string_equals(doc, e, "utf-8", 5))
            return POSITION_UTF8;
    }
    return POSITION_UTF16;
}

const char *lsp_position_encoding_name(enum position_encoding encoding)
{
    return encoding == POSITION_UTF8 ? "utf-8" : "utf-16";
}

bool lsp_position_read(struct json_doc *doc, uint32_t node, struct text_position *out)
{
    return lsp_jsonrpc_get_uint(doc, lsp_jsonrpc_get(doc, node, "line"), &out->line) &&
           lsp_jsonrpc_get_uint(doc, lsp_jsonrpc_get(doc, node, "character"), &out->character);
}

bool lsp_position_read_range(struct json_doc *doc, uint32_t node, struct text_position *start,
                             struct text_position *end)
{
    return lsp_position_read(doc, lsp_jsonrpc_get(doc, node, "start"), start) &&
           lsp_position_read(doc, lsp_jsonrpc_get(doc, node, "end"), end);
}
