// kiln::dev::cluster — thread-block-cluster rank and barrier (sm_90).
#pragma once
#include "kiln/cstdint.cuh"

namespace kiln::dev::cluster {

__device__ __forceinline__ uint32_t block_rank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/// All threads of all CTAs in the cluster (arrive.release + wait.acquire). The .aligned form:
/// every thread of a warp executes it together.
__device__ __forceinline__ void sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

}  // namespace kiln::dev::cluster
