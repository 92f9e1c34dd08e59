#pragma once
// Proves a lowered program right on the CPU: runs it in the event-IR simulator under many
// adversarial schedules (seeds) and checks every run against the expected outputs — no race
// (poisoned read) and every output within its dtype's tolerance of the reference. This is what
// `kiln run --lowered` and the end-to-end and mutation tests use.
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "ir/event.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::interp {

struct ScheduleCheckOptions {
    int schedules = 200;
    uint64_t first_seed = 1; // schedule s uses seed first_seed + s
    bool stop_at_first_failure = false;
    // A fully lowered program touches no NONE tensor; the dependence analysis's output does.
    bool reject_none = true;
};

struct ScheduleFailure {
    uint64_t seed = 0;
    std::string reason; // the first race, or the comparison that failed
};

struct ScheduleCheck {
    int runs = 0;
    std::vector<ScheduleFailure> failures;
    double worst_rel_error = 0; // over all runs and outputs
    bool passed() const { return runs > 0 && failures.empty(); }
};

// `inputs`: every entry tensor (outputs as poison); `expected`: the outputs to compare with (the
// float64 reference), compared by name with interp::compare at tolerance_for(dtype). A simulator
// error (deadlock, malformed program) is returned as diagnostics, not as a failed schedule.
Result<ScheduleCheck> check_schedules(const event::EventProgram& program, const TensorMap& inputs,
                                      const TensorMap& expected,
                                      const ScheduleCheckOptions& options = {});

} // namespace kiln::interp
