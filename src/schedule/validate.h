#pragma once
// An independent check of a schedule against the loop it schedules, written without the SMT
// encoding: it simulates the steady state of the pipelined loop slot by slot. It checks
// dependences (with distances and cross-warp delays), unit capacities, memory and register
// capacities from directly computed lifetimes, the variable-latency warp rule, and the blocking
// concurrency rule. Every schedule the search emits passes through it.
#include "loop_graph.h"
#include "machine.h"
#include "schedule.h"

#include <string>
#include <vector>

namespace kiln::schedule {

// Empty when valid; otherwise one line per violation, naming the op, edge, unit or warp.
// `g` must be the graph the schedule's times refer to (normalized when it was normalized).
std::vector<std::string> validate_schedule(const LoopGraph &g, const Machine &m, const Schedule &s);

} // namespace kiln::schedule
