#include "interp/event_sim.h"

#include "interp/sim_events.h"
#include "interp/sim_ops.h"
#include "interp/sim_scheduler.h"
#include "interp/sim_storage.h"

#include <new>

namespace kiln::interp {
namespace {

using sim::NodeId;
using sim::NodeKind;

// Starts one ready instance. Joins, yields and loop bookkeeping have no duration; a loop's
// start expands its body.
void start_instance(NodeId id, sim::EventTable& table, sim::Executor& exec, sim::Scheduler& sched,
                    int64_t& step) {
    switch (table.node(id).kind) {
    case NodeKind::Work:
        exec.start(id, ++step);
        sched.started(id);
        return;
    case NodeKind::LoopStart:
        table.start_loop(id);
        table.complete(id);
        return;
    default:
        table.complete(id);
        return;
    }
}

} // namespace

EventSimulator::EventSimulator(const event::EventProgram& p)
    : program_(p), views_(std::make_unique<sim::ViewCache>()) {}

EventSimulator::~EventSimulator() = default;

Result<SimReport> simulate(const event::EventProgram& p,
                           std::map<std::string, std::shared_ptr<HostTensor>>& params,
                           const SimOptions& o) {
    return EventSimulator(p).run(params, o);
}

Result<SimReport> EventSimulator::run(std::map<std::string, std::shared_ptr<HostTensor>>& params,
                                      const SimOptions& o) {
    const event::EventProgram& p = program_;
    try {
        SimReport report;
        sim::EventTable table(p);
        sim::Storage storage(table, params, o, *views_);
        sim::Executor exec(table, storage, report);
        sim::Scheduler sched(o,
                             [&table](NodeId a, NodeId b) { return table.textual_before(a, b); });
        const auto drain = [&] {
            for (NodeId id : table.take_ready())
                sched.add_ready(id);
        };
        int64_t step = 0; // one per start and per completion: orders every memory event
        table.expand_program();
        drain();
        while (sched.has_ready() || sched.has_in_flight()) {
            if (sched.has_ready()) {
                if (++report.instances_run > o.op_limit)
                    return Diagnostic{{},
                                      p.name + ": more than " + std::to_string(o.op_limit) +
                                          " event instances (SimOptions::op_limit)"};
                start_instance(sched.take_ready(), table, exec, sched, step);
                drain();
            }
            while (auto id = sched.take_completion(!sched.has_ready())) {
                exec.finish(*id, ++step);
                table.complete(*id);
                drain();
            }
        }
        if (table.completed() < table.node_count())
            return Diagnostic{{}, p.name + ": " + table.deadlock_report()};
        return report;
    } catch (const DiagnosticError& e) {
        return e.diag;
    } catch (const std::bad_alloc&) {
        return Diagnostic{{}, p.name + ": the simulator ran out of memory"};
    }
}

} // namespace kiln::interp
