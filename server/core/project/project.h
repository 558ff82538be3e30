/* project: the project configuration, srcls.json, as a document — its settings, and its own
 * mistakes as diagnostics with ranges (syntax errors, and `project-config` at the member or
 * value concerned), so that an editor shows them where they are written. */
#ifndef SRCLS_PROJECT_H
#define SRCLS_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "check/check.h"
#include "assist/assist.h"
#include "schema/schema.h"
#include "domain/domain.h"

/* The file name of a project configuration. */
#define PROJECT_FILE_NAME "srcls.json"

/* Whether `path` (or a URI) names a project configuration: its last segment is srcls.json. */
bool project_is_config(const char *path, size_t len);

/* The srcls.json that governs the files of the directory `dir` (no trailing '/', the root
 * ""): the first
 * `dir`/srcls.json, then each directory above (up to "/srcls.json" for an absolute `dir`), of
 * which `exists(ctx, candidate)` says yes. It goes into `*found` (malloc'd; NULL when none).
 * The one upward search of both doors. Returns 1 when found, 0 when none, -1 when memory ran
 * out. */
int project_config_find(const char *dir, bool (*exists)(void *ctx, const char *candidate),
                        void *ctx, char **found);

/* `path` from the directory `dir` (unless absolute), without "." and ".." segments or repeated
 * slashes, in `arena` (NULL when memory ran out). */
char *project_path_join(struct arena *arena, const char *dir, const char *path);
/* The path from the directory `from` to the directory `to` (both as project_path_join makes
 * them, both absolute or both relative to the same directory), with a trailing '/' ("sub/",
 * "../app/"), "" for the same directory; in `arena` (NULL when memory ran out). */
char *project_path_from(struct arena *arena, const char *from, const char *to);

/* Analyses `text` (which must outlive `out`) as a project configuration into `out` (freed with
 * analysis_free), and, when it has no mistake, reads its settings into `settings` (replacing
 * them); with a mistake `settings` is left as it was: a configuration is never half applied.
 * Returns 1 when the settings were read, 0 when the configuration has mistakes, -1 when memory
 * ran out. */
int project_analyze(struct analysis *out, const char *text, size_t len,
                    const struct schema_registry *registry, struct settings *settings);

/* Under `--base`: what a change of a srcls.json since the version called `base_name` does to
 * the gate, as risky-change diagnostics of `severity` (none when off) added to `now`, sorted in.
 * `now` is project_analyze's analysis of its text now, with `now_settings` its own settings (an
 * analysis of "" when it was deleted, with the settings that govern its directory now: then
 * each finding is about the whole file); `base` and `base_settings` the same at the base (NULL
 * when it had none: compared with the defaults). Reported, each at the member that changed (for a
 * removed key, the object that held it): a code turned off or lowered under "rules" (one finding
 * per member, counting the codes it lowers); an "ignore" entry that no entry at the base equals in
 * "files", "pointer" and "codes" (added, or changed in any way: a narrowing is not told from a
 * widening); a glob added to "exclude"; and, against a srcls.json at the base only, a glob removed
 * from "include", "types" or "schemas" changed, "baseline" removed or pointed elsewhere. Returns 0,
 * or -1 when memory ran out. */
int project_review(struct analysis *now, const struct settings *now_settings, struct analysis *base,
                   const struct settings *base_settings, const char *base_name,
                   enum diag_severity severity);
/* Under `--base`: each "ignore" entry of `applied` that no entry of `base` (the settings at the
 * base; NULL: none) equals in "files", "pointer" and "codes" silences no code of the security
 * group: a change cannot hide a posture finding by adding or widening an entry. */
void project_review_ignores(struct settings *applied, const struct settings *base);
/* Under `--base`: a baseline file's `text` now against `base_text` at the base (NULL: none),
 * both baseline_parse'd: the entries added (a multiset difference; entries removed are findings
 * fixed) as one risky-change of `severity` on `now` (an analysis of `text`), at its start:
 * "N entries added to the baseline since BASE: findings hidden, not fixed (FILE: N CODE; ...)",
 * the first three file and code groups named. A text that does not parse adds nothing (the
 * baseline's reader says what is wrong). 0, or -1 when memory ran out. */
int project_review_baseline(struct analysis *now, const char *text, size_t len,
                            const char *base_text, size_t base_len, const char *base_name,
                            enum diag_severity severity);

/* A project's own kinds: the kind files of the directories its srcls.json's "schemas" names,
 * and the registry of the built-in kinds with them over it. */
struct project_schema {
    bool custom;                     /* "schemas" named a directory: `registry` is the project's */
    struct schema_registry registry; /* when custom */
    char **dirs;                     /* the directories, absolute as resolved (owned) */
    uint32_t dir_count;
    struct schema_file *files; /* the kind files read, names and texts malloc'd (owned) */
    size_t file_count, file_capacity;
    struct schema_problems problems; /* the files left out, and why */
};

/* Whether a directory entry named `name` is a kind file: `*.json`, not hidden, and not a JSON
 * Schema published beside them (`*.schema.json`). */
bool project_is_kind_file_name(const char *name);

