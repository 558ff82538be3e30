/* check_suppress: the unused "ignore" entries of a srcls.json (see check_suppress.h). */
#include "check_suppress.h"

#include <stdio.h>
#include <string.h>
#include "domain/domain.h"
#include "json/json.h"
#include "project/project.h"

/* Adds a project-config warning on the entry `index` of "ignore" in `a`. */
static int add_unused(struct analysis *a, uint32_t index)
{
    char pointer[48];
    snprintf(pointer, sizeof pointer, "/" SETTINGS_KEY_IGNORE "/%u", index);
    uint32_t node = json_pointer_find(&a->doc, pointer, strlen(pointer));
    if (node == JSON_NONE)
        return 0;
    const struct json_node *n = &a->doc.nodes[node];
    struct diagnostic d = {
        .code = CODE_PROJECT_CONFIG,
        .severity = DIAG_WARNING,
        .start = n->start,
        .end = n->start + 1,
        .related_start = UINT32_MAX,
        .related_end = UINT32_MAX,
        .message = "this \"ignore\" entry silenced no finding in the files checked: remove it "
                   "(or correct its files, pointer or codes)",
        .pointer = arena_strndup(&a->arena, pointer, strlen(pointer)),
        .node = JSON_NONE,
    };
    return d.pointer != NULL ? diag_list_add(&a->diags, &d) : -1;
}

int check_suppress_add(struct analysis *a, const unsigned char *hits, uint32_t count)
{
    uint32_t first = a->diags.count;
    for (uint32_t i = 0; i < count; i++) {
        if ((hits == NULL || !hits[i]) && add_unused(a, i) != 0)
            return -1;
    }
    if (a->diags.count > first)
        diag_list_sort(&a->diags);
    return 0;
}

void check_suppress_report(const char *shown, const char *text, size_t len,
                           const unsigned char *hits, uint32_t count, struct reporter *reporter,
                           struct report_summary *summary)
{
    uint32_t unused = 0;
    for (uint32_t i = 0; i < count; i++)
        unused += hits == NULL || !hits[i];
    if (unused == 0)
        return;
    struct analysis a;
    struct settings settings;
    settings_init(&settings);
    bool read = text != NULL && project_analyze(&a, text, len, NULL, &settings) == 1 &&
                check_suppress_add(&a, hits, count) == 0;
    if (read) {
        struct checked_file file = {.path = shown, .analysis = &a};
        summary->files++;
        report_count(summary, &a, NULL);
        reporter->file(reporter, &file);
    } else {
        struct checked_file file = {.path = shown,
                                    .read_error = "cannot read it again to report its unused "
                                                  "\"ignore\" entries"};
        summary->unreadable++;
        reporter->file(reporter, &file);
    }
    if (text != NULL)
        analysis_free(&a);
    settings_free(&settings);
}
