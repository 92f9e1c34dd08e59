// kiln compile: lower a program through the compiler passes (src/passes/pipeline.h) and print the
// event IR — after every pass, after chosen passes, or where the pipeline stops — or, with
// --emit=cuda, the CUDA C++ the code generator makes of it (src/codegen/).
#include "codegen/cuda_emitter.h"
#include "codegen/kernel_plan.h"
#include "codegen/launch_spec.h"
#include "ir/event_printer.h"
#include "passes/pipeline.h"
#include "tools/kiln/commands.h"
#include "tools/kiln/gpu_run.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <iostream>

namespace kiln::cli {
namespace {

struct CompileOptions {
    std::string file;
    std::vector<std::string> sizes;
    bool print_after_all = false;
    std::vector<std::string> print_after;
    std::string stop_after;
    bool time_passes = false;
    std::string output;
    std::string emit = "event";
    std::string epilogue = "tma";
    OverrideOptions overrides;
};

bool wants_print(const CompileOptions& o, const std::string& pass) {
    return o.print_after_all ||
           std::find(o.print_after.begin(), o.print_after.end(), pass) != o.print_after.end();
}

// A --print-after name that is not a pass would silently print nothing: refuse it up front.
void check_pass_names(const std::vector<std::string>& names) {
    const auto& valid = passes::pass_names();
    for (const auto& n : names)
        if (std::find(valid.begin(), valid.end(), n) == valid.end()) {
            fmt::print(stderr, "error: --print-after: unknown pass '{}' (passes: {})\n", n,
                       passes::pass_list());
            throw CLI::RuntimeError(kExitUsage);
        }
}

void write_output(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary); // a cubin too
    out << text;
    if (!out) {
        fmt::print(stderr, "error: cannot write '{}'\n", path);
        throw CLI::RuntimeError(kExitError);
    }
}

void compile_program(const CompileOptions& o) {
    check_pass_names(o.print_after);
    ir::Program program = load_program(o.file, o.overrides);
    passes::CompileOptions options;
    options.sizes = parse_sizes(o.sizes);
    options.stop_after = o.stop_after;
    bool printed = false;
    options.after_pass = [&](const std::string& pass, const event::EventProgram& p) {
        if (!wants_print(o, pass))
            return;
        std::cout << "# ---- after " << pass << " ----\n" << event::print_event_program(p);
        printed = true;
    };
    if (o.emit == "cubin" && o.output.empty()) {
        fmt::print(stderr, "error: --emit=cubin writes a binary: give -o FILE\n");
        throw CLI::RuntimeError(kExitUsage);
    }
    auto compiled = passes::compile(program, options, codegen::codegen_pass_context());
    if (!compiled)
        fail(compiled.errors());
    std::string final_ir = event::print_event_program(compiled->program);
    if (o.emit != "event") {
        codegen::EmitOptions emit;
        for (const auto& s : program.sizes)
            emit.size_order.push_back(s.name);
        emit.tma_store_epilogue = o.epilogue == "tma";
        auto cuda = codegen::emit_cuda(compiled->program, emit);
        if (!cuda)
            fail(cuda.errors());
        final_ir = o.emit == "cuda"   ? cuda->source
                   : o.emit == "spec" ? codegen::to_json(cuda->spec) + "\n"
                                      : cubin_or_fail(cuda->source, program.name + ".cu");
    }
    if (!o.output.empty())
        write_output(o.output, final_ir);
    else if (!printed)
        std::cout << final_ir;
    if (o.time_passes)
        for (const auto& t : compiled->timings)
            fmt::print(stderr, "{:>16}: {:8.3f} ms\n", t.pass, t.seconds * 1e3);
}

} // namespace

void register_compile_command(CLI::App& app) {
    static CompileOptions o;
    auto* cmd = app.add_subcommand(
        "compile", "Lower a program through the compiler passes and print its event IR");
    cmd->add_option("FILE", o.file, "a .kiln program with its mapping")->required();
    cmd->add_option("--size", o.sizes, "override a problem size, e.g. --size M=4096")
        ->type_name("NAME=INT");
    add_override_options(*cmd, o.overrides);
    cmd->add_flag("--print-after-all", o.print_after_all, "print the event IR after every pass");
    cmd->add_option("--print-after", o.print_after, "print the event IR after PASS (repeatable)")
        ->type_name("PASS");
    cmd->add_option("--stop-after", o.stop_after, "stop the pipeline after PASS")
        ->type_name("PASS");
    cmd->add_flag("--time-passes", o.time_passes, "print each pass's time to stderr");
    cmd->add_option("-o,--output", o.output, "write the final event IR (or CUDA) to FILE")
        ->type_name("FILE");
    cmd->add_option("--emit", o.emit,
                    "what to print: the final event IR, CUDA C++ for sm_90a, its launch spec "
                    "(JSON), or the cubin NVRTC makes of it (needs -o)")
        ->check(CLI::IsMember({"event", "cuda", "spec", "cubin"}))
        ->type_name("event|cuda|spec|cubin");
    cmd->add_option("--epilogue", o.epilogue,
                    "how generated kernels store their accumulator tiles: through shared memory "
                    "and TMA tile stores (default), or directly from registers (docs/codegen.md)")
        ->check(CLI::IsMember({"direct", "tma"}))
        ->type_name("direct|tma");
    cmd->footer("Passes, in order: depend, vectorize, copy-elim, warp-specialize, pipeline-loops, "
                "alloc-smem (docs/passes/).");
    cmd->callback([] { compile_program(o); });
}

} // namespace kiln::cli
