#include "runtime/device_buffer.h"

namespace kiln::runtime {

Result<DeviceBuffer> DeviceBuffer::upload(Driver& d, const std::string& name,
                                          const std::vector<char>& bytes) {
    DeviceBuffer b(d, name, bytes.size());
    if (auto e = d.check(d.mem_alloc(&b.ptr_, bytes.size()),
                         "allocating " + std::to_string(bytes.size()) + " bytes for " + name))
        return *e;
    if (auto e = d.check(d.copy_to_device(b.ptr_, bytes.data(), bytes.size()), "copying " + name))
        return *e;
    return b;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : driver_(o.driver_), name_(std::move(o.name_)), bytes_(o.bytes_), ptr_(o.ptr_) {
    o.ptr_ = 0;
}

DeviceBuffer::~DeviceBuffer() {
    if (ptr_)
        driver_->mem_free(ptr_);
}

Result<std::vector<char>> DeviceBuffer::download() const {
    std::vector<char> out(bytes_);
    if (auto e = driver_->check(driver_->copy_to_host(out.data(), ptr_, bytes_),
                                "copying " + name_ + " back"))
        return *e;
    return out;
}

} // namespace kiln::runtime
