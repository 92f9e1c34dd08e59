#pragma once
// Mutation testing of a lowered program's synchronization: delete one event edge (one `after`
// reference, or a loop's yield reference) at a time and look for a simulated schedule that now
// races or computes a wrong result. An edge no schedule can miss is redundant: either implied by
// other edges or over-synchronization the passes inserted (issue 4: "report which edges, if any,
// are redundant").
#include "interp/schedule_check.h"
#include "ir/event.h"

#include <string>
#include <vector>

namespace kiln::interp {

struct EdgeSite {
    std::size_t index = 0; // position in event_edges() order
    std::string consumer;  // "%e7" or "yield of %e3"
    std::string ref;       // the reference as printed, "%e4[:, :, :]@-4"
};

// Every edge of the program, in textual order.
std::vector<EdgeSite> event_edges(const event::EventProgram& p);

// `p` without edge `index` of event_edges(p).
event::EventProgram without_edge(event::EventProgram p, std::size_t index);

struct EdgeVerdict {
    EdgeSite edge;
    bool killed = false; // some schedule failed without the edge
    uint64_t seed = 0;   // the first such schedule
    std::string reason{};
};

// For each edge: up to `schedules` seeds, stopping at the first failing one.
Result<std::vector<EdgeVerdict>> mutate_edges(const event::EventProgram& p, const TensorMap& inputs,
                                              const TensorMap& expected, int schedules);

} // namespace kiln::interp
