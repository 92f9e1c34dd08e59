#pragma once
// Device memory owned by the host: one cuMemAlloc'd block, freed with its owner, filled from and
// read back into host bytes.
//
// Requires: a Driver with its context current on this thread. Guarantees: a failed allocation
// or copy is a Diagnostic naming the tensor, never a crash.
#include "runtime/cuda_driver.h"

#include <string>
#include <vector>

namespace kiln::runtime {

class DeviceBuffer {
public:
    static Result<DeviceBuffer> upload(Driver& d, const std::string& name,
                                       const std::vector<char>& bytes);
    DeviceBuffer(DeviceBuffer&& o) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&&) = delete;
    DeviceBuffer(const DeviceBuffer&) = delete;
    ~DeviceBuffer();

    Result<std::vector<char>> download() const;
    CUdeviceptr pointer() const { return ptr_; }

private:
    DeviceBuffer(Driver& d, std::string name, std::size_t bytes)
        : driver_(&d), name_(std::move(name)), bytes_(bytes) {}
    Driver* driver_;
    std::string name_;
    std::size_t bytes_ = 0;
    CUdeviceptr ptr_ = 0;
};

} // namespace kiln::runtime
