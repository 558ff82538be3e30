/* check_env: `--check --env FILE` — the variables of dotenv files, and each document checked as
 * rendered with them: the template's placeholders (srcls.json "placeholders") filled in, the
 * rendered text analysed, and what it shows placed back on the template's text (a finding inside
 * a value that was substituted lies on the placeholder), with an `unset-variable` finding for a
 * placeholder whose variable no file gives. The values are never printed: every output reads the
 * template's text.
 *
 * The dotenv subset: one KEY=VALUE a line; blank lines and lines starting with # are skipped; an
 * optional `export ` before the key; KEY is [A-Za-z_][A-Za-z0-9_.]*; spaces around = are left
 * out; VALUE is unquoted (up to a " #" comment or the end of the line, trailing spaces left out),
 * 'single-quoted' (as written) or "double-quoted" (with \n \t \r \" \\ and \$ escapes); a value
 * is one line. A key given twice takes the last value (across files too: later files win). */
#ifndef SRCLS_CHECK_ENV_H
#define SRCLS_CHECK_ENV_H

#include <stddef.h>

#include "check/check.h"
#include "domain/domain.h"

struct check_env {
    struct placeholder_variable *variables; /* sorted by name once check_env_finish ran */
    size_t count, cap;
    char **texts; /* the files' contents (names and values point into them), owned */
    size_t text_count, text_cap;
};

/* Reads the dotenv file `path` into `env`: 0, or -1 after saying on stderr what is wrong (a file
 * that cannot be read, that defines no variable, a line that is not KEY=VALUE, by its number;
 * never a value). */
int check_env_read(struct check_env *env, const char *path);
/* --env on the document `path`, whose settings name no "placeholders": nothing in it is
 * templated, so it is checked as written; says so on stderr once a run (`*said`). */
void check_env_untemplated(const struct settings *settings, const char *path, bool *said);
/* Sorts the variables, the last of a name winning. */
void check_env_finish(struct check_env *env);
void check_env_free(struct check_env *env);

/* Replaces the diagnostics of `analysis` (a template, analysed with `options`) with those of
 * its rendering, placed on the template, and its unset variables. Nothing changes when its
 * settings name no placeholder syntax, it holds none, or it has syntax errors (checked as
 * written: fix them first). 0, or -1 when memory ran out (the
 * analysis is then freed). */
int check_env_apply(const struct check_env *env, struct analysis *analysis,
                    const struct analysis_options *options);

#endif
