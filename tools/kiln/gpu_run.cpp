// kiln run --gpu (gpu_run.h). Built without the CUDA toolkit (no src/runtime), the command says
// so and exits 1.
#include "tools/kiln/gpu_run.h"

#include "tools/kiln/commands.h"

#include <fmt/core.h>

#if !defined(KILN_NO_GPU_RUNTIME)
#include "codegen/cuda_emitter.h"
#include "codegen/kernel_plan.h"
#include "interp/reference.h"
#include "passes/instantiate.h"
#include "passes/pipeline.h"
#include "runtime/device_buffer.h"
#include "runtime/jit.h"
#include "runtime/kernel_launch.h"
#include "runtime/launch_timer.h"
#include "runtime/nvrtc_compiler.h"
#include "runtime/tensor_bytes.h"
#include "tools/kiln/run_report.h"
#endif

namespace kiln::cli {

void add_gpu_options(CLI::App& run, bool& gpu, GpuRunOptions& o) {
    run.add_flag("--gpu", gpu,
                 "compile to CUDA, JIT it through the kernel cache (KILN_CACHE_DIR, default "
                 "~/.cache/kiln), run it on the GPU on the same inputs, compare with the "
                 "reference and time it");
    run.add_option("--iters", o.iterations, "with --gpu: timed launches (median reported; 0: none)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    run.add_option("--warmup", o.warmup, "with --gpu: untimed launches before timing")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    run.add_option("--epilogue", o.epilogue,
                   "with --gpu: accumulator stores direct from registers, or through shared "
                   "memory and TMA tile stores (as kiln compile --epilogue)")
        ->check(CLI::IsMember({"direct", "tma"}))
        ->capture_default_str();
    run.add_flag("!--no-check", o.check,
                 "with --gpu: skip the float64 reference (large sizes: the reference runs on "
                 "one CPU core)");
}

#if defined(KILN_NO_GPU_RUNTIME)

int run_on_gpu(const GpuRunOptions&) {
    fmt::print(stderr, "error: --gpu: this kiln was built without the CUDA toolkit (no NVRTC, "
                       "no GPU runtime); rebuild where CMake finds CUDA 12.8+\n");
    return kExitError;
}

std::string cubin_or_fail(const std::string&, const std::string&) {
    fail({Diagnostic{{}, "--emit=cubin: this kiln was built without the CUDA toolkit (no NVRTC)"}});
}

#else

namespace {

struct GpuProgram {
    ir::Program program;
    interp::Sizes sizes;
    codegen::Generated generated;
};

GpuProgram generate(const GpuRunOptions& o) {
    ir::Program program = load_program(o.file, o.overrides);
    auto overrides = parse_sizes(o.sizes);
    auto tree = value_or_fail(passes::instantiate(program, overrides));
    passes::CompileOptions options;
    options.sizes = overrides;
    auto compiled = value_or_fail(passes::compile(program, options, codegen::codegen_pass_context()));
    codegen::EmitOptions emit;
    for (const auto& s : program.sizes)
        emit.size_order.push_back(s.name);
    emit.tma_store_epilogue = o.epilogue == "tma";
    auto generated = value_or_fail(codegen::emit_cuda(compiled.program, emit));
    return {std::move(program), tree.sizes, std::move(generated)};
}

// Attention O = softmax(Q K^T) V over [Z, N, D] tensors: 4 Z N^2 D, half of it with `causal`.
double attention_flops(const ir::Reference& r, const interp::TensorMap& inputs) {
    if (r.args.empty() || !inputs.count(r.args[0].name))
        return 0;
    const auto& shape = inputs.at(r.args[0].name).shape;
    if (shape.size() != 3)
        return 0;
    bool causal = false;
    for (const auto& a : r.args)
        causal = causal || (a.name == "causal" && a.value && *a.value != 0);
    const double n = static_cast<double>(shape[1]);
    return 4.0 * static_cast<double>(shape[0]) * n * n * static_cast<double>(shape[2]) *
           (causal ? 0.5 : 1.0);
}

// The useful floating-point work of the program's reference: 2·M·N·K per GEMM (gemm,
// batched_gemm, gemm_rowsum: one; dual_gemm_swiglu: two), attention's; 0 for others (no rate
// is printed).
double reference_flops(const ir::Program& p, const interp::TensorMap& inputs) {
    if (!p.reference)
        return 0;
    const auto& name = p.reference->name;
    const auto& args = p.reference->args;
    if (name == "attention")
        return attention_flops(*p.reference, inputs);
    const int gemms = name == "dual_gemm_swiglu"                                            ? 2
                      : (name == "gemm" || name == "batched_gemm" || name == "gemm_rowsum") ? 1
                                                                                            : 0;
    const std::size_t a_arg = name == "gemm_rowsum" ? 2 : 1;
    if (!gemms || args.size() <= a_arg || !inputs.count(args[0].name) ||
        !inputs.count(args[a_arg].name))
        return 0;
    const auto& out = inputs.at(args[0].name);
    const auto& a = inputs.at(args[a_arg].name);
    return 2.0 * gemms * static_cast<double>(out.size()) * static_cast<double>(a.shape.back());
}

// All-ones bytes: NaN in every float type, so a workspace element the kernels read before
// writing poisons the result.
std::vector<char> poison(const codegen::SpecParam& p) {
    return std::vector<char>(static_cast<std::size_t>(p.bytes()), static_cast<char>(0xff));
}

// One device buffer per entry parameter, filled with its input (outputs: NaN poison, so an
// element the kernels never write reads back as unwritten), and one per workspace (poison).
std::vector<runtime::DeviceBuffer> upload(runtime::Driver& d, const codegen::LaunchSpec& spec,
                                          const interp::TensorMap& inputs) {
    std::vector<runtime::DeviceBuffer> buffers;
    for (const auto& p : spec.params) {
        if (p.workspace) {
            buffers.push_back(value_or_fail(runtime::DeviceBuffer::upload(d, p.name, poison(p))));
            continue;
        }
        auto it = inputs.find(p.name);
        if (it == inputs.end())
            fail({Diagnostic{{},
                             "--gpu: the kernel's parameter " + p.name +
                                 " is not an entry tensor of the program"}});
        buffers.push_back(value_or_fail(runtime::DeviceBuffer::upload(
            d, p.name, value_or_fail(runtime::to_bytes(it->second)))));
    }
    return buffers;
}

interp::TensorMap download_outputs(const codegen::LaunchSpec& spec,
                                   const std::vector<runtime::DeviceBuffer>& buffers) {
    interp::TensorMap out;
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const auto& p = spec.params[i];
        if (p.privilege != ir::Privilege::Read && !p.workspace)
            out[p.name] = value_or_fail(
                runtime::from_bytes(p.dtype, p.shape, value_or_fail(buffers[i].download())));
    }
    return out;
}

void print_cache(const runtime::CompiledKernels& c) {
    for (const auto& note : c.notes)
        fmt::print("{}\n", note);
    if (c.cache_hit)
        fmt::print("kernel cache: hit {}\n", c.path.string());
    else
        fmt::print("kernel cache: miss; NVRTC compiled in {:.2f} s{}\n", c.compile_seconds,
                   c.stored ? ", stored " + c.path.string() : ", not stored");
}

void print_timing(const runtime::LaunchTiming& t, double flops) {
    fmt::print("gpu time: median {:.4f} ms over {} launches (min {:.4f}, max {:.4f}){}\n",
               t.median_ms, t.iterations, t.min_ms, t.max_ms,
               flops > 0 ? fmt::format(", {:.4g} TFLOP/s", flops / (t.median_ms * 1e-3) / 1e12)
                         : "");
}

} // namespace

