#pragma once
// The scheduler's result, as data (STYLE.md rule 6: solvers return data, passes apply it): for
// each op its issue cycle within an iteration, its stage (cycle / II) and the warp(s) that run
// it. The JSON form is what the compiler's pipelining pass reads for `schedule = optimal`.
#include "expected.h"
#include "modulo_ilp.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace kiln::schedule {

// One SMT query or ILP solve of the search, for --verbose and the benchmark.
struct Attempt {
    std::string phase; // "ilp" or "smt"
    int64_t ii = 0;
    int64_t length = 0;
    std::string outcome; // "sat", "unsat: <families>", "infeasible", "time limit"
    double seconds = 0;
};

struct Schedule {
    std::string graph;
    std::string machine;
    int64_t ii = 0;     // initiation interval, in normalized cycles
    int64_t length = 0; // L: cycles from an iteration's first issue to its last completion
    std::vector<std::string> ops;
    std::vector<int64_t> start;          // per op
    std::vector<std::vector<int>> warps; // per op
    int num_warps = 1;
    bool warp_specialized = true;
    bool variable_latency_warp = false; // warp 0 holds exactly the variable-latency ops

    int64_t stages() const { return (length + ii - 1) / ii; } // ceil(L / II): copies in Q
    int64_t stage(int v) const { return start[v] / ii; }
    int64_t slot(int v) const { return start[v] % ii; }

    // Reported alongside, not needed to apply the schedule.
    std::vector<int64_t> warp_register_peak; // per warp, steady state
    Mii mii;
    int64_t modulo_ii = 0; // II of the pure modulo schedule (ILP)
    int64_t modulo_length = 0;
    std::map<int64_t, int64_t> cost_map; // real cycles -> normalized
    int64_t ratio_error = 0;
    bool optimal = false;
    std::string encoding;
    double normalize_s = 0, modulo_s = 0, joint_s = 0, total_s = 0;
    std::vector<Attempt> attempts;
};

nlohmann::json to_json(const Schedule &s);
// Reads what to_json writes (the placement fields; report fields are optional).
Expected<Schedule> parse_schedule(const std::string &text, const std::string &source);

} // namespace kiln::schedule
