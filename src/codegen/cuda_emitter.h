#pragma once
// The CUDA code generator (Cypress §4.2.6): CUDA C++ for Hopper (sm_90a) from the fully lowered,
// warp-specialized, pipelined event IR that `kiln compile` prints. An `extern "C" __global__`
// kernel named after the program — a DMA warpgroup streaming TMA tiles into an mbarrier-guarded
// ring of shared-memory stages and compute warpgroups issuing wgmma — plus an `extern "C"`
// launcher (for nvcc users) that builds the TMA tensor maps and launches it, and the same launch
// as data (LaunchSpec) for the runtime. docs/codegen.md lists what lowers to what.
//
// Requires: the output of passes::compile. Guarantees: readable CUDA that calls only the
// device/kiln/ wrappers, with comments naming the IR ops it came from, that compiles with nvcc
// and with NVRTC; a spec that launches exactly what the source's launcher launches; or
// Diagnostics naming the op the generator cannot lower and why (never code that silently ignores
// an op).
#include "codegen/launch_spec.h"
#include "ir/diagnostic.h"
#include "ir/event.h"

#include <string>
#include <vector>

namespace kiln::codegen {

struct EmitOptions {
    // Order of the launcher's size arguments (the program's `sizes` declaration order); empty:
    // the event program's sizes in name order.
    std::vector<std::string> size_order;
    // The accumulator stores after the pipelined loop go through shared memory and TMA tile
    // stores (tma_store.h) where they can (1.12x the direct stores over the GEMM family on an
    // H100, bench/results/codegen_family_h100.json); otherwise, and where the TMA cannot, direct
    // stores from the registers.
    bool tma_store_epilogue = true;
};

struct Generated {
    std::string source; // CUDA C++: the kernels, then the launcher
    LaunchSpec spec;    // the launcher's launches as data
};

Result<Generated> emit_cuda(const event::EventProgram& program, const EmitOptions& options);

} // namespace kiln::codegen
