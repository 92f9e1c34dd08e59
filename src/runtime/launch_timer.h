#pragma once
// Times a prepared launch on the GPU: `warmup` untimed launches, then `iterations` launches each
// bracketed by CUDA events (GPU time of all of the spec's kernels, host launch gaps excluded);
// reports the median, which one slow launch (a clock ramp, a page fault) cannot move.
//
// Requires: iterations >= 1. Guarantees: a launch or event failure is a Diagnostic.
#include "runtime/kernel_launch.h"

namespace kiln::runtime {

struct LaunchTiming {
    double median_ms = 0, min_ms = 0, max_ms = 0;
    int iterations = 0;
};

Result<LaunchTiming> time_launches(Driver& d, const PreparedLaunch& launch, int warmup,
                                   int iterations);

} // namespace kiln::runtime
