/* json: JSON text with no meaning attached (the parser and its tree, strings, pointers, edits,
 * the line index, writing and formatting). The entry header of server/core/json/, the one header
 * the layers above include. */
#ifndef SRCLS_JSON_LAYER_H
#define SRCLS_JSON_LAYER_H

#include "json_doc.h"
#include "json_string.h"
#include "json_pointer.h"
#include "json_splice.h"
#include "json_write.h"
#include "line_index.h"
#include "format.h"

#endif
