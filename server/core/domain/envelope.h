/* envelope: the keys that make a JSON object a source or a job, spelled once. A source object
 * has a `config` object and/or a `type` string (the kind's identifier); a job object has a
 * `jobState`. What else these objects hold is schema data (schema/source.json, schema/job.json);
 * these three decide which schema applies, so they are known before any schema is loaded. */
#ifndef SRCLS_ENVELOPE_H
#define SRCLS_ENVELOPE_H

#include <stdbool.h>
#include <stdint.h>

#include "json/json.h"

#define ENVELOPE_TYPE "type"
#define ENVELOPE_CONFIG "config"
#define ENVELOPE_JOB_STATE "jobState"
/* A source's own name: not what decides the schema, but what names a source in a bulk file's
 * outline. */
#define ENVELOPE_NAME "name"

/* The `type` member of the object `source`, or JSON_NONE. */
uint32_t envelope_type(struct json_doc *doc, uint32_t source);
/* The `config` member of the object `source`, or JSON_NONE. */
uint32_t envelope_config(struct json_doc *doc, uint32_t source);

/* The `name` member of the object `source`, or JSON_NONE. */
uint32_t envelope_name(struct json_doc *doc, uint32_t source);

/* Whether `member` is the `type` member, or the `config` member (of whatever object). */
bool envelope_is_type(struct json_doc *doc, uint32_t member);
bool envelope_is_config(struct json_doc *doc, uint32_t member);

/* Whether `node` is a source object: an object with a `config` object or a `type` string. */
bool envelope_is_source(struct json_doc *doc, uint32_t node);
/* Whether the object `node` is a job object: it has a `jobState` key. */
bool envelope_is_job(struct json_doc *doc, uint32_t node);

enum document_kind {
    DOCUMENT_UNKNOWN,
    DOCUMENT_SOURCE, /* one source object */
    DOCUMENT_BULK,   /* a top-level array of source objects */
    DOCUMENT_JOB,
};

/* Classifies a parsed document: source (a `config` object and/or a `type` string at the top
 * level), job (a `jobState` key), bulk (an array whose elements are sources), or unknown. */
enum document_kind envelope_classify(struct json_doc *doc);
/* "source" (a source or a bulk file), "job" or "unknown", as the doors print it. */
const char *document_kind_name(enum document_kind kind);

#endif
