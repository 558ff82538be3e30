/* lsp_workspace: the workspace folders, and workspace/diagnostic — the diagnostics of every
 * source and job document under them, opened or not. */
#ifndef SRCLS_LSP_WORKSPACE_H
#define SRCLS_LSP_WORKSPACE_H

#include "lsp_state.h"

/* Reads the workspace folders (workspaceFolders, else rootUri, else rootPath). */
void lsp_workspace_initialize(struct lsp_server *s, struct lsp_request *initialize,
                              struct json_writer *capabilities);
/* workspace/diagnostic: a report per source or job document under the folders, with a resultId
 * (an unchanged file, by its resultId in previousResultIds, costs one stat). */
void lsp_workspace_diagnostic_request(struct lsp_server *s, struct lsp_request *req);
void lsp_workspace_free(struct lsp_server *s);

#endif
