/* bench_parse: parser throughput on one file — parses it N times (default 20) and prints the
 * median MB/s and the tree's bytes per input byte. usage: bench_parse FILE [N] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "json_doc.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_parse FILE [N]\n");
        return 2;
    }
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
        struct json_doc doc;
        clock_gettime(CLOCK_MONOTONIC, &a);
        json_parse(&doc, text, (size_t)size, NULL);
        clock_gettime(CLOCK_MONOTONIC, &b);
        seconds[i] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        tree = (size_t)doc.node_count * sizeof(struct json_node);
        json_doc_free(&doc);
    }
    qsort(seconds, (size_t)runs, sizeof *seconds, compare_doubles);
    double median = seconds[runs / 2];
    printf("%s: %.1f MB, median %.2f ms, %.0f MB/s, tree %.2f bytes per input byte\n", argv[1],
           (double)size / 1e6, median * 1e3, (double)size / 1e6 / median,
           (double)tree / (double)size);
    free(seconds);
    free(text);
    return 0;
}
