/* report: choosing an output format by name; counting what is reported. */
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool report_select(struct reporter *reporter, const char *name, FILE *out, bool color)
{
    static const struct {
        const char *name;
        void (*init)(struct reporter *);
    } formats[] = {
        {"text", report_text_init},     {"json", report_json_init},
        {"sarif", report_sarif_init},   {"github", report_github_init},
        {"gitlab", report_gitlab_init},
    };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(name, formats[i].name) == 0) {
            memset(reporter, 0, sizeof *reporter);
            reporter->out = out;
            reporter->color = color;
            formats[i].init(reporter);
            return true;
        }
    }
    return false;
}

/* Counts the findings of `a` that are new (not `baselined`, which may be NULL). */
void report_count(struct report_summary *s, const struct analysis *a,
                  const unsigned char *baselined)
{
    for (uint32_t i = 0; i < a->diags.count; i++) {
        switch (baselined != NULL && baselined[i] ? DIAG_OFF : a->diags.items[i].severity) {
        case DIAG_ERROR: s->errors++; break;
        case DIAG_WARNING: s->warnings++; break;
        case DIAG_INFORMATION: s->information++; break;
        case DIAG_HINT: s->hints++; break;
        case DIAG_OFF: break;
        }
    }
}

/* --color auto: FORCE_COLOR (set, and not "0") asks for color, as CI systems that show it
 * set it; else NO_COLOR (set and not empty) asks for none; else color on a terminal. */
static bool color_wanted(void)
{
    const char *force = getenv("FORCE_COLOR");
    if (force != NULL && strcmp(force, "0") != 0 && strcmp(force, "false") != 0)
        return true;
    const char *no = getenv("NO_COLOR");
    if (no != NULL && no[0] != '\0')
        return false;
    return isatty(STDOUT_FILENO);
}

/* --color WHEN: 1 color, 0 none, -1 not a WHEN. */
int report_color_mode(const char *when)
{
    if (strcmp(when, "always") == 0)
        return 1;
    if (strcmp(when, "never") == 0)
        return 0;
    if (strcmp(when, "auto") == 0)
        return color_wanted();
    return -1;
}
