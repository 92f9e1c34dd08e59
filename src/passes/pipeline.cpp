#include "passes/pipeline.h"

#include "ir/event_verify.h"
#include "passes/alloc_smem.h"
#include "passes/copy_elim.h"
#include "passes/depend.h"
#include "passes/instantiate.h"
#include "passes/pipeline_loops.h"
#include "passes/vectorize.h"
#include "passes/warp_specialize.h"

#include <algorithm>
#include <chrono>

namespace kiln::passes {
namespace {

using EventPass = Result<event::EventProgram> (*)(event::EventProgram, const PassContext&);

struct NamedPass {
    const char* flag;
    EventPass run;
};

// The passes after `depend`, which all map event IR to event IR.
const std::vector<NamedPass>& event_passes() {
    static const std::vector<NamedPass> passes = {
        {"vectorize", vectorize},
        // Copy elimination needs the flattened form: its spill patterns match copies between a
        // processor's piece and the whole, which only share a scope once the pfors are gone.
        {"copy-elim", copy_elim},
        {"warp-specialize", warp_specialize},
        // Pipelining needs the roles: only loops whose DMA copies run on their own warp can run
        // ahead, and only tensors the DMA warp writes get stages.
        {"pipeline-loops", pipeline_loops},
        // Allocation comes last (the paper allocates before warp specialization): the stage
        // counts multiply the footprint, so the plan must see them, and the WAR events that
        // reuse needs must be added to the final, pipelined event graph.
        {"alloc-smem", alloc_smem},
    };
    return passes;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A pass's output that breaks the IR's invariants is the pass's bug; say which pass.
std::optional<std::vector<Diagnostic>> check_output(const std::string& pass,
                                                    const event::EventProgram& p) {
    auto errors = event::verify_event_program(p);
    if (errors.empty())
        return std::nullopt;
    for (auto& e : errors)
        e.message = "after pass '" + pass + "': " + e.message;
    return errors;
}

} // namespace

const std::vector<std::string>& pass_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n = {"depend"};
        for (const auto& p : event_passes())
            n.push_back(p.flag);
        return n;
    }();
    return names;
}

std::string pass_list() {
    std::string list;
    for (const auto& n : pass_names())
        list += (list.empty() ? "" : ", ") + n;
    return list;
}

Result<Compiled> compile(const ir::Program& program, const CompileOptions& options,
                         const PassContext& ctx) {
    const auto& names = pass_names();
    if (!options.stop_after.empty() &&
        std::find(names.begin(), names.end(), options.stop_after) == names.end()) {
        return Diagnostic{
            {}, "unknown pass '" + options.stop_after + "' (passes: " + pass_list() + ")"};
    }
    auto tree = instantiate(program, options.sizes, ctx.machine);
    if (!tree)
        return tree.errors();

    Compiled out;
    auto finish_pass = [&](const std::string& flag,
                           auto start) -> std::optional<std::vector<Diagnostic>> {
        out.timings.push_back({flag, seconds_since(start)});
        if (auto bad = check_output(flag, out.program))
            return bad;
        if (options.after_pass)
            options.after_pass(flag, out.program);
        return std::nullopt;
    };

    auto start = std::chrono::steady_clock::now();
    auto lowered = depend(*tree, program, ctx);
    if (!lowered)
        return lowered.errors();
    out.program = std::move(lowered).value();
    if (auto bad = finish_pass("depend", start))
        return *bad;
    if (options.stop_after == "depend")
        return out;

    for (const auto& pass : event_passes()) {
        start = std::chrono::steady_clock::now();
        auto next = pass.run(std::move(out.program), ctx);
        if (!next)
            return next.errors();
        out.program = std::move(next).value();
        if (auto bad = finish_pass(pass.flag, start))
            return *bad;
        if (options.stop_after == pass.flag)
            break;
    }
    return out;
}

} // namespace kiln::passes
