#pragma once
// A launch spec bound to device memory: every TMA tensor map encoded
// (cuTensorMapEncodeTiled) and every argument list built once, so enqueue() is only the
// cuLaunchKernel calls (cuLaunchKernelEx with the cluster dimension for cluster kernels), in the
// spec's order, on one stream (what timing should measure).
//
// Requires: `params[i]` is the device address of spec.params[i] (at least its bytes()).
// Guarantees: a tensor map the TMA rules refuse (base 16-byte aligned, row strides multiples of
// 16 bytes, box extents 1..256) is a Diagnostic naming the tensor and the rule.
#include "codegen/launch_spec.h"
#include "runtime/kernel_module.h"

#include <optional>
#include <vector>

namespace kiln::runtime {

// The TMA rules the spec alone decides (row strides, boxes), for refusing a problem before
// compiling it; prepare() checks them again, with the base addresses.
std::optional<Diagnostic> check_tensor_maps(const codegen::LaunchSpec& spec);

class PreparedLaunch {
public:
    static Result<PreparedLaunch> prepare(Driver& d, const KernelModule& module,
                                          const codegen::LaunchSpec& spec,
                                          const std::vector<CUdeviceptr>& params);
    std::optional<Diagnostic> enqueue(CUstream stream) const;

private:
    struct Kernel {
        CUfunction function = nullptr;
        std::string symbol;
        unsigned grid = 1, threads = 1, smem = 0, cluster = 1;
        bool overlaps_previous = false; // programmatic stream serialization
        std::vector<CUtensorMap> maps;     // one per argument (used by tensor-map arguments)
        std::vector<CUdeviceptr> pointers; // one per argument (used by pointer arguments)
        std::vector<void*> args;           // into maps / pointers
    };
    // A cuLaunchKernelEx configuration over `grid` CTAs, its attributes (the cluster dimension,
    // programmatic stream serialization) written into `attrs`.
    static CUlaunchConfig launch_config(const Kernel& k, unsigned grid, CUstream stream,
                                        CUlaunchAttribute (&attrs)[2]);
    static int64_t resident_clusters(Driver& d, const Kernel& k);
    Driver* driver_ = nullptr;
    std::vector<Kernel> kernels_;
};

} // namespace kiln::runtime
