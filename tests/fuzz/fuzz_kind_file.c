/* fuzz_kind_file: a team's own kind files on arbitrary bytes. The input is one or two kind
 * files (split at the first NUL byte: another file of the project, then the one edited). It is
 * loaded over the built-in schema, linted as a kind file, and completed and hovered at spread
 * offsets. Beyond "no crash, no leak", it checks what users rely on: the built-in kinds are never
 * taken down (every one of them is still there, by its type identifiers), each problem names a
 * file given and a range inside its text, and each diagnostic and completion range lies inside
 * the text. */
#include <string.h>

#include "check/check.h"
#include "assist/assist.h"
#include "fuzz.h"
#include "project/project.h"
#include "schema/schema.h"

#define PROBES 32u

static void check_builtin_kinds_kept(const struct schema_registry *registry)
{
    const struct schema_registry *builtin = fuzz_registry();
    FUZZ_CHECK(registry->kind_count >= builtin->kind_count);
    for (uint32_t k = 0; k < builtin->kind_count; k++) {
        const char *type = builtin->kinds[k].types[0];
        FUZZ_CHECK(schema_find_kind(registry, type, strlen(type)) != NULL);
    }
}

static void probe(struct analysis *a, uint32_t len)
{
    for (uint32_t i = 0; i < PROBES; i++) {
        uint32_t offset = (uint32_t)((uint64_t)i * len / (PROBES - 1));
        struct completion_list list;
        if (project_kind_file_complete(a, fuzz_registry(), offset, &list) == 0) {
            for (uint32_t c = 0; c < list.count; c++)
                FUZZ_CHECK(list.items[c].start <= list.items[c].end && list.items[c].end <= len);
        }
        completion_list_free(&list);
        struct arena arena;
        arena_init(&arena);
        uint32_t start = 0, end = 0;
        if (project_kind_file_hover(a, fuzz_registry(), offset, TEXT_MARKDOWN, &arena, &start,
                                    &end) != NULL)
            FUZZ_CHECK(start <= end && end <= len);
        arena_free(&arena);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 16))
        return 0;
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t first = nul != NULL ? (size_t)(nul - text) : 0;
    const char *own = nul != NULL ? nul + 1 : text;
    size_t own_len = nul != NULL ? size - first - 1 : size;
    struct schema_file files[2] = {{"team/other.json", text, first, true},
                                   {"team/edited.json", own, own_len, true}};
    size_t count = nul != NULL ? 2 : 1;
    struct schema_registry registry;
    struct schema_problems problems;
    if (schema_registry_load_custom(&registry, files + 2 - count, count, &problems) == 0) {
        check_builtin_kinds_kept(&registry);
        for (size_t i = 0; i < problems.count; i++) {
            const struct schema_problem *p = &problems.items[i];
            FUZZ_CHECK(p->file < count);
            FUZZ_CHECK(p->start <= p->end && p->end <= files[2 - count + p->file].len);
        }
        schema_registry_free(&registry);
    }
    schema_problems_free(&problems);
    /* linted as the edited file, with the other one on disk beside it */
    struct project_schema schema = {0};
    if (nul != NULL) {
        schema.files = files;
        schema.file_count = 1;
    }
    struct analysis a;
    if (project_kind_file_analyze(&a, own, own_len, "team/edited.json", &schema) == 0) {
        for (uint32_t i = 0; i < a.diags.count; i++)
            FUZZ_CHECK(a.diags.items[i].start <= a.diags.items[i].end &&
                       a.diags.items[i].end <= own_len);
        probe(&a, (uint32_t)own_len);
    }
    analysis_free(&a);
    return 0;
}
