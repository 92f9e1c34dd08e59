// ClockSampler: what the GPU's SM clock and board power were while a kernel ran, read from
// NVML in a host thread. The GEMMs here run at the board's power limit, where the clock drops
// until the power fits (bench/NOTES.md, "v20"): two kernels of equal work per clock can then
// differ in speed by how much energy each spends per tile, which the TFLOP/s alone cannot tell.
//
// NVML is opened at run time (libnvidia-ml.so.1 comes with the driver; no header or link-time
// library is needed to build): without it, `ok()` is false and the samples stay empty.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <dlfcn.h>
#include <thread>
#include <vector>

namespace kiln::bench {

class ClockSampler {
public:
    struct Summary {
        double sm_mhz = 0, watts = 0; // medians over the samples
        uint64_t reasons = 0;         // OR of NVML's clock-event reasons seen (0x4: power cap)
        int samples = 0;
    };

    ClockSampler() {
        lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib_)
            return;
        auto sym = [&](const char* name) { return dlsym(lib_, name); };
        auto init = reinterpret_cast<int (*)()>(sym("nvmlInit_v2"));
        auto handle =
            reinterpret_cast<int (*)(unsigned, void**)>(sym("nvmlDeviceGetHandleByIndex_v2"));
        clock_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(sym("nvmlDeviceGetClockInfo"));
        power_ = reinterpret_cast<int (*)(void*, unsigned*)>(sym("nvmlDeviceGetPowerUsage"));
        reasons_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(
            sym("nvmlDeviceGetCurrentClocksThrottleReasons"));
        ok_ = init && handle && clock_ && power_ && reasons_ && init() == 0 &&
              handle(0, &device_) == 0;
    }
    ~ClockSampler() {
        stop();
        if (lib_)
            dlclose(lib_);
    }
    ClockSampler(const ClockSampler&) = delete;
    ClockSampler& operator=(const ClockSampler&) = delete;

    bool ok() const { return ok_; }

    /// Samples every `period` until stop().
    void start(std::chrono::milliseconds period = std::chrono::milliseconds(10)) {
        stop();
        mhz_.clear();
        mw_.clear();
        seen_ = 0;
        if (!ok_)
            return;
        running_ = true;
        thread_ = std::thread([this, period] {
            while (running_) {
                sample_once();
                std::this_thread::sleep_for(period);
            }
        });
    }

    Summary stop() {
        if (thread_.joinable()) {
            running_ = false;
            thread_.join();
        }
        Summary s;
        s.samples = int(mhz_.size());
        s.sm_mhz = median(mhz_);
        s.watts = median(mw_) / 1000.0;
        s.reasons = seen_;
        return s;
    }

private:
    static constexpr int kClockSm = 1; // NVML_CLOCK_SM

    void sample_once() {
        unsigned mhz = 0, mw = 0;
        unsigned long long r = 0;
        if (clock_(device_, kClockSm, &mhz) == 0)
            mhz_.push_back(mhz);
        if (power_(device_, &mw) == 0)
            mw_.push_back(mw);
        if (reasons_(device_, &r) == 0)
            seen_ |= r;
    }

    static double median(std::vector<double> v) {
        if (v.empty())
            return 0;
        std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
        return v[v.size() / 2];
    }

    void* lib_ = nullptr;
    void* device_ = nullptr;
    bool ok_ = false;
    int (*clock_)(void*, int, unsigned*) = nullptr;
    int (*power_)(void*, unsigned*) = nullptr;
    int (*reasons_)(void*, unsigned long long*) = nullptr;
    std::atomic<bool> running_{false};
    std::thread thread_;
    std::vector<double> mhz_, mw_;
    uint64_t seen_ = 0;
};

} // namespace kiln::bench
