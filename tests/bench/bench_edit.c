/* bench_edit: what one keystroke costs the core, by where it lands in a bulk file. The file is
 * analysed once; then, in the first string value after 0%, 50% and 99% of it, a character is
 * typed and deleted N times each (default 200), as the server does it: the text spliced (a
 * text_buffer: the bytes on the shorter side of the edit move) and analysis_update. Prints the
 * median and worst microseconds per edit at each place, and how many edits had to fall back to a
 * whole analysis (none expected). With PLACE (a percentage), only there (tests/edit_cost.py counts
 * its instructions); with KEY too, in the first value of a member KEY after it ("name": the
 * keystroke of run.py). usage: bench_edit FILE [N [PLACE [KEY]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "schema/schema.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_edit FILE [N [PLACE [KEY]]]\n");
        return 2;
    }
    struct schema_registry registry;
    char error[512];
    if (schema_registry_load_embedded(&registry, error, sizeof error) != 0) {
        fprintf(stderr, "bench_edit: the built-in schema does not load: %s\n", error);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    struct text_buffer buffer = {0};
    char *text = text_buffer_reserve(&buffer, len);
    if (text == NULL || fread(text, 1, len, f) != len)
        return 2;
    fclose(f);
    text_buffer_set_length(&buffer, len);
    int runs = argc > 2 ? atoi(argv[2]) : 200;
    if (runs < 1)
        runs = 1;
    /* as the server: the move of what follows an edit left pending */
    struct analysis_options options = {
        .report_unknown_document = true, .registry = &registry, .defer_moves = true};
    struct analysis a;
    if (analysis_run(&a, text, len, &options) != 0)
        return 2;
    double *micros = calloc((size_t)runs * 2, sizeof *micros);
    double places[] = {0.0, 0.5, 0.99};
    size_t place_count = sizeof places / sizeof *places;
    if (argc > 3) {
        places[0] = atof(argv[3]) / 100;
        place_count = 1;
    }
    char pattern[128] = "\": \"";
    if (argc > 4)
        snprintf(pattern, sizeof pattern, "\"%s\": \"", argv[4]);
    printf("%s: %.1f MB, %u diagnostics\n", argv[1], (double)len / 1e6, a.diags.count);
    for (size_t p = 0; p < place_count; p++) {
        const char *value = strstr(text + (size_t)(places[p] * (double)len), pattern);
        if (value == NULL)
            continue;
        uint32_t at = (uint32_t)(value - text + strlen(pattern));
        int whole = 0;
        for (int i = 0; i < runs * 2; i++) {
            bool insert = i % 2 == 0;
            double t0 = now();
            if (text_buffer_splice(&buffer, at, insert ? at : at + 1, "x", insert ? 1 : 0) != 0)
                return 2;
            text = text_buffer_text(&buffer);
            len = buffer.len;
            struct json_edit edit = {at, insert ? at : at + 1, insert ? 1u : 0u};
            if (analysis_update(&a, text, len, edit, &options, NULL) != 1) {
                whole++;
                analysis_free(&a);
                if (analysis_run(&a, text, len, &options) != 0)
                    return 2;
            }
            micros[i] = (now() - t0) * 1e6;
        }
        qsort(micros, (size_t)runs * 2, sizeof *micros, compare_doubles);
        printf("  edit at %2.0f%%: median %.0f us, worst %.0f us, %d whole analyses of %d edits\n",
               places[p] * 100, micros[runs], micros[runs * 2 - 1], whole, runs * 2);
    }
    analysis_free(&a);
    schema_registry_free(&registry);
    free(micros);
    text_buffer_free(&buffer);
    return 0;
}