std::string cubin_or_fail(const std::string& source, const std::string& name) {
    auto cubin = value_or_fail(runtime::compile_to_cubin(source, name));
    return std::string(cubin.begin(), cubin.end());
}

int run_on_gpu(const GpuRunOptions& o) {
    GpuProgram g = generate(o);
    const auto& spec = g.generated.spec;
    fmt::print("{}: {} (seed {}), {} kernel(s)\n", g.program.name, sizes_text(g.sizes), o.seed,
               spec.kernels.size());
    auto driver = runtime::Driver::get();
    if (!driver) {
        fmt::print(stderr, "error: --gpu: {}\n", driver.errors().front().message);
        return kExitError;
    }
    runtime::Driver& d = **driver;
    fmt::print("gpu: {}\n", d.device.describe());
    if (auto e = runtime::check_tensor_maps(spec))
        fail({*e});
    runtime::KernelCache cache(value_or_fail(runtime::KernelCache::default_dir()));
    auto jit = value_or_fail(runtime::jit(d, g.generated, cache));
    print_cache(jit.compiled);

    auto inputs = value_or_fail(interp::make_inputs(g.program, g.sizes, o.seed));
    auto buffers = upload(d, spec, inputs);
    std::vector<CUdeviceptr> pointers;
    for (const auto& b : buffers)
        pointers.push_back(b.pointer());
    auto launch = value_or_fail(runtime::PreparedLaunch::prepare(d, jit.module, spec, pointers));
    if (auto e = launch.enqueue(nullptr))
        fail({*e});
    if (auto e = d.check(d.synchronize(), "running the kernels"))
        fail({*e});
    bool pass = true;
    if (o.check && g.program.reference) {
        auto outputs = download_outputs(spec, buffers);
        auto reference = value_or_fail(interp::run_reference(g.program, g.sizes, inputs));
        pass = report_comparisons(outputs, reference, g.program.reference->name, o.tolerance);
    } else {
        fmt::print("result not checked ({})\n",
                   o.check ? "the program names no reference" : "--no-check");
    }
    if (o.iterations > 0)
        print_timing(value_or_fail(runtime::time_launches(d, launch, o.warmup, o.iterations)),
                     reference_flops(g.program, inputs));
    return pass ? kExitOk : kExitMismatch;
}

#endif

} // namespace kiln::cli
