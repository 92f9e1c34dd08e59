// kiln run: execute a program in the CPU interpreter on seeded random inputs and compare its
// outputs with the float64 reference the program names.
#include "codegen/kernel_plan.h"
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "interp/mutation.h"
#include "interp/reference.h"
#include "interp/schedule_check.h"
#include "passes/instantiate.h"
#include "passes/pipeline.h"
#include "tools/kiln/commands.h"
#include "tools/kiln/gpu_run.h"
#include "tools/kiln/run_report.h"

#include <fmt/core.h>

#include <chrono>
#include <iostream>

namespace kiln::cli {
namespace {

struct RunOptions {
    std::string file;
    std::vector<std::string> sizes;
    uint64_t seed = 1;
    double tolerance = 0; // 0: by the output's dtype
    bool lowered = false;
    int schedules = 200;
    bool mutate = false;
    bool gpu = false;
    GpuRunOptions gpu_options;
    OverrideOptions overrides;
};

// The expected outputs of `reference` only (the inputs are not compared).
interp::TensorMap outputs_only(const interp::TensorMap& reference, const passes::TaskNode& root) {
    interp::TensorMap out;
    for (const auto& arg : root.tensors)
        if (arg.privilege != ir::Privilege::Read && reference.count(arg.param))
            out[arg.param] = reference.at(arg.param);
    return out;
}

void print_mutations(const std::vector<interp::EdgeVerdict>& verdicts) {
    int redundant = 0;
    for (const auto& v : verdicts)
        if (!v.killed) {
            fmt::print("  redundant: {} after {}\n", v.edge.consumer, v.edge.ref);
            ++redundant;
        }
    fmt::print("mutation: {} edges, {} needed (a schedule fails without each), {} redundant\n",
               verdicts.size(), verdicts.size() - redundant, redundant);
}

// Compiles the program, then runs its event IR in the simulator under `schedules` adversarial
// schedules, each compared with the float64 reference.
int run_lowered(const ir::Program& program, const RunOptions& o, const interp::TensorMap& inputs,
                const interp::TensorMap& expected) {
    passes::CompileOptions options;
    options.sizes = parse_sizes(o.sizes);
    auto compiled = value_or_fail(passes::compile(program, options, codegen::codegen_pass_context()));
    interp::ScheduleCheckOptions check_options;
    check_options.schedules = o.schedules;
    auto start = std::chrono::steady_clock::now();
    auto check =
        value_or_fail(interp::check_schedules(compiled.program, inputs, expected, check_options));
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("lowered ({} passes): {} schedules in {:.2f} s, {} failed, worst rel error {:.3e}: "
               "{}\n",
               passes::pass_names().size(), check.runs, seconds, check.failures.size(),
               check.worst_rel_error, check.passed() ? "PASS" : "FAIL");
    for (std::size_t i = 0; i < check.failures.size() && i < 5; ++i)
        fmt::print("  seed {}: {}\n", check.failures[i].seed, check.failures[i].reason);
    if (o.mutate)
        print_mutations(
            value_or_fail(interp::mutate_edges(compiled.program, inputs, expected, o.schedules)));
    return check.passed() ? kExitOk : kExitMismatch;
}

int run_program(const RunOptions& o) {
    ir::Program program = load_program(o.file, o.overrides);
    auto tree = value_or_fail(passes::instantiate(program, parse_sizes(o.sizes)));
    const auto& sizes = tree.sizes;
    auto inputs = value_or_fail(interp::make_inputs(program, sizes, o.seed));

    auto start = std::chrono::steady_clock::now();
    auto outputs = value_or_fail(interp::run(program, sizes, inputs));
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("{}: {} (seed {})\ninterpreter: {:.3f} s\n", program.name, sizes_text(sizes), o.seed,
               seconds);

    if (!program.reference) {
        fmt::print("no reference named: nothing to compare\n");
        return kExitOk;
    }
    auto reference = value_or_fail(interp::run_reference(program, sizes, inputs));
    bool all_pass = report_comparisons(outputs, reference, program.reference->name, o.tolerance);
    if (o.lowered && run_lowered(program, o, inputs, outputs_only(reference, tree.root)) != kExitOk)
        return kExitMismatch;
    return all_pass ? kExitOk : kExitMismatch;
}

} // namespace

void register_run_command(CLI::App& app) {
    static RunOptions o;
    auto* run = app.add_subcommand(
        "run", "Run a program in the CPU interpreter on seeded random inputs and compare it "
               "with its float64 reference");
    run->add_option("FILE", o.file, "a .kiln program with its mapping")->required();
    run->add_option("--size", o.sizes, "override a problem size, e.g. --size M=200")
        ->type_name("NAME=INT");
    add_override_options(*run, o.overrides);
    run->add_option("--seed", o.seed, "seed of the random inputs")->capture_default_str();
    run->add_option("--tolerance", o.tolerance,
                    "relative error bound (default: 1e-2 bf16, 1e-3 f16, 1e-5 f32, 1e-1 f8)");
    run->add_flag("--lowered", o.lowered,
                  "also compile the program (kiln compile) and run its event IR in the simulator "
                  "under adversarial schedules, each compared with the reference");
    run->add_option("--schedules", o.schedules, "schedules (seeds) for --lowered")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    run->add_flag("--mutate", o.mutate,
                  "with --lowered: delete each event edge in turn and report the edges no "
                  "schedule needs");
    add_gpu_options(*run, o.gpu, o.gpu_options);
    run->callback([] {
        o.gpu_options.file = o.file;
        o.gpu_options.sizes = o.sizes;
        o.gpu_options.seed = o.seed;
        o.gpu_options.tolerance = o.tolerance;
        o.gpu_options.overrides = o.overrides;
        int code = o.gpu ? run_on_gpu(o.gpu_options) : run_program(o);
        if (code != kExitOk)
            throw CLI::RuntimeError(code);
    });
}

} // namespace kiln::cli
