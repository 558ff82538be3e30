/* domain: what a document of the API is before any schema (the envelope and the classification of
 * a document, secrets, diagnostics and the table of codes, settings). The entry header of
 * server/core/domain/, the one header the layers above include. */
#ifndef SRCLS_DOMAIN_LAYER_H
#define SRCLS_DOMAIN_LAYER_H

#include "envelope.h"
#include "secret.h"
#include "diagnostic.h"
#include "codes.h"
#include "placeholder.h"
#include "settings.h"
#include "glob.h"
#include "suppress.h"

#endif
