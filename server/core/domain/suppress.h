/* suppress: srcls.json's "ignore" — entries of {"files": GLOB, "pointer": PATTERN, "codes":
 * [CODE or group, ...], "reason": TEXT} that silence the findings they match, since JSON has no
 * comments to put a directive in. "reason" is required, and so is "pointer" or "codes" (an
 * entry never silences everything everywhere).
 *
 * "files": a glob (glob.h) matched against the document's path from the srcls.json's directory
 * (one without '/' against its file name). Absent: every file.
 * "pointer": a JSON Pointer pattern, segment by segment (written escaped, as in RFC 6901):
 * '*' is any one segment, "**" any number of segments (none too); it matches a finding at that
 * place or below it. In a bulk file the first segment is a source's index or its "name"
 * ("/lake-eu/config/port"). Absent: anywhere. */
#ifndef SRCLS_SUPPRESS_H
#define SRCLS_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnostic.h"
#include "json/json.h"

struct settings;

struct settings_ignore {
    const char *files;      /* NULL: every file */
    const char *files_from; /* `files` written in a file extended (glob_match_from), or NULL */
    const char *origin;     /* the file extended that wrote it (NULL: the settings' own) */
    uint32_t origin_index;  /* its index among that file's own entries */
    const char *pointer;    /* NULL: anywhere */
    bool codes[CODE_COUNT];
    bool any_code; /* no "codes" */
    const char *reason;
};

/* Reads the "ignore" array `list` of `doc` into settings->ignores (in its arena); its mistakes
 * are appended to `problems` as "POINTER: what" lines, through `note`. */
void suppress_read(struct settings *settings, struct json_doc *doc, uint32_t list,
                   void (*note)(char *, size_t, struct json_doc *, uint32_t, const char *),
                   char *problems, size_t problems_size);
/* Appends copies of `from`'s entries to `to`'s (in its arena); 0, or -1 when memory ran out. */
int suppress_copy(struct settings *to, const struct settings *from);
/* Whether the entry `e` silences `d`, a finding of the document at `path` (relative to the
 * srcls.json's directory; NULL: no path is known, only entries without "files" apply) whose
 * bulk elements are `elements` (`count`, NULL for a single document). */
bool suppress_matches(const struct settings_ignore *e, const struct diagnostic *d, const char *path,
                      struct json_doc *doc, const uint32_t *elements, uint32_t count);

/* Whether a code the entry `e` silences is checked under `settings` (not "off"): an entry
 * whose codes are all off silenced nothing because nothing was looked for, so it is not
 * reported unused. */
bool suppress_codes_checked(const struct settings_ignore *e, const struct settings *settings);

/* The edit of a srcls.json's `text` (`len` bytes; none or blank: a file to create) that appends
 * `entry` (an entry's JSON text) to its "ignore" array, adding the array when there is none:
 * bytes [*start, *end) become the returned text (in `arena`). NULL when the text is not a JSON
 * object without syntax errors, when its "ignore" is not an array, or when memory ran out. */
const char *suppress_add_entry(const char *text, size_t len, const char *entry, struct arena *arena,
                               uint32_t *start, uint32_t *end);

#endif
