#include "cli.h"

#include "render.h"
#include "search.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace kiln::schedule {

namespace {

struct CliOptions {
    std::string graph;
    std::string machine; // empty: the graph's own machine, else hopper
    std::string svg;
    std::string json;
    double time_limit = 60;
    int threads = 1;
    bool verbose = false;
    std::string encoding = "boolean";
    bool no_ws = false;
    int64_t cost_budget = 300;
    bool no_normalize = false;
};

bool write_file(const std::string &path, const std::string &text) {
    std::ofstream out(path);
    out << text;
    return static_cast<bool>(out);
}

int run(const CliOptions &o) {
    auto graph = load_loop_graph(o.graph);
    if (!graph) {
        std::cerr << "error: " << graph.error() << "\n";
        return 1;
    }
    auto machine =
        o.machine.empty() ? machine_for(*graph, o.graph) : machine_by_name_or_path(o.machine);
    if (!machine) {
        std::cerr << "error: " << machine.error() << "\n";
        return 1;
    }
    SearchOptions so;
    so.joint.encoding = o.encoding == "lia" ? Encoding::lia : Encoding::boolean;
    so.joint.warp_specialize = !o.no_ws;
    so.joint.time_limit_s = o.time_limit;
    so.joint.threads = o.threads;
    so.mip.time_limit_s = o.time_limit;
    so.mip.threads = o.threads;
    so.cost_budget = o.cost_budget;
    so.normalize = !o.no_normalize;
    if (o.verbose)
        so.log = [](const std::string &line) { std::cerr << "[schedule] " << line << "\n"; };
    if (graph->name.empty())
        graph->name = o.graph;
    auto result = find_schedule(*graph, *machine, so);
    if (!result) {
        std::cerr << "error: " << result.error() << "\n";
        return 2;
    }
    const auto &r = *result;
    std::cout << render_text(r.normalized, r.schedule) << "\n"
              << render_ascii(r.normalized, r.schedule);
    if (!o.json.empty() && !write_file(o.json, to_json(r.schedule).dump(2) + "\n")) {
        std::cerr << "error: cannot write " << o.json << "\n";
        return 1;
    }
    if (!o.svg.empty() && !write_file(o.svg, render_svg(r.normalized, r.schedule))) {
        std::cerr << "error: cannot write " << o.svg << "\n";
        return 1;
    }
    return 0;
}

} // namespace

void register_cli(CLI::App &app) {
    auto opts = std::make_shared<CliOptions>();
    CLI::App *sub = app.add_subcommand(
        "schedule", "Optimal software pipelining + warp specialization of a loop graph (Twill)");
    sub->add_option("graph", opts->graph, "loop dependence graph (JSON, see docs/scheduler.md)")
        ->required();
    sub->add_option("--machine", opts->machine,
                    "machine description: hopper, blackwell, or a JSON file (default: the graph's "
                    "'machine' field, else hopper)");
    sub->add_option("--svg", opts->svg, "write the timeline as SVG to FILE");
    sub->add_option("--json", opts->json, "write the schedule as JSON to FILE");
    sub->add_option("--time-limit", opts->time_limit, "seconds allowed per solver call")
        ->capture_default_str();
    sub->add_option("--threads", opts->threads, "solver threads (1 is deterministic)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    sub->add_flag("--verbose", opts->verbose, "print each II/L tried and the time per query");
    sub->add_option("--encoding", opts->encoding, "SMT encoding: boolean (QF_FD) or lia (QF_LIA)")
        ->capture_default_str()
        ->check(CLI::IsMember({"lia", "bool", "boolean"}));
    sub->add_flag("--no-ws", opts->no_ws, "software pipelining only: one warp");
    sub->add_option("--cost-budget", opts->cost_budget,
                    "U of cost normalization: the normalized costs sum to at most this")
        ->capture_default_str();
    sub->add_flag("--no-normalize", opts->no_normalize,
                  "use the graph's times as they are (already small integers)");
    sub->callback([opts]() {
        int rc = run(*opts);
        if (rc != 0)
            throw CLI::RuntimeError(rc);
    });
}

} // namespace kiln::schedule
