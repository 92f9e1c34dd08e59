#pragma once
// The CUDA driver API, loaded at run time (dlopen "libcuda.so.1", entry points through
// cuGetProcAddress), with device 0's primary context made current. `kiln` therefore runs on
// machines without a GPU or driver and says so when a GPU command needs one.
//
// Requires: an NVIDIA driver for CUDA 12.0 or newer. Guarantees: Driver::get() loads once per
// process; it returns the driver, or a Diagnostic that starts "no CUDA driver" (libcuda missing)
// or "no CUDA device" (cuInit or device 0 failed) and says why.
#include "ir/diagnostic.h"

#include <cuda.h>

#include <optional>
#include <string>

namespace kiln::runtime {

struct DeviceInfo {
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sms = 0;
    // "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)": also the GPU part of the cache key.
    std::string describe() const;
};

class Driver {
public:
    static Result<Driver*> get();

    // A Diagnostic "<what>: <driver's error name and text>" when r is not CUDA_SUCCESS.
    std::optional<Diagnostic> check(CUresult r, const std::string& what) const;

    DeviceInfo device;
    decltype(&cuGetErrorString) error_string = nullptr;
    decltype(&cuCtxSynchronize) synchronize = nullptr;
    decltype(&cuModuleLoadData) module_load = nullptr;
    decltype(&cuModuleUnload) module_unload = nullptr;
    decltype(&cuModuleGetFunction) module_function = nullptr;
    decltype(&cuFuncSetAttribute) func_set_attribute = nullptr;
    decltype(&cuTensorMapEncodeTiled) encode_tiled = nullptr;
    decltype(&cuLaunchKernel) launch_kernel = nullptr;
    decltype(&cuLaunchKernelEx) launch_kernel_ex = nullptr; // cluster launches
    decltype(&cuOccupancyMaxActiveClusters) max_active_clusters = nullptr;
    decltype(&cuMemAlloc) mem_alloc = nullptr;
    decltype(&cuMemFree) mem_free = nullptr;
    decltype(&cuMemcpyHtoD) copy_to_device = nullptr;
    decltype(&cuMemcpyDtoH) copy_to_host = nullptr;
    decltype(&cuEventCreate) event_create = nullptr;
    decltype(&cuEventDestroy) event_destroy = nullptr;
    decltype(&cuEventRecord) event_record = nullptr;
    decltype(&cuEventSynchronize) event_synchronize = nullptr;
    decltype(&cuEventElapsedTime) event_elapsed = nullptr;
};

} // namespace kiln::runtime
