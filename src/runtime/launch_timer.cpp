#include "runtime/launch_timer.h"

#include <algorithm>

namespace kiln::runtime {
namespace {

// A start/stop pair of events, destroyed with its owner.
struct EventPair {
    Driver& d;
    CUevent start = nullptr, stop = nullptr;
    ~EventPair() {
        if (start)
            d.event_destroy(start);
        if (stop)
            d.event_destroy(stop);
    }
};

Result<float> time_one(Driver& d, const PreparedLaunch& launch, const EventPair& e) {
    if (auto err = d.check(d.event_record(e.start, nullptr), "cuEventRecord"))
        return *err;
    if (auto err = launch.enqueue(nullptr))
        return *err;
    if (auto err = d.check(d.event_record(e.stop, nullptr), "cuEventRecord"))
        return *err;
    if (auto err = d.check(d.event_synchronize(e.stop), "waiting for the kernels"))
        return *err;
    float ms = 0;
    if (auto err = d.check(d.event_elapsed(&ms, e.start, e.stop), "cuEventElapsedTime"))
        return *err;
    return ms;
}

} // namespace

Result<LaunchTiming> time_launches(Driver& d, const PreparedLaunch& launch, int warmup,
                                   int iterations) {
    for (int i = 0; i < warmup; ++i)
        if (auto e = launch.enqueue(nullptr))
            return *e;
    EventPair events{d};
    if (auto e = d.check(d.event_create(&events.start, CU_EVENT_DEFAULT), "cuEventCreate"))
        return *e;
    if (auto e = d.check(d.event_create(&events.stop, CU_EVENT_DEFAULT), "cuEventCreate"))
        return *e;
    std::vector<double> ms;
    for (int i = 0; i < iterations; ++i) {
        auto t = time_one(d, launch, events);
        if (!t)
            return t.errors();
        ms.push_back(*t);
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    return LaunchTiming{median, ms.front(), ms.back(), iterations};
}

} // namespace kiln::runtime
