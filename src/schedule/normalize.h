#pragma once
// Cost normalization (Twill §5.2): maps real cycle counts to small integers whose ratios stay as
// close as possible to the originals, because the schedulers are exponential in the size of the
// delays. The small ILP, solved exactly with CBC:
//
//     minimize F  s.t.  -F <= C[i]*C'[j] - C[j]*C'[i] <= F   for all i < j
//                       1 <= sum C' <= U,   C'[i] >= 1 (integer)
//
// then, with F fixed at its optimum, minimize sum C' so that ties resolve to the smallest costs
// (1:1:1 rather than 100:100:100). C' >= 1 keeps an op that takes time from becoming free.
#include "expected.h"
#include "loop_graph.h"
#include "mip.h"

#include <cstdint>
#include <map>
#include <vector>

namespace kiln::schedule {

struct Normalization {
    std::map<int64_t, int64_t> cost; // original -> normalized; 0 -> 0 always
    int64_t max_ratio_error = 0;     // F at the optimum
    double seconds = 0;
};

// `costs` may hold repeats and zeros. `budget` is U (the paper uses 300).
Expected<Normalization> normalize_costs(const std::vector<int64_t> &costs, int64_t budget,
                                        const MipOptions &opts);

struct NormalizedGraph {
    LoopGraph graph; // same ops and edges, every time field mapped through `map`
    Normalization map;
};

// Collects every time in the graph (latencies, unit cycles, edge delays, spill costs),
// normalizes them together, and rewrites the graph. Streaming ops (variable latency, no inputs)
// get latency 0 and so do their out-edges (§5.3): they run ahead on their own warp.
Expected<NormalizedGraph> normalize_graph(const LoopGraph &g, int64_t budget,
                                          const MipOptions &opts);

} // namespace kiln::schedule
