#include "interp/schedule_check.h"

#include "interp/event_sim.h"

#include <memory>

namespace kiln::interp {
namespace {

using SharedTensors = std::map<std::string, std::shared_ptr<HostTensor>>;

SharedTensors fresh_copy(const TensorMap& inputs) {
    SharedTensors out;
    for (const auto& [name, t] : inputs)
        out[name] = std::make_shared<HostTensor>(t);
    return out;
}

TensorMap outputs_of(const SharedTensors& tensors, const TensorMap& expected) {
    TensorMap out;
    for (const auto& [name, ref] : expected)
        if (auto it = tensors.find(name); it != tensors.end())
            out[name] = *it->second;
    return out;
}

std::string describe_race(const SimRace& r) {
    return "race: " + r.op + " on " + r.tensor + ": " + r.what;
}

} // namespace

Result<ScheduleCheck> check_schedules(const event::EventProgram& program, const TensorMap& inputs,
                                      const TensorMap& expected,
                                      const ScheduleCheckOptions& options) {
    ScheduleCheck check;
    EventSimulator simulator(program);
    for (int s = 0; s < options.schedules; ++s) {
        uint64_t seed = options.first_seed + static_cast<uint64_t>(s);
        SharedTensors tensors = fresh_copy(inputs);
        SimOptions sim;
        sim.seed = seed;
        sim.reject_none = options.reject_none;
        auto report = simulator.run(tensors, sim);
        if (!report)
            return report.errors();
        ++check.runs;

        std::string reason;
        if (!report->races.empty())
            reason = describe_race(report->races.front());
        for (const auto& c : compare(outputs_of(tensors, expected), expected)) {
            check.worst_rel_error = std::max(check.worst_rel_error, c.rel_error);
            if (reason.empty() && !c.passed(tolerance_for(expected.at(c.tensor).dtype)))
                reason = describe({c});
        }
        if (!reason.empty()) {
            check.failures.push_back({seed, reason});
            if (options.stop_at_first_failure)
                break;
        }
    }
    return check;
}

} // namespace kiln::interp
