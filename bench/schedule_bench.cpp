// Solve time per graph and per phase for the scheduler's test graphs (src/schedule/graphs):
// normalization ILP, modulo ILP, joint SMT, total; for both SMT encodings unless one is named.
//   schedule_bench [--encoding boolean|lia|both] [graph.json ...]
#include "machine.h"
#include "search.h"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <string>
#include <vector>

using namespace kiln::schedule;

int main(int argc, char **argv) {
    std::vector<std::string> files;
    std::string which = "both";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--encoding" && i + 1 < argc)
            which = argv[++i];
        else
            files.push_back(a);
    }
    if (files.empty()) {
        for (const auto &e : std::filesystem::directory_iterator(KILN_SCHEDULE_GRAPHS_DIR))
            if (e.path().extension() == ".json")
                files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
    }
    std::vector<Encoding> encodings;
    if (which == "both" || which == "boolean" || which == "bool")
        encodings.push_back(Encoding::boolean);
    if (which == "both" || which == "lia")
        encodings.push_back(Encoding::lia);
    fmt::print("{:<28} {:<8} {:>4} {:>4} {:>4} {:>7} {:>9} {:>9} {:>9} {:>9}  {}\n", "graph",
               "encoding", "MII", "II", "L", "queries", "norm s", "ilp s", "smt s", "total s",
               "result");
    int failures = 0;
    for (const auto &f : files) {
        auto g = load_loop_graph(f);
        if (!g) {
            fmt::print("{}\n", g.error());
            ++failures;
            continue;
        }
        auto m = machine_for(*g, f);
        if (!m) {
            fmt::print("{}\n", m.error());
            ++failures;
            continue;
        }
        for (Encoding enc : encodings) {
            SearchOptions so;
            so.joint.encoding = enc;
            auto r = find_schedule(*g, *m, so);
            std::string name = std::filesystem::path(f).stem().string();
            const char *e = enc == Encoding::lia ? "lia" : "boolean";
            if (!r) {
                bool expected_unsat = name.rfind("unsat", 0) == 0;
                fmt::print("{:<28} {:<8} {}\n", name, e,
                           expected_unsat ? "unsat (expected)" : "FAILED: " + r.error());
                failures += expected_unsat ? 0 : 1;
                continue;
            }
            const Schedule &s = r->schedule;
            fmt::print("{:<28} {:<8} {:>4} {:>4} {:>4} {:>7} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f}  "
                       "{}\n",
                       name, e, s.mii.mii(), s.ii, s.length, s.attempts.size(), s.normalize_s,
                       s.modulo_s, s.joint_s, s.total_s, s.optimal ? "optimal" : "not proven");
        }
    }
    return failures == 0 ? 0 : 1;
}
