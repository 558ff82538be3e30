/* settings: what a user or project can change — severity per code (or "off") and extra type
 * identifiers mapped onto kinds. Read from srcls.json, LSP initializationOptions and
 * workspace/didChangeConfiguration, all in the same shape:
 *   {"rules": {"unknown-field": "error"}, "types": {"MY_ID": "CLOUDA_OBJECT_STORAGE"}}
 * ("severity" is accepted as another name for "rules"). */
#ifndef SRCLS_SETTINGS_H
#define SRCLS_SETTINGS_H

#include "base/base.h"
#include "diagnostic.h"
#include "json/json.h"
#include "placeholder.h"
#include "suppress.h"

/* The keys of the settings object ("severity" is another name for "rules"). */
#define SETTINGS_KEY_RULES "rules"
#define SETTINGS_KEY_SEVERITY "severity"
#define SETTINGS_KEY_TYPES "types"
/* Directory scans of `--check` (arrays of globs, read by the command line's walk). */
#define SETTINGS_KEY_INCLUDE "include"
#define SETTINGS_KEY_EXCLUDE "exclude"
/* Directories of a team's own kind files, relative to the srcls.json (read by the doors, which
 * build the registry from them: schema_custom.h). */
#define SETTINGS_KEY_SCHEMAS "schemas"
/* The syntaxes of templated values ("${NAME}", ...: placeholder.h): a string value holding one is
 * checked as filled in later. */
#define SETTINGS_KEY_PLACEHOLDERS "placeholders"
/* Findings silenced, with the reason (suppress.h). */
#define SETTINGS_KEY_IGNORE "ignore"
/* The baseline file of `--check` (a path relative to the srcls.json, read by the doors). */
#define SETTINGS_KEY_BASELINE "baseline"
/* Other srcls.json files this one builds on (a path or a list, relative to this one's directory:
 * the project reads them, project.h). */
#define SETTINGS_KEY_EXTENDS "extends"

struct settings_severity {
    enum diag_code code;
    enum diag_severity severity;
};

struct settings_type {
    const char *id;
    const char *kind_type; /* a canonical identifier of a kind */
};

/* Strings of an array of srcls.json, in the settings' arena. The first `inherited` come from
 * the files the srcls.json extends; for a glob, `from` (NULL, or an entry per item, NULL for
 * none) is the path from the directory of the file that wrote it to the settings' own
 * (glob_match_from). */
struct settings_strings {
    const char **items;
    const char **from;
    uint32_t count;
    uint32_t inherited;
};

struct settings {
    struct settings_severity *severities;
    uint32_t severity_count;
    struct settings_type *types;
    uint32_t type_count;
    struct placeholder_pattern *placeholders; /* texts in `arena` */
    uint32_t placeholder_count;
    struct settings_ignore *ignores; /* "ignore" (suppress.h), in the order written */
    uint32_t ignore_count;
    /* "include" and "exclude" (globs: glob.h) and "schemas" (directories), as written: relative
     * to the srcls.json's directory; its mistaken entries left out (they are problems). */
    struct settings_strings include, exclude, schemas;
    const char *baseline;            /* "baseline", as written, or NULL */
    struct settings_strings extends; /* "extends", as written (a string is a list of one) */
    /* The files extended, directly or not, as resolved (project_analyze_schema; the first 64) */
    struct settings_strings extended;
    uint32_t ignore_inherited; /* the first ignores come from the files extended */
    struct arena arena;
};

void settings_init(struct settings *settings);
void settings_free(struct settings *settings);
/* Reads `node` (an object of the shape above) into `settings`, replacing what it held. Unknown
 * codes and severities are skipped; problems are appended to `problems` (may be NULL) as a
 * human-readable line each. */
void settings_read(struct settings *settings, struct json_doc *doc, uint32_t node, char *problems,
                   size_t problems_size);
/* The same, where a door reads more keys itself (`door_keys`, NULL-terminated, e.g. the LSP
 * door's "maxDiagnostics"): those keys are not reported as unknown. */
void settings_read_door(struct settings *settings, struct json_doc *doc, uint32_t node,
                        const char *const *door_keys, char *problems, size_t problems_size);
