// kiln::dev::atomic — fire-and-forget reductions into global memory (sm_90).
//
// Why: a split-K partial tile is added into an fp32 sum by every block of its tile row; the
// adds must combine, not race, and nothing reads them back in the kernel, so `red` (no return
// value) rather than `atom`. sm_90 adds a vector form that moves two adjacent floats per
// instruction, halving the L2 atomic operations of an accumulator fragment (whose pairs of
// columns are adjacent and 8-byte aligned when a row has an even number of elements).
#pragma once

namespace kiln::dev::atomic {

/// *p += v, relaxed, device scope.
__device__ __forceinline__ void red_add(float* p, float v) {
    asm volatile("red.relaxed.gpu.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

/// p[0] += v0, p[1] += v1 in one instruction; p must be 8-byte aligned.
__device__ __forceinline__ void red_add_pair(float* p, float v0, float v1) {
    asm volatile("red.relaxed.gpu.global.add.v2.f32 [%0], {%1, %2};" ::"l"(p), "f"(v0), "f"(v1)
                 : "memory");
}

}  // namespace kiln::dev::atomic
