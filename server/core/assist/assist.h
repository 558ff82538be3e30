/* assist: the editor features over an analysis (completion, hover, field texts, fixes, outline,
 * navigation, inlay hints, excerpts). The entry header of server/core/assist/, the one header the
 * layers above include. */
#ifndef SRCLS_ASSIST_LAYER_H
#define SRCLS_ASSIST_LAYER_H

#include "complete.h"
#include "hover.h"
#include "field_text.h"
#include "fix.h"
#include "symbols.h"
#include "navigation.h"
#include "inlay.h"
#include "excerpt.h"

#endif
