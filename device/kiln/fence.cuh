// kiln::dev::fence — memory-proxy and barrier-init fences (sm_90).
//
// Why: shared memory written by ordinary stores (st.shared, stmatrix) and then read by the async
// proxy (TMA store, wgmma) needs fence.proxy.async between the write and the barrier that orders
// the reader; mbarrier.init must be made visible to the async proxy / the cluster before use.
#pragma once
#include <cuda/ptx>

namespace kiln::dev::fence {

/// Orders this thread's generic-proxy shared-memory writes before later async-proxy accesses.
__device__ __forceinline__ void proxy_async_shared() {
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

/// Same for global memory (e.g. before a TMA store reads what ordinary stores wrote).
__device__ __forceinline__ void proxy_async_global() {
    cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
}

/// Makes mbarrier.init visible to the cluster (and to the TMA unit) before any arrive/complete_tx.
__device__ __forceinline__ void mbarrier_init() {
    cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

}  // namespace kiln::dev::fence