/* How a door reads a directory of kind files: appends a custom schema_file for each regular
 * file of `dir` whose name project_is_kind_file_name takes, in any order (name: its path, dir +
 * "/" + file name; text and name malloc'd, through project_schema_add), to schema->files;
 * returns 0, or -1 with the reason in `why`. The core puts each directory's files in name
 * order. */
struct project_reader {
    int (*read_dir)(void *context, const char *dir, struct project_schema *schema, char *why,
                    size_t why_size);
    /* How a door reads a srcls.json that another extends: the file at `path` into `*text`
     * (malloc'd) and `*len`; 1, 0 when it cannot be read (the reason in `why`: "no such file",
     * "larger than 1 MiB"), -1 when memory ran out. NULL: "extends" is not followed. */
    int (*read_file)(void *context, const char *path, char **text, size_t *len, char *why,
                     size_t why_size);
    void *context;
};

/* Appends a file to schema->files, taking `name` and `text` (malloc'd) over; -1 when memory ran
 * out (then both are freed). For the doors' read_dir. */
int project_schema_add(struct project_schema *schema, char *name, char *text, size_t len);
void project_schema_free(struct project_schema *schema);
/* The registry a project's documents are checked with. */
const struct schema_registry *project_schema_registry(const struct project_schema *schema,
                                                      const struct schema_registry *builtin);
/* Whether the file at the absolute `path` is one of the project's kind files: it lies directly
 * in one of schema->dirs and is named *.json. */
bool project_schema_has(const struct project_schema *schema, const char *path);

/* The index in schema->files of the kind file at `path` (the same path once "." steps and
 * repeated slashes are left out), or SIZE_MAX. */
size_t project_schema_index(const struct project_schema *schema, const char *path);

/* project_analyze, the files of its "extends" (each a path, relative to `config_dir`, read
 * through `reader`, and what they extend in turn: their settings under its own, objects key by
 * key, lists concatenated; their globs and paths relative to the file that wrote them), and the
 * project's own kinds: each directory of "schemas" (relative to `config_dir`, the srcls.json's
 * directory) read through `reader` into `schema` (emptied first), and the registry built from
 * them (the "types" are checked against it). A directory that cannot be read is a mistake of the
 * configuration, at its entry, as is an extended file that cannot be read, has a mistake or
 * makes a cycle, at the "extends" value that leads to it; a kind file with a mistake is not: it
 * is left out, and said in schema->problems. Returns as project_analyze; `schema` is empty
 * unless it returns 1. */
int project_analyze_schema(struct analysis *out, const char *text, size_t len,
                           const struct schema_registry *builtin, const char *config_dir,
                           const struct project_reader *reader, struct settings *settings,
                           struct project_schema *schema);

/* A kind file (one of `schema`'s, named `name`) as a document: its syntax errors, or what the
 * loader says of it with the project's other kind files (those of `schema` under another name)
 * beside it, as project-config diagnostics at the value concerned. Returns 0, or -1 when memory
 * ran out. */
int project_kind_file_analyze(struct analysis *out, const char *text, size_t len, const char *name,
                              const struct project_schema *schema);

/* Completion in a kind file analysed by project_kind_file_analyze, read off the JSON Schema of
 * the kind-file format: the keys allowed where the cursor is (with their descriptions), the
 * values of an enum, the kinds' stems for "extends". Fills `out` (freed with
 * completion_list_free); 0, or -1 when memory ran out. */
int project_kind_file_complete(struct analysis *analysis, const struct schema_registry *registry,
                               uint32_t offset, struct completion_list *out);
/* Hover in a kind file: what a key means, or the kind "extends" names; in `arena`, with the
 * range it is about; NULL when there is nothing to say. */
const char *project_kind_file_hover(struct analysis *analysis,
                                    const struct schema_registry *registry, uint32_t offset,
                                    enum text_markup markup, struct arena *arena, uint32_t *start,
                                    uint32_t *end);

/* The edit of a srcls.json's `text` (`len` bytes; none: a file to create) that maps the type
 * identifier `id` onto the kind type `kind_type` in its "types": bytes [*start, *end) become the
 * returned text (in `arena`). NULL when the text is not a JSON object without syntax errors,
 * when `id` is mapped already, or when memory ran out. */
const char *project_map_type(const char *text, size_t len, const char *id, const char *kind_type,
                             struct arena *arena, uint32_t *start, uint32_t *end);

/* Completion in a srcls.json analysed by project_analyze: its keys ("rules", "types"), the
 * diagnostic codes in "rules" and their severities, the kinds' types as the values of "types".
 * Fills `out` (freed with completion_list_free); 0, or -1 when memory ran out. */
int project_complete(struct analysis *analysis, const struct schema_registry *registry,
                     uint32_t offset, enum text_markup markup, struct completion_list *out);
/* Hover in a srcls.json: what "rules" and "types" hold, a code's meaning, a kind's; in `arena`,
 * with the range it is about; NULL when there is nothing to say. */
const char *project_hover(struct analysis *analysis, const struct schema_registry *registry,
                          uint32_t offset, enum text_markup markup, struct arena *arena,
                          uint32_t *start, uint32_t *end);

#endif
