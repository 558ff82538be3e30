/* lsp_workspace: the workspace folders, and workspace/diagnostic — the diagnostics of every
 * source and job document under them, opened or not. */
#ifndef SRCLS_LSP_WORKSPACE_H
#define SRCLS_LSP_WORKSPACE_H

#include "lsp_state.h"

/* Reads the workspace folders (workspaceFolders, else rootUri, else rootPath). */
void lsp_workspace_initialize(struct lsp_server *s, struct lsp_request *initialize,
                              struct json_writer *capabilities);
/* workspace/diagnostic: a report per source or job document under the folders, with a resultId
 * (an unchanged file, by its resultId in previousResultIds, costs one stat); answered once the
 * files are checked on libuv's thread pool, the loop serving other messages meanwhile. */
void lsp_workspace_diagnostic_request(struct lsp_server *s, struct lsp_request *req);
void lsp_workspace_free(struct lsp_server *s);
/* $/cancelRequest: a pull named is answered cancelled at once, and what is left of it dropped
 * (a request cancelled in the batch it came with is refused before it starts: lsp_server). */
void lsp_workspace_cancel(struct lsp_server *s, struct lsp_request *req);
/* Waits until no worker of a pull is checking a file: called before the settings or the
 * projects the workers read change (a batch's worth of files at most). */
void lsp_workspace_quiesce(struct lsp_server *s);
/* The server stops: the workers end the batches they work on and stop (the pulls left are freed
 * by lsp_workspace_free). */
void lsp_workspace_close(struct lsp_server *s);

#endif
