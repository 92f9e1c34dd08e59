#pragma once
// The scheduler's input: the dependence graph of one loop body (Twill §3.1). Every op is a
// tile-level operation that occupies whole-SM functional units; every edge is a dependence with
// a delay in cycles and an iteration distance. Times are integers in whatever unit the graph was
// written in (real cycles before normalization, small integers after).
#include "expected.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace kiln::schedule {

// One row group of an op's resource reservation table: `unit` is busy for `cycles` cycles
// starting at the op's issue cycle.
struct UnitUse {
    std::string unit;
    int64_t cycles = 1;
};

struct Op {
    std::string name;
    std::vector<UnitUse> uses;
    int64_t latency = 0;                   // issue -> result ready (also how long the op runs)
    bool variable_latency = false;         // e.g. TMA loads: placed on a dedicated warp
    int64_t regs = 0;                      // per-thread registers of the value this op defines
    std::map<std::string, int64_t> memory; // other footprints: "smem" bytes, "tmem" columns, ...
    int warps = 1;          // warps that issue it together (e.g. a warpgroup-wide op)
    int64_t spill_cost = 0; // extra delay before a consumer on another warp may start

    // cycles(v) in the paper: how long the op is in flight (completion, concurrency).
    int64_t cycles() const;
    int64_t occupancy(const std::string &unit) const; // 0 when the op does not use `unit`
};

struct Edge {
    int from = 0;
    int to = 0;
    int64_t latency = 0;   // to may issue `latency` cycles after from issues
    int distance = 0;      // ... of the iteration `distance` earlier
    bool blocking = false; // `to` must block (wait on a barrier) before reading from's result
};

struct LoopGraph {
    std::string name;
    std::vector<Op> ops;
    std::vector<Edge> edges;
    // Optional machine the graph was written for: a built-in name ("hopper", "blackwell") or an
    // inline machine description (JSON text). --machine overrides it.
    std::string machine;

    int find(const std::string &op_name) const; // -1 when absent
    // Streaming ops (variable latency, no incoming edge) run ahead of the pipeline (§5.3).
    bool is_streaming(int op) const;
};

// Parses the documented JSON format (docs/scheduler.md). `source` prefixes every message, e.g.
// "graph.json: edge 3 refers to unknown op 'foo'".
Expected<LoopGraph> parse_loop_graph(const std::string &text, const std::string &source);
Expected<LoopGraph> load_loop_graph(const std::string &path);
nlohmann::json to_json(const LoopGraph &g);

// Structural checks that do not need a machine: unique names, non-negative numbers, edge ends in
// range, and no dependence cycle of total distance 0 (no II can satisfy one).
Expected<bool> check_loop_graph(const LoopGraph &g, const std::string &source);

} // namespace kiln::schedule
