/* report: choosing an output format by name. */
#include "report.h"

#include <string.h>

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
