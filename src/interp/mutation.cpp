#include "interp/mutation.h"

#include "ir/event_printer.h"

#include <functional>

namespace kiln::interp {
namespace {

using event::Block;
using event::EventRef;
using event::Op;
using event::OpKind;

// Visits every edge in textual order: an op's `after` refs, then its body, then the body's yield.
void visit_edges(Block& b, const std::function<void(const std::string&, EventRef&)>& f) {
    for (Op& op : b.ops) {
        for (EventRef& r : op.after)
            f("%" + op.result, r);
        if (!is_loop(op))
            continue;
        visit_edges(op.loop.body, f);
        if (op.loop.body.yield)
            f("yield of %" + op.result, *op.loop.body.yield);
    }
}

// Removing a yield leaves the loop iteration's completion undefined; an empty join in its place
// keeps the IR well formed and means "this iteration signals completion at once".
void drop_edge(Block& b, std::size_t target, std::size_t& seen) {
    for (Op& op : b.ops) {
        for (std::size_t i = 0; i < op.after.size(); ++i)
            if (seen++ == target) {
                op.after.erase(op.after.begin() + static_cast<std::ptrdiff_t>(i));
                return;
            }
        if (!is_loop(op))
            continue;
        drop_edge(op.loop.body, target, seen);
        if (seen > target)
            return;
        if (op.loop.body.yield && seen++ == target) {
            Op done;
            done.kind = OpKind::Join;
            done.result = op.result + "_mutant";
            done.level = op.level;
            op.loop.body.ops.push_back(done);
            op.loop.body.yield = EventRef{done.result, {}, 0, false};
            return;
        }
    }
}

} // namespace

std::vector<EdgeSite> event_edges(const event::EventProgram& p) {
    std::vector<EdgeSite> out;
    event::EventProgram copy = p;
    visit_edges(copy.body, [&](const std::string& consumer, EventRef& r) {
        out.push_back({out.size(), consumer, event::print_ref(r)});
    });
    return out;
}

event::EventProgram without_edge(event::EventProgram p, std::size_t index) {
    std::size_t seen = 0;
    drop_edge(p.body, index, seen);
    return p;
}

Result<std::vector<EdgeVerdict>> mutate_edges(const event::EventProgram& p, const TensorMap& inputs,
                                              const TensorMap& expected, int schedules) {
    std::vector<EdgeVerdict> verdicts;
    ScheduleCheckOptions options;
    options.schedules = schedules;
    options.stop_at_first_failure = true;
    for (const EdgeSite& edge : event_edges(p)) {
        auto check = check_schedules(without_edge(p, edge.index), inputs, expected, options);
        if (!check)
            return check.errors();
        EdgeVerdict v{edge};
        if (!check->failures.empty()) {
            v.killed = true;
            v.seed = check->failures.front().seed;
            v.reason = check->failures.front().reason;
        }
        verdicts.push_back(std::move(v));
    }
    return verdicts;
}

} // namespace kiln::interp
