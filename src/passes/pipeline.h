#pragma once
// The compiler pipeline (Cypress §4.2), from a verified program to warp-specialized, pipelined
// event IR: instantiate → depend → vectorize → copy-elim → warp-specialize → pipeline-loops →
// alloc-smem. Each pass is named by its flag (`kiln compile --print-after=copy-elim`), timed, and
// its output checked by the event-IR verifier before the next pass runs, so a pass that breaks an
// invariant is caught at its own output, not three passes later.
#include "ir/event.h"
#include "passes/pass_context.h"
#include "passes/task_tree.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln::passes {

// The flags of the passes, in pipeline order.
const std::vector<std::string>& pass_names();
// "depend, vectorize, ...": the flags for messages that reject an unknown one.
std::string pass_list();

struct CompileOptions {
    Sizes sizes;            // problem-size overrides (--size)
    std::string stop_after; // empty: run every pass
    // Called with each pass's flag and output (for --print-after and tests).
    std::function<void(const std::string& pass, const event::EventProgram&)> after_pass;
};

struct PassTiming {
    std::string pass;
    double seconds = 0;
};

struct Compiled {
    event::EventProgram program;
    std::vector<PassTiming> timings;
};

// Runs the pipeline on `program` (which must outlive nothing: the result owns its IR). A
// `stop_after` that names no pass is an error listing the valid names.
Result<Compiled> compile(const ir::Program& program, const CompileOptions& options,
                         const PassContext& ctx = {});

} // namespace kiln::passes
