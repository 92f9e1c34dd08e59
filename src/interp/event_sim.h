#pragma once
// The event-IR simulator: runs an event program (src/ir/event.h) on the CPU with simulated
// asynchronous processors, to prove the compiler passes correct without a GPU. Every copy and
// call completes at an adversarially (seeded, randomly) chosen later time, ready instances start
// in random order, and an instance that reads an element whose producer has not completed — or
// that a later writer started overwriting while the reader was in flight — reads poison (NaN)
// and the race is reported. Model and options: docs/interpreter.md, "Event IR simulator".
//
// The pieces: sim_events (instances, scopes, `after` resolution), sim_storage (buffers per
// processor and stage, views), sim_ops (what a copy or call instance reads and writes, race
// checks), sim_scheduler (ready set, completion times).
#include "interp/host_tensor.h"
#include "ir/diagnostic.h"
#include "ir/event.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln::interp {

struct SimOptions {
    uint64_t seed = 0;
    // Textual order (a loop's body at the loop, iterations in order), every instance completing
    // as soon as it starts: one legal schedule with no overlap, for debugging.
    bool sequential = false;
    int max_delay = 8;             // an instance completes within this many further starts
    int64_t op_limit = 50'000'000; // instances run before giving up
    // Touching a memory NONE tensor is an error (copy elimination must remove every use of
    // one). Off for the dependence analysis's output, which still has them: they are simulated
    // as ordinary storage then.
    bool reject_none = false;
};

// One data race, reported once per operation and tensor.
struct SimRace {
    std::string op;     // the instance: "%e7 (k = 1, t = 5)"
    std::string tensor; // the alloc
    std::string what; // "%e7 (k = 1) read poisoned A1[3, 5] (written by %e4 (k = 1), not complete)"
};

struct SimReport {
    std::vector<SimRace> races;
    int64_t instances_run = 0; // every event instance, loop starts and yields included
};

namespace sim {
struct ViewCache;
}

// A program prepared for many runs (tests simulate hundreds of seeds): the views its operations
// name are built by the first run that needs them and shared by the later ones. `p` must outlive
// the simulator.
class EventSimulator {
public:
    explicit EventSimulator(const event::EventProgram& p);
    ~EventSimulator();
    EventSimulator(const EventSimulator&) = delete;
    EventSimulator& operator=(const EventSimulator&) = delete;

    // `params`: the entry tensors by name, read and written in place. Errors (a deadlock, a
    // reference or view the program cannot resolve, a leaf that fails) are diagnostics; races
    // are not errors, they are reported.
    Result<SimReport> run(std::map<std::string, std::shared_ptr<HostTensor>>& params,
                          const SimOptions& o);

private:
    const event::EventProgram& program_;
    std::unique_ptr<sim::ViewCache> views_;
};

// One run: EventSimulator(p).run(params, o).
Result<SimReport> simulate(const event::EventProgram& p,
                           std::map<std::string, std::shared_ptr<HostTensor>>& params,
                           const SimOptions& o);

} // namespace kiln::interp
