#pragma once
// The joint software-pipelining + warp-specialization problem (Twill §4) for a fixed II and
// schedule length L, as an SMT query to Z3. Variables: op[v,t] (v issues at cycle t of its
// iteration), live[v,t] (v's value is live t cycles after its iteration began) and opw[v,w]
// (v runs on warp w). Constraint families, each tracked by one assumption literal so an unsat
// answer names the families that bind:
//   uniqueness, completion (hard)     each op issues once, in [0, L - cycles(v)]
//   consistency (hard, by construction) copy i of the straight-line program Q is copy 0 shifted
//                                     by i*II, so op[v,i,t] is op[v,0,t-i*II]: one variable each
//   dependence                        s_v + distance*II >= s_u + d
//   capacity                          per unit and steady-state slot, occupancy <= capacity
//   memory                            live footprints per memory (smem, tmem, register file)
//   registers                         live registers per warp <= the machine's limit
//   variable_latency                  variable-latency ops on warp 0, nothing else there
//   cross_warp                        an edge between warps waits spill_cost(u) more
//   concurrency                       a blocking op (blocking in-edge, or any cross-warp
//                                     in-edge) starts when nothing else on its warp is in flight
// Q's prologue and epilogue hold a subset of the steady state's live values and in-flight ops,
// so every capacity-like family is emitted once per steady-state slot r in [0, II), summing
// every copy that overlaps it. That also keeps loop-carried values (distance >= 2 included) live
// until their consumer in a later iteration: the paper's Init rule, generalized.
#include "loop_graph.h"
#include "machine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::schedule {

// lia: one integer start per op (QF_LIA). boolean: one-hot op[v,t] booleans with
// pseudo-boolean capacity sums, solved by Z3's SAT core (QF_FD).
enum class Encoding { lia, boolean };

enum class Family {
    dependence,
    capacity,
    memory,
    registers,
    variable_latency,
    cross_warp,
    concurrency,
};
const char *family_name(Family f);
std::vector<Family> all_families();

struct JointOptions {
    Encoding encoding = Encoding::boolean;
    bool warp_specialize = true; // false: one warp, no variable-latency warp (pure SWP)
    double time_limit_s = 60;
    int threads = 1;
    std::vector<Family> relaxed; // families left out (for diagnosis)
};

enum class JointStatus { sat, unsat, unknown };

struct JointResult {
    JointStatus status = JointStatus::unknown;
    std::vector<int64_t> start;          // per op, when sat
    std::vector<std::vector<int>> warps; // per op, when sat
    std::vector<Family> core;            // when unsat: families in Z3's unsat core
    double seconds = 0;
    int variables = 0; // size of the query, for --verbose
    int assertions = 0;
};

// Requires a normalized graph (small integer delays) that passed check_graph_on_machine.
JointResult solve_joint(const LoopGraph &g, const Machine &m, int64_t ii, int64_t length,
                        const JointOptions &opts);

// Number of warps the joint problem assigns to with these options.
int warps_used_by(const Machine &m, const JointOptions &opts);
// Warp 0 is reserved for variable-latency ops.
bool has_variable_latency_warp(const LoopGraph &g, const Machine &m, const JointOptions &opts);

} // namespace kiln::schedule