/* `over` laid over `base` into `out` (replacing what it held): where both set a code or a type
 * identifier, `over`'s wins; the lists ("ignore", "include", "exclude", "schemas") are `base`'s
 * then `over`'s; "placeholders" and "baseline" are `over`'s when it has them. The editor's
 * settings over a project's srcls.json. Returns 0, or -1 when memory ran out (then `out` is
 * empty). */
int settings_merge(struct settings *out, const struct settings *base, const struct settings *over);

/* `over` (a srcls.json's own settings) built on `base` (those of the files it extends) into `out`
 * (replacing what it held): settings_merge, but every list is `base`'s then `over`'s
 * ("placeholders" too), and the items from `base` are counted as inherited. 0, or -1 when
 * memory ran out (then `out` is empty). */
int settings_extend(struct settings *out, const struct settings *base, const struct settings *over);
/* The settings of a srcls.json that another, in the directory `home`, extends, made relative to
 * that one: each glob ("include", "exclude", "ignore"'s "files") marked as written `from` (the
 * path from this file's directory to `home`, with a trailing '/'), each path ("schemas",
 * "baseline") joined to `dir`, this file's directory, unless absolute; each "ignore" entry
 * marked as written in `path`, this file. 0, or -1 when memory ran out. */
int settings_rebase(struct settings *settings, const char *from, const char *dir, const char *path);
/* Whether one of the globs `globs` matches `path` (relative to the settings' directory). */
bool settings_glob_match(const struct settings_strings *globs, const char *path);

/* `applied` with each code of the group `group` at the stricter (the more severe; off least) of
 * its severity in `applied` and in `other`, into `out` (replacing what it held): under --base,
 * the security group at the stricter of the base's settings and the working tree's, so that a
 * change cannot turn the gate off and a risk on at once. 0, or -1 when memory ran out (then
 * `out` is empty). */
int settings_stricter(struct settings *out, const struct settings *applied,
                      const struct settings *other, const char *group);
/* The severity for `code` after overrides: the override, else `fallback`. */
enum diag_severity settings_severity(const struct settings *settings, enum diag_code code,
                                     enum diag_severity fallback);
/* The first placeholder in the string value `node` (false for any other node, and when the
 * settings name no placeholder syntax): a value filled in later. */
bool settings_placeholder(const struct settings *settings, const struct json_doc *doc,
                          uint32_t node, struct placeholder_match *m);
/* The syntaxes a string is taken to be a template in when the settings name none ("${NAME}",
 * "{{ NAME }}"). */
#define SETTINGS_TEMPLATE_SYNTAXES "\"${NAME}\", \"{{ NAME }}\""
/* Whether the string value `node` looks like a template (it holds one of
 * SETTINGS_TEMPLATE_SYNTAXES) while the settings name no placeholder syntax: it gets a hint
 * (project-config), and no fix rewrites it. */
bool settings_template_unconfigured(const struct settings *settings, const struct json_doc *doc,
                                    uint32_t node);
/* The path of the settings' baseline file (malloc'd): "baseline" from `dir` (the srcls.json's
 * directory) unless it is absolute; NULL when there is none (settings->baseline is NULL) or
 * memory ran out. */
char *settings_baseline_path(const struct settings *settings, const char *dir);
/* The kind identifier `id` maps to, or NULL. */
const char *settings_type(const struct settings *settings, const char *id, size_t len);

/* The edit of a srcls.json's `text` (`len` bytes; none or blank: a file to create) that adds
 * `item` (JSON text) to its top-level member `key`: an element of that array (`array`: each on a
 * line of its own), or a member of that object (!array: `item_key`, the new member's key as
 * decoded, must not be there yet; members follow each other on a line). The member is added at
 * the end of the root object when it is absent. Bytes [*start, *end) become the returned text
 * (in `arena`). NULL when the text is not a JSON object without syntax errors, when `key` holds
 * something else, when `item_key` is there already, or when memory ran out. The one way srcls
 * edits a srcls.json (the editor's quick fixes that add an "ignore" entry or a "types"
 * mapping). */
const char *settings_edit_add(const char *text, size_t len, const char *key, bool array,
                              const char *item_key, const char *item, struct arena *arena,
                              uint32_t *start, uint32_t *end);

#endif
