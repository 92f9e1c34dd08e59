// kiln::gemm::sm90 split-K reduction — the fix-up after a consumer warpgroup accumulated one K
// split of a tile (scheduler.cuh hands out the splits, split_k.h places the workspace).
//
// Every split publishes its fp32 fragment to the workspace and counts itself in; the last one to
// arrive adds all the published partials and goes on to the epilogue (bias, activation, stores),
// the others are done with the tile. The sum is taken in split order, ((p0 + p1) + p2) + ...,
// whichever split came last (p0 + p1 is the same value either way round), so results do not
// depend on timing. Partials go through L2 only (st.cg / ld.cg: another SM wrote them).
#pragma once
#include <cstdint>

#include "kiln/barrier.cuh"
#include "kiln/gemm/split_k.h"

namespace kiln::gemm::sm90 {

/// Called by all 128 threads (t) of consumer warpgroup `cw` (of `Consumers`, each 64 rows of the
/// tile) after their k-blocks of split `split` of CTA tile `cta_tile`. `flag`: an int of shared
/// memory owned by the warpgroup; `barrier_id`: a named barrier of its 128 threads. True for the
/// last split, whose `acc` then holds the whole sum; false for the others.
template <int Consumers, int NAcc>
__device__ __forceinline__ bool split_k_reduce(float (&acc)[NAcc], const SplitK& sk,
                                               int cta_tile, int split, int cw, int t,
                                               int barrier_id, int* flag) {
    static_assert(NAcc % 4 == 0, "fragments move as float4");
    static_assert(Consumers >= 1 && Consumers <= kSplitKConsumers, "counters per tile");
    constexpr int Vectors = NAcc / 4;  // float4 per thread
    constexpr int64_t Fragment = 128 * NAcc;  // floats per warpgroup and split
    int* counter = sk.counters + cta_tile * kSplitKConsumers + cw;
    // Split s of this warpgroup's fragment; thread t's float4 j at [j * 128 + t] (coalesced).
    auto slice = [&](int s) {
        return reinterpret_cast<float4*>(sk.partials) +
               ((int64_t(cta_tile) * sk.splits + s) * Consumers + cw) * (Fragment / 4) + t;
    };
    float4* own = slice(split);
#pragma unroll
    for (int j = 0; j < Vectors; ++j)
        __stcg(own + j * 128,
               make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]));
    __threadfence();  // the partial is visible GPU-wide before the count says so
    kiln::dev::named_barrier::sync(barrier_id, 128);
    if (t == 0) {
        const bool last = atomicAdd(counter, 1) == sk.splits - 1;
        if (last) atomicExch(counter, 0);  // every split has counted: ready for the next launch
        *flag = last;
    }
    kiln::dev::named_barrier::sync(barrier_id, 128);
    if (!*flag) return false;
    __threadfence();  // the other splits' partials are read after their counts
    auto add = [&](const float4* p, bool assign) {
#pragma unroll
        for (int j = 0; j < Vectors; ++j) {
            const float4 v = __ldcg(p + j * 128);
            float* a = acc + 4 * j;
            if (assign) a[0] = v.x, a[1] = v.y, a[2] = v.z, a[3] = v.w;
            else a[0] += v.x, a[1] += v.y, a[2] += v.z, a[3] += v.w;
        }
    };
    // p0 + p1 from the registers when they hold one of them, else both from the workspace.
    if (split <= 1) add(slice(1 - split), false);
    else add(slice(0), true), add(slice(1), false);
    // Walked by address: a split index spilled in the 232-register consumers of the SiLU kernels.
    constexpr int64_t kSplitStride = Fragment / 4 * Consumers;  // float4 from s to s + 1
    for (const float4 *p = slice(2), *end = slice(sk.splits); p < end; p += kSplitStride)
        add(p, false);
    return true;
}

}  // namespace kiln::gemm::sm90
