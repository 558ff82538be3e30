/* lsp_projects: the srcls.json that applies to each document — the nearest one upwards from the
 * document's file, as `srcls --check` finds it — read from disk once and kept until a watched
 * file changes, with the editor's settings laid over it. */
#ifndef SRCLS_LSP_PROJECTS_H
#define SRCLS_LSP_PROJECTS_H

#include <stdbool.h>
#include <uv.h>

#include "schema.h"
#include "settings.h"

struct lsp_project {
    char *path;             /* DIR/srcls.json (owned) */
    bool usable;            /* read, and without a mistake */
    struct settings merged; /* its settings with the editor's over them */
    struct settings own;    /* its settings alone */
    struct lsp_project *next;
};

struct lsp_projects {
    uv_loop_t *loop;
    const struct schema_registry *registry;
    const struct settings *editor; /* the editor's settings (not owned) */
    struct lsp_project *first;
};

void lsp_projects_init(struct lsp_projects *projects, uv_loop_t *loop,
                       const struct schema_registry *registry, const struct settings *editor);
void lsp_projects_free(struct lsp_projects *projects);
/* The settings for the document `uri`: its nearest srcls.json's with the editor's over them, or
 * the editor's alone (no file URI, no srcls.json, or one with a mistake). Never NULL. */
const struct settings *lsp_projects_settings_for(struct lsp_projects *projects, const char *uri);
/* The srcls.json that applies to the document `uri` — its path in `*config_path` and its text
 * in `*text` (both malloc'd), returning 1 — or, when there is none, the path of one to create
 * beside the document (`*text` NULL), returning 0; -1 when neither can be had. */
int lsp_projects_config_text(struct lsp_projects *projects, const char *uri, char **config_path,
                             char **text, size_t *len);
/* Forgets every srcls.json read (one changed on disk); the next lookups read them again. */
void lsp_projects_forget(struct lsp_projects *projects);
/* The editor's settings changed: lays them over each srcls.json again. */
void lsp_projects_editor_changed(struct lsp_projects *projects);

#endif
