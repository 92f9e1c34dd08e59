#include "runtime/cuda_driver.h"

#include "runtime/shared_library.h"

namespace kiln::runtime {
namespace {

// The ABI of every entry point kiln uses is the same from CUDA 12.0 on; asking for that version
// keeps older 12.x drivers working.
constexpr int kDriverApiVersion = 12000;

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t,
                                    CUdriverProcAddressQueryResult*);

struct Loader {
    GetProcAddress get_proc = nullptr;
    std::string missing;

    template <class F> void resolve(F& f, const char* name) {
        void* p = nullptr;
        CUdriverProcAddressQueryResult status{};
        if (get_proc(name, &p, kDriverApiVersion, CU_GET_PROC_ADDRESS_DEFAULT, &status) !=
                CUDA_SUCCESS ||
            status != CU_GET_PROC_ADDRESS_SUCCESS || !p)
            missing += (missing.empty() ? "" : ", ") + std::string(name);
        f = reinterpret_cast<F>(p);
    }
};

std::optional<Diagnostic> resolve_all(Driver& d, Loader& l) {
    decltype(&cuInit) init = nullptr;
    l.resolve(init, "cuInit");
    l.resolve(d.error_string, "cuGetErrorString");
    l.resolve(d.synchronize, "cuCtxSynchronize");
    l.resolve(d.module_load, "cuModuleLoadData");
    l.resolve(d.module_unload, "cuModuleUnload");
    l.resolve(d.module_function, "cuModuleGetFunction");
    l.resolve(d.func_set_attribute, "cuFuncSetAttribute");
    l.resolve(d.encode_tiled, "cuTensorMapEncodeTiled");
    l.resolve(d.launch_kernel, "cuLaunchKernel");
    l.resolve(d.launch_kernel_ex, "cuLaunchKernelEx");
    l.resolve(d.max_active_clusters, "cuOccupancyMaxActiveClusters");
    l.resolve(d.mem_alloc, "cuMemAlloc");
    l.resolve(d.mem_free, "cuMemFree");
    l.resolve(d.copy_to_device, "cuMemcpyHtoD");
    l.resolve(d.copy_to_host, "cuMemcpyDtoH");
    l.resolve(d.event_create, "cuEventCreate");
    l.resolve(d.event_destroy, "cuEventDestroy");
    l.resolve(d.event_record, "cuEventRecord");
    l.resolve(d.event_synchronize, "cuEventSynchronize");
    l.resolve(d.event_elapsed, "cuEventElapsedTime");
    if (!l.missing.empty())
        return Diagnostic{{},
                          "no CUDA driver: the driver lacks " + l.missing +
                              " (kiln needs a driver for CUDA 12.0 or newer)"};
    if (auto e = d.check(init(0), "cuInit"))
        return Diagnostic{{}, "no CUDA device: " + e->message};
    return std::nullopt;
}

// Device 0: its description, and its primary context made current for this thread.
std::optional<Diagnostic> open_device(Driver& d, Loader& l) {
    decltype(&cuDeviceGetCount) count = nullptr;
    decltype(&cuDeviceGet) get = nullptr;
    decltype(&cuDeviceGetName) name = nullptr;
    decltype(&cuDeviceGetAttribute) attribute = nullptr;
    decltype(&cuDevicePrimaryCtxRetain) retain = nullptr;
    decltype(&cuCtxSetCurrent) set_current = nullptr;
    l.resolve(count, "cuDeviceGetCount");
    l.resolve(get, "cuDeviceGet");
    l.resolve(name, "cuDeviceGetName");
    l.resolve(attribute, "cuDeviceGetAttribute");
    l.resolve(retain, "cuDevicePrimaryCtxRetain");
    l.resolve(set_current, "cuCtxSetCurrent");
    if (!l.missing.empty())
        return Diagnostic{{}, "no CUDA driver: the driver lacks " + l.missing};
    int n = 0;
    if (d.check(count(&n), "cuDeviceGetCount") || n == 0)
        return Diagnostic{{}, "no CUDA device: the driver sees no GPU"};
    CUdevice dev = 0;
    char text[256] = {};
    CUcontext ctx = nullptr;
    if (auto e = d.check(get(&dev, 0), "cuDeviceGet"))
        return Diagnostic{{}, "no CUDA device: " + e->message};
    if (auto e = d.check(name(text, sizeof text - 1, dev), "cuDeviceGetName"))
        return e;
    d.device.name = text;
    attribute(&d.device.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    attribute(&d.device.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    attribute(&d.device.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    if (auto e = d.check(retain(&ctx, dev), "cuDevicePrimaryCtxRetain"))
        return e;
    return d.check(set_current(ctx), "cuCtxSetCurrent");
}

Result<Driver*> load_driver() {
    auto lib =
        SharedLibrary::open({"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1",
                             "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"},
                            "no CUDA driver: libcuda.so.1 (the NVIDIA driver)");
    if (!lib)
        return lib.errors();
    Loader l;
    l.get_proc = reinterpret_cast<GetProcAddress>(lib->symbol("cuGetProcAddress_v2"));
    if (!l.get_proc)
        return Diagnostic{{},
                          "no CUDA driver: " + lib->path() +
                              " has no cuGetProcAddress_v2 (needs a driver for CUDA 12.0+)"};
    static Driver driver;
    if (auto e = resolve_all(driver, l))
        return *e;
    if (auto e = open_device(driver, l))
        return *e;
    return &driver;
}

} // namespace

std::string DeviceInfo::describe() const {
    return name + " (sm_" + std::to_string(cc_major) + std::to_string(cc_minor) + ", " +
           std::to_string(sms) + " SMs)";
}

Result<Driver*> Driver::get() {
    static const Result<Driver*> driver = load_driver();
    return driver;
}

std::optional<Diagnostic> Driver::check(CUresult r, const std::string& what) const {
    if (r == CUDA_SUCCESS)
        return std::nullopt;
    const char* text = nullptr;
    if (!error_string || error_string(r, &text) != CUDA_SUCCESS || !text)
        text = "unknown error";
    return Diagnostic{{}, what + ": " + text + " (CUresult " + std::to_string(r) + ")"};
}

} // namespace kiln::runtime
