#pragma once
// When simulated instances start and complete. Ready instances start in a random (seeded) order;
// each copy or call completes at a random step within `max_delay` further starts, so unordered
// operations overlap and finish in every order. Sequential mode starts the ready instance that
// comes first in the program's text and completes it at once.
#include "interp/event_sim.h"
#include "interp/random.h"
#include "interp/sim_events.h"

#include <functional>
#include <optional>
#include <vector>

namespace kiln::interp::sim {

class Scheduler {
public:
    // `textual_before` orders instances for sequential mode.
    Scheduler(const SimOptions& o, std::function<bool(NodeId, NodeId)> textual_before);

    void add_ready(NodeId id) { ready_.push_back(id); }
    bool has_ready() const { return !ready_.empty(); }
    NodeId take_ready();
    // `id` (a copy or call) has started: it will be due within max_delay further starts.
    void started(NodeId id);
    bool has_in_flight() const { return !flights_.empty(); }
    // An in-flight instance that is due (a random one of them); with `force`, the earliest due
    // when none is: nothing else can start until one completes.
    std::optional<NodeId> take_completion(bool force);

private:
    struct Flight {
        int64_t due;
        NodeId id;
    };
    bool sequential_;
    std::function<bool(NodeId, NodeId)> textual_before_;
    int max_delay_;
    Rng rng_;
    std::vector<NodeId> ready_;
    std::vector<Flight> flights_;
    int64_t starts_ = 0;
};

} // namespace kiln::interp::sim
