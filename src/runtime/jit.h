#pragma once
// Generated kernels to loaded kernels, through the kernel cache: look the key up; on a miss
// compile with NVRTC and store the cubin with its launch spec; load the cubin with the driver.
// A corrupt entry, or one the driver refuses to load, is reported in `notes`, removed and
// compiled again — never used and never fatal.
//
// Requires: for jit(), a Driver; compile_cached() needs no GPU (it keys on `gpu` as given).
// Guarantees: on success the module holds every kernel of the generated spec; the spec stored
// with a hit equals the generated one (else the entry counts as corrupt).
#include "codegen/cuda_emitter.h"
#include "runtime/cuda_driver.h"
#include "runtime/kernel_cache.h"
#include "runtime/kernel_module.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kiln::runtime {

struct CompiledKernels {
    CacheEntry entry;
    bool cache_hit = false;
    bool stored = false;        // a miss's cubin is in the cache now
    std::string digest;         // the cache key
    std::filesystem::path path; // the cache entry
    double compile_seconds = 0; // NVRTC, on a miss
    std::vector<std::string> notes;
};

Result<CompiledKernels> compile_cached(const codegen::Generated& generated, const std::string& gpu,
                                       const KernelCache& cache);

struct JitKernels {
    CompiledKernels compiled;
    KernelModule module;
};

Result<JitKernels> jit(Driver& d, const codegen::Generated& generated, const KernelCache& cache);

} // namespace kiln::runtime
