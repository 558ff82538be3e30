/* check: a document checked against the schema (the analysis, the doors' entry point; kind
 * resolution, the schema at a node, the rule engine, conditions, value formats, suggestions, the
 * review of a change). The entry header of server/core/check/, the one header the layers above
 * include. */
#ifndef SRCLS_CHECK_LAYER_H
#define SRCLS_CHECK_LAYER_H

#include "analysis.h"
#include "kind_resolve.h"
#include "schema_at.h"
#include "rules.h"
#include "condition.h"
#include "value_format.h"
#include "suggest.h"
#include "review.h"
#include "baseline.h"
#include "duplicate_names.h"

#endif
