/* bench_parse: parser throughput on one file — parses it N times (default 20) and prints the
 * median MB/s and the tree's bytes per input byte. With --check, each run is the whole
 * analysis the CLI and the server do (analysis_run with the built-in registry: parse, line
 * index, classification, every rule), the tree figure is then the parse tree alone.
 * usage: bench_parse [--check] FILE [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "json/json.h"
#include "schema/schema.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int check = argc > 1 && strcmp(argv[1], "--check") == 0;
    if (check) {
        argv++;
        argc--;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: bench_parse [--check] FILE [N]\n");
        return 2;
    }
    struct schema_registry registry;
    char error[512];
    if (check && schema_registry_load_embedded(&registry, error, sizeof error) != 0) {
        fprintf(stderr, "bench_parse: the built-in schema does not load: %s\n", error);
        return 2;
    }
    struct analysis_options options = {.report_unknown_document = true, .registry = &registry};
    size_t diagnostics = 0;
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size);
    if (text == NULL || fread(text, 1, (size_t)size, f) != (size_t)size)
        return 2;
    fclose(f);
    int runs = argc > 2 ? atoi(argv[2]) : 20;
    if (runs < 1)
        runs = 1;
    double *seconds = calloc((size_t)runs, sizeof *seconds);
    size_t tree = 0;
    for (int i = 0; i < runs; i++) {
        struct timespec a, b;
        if (check) {
            struct analysis an;
            clock_gettime(CLOCK_MONOTONIC, &a);
            if (analysis_run(&an, text, (size_t)size, &options) != 0)
                return 2;
            clock_gettime(CLOCK_MONOTONIC, &b);
            tree = (size_t)an.doc.node_count * sizeof(struct json_node);
            diagnostics = an.diags.count;
            analysis_free(&an);
        } else {
            struct json_doc doc;
            clock_gettime(CLOCK_MONOTONIC, &a);
            json_parse(&doc, text, (size_t)size, NULL);
            clock_gettime(CLOCK_MONOTONIC, &b);
            tree = (size_t)doc.node_count * sizeof(struct json_node);
            json_doc_free(&doc);
        }
        seconds[i] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    }
    qsort(seconds, (size_t)runs, sizeof *seconds, compare_doubles);
    double median = seconds[runs / 2];
    printf("%s: %.1f MB, %s median %.2f ms, %.0f MB/s, tree %.2f bytes per input byte", argv[1],
           (double)size / 1e6, check ? "parse+check" : "parse", median * 1e3,
           (double)size / 1e6 / median, (double)tree / (double)size);
    if (check) {
        printf(", %zu diagnostics", diagnostics);
        schema_registry_free(&registry);
    }
    printf("\n");
    free(seconds);
    free(text);
    return 0;
}
