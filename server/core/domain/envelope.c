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
