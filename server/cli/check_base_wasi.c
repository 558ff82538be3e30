/* check_base_wasi: check_base.h in the WebAssembly build. --base reads the base version through
 * git, which WASI preview 1 cannot start: it is refused (exit 2), never ignored. */
#include "check_base.h"
#include "check_gate.h"

#include <stdio.h>

struct check_base *check_base_open(const char *ref, const char *baseline)
{
    (void)baseline;
    fprintf(stderr,
            "srcls: --base %s is not available in the WebAssembly build: it reads the base "
            "through git, which WebAssembly cannot start; use a native srcls binary\n",
            ref);
    return NULL;
}

void check_base_review(struct check_base *base, const char *path, struct analysis *now)
{
    (void)base, (void)path, (void)now; /* never opened: nothing to compare with */
}

void check_base_report_deleted(const struct check_options *options, struct report_summary *summary)
{
    (void)options, (void)summary;
}

bool check_base_failed(const struct check_base *base)
{
    (void)base;
    return false;
}

void check_base_close(struct check_base *base)
{
    (void)base;
}

bool check_gate_config(struct check_base *base, const char *path, const char *text, size_t len,
                       const struct settings *own, const struct settings *overlay,
                       struct settings *applied, const char *baseline, bool nearest)
{
    (void)base, (void)path, (void)text, (void)len, (void)own, (void)overlay, (void)applied,
        (void)baseline, (void)nearest; /* never opened */
    return true;
}

void check_gate_baseline(struct check_base *base, const char *path)
{
    (void)base, (void)path;
}

char *check_gate_config_then(struct check_base *base, const char *path, const char *config)
{
    (void)base, (void)path, (void)config; /* never opened */
    return NULL;
}

const struct settings *check_gate_then(struct check_base *base, const char *config,
                                       const char *then, const struct settings *applied,
                                       const struct settings *overlay)
{
    (void)base, (void)config, (void)then, (void)overlay;
    return applied;
}

struct analysis *check_gate_held(struct check_base *base, const char *path)
{
    (void)base, (void)path; /* never opened */
    return NULL;
}
