#pragma once
// The kernels of a launch spec, loaded from their cubin into the current context: one
// CUfunction per KernelLaunch (by its extern "C" symbol), each allowed the dynamic shared memory
// the spec asks for.
//
// Requires: a Driver. Guarantees: the module is unloaded with its owner; a cubin the driver
// refuses (corrupt, or built for another GPU) or a missing symbol is a Diagnostic, never a crash.
#include "codegen/launch_spec.h"
#include "runtime/cuda_driver.h"

#include <vector>

namespace kiln::runtime {

class KernelModule {
public:
    static Result<KernelModule> load(Driver& d, const std::vector<char>& cubin,
                                     const codegen::LaunchSpec& spec);
    KernelModule(KernelModule&& o) noexcept;
    KernelModule& operator=(KernelModule&&) = delete;
    KernelModule(const KernelModule&) = delete;
    ~KernelModule();

    CUfunction function(std::size_t kernel) const { return functions_[kernel]; }

private:
    explicit KernelModule(Driver& d) : driver_(&d) {}
    Driver* driver_;
    CUmodule module_ = nullptr;
    std::vector<CUfunction> functions_;
};

} // namespace kiln::runtime
