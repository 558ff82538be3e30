// bench_simdjson: the peer of bench_parse — simdjson's DOM parse of one file, N times (default
// 20), median MB/s, same output shape. Built by run.py with g++ (the meson project is C only).
// usage: bench_simdjson FILE [N]
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_simdjson FILE [N]\n");
        return 2;
    }
    simdjson::padded_string text;
    if (simdjson::padded_string::load(argv[1]).get(text)) {
        std::perror(argv[1]);
        return 2;
    }
    int runs = argc > 2 ? std::atoi(argv[2]) : 20;
    if (runs < 1)
        runs = 1;
    simdjson::dom::parser parser;
    std::vector<double> seconds;
    for (int i = 0; i < runs; i++) {
        auto a = std::chrono::steady_clock::now();
        simdjson::dom::element root;
        auto error = parser.parse(text).get(root);
        auto b = std::chrono::steady_clock::now();
        if (error) {
            std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
            return 1;
        }
        seconds.push_back(std::chrono::duration<double>(b - a).count());
    }
    std::sort(seconds.begin(), seconds.end());
    double median = seconds[seconds.size() / 2];
    std::printf("%s: %.1f MB, simdjson parse median %.2f ms, %.0f MB/s (%s)\n", argv[1],
                (double)text.size() / 1e6, median * 1e3, (double)text.size() / 1e6 / median,
                simdjson::get_active_implementation()->name().c_str());
    return 0;
}
