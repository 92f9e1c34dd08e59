// kiln::dev::named_barrier — hardware named barriers (bar.sync / bar.arrive).
//
// Ids 0..15; id 0 is __syncthreads(). `threads` counts participating threads and must be a
// multiple of the warp size. Used to synchronize a subset of warps (one warpgroup, or the
// consumers without the producer) without stalling the rest of the block.
#pragma once
#include "kiln/cstdint.cuh"

namespace kiln::dev::named_barrier {

template <int Id, int Threads>
__device__ __forceinline__ void sync() {
    static_assert(Id >= 0 && Id < 16, "named barrier id must be in [0, 16)");
    static_assert(Threads % 32 == 0, "named barrier thread count must be a multiple of 32");
    asm volatile("bar.sync %0, %1;" ::"n"(Id), "n"(Threads) : "memory");
}

template <int Id, int Threads>
__device__ __forceinline__ void arrive() {
    static_assert(Id >= 0 && Id < 16, "named barrier id must be in [0, 16)");
    static_assert(Threads % 32 == 0, "named barrier thread count must be a multiple of 32");
    asm volatile("bar.arrive %0, %1;" ::"n"(Id), "n"(Threads) : "memory");
}

/// Run-time id variant (e.g. one barrier per consumer warpgroup: id = base + warpgroup).
__device__ __forceinline__ void sync(uint32_t id, uint32_t threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace kiln::dev::named_barrier
