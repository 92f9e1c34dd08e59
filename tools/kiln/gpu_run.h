#pragma once
// `kiln run FILE --gpu`: the program compiled through every pass and the code generator, JIT
// compiled through the kernel cache (src/runtime), run on the GPU on the same seeded inputs as
// the CPU interpreter, compared with the float64 reference, and timed. Also the cubin of
// `kiln compile --emit=cubin`: both need the runtime, which a kiln built without the CUDA
// toolkit lacks.
#include "tools/kiln/commands.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::cli {

struct GpuRunOptions {
    std::string file;
    std::vector<std::string> sizes;
    uint64_t seed = 1;
    double tolerance = 0; // 0: by the output's dtype
    int iterations = 20;  // timed launches (median reported); 0: no timing
    int warmup = 3;
    bool check = true;
    std::string epilogue = "direct"; // or "tma": as kiln compile --epilogue
    OverrideOptions overrides;
};

// --gpu, --iters, --warmup, --no-check, --epilogue on the `run` subcommand.
void add_gpu_options(CLI::App& run, bool& gpu, GpuRunOptions& o);

// Exit code: kExitOk, kExitError (no GPU/driver, compile or launch failure: said on stderr),
// kExitMismatch (ran, off its reference).
int run_on_gpu(const GpuRunOptions& o);

// `kiln compile --emit=cubin`: generated source compiled by NVRTC for sm_90a (the runtime's
// compiler, the same cubin `kiln run --gpu` caches); stops the command with diagnostics.
std::string cubin_or_fail(const std::string& source, const std::string& name);

} // namespace kiln::cli
