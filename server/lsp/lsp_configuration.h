/* lsp_configuration: the srcls settings (severities, kind identifiers) from initialize's
 * initializationOptions and from workspace/didChangeConfiguration. */
#ifndef SRCLS_LSP_CONFIGURATION_H
#define SRCLS_LSP_CONFIGURATION_H

#include "lsp_state.h"

/* Reads initializationOptions; no capability. */
void lsp_configuration_initialize(struct lsp_server *s, struct lsp_request *initialize,
                                  struct json_writer *capabilities);
/* Reads the new settings and publishes every open document's diagnostics again. */
void lsp_configuration_did_change(struct lsp_server *s, struct lsp_request *req);

/* initialized: registers for changes of srcls.json files when the client can be asked to. */
void lsp_configuration_initialized(struct lsp_server *s, struct lsp_request *req);
/* workspace/didChangeWatchedFiles: a srcls.json changed, so every document is checked again. */
void lsp_configuration_watched_files(struct lsp_server *s, struct lsp_request *req);
/* textDocument/didSave: for a client that registers no file watchers (Neovim 0.7), a
 * srcls.json, a file one extends or a kind file saved in the editor is what a watcher would have
 * said: the projects are read again and every document checked again. A client that watches
 * files says so through workspace/didChangeWatchedFiles, and its saves change nothing here. */
void lsp_configuration_did_save(struct lsp_server *s, struct lsp_request *req);

#endif
