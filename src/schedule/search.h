#pragma once
// Algorithm 1 of Twill: normalize costs, then for II = MII, MII+1, ...: find the shortest modulo
// schedule with the ILP (skipping II that have none), and ask the joint SMT problem for a
// schedule + warp assignment at that II with L = Len(M), Len(M)+1, ... while ceil(L/II) stays the
// same. The first satisfiable query is optimal: no smaller II has any schedule, and no shorter L
// in the stage band has one at this II. When none exists up to the II bound, the error names the
// constraint families of the last query's minimized unsat core.
#include "expected.h"
#include "joint_smt.h"
#include "loop_graph.h"
#include "machine.h"
#include "mip.h"
#include "schedule.h"

#include <functional>
#include <string>

namespace kiln::schedule {

struct SearchOptions {
    JointOptions joint;
    MipOptions mip;
    int64_t cost_budget = 300; // U of the cost normalization
    bool normalize = true;     // false: the graph's times are already small integers
    int64_t max_ii = 0;        // 0: a bound no feasible loop exceeds (a fully serial iteration)
    int extra_stages = 0;      // also try L up to this many stages past the ILP's band
    std::function<void(const std::string &)> log; // --verbose progress, one line per query
};

struct SearchResult {
    Schedule schedule;
    LoopGraph normalized; // the graph the schedule's times refer to
};

Expected<SearchResult> find_schedule(const LoopGraph &g, const Machine &m,
                                     const SearchOptions &opts);

} // namespace kiln::schedule
