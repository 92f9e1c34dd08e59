// kiln::gemm::FastDivmod — n / d and n % d for 0 <= n < 2^31 by a divisor fixed at launch, as
// a multiply-high and a shift (the round-up method: Granlund and Montgomery, "Division by
// invariant integers using multiplication", PLDI 1994). `/` by a run-time divisor compiles to
// about 25 instructions with a reciprocal on the special-function unit.
//
// Why: the tile scheduler's four divisions were 190 instructions on the producer's path from the
// kernel's entry to its first TMA load, run once and so fetched cold, and on each consumer's
// path from one tile to the next (bench/NOTES.md, "v20").
#pragma once
#include <cstdint>

namespace kiln::gemm {

struct FastDivmod {
    int divisor = 1;
    uint32_t multiplier = 0; // divisor >= 2: ceil(2^(32 + shift) / divisor)
    int shift = 0;           // divisor >= 2: ceil(log2(divisor)) - 1

    FastDivmod() = default;
    /// d >= 1 (a scheduler with nothing to walk never divides; it gets 1).
    __host__ __device__ explicit FastDivmod(int d) : divisor(d < 1 ? 1 : d) {
        if (divisor == 1)
            return;
        int log = 0;
        while ((int64_t(1) << log) < divisor)
            ++log;
        shift = log - 1;
        multiplier = uint32_t(((uint64_t(1) << (32 + shift)) + divisor - 1) / divisor);
    }

    // Exact for n < 2^31: multiplier * divisor = 2^(32 + shift) + e with e < divisor <= 2^log,
    // so n * multiplier / 2^(32 + shift) exceeds n / divisor by less than 1 / divisor. The high
    // word of a 32-bit product is one instruction and keeps everything in 32-bit registers (a
    // 64-bit product and shift spilled the fp8 split-K kernels' 40-register producer).
    __host__ __device__ int div(int n) const {
        const uint32_t high = uint32_t((uint64_t(uint32_t(n)) * multiplier) >> 32);
        return divisor == 1 ? n : int(high >> shift);
    }
    __host__ __device__ int mod(int n) const { return n - div(n) * divisor; }
    /// c ? a : b, field by field (see TileScheduler::at).
    __host__ __device__ static FastDivmod select(bool c, const FastDivmod& a, const FastDivmod& b) {
        FastDivmod f;
        f.divisor = c ? a.divisor : b.divisor;
        f.multiplier = c ? a.multiplier : b.multiplier;
        f.shift = c ? a.shift : b.shift;
        return f;
    }
};

} // namespace kiln::gemm
