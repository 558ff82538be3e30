/* fuzz_project: srcls.json on arbitrary bytes, with the files its "extends" may name. The input
 * is up to four files split at NUL bytes: the last is /r/app/srcls.json, the one analysed; the
 * ones before it are, in order, /r/srcls.json, /r/app/base.json and /r/shared/srcls.json, which
 * "extends" reaches through whatever paths the input writes (cycles, "..", absolute paths, a
 * file extending itself). It is analysed as a project configuration, then completed and hovered
 * at spread offsets. Beyond "no crash, no leak, no hang", it checks what users rely on: every
 * range lies inside the text, a configuration with a mistake applies nothing, and the settings
 * read are whole (inherited counts within the lists, every file extended one of the four, each
 * glob of a file extended marked with a path ending in '/'). */
#include <string.h>

#include "assist/assist.h"
#include "check/check.h"
#include "domain/domain.h"
#include "fuzz.h"
#include "project/project.h"

#define PROBES 24u
#define FILES 4u

static const char *const NAMES[FILES] = {"/r/srcls.json", "/r/app/base.json",
                                         "/r/shared/srcls.json", "/r/app/srcls.json"};

struct memory {
    const char *text[FILES];
    size_t len[FILES];
};

static int read_memory(void *context, const char *path, char **text, size_t *len, char *why,
                       size_t why_size)
{
    const struct memory *m = context;
    for (size_t i = 0; i < FILES; i++) {
        if (m->text[i] == NULL || strcmp(NAMES[i], path) != 0)
            continue;
        *text = malloc(m->len[i] + 1);
        if (*text == NULL)
            return -1;
        memcpy(*text, m->text[i], m->len[i]);
        (*text)[m->len[i]] = '\0';
        *len = m->len[i];
        return 1;
    }
    snprintf(why, why_size, "no such file");
    return 0;
}

static int no_dir(void *context, const char *dir, struct project_schema *schema, char *why,
                  size_t why_size)
{
    (void)context, (void)dir, (void)schema;
    snprintf(why, why_size, "no such directory");
    return -1;
}

static void check_list(const struct settings_strings *list)
{
    FUZZ_CHECK(list->inherited <= list->count);
    for (uint32_t i = 0; list->from != NULL && i < list->count; i++) {
        const char *from = list->from[i];
        size_t len = from != NULL ? strlen(from) : 0;
        FUZZ_CHECK(len == 0 || from[len - 1] == '/');
        FUZZ_CHECK(i < list->inherited || from == NULL);
    }
}

static void check_settings(const struct settings *s)
{
    check_list(&s->include);
    check_list(&s->exclude);
    FUZZ_CHECK(s->schemas.inherited <= s->schemas.count);
    FUZZ_CHECK(s->ignore_inherited <= s->ignore_count);
    for (uint32_t i = 0; i < s->extended.count; i++) {
        bool known = false;
        for (size_t f = 0; f + 1 < FILES; f++)
            known = known || strcmp(s->extended.items[i], NAMES[f]) == 0;
        FUZZ_CHECK(known);
    }
    /* the globs answer for any path, whatever they were rebased from */
    (void)settings_glob_match(&s->include, "a/b.json");
    (void)settings_glob_match(&s->exclude, "legacy/x/y.json");
}

static void probe(struct analysis *a, uint32_t len)
{
    for (uint32_t i = 0; i < PROBES; i++) {
        uint32_t offset = (uint32_t)((uint64_t)i * len / (PROBES - 1));
        struct completion_list list;
        if (project_complete(a, fuzz_registry(), offset, TEXT_MARKDOWN, &list) == 0) {
            for (uint32_t c = 0; c < list.count; c++)
                FUZZ_CHECK(list.items[c].start <= list.items[c].end && list.items[c].end <= len);
        }
        completion_list_free(&list);
        struct arena arena;
        arena_init(&arena);
        uint32_t start = 0, end = 0;
        if (project_hover(a, fuzz_registry(), offset, TEXT_MARKDOWN, &arena, &start, &end) != NULL)
            FUZZ_CHECK(start <= end && end <= len);
        arena_free(&arena);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 15))
        return 0;
    struct memory m = {{NULL}, {0}};
    const char *text = (const char *)data, *end = text + size;
    size_t parts = 0;
    const char *part[FILES];
    size_t part_len[FILES];
    for (const char *at = text; parts < FILES;) { /* the last part takes the rest */
        const char *nul = parts + 1 < FILES ? memchr(at, '\0', (size_t)(end - at)) : NULL;
        part[parts] = at;
        part_len[parts++] = nul != NULL ? (size_t)(nul - at) : (size_t)(end - at);
        if (nul == NULL)
            break;
        at = nul + 1;
    }
    for (size_t i = 0; i + 1 < parts; i++) { /* the ones before the last, in NAMES' order */
        m.text[i] = part[i];
        m.len[i] = part_len[i];
    }
    const char *own = part[parts - 1];
    size_t own_len = part_len[parts - 1];
    struct project_reader reader = {no_dir, read_memory, &m};
    struct analysis a;
    struct settings s;
    settings_init(&s);
    struct project_schema schema = {0};
    int read =
        project_analyze_schema(&a, own, own_len, fuzz_registry(), "/r/app", &reader, &s, &schema);
    if (read >= 0) {
        for (uint32_t i = 0; i < a.diags.count; i++)
            FUZZ_CHECK(a.diags.items[i].start <= a.diags.items[i].end &&
                       a.diags.items[i].end <= own_len);
        if (read == 0) /* a mistake: nothing applied */
            FUZZ_CHECK(s.severity_count == 0 && s.ignore_count == 0 && s.extended.count == 0);
        else
            check_settings(&s);
        probe(&a, (uint32_t)own_len);
    }
    analysis_free(&a);
    project_schema_free(&schema);
    settings_free(&s);
    return 0;
}
