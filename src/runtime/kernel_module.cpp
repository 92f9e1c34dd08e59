#include "runtime/kernel_module.h"

namespace kiln::runtime {

Result<KernelModule> KernelModule::load(Driver& d, const std::vector<char>& cubin,
                                        const codegen::LaunchSpec& spec) {
    KernelModule m(d);
    if (auto e = d.check(d.module_load(&m.module_, cubin.data()), "loading the cubin"))
        return *e;
    for (const auto& k : spec.kernels) {
        CUfunction f = nullptr;
        if (auto e = d.check(d.module_function(&f, m.module_, k.symbol.c_str()),
                             "kernel '" + k.symbol + "' in the cubin"))
            return *e;
        if (auto e =
                d.check(d.func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                             static_cast<int>(k.smem_bytes)),
                        "kernel '" + k.symbol + "': " + std::to_string(k.smem_bytes) +
                            " bytes of dynamic shared memory"))
            return *e;
        m.functions_.push_back(f);
    }
    return m;
}

KernelModule::KernelModule(KernelModule&& o) noexcept
    : driver_(o.driver_), module_(o.module_), functions_(std::move(o.functions_)) {
    o.module_ = nullptr;
}

KernelModule::~KernelModule() {
    if (module_)
        driver_->module_unload(module_);
}

} // namespace kiln::runtime
