#pragma once
// Liveness of a modulo schedule, computed directly from start times (no solver): the value of
// op v lives from its issue until its last consumer issues, consumers in later iterations
// included. Used by the validator and to report per-warp register use.
#include "loop_graph.h"

#include <cstdint>
#include <vector>

namespace kiln::schedule {

// [begin, end) in cycles from the start of v's iteration; empty (begin == end) without users.
struct Lifetime {
    int64_t begin = 0;
    int64_t end = 0;
};

std::vector<Lifetime> lifetimes(const LoopGraph &g, int64_t ii, const std::vector<int64_t> &start);

// Steady-state use per slot r in [0, ii): sum over ops of weight[v] times the number of
// iterations whose value of v is live at slot r.
std::vector<int64_t> steady_usage(const std::vector<Lifetime> &life, int64_t ii,
                                  const std::vector<int64_t> &weight);

} // namespace kiln::schedule
