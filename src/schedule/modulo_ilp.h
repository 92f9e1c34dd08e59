#pragma once
// Optimal modulo scheduling as an integer program (Twill §3.1 and §4, after Stoutchinin and
// Eichenberger): for a fixed II, each op v gets a row slot r_v in [0, II) (one-hot binaries) and
// a stage q_v >= 0, so it issues at s_v = II*q_v + r_v. Constraints:
//   dependence  s_v - s_u >= d - II*distance             for every edge (u, v, d, distance)
//   capacity    sum over ops occupying f at slot r <= cap(f)   for every unit f and slot r
// and the objective is the schedule length L = max_v s_v + cycles(v), so Algorithm 1 starts its
// length search from the shortest modulo schedule. Requires a normalized graph (small integers).
#include "loop_graph.h"
#include "machine.h"
#include "mip.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::schedule {

// Lower bounds on II: resources (total occupancy per unit over capacity) and recurrences (the
// smallest II with no positive-weight cycle under weights d - II*distance).
struct Mii {
    int64_t resource = 1;
    std::string resource_unit; // the unit that sets `resource`
    int64_t recurrence = 1;
    int64_t mii() const { return std::max(resource, recurrence); }
};

Mii compute_mii(const LoopGraph &g, const Machine &m);

// True when every dependence cycle has weight <= 0 under d - ii*distance.
bool recurrences_allow(const LoopGraph &g, int64_t ii);

struct ModuloSchedule {
    int64_t ii = 0;
    int64_t length = 0;         // L = max_v start[v] + cycles(v)
    std::vector<int64_t> start; // M(v): issue cycle counted from the start of the iteration
};

enum class ModuloStatus { found, infeasible, time_limit };

struct ModuloResult {
    ModuloStatus status = ModuloStatus::infeasible;
    ModuloSchedule schedule;
    double seconds = 0;
};

ModuloResult solve_modulo(const LoopGraph &g, const Machine &m, int64_t ii, const MipOptions &opts);

} // namespace kiln::schedule
