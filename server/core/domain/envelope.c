/* envelope: the top-level keys of source and job objects. */
#include "envelope.h"

uint32_t envelope_type(struct json_doc *doc, uint32_t source)
{
    return json_object_get(doc, source, JSON_LITERAL(ENVELOPE_TYPE));
}

uint32_t envelope_config(struct json_doc *doc, uint32_t source)
{
    return json_object_get(doc, source, JSON_LITERAL(ENVELOPE_CONFIG));
}

uint32_t envelope_name(struct json_doc *doc, uint32_t source)
{
    return json_object_get(doc, source, JSON_LITERAL(ENVELOPE_NAME));
}

bool envelope_is_type(struct json_doc *doc, uint32_t member)
{
    return json_node_key_equals(doc, member, JSON_LITERAL(ENVELOPE_TYPE));
}

bool envelope_is_config(struct json_doc *doc, uint32_t member)
{
    return json_node_key_equals(doc, member, JSON_LITERAL(ENVELOPE_CONFIG));
}

bool envelope_is_source(struct json_doc *doc, uint32_t node)
{
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_OBJECT)
        return false;
    const struct json_node *config = json_node_at(doc, envelope_config(doc, node));
    const struct json_node *type = json_node_at(doc, envelope_type(doc, node));
    return (config != NULL && config->kind == JSON_OBJECT) ||
           (type != NULL && type->kind == JSON_STRING);
}

bool envelope_is_job(struct json_doc *doc, uint32_t node)
{
    return json_object_get(doc, node, JSON_LITERAL(ENVELOPE_JOB_STATE)) != JSON_NONE;
}

enum document_kind envelope_classify(struct json_doc *doc)
{
    const struct json_node *root = json_node_at(doc, doc->root);
    if (root == NULL)
        return DOCUMENT_UNKNOWN;
    if (root->kind == JSON_OBJECT) {
        if (envelope_is_job(doc, doc->root))
            return DOCUMENT_JOB;
        return envelope_is_source(doc, doc->root) ? DOCUMENT_SOURCE : DOCUMENT_UNKNOWN;
    }
    if (root->kind == JSON_ARRAY && root->first_child != JSON_NONE) {
        for (uint32_t e = root->first_child; e != JSON_NONE; e = doc->nodes[e].next) {
            if (!envelope_is_source(doc, e))
                return DOCUMENT_UNKNOWN;
        }
        return DOCUMENT_BULK;
    }
    return DOCUMENT_UNKNOWN;
}

const char *document_kind_name(enum document_kind kind)
{
    switch (kind) {
    case DOCUMENT_SOURCE:
    case DOCUMENT_BULK: return "source";
    case DOCUMENT_JOB: return "job";
    case DOCUMENT_UNKNOWN: break;
    }
    return "unknown";
}
