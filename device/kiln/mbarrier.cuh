// kiln::dev::mbarrier — shared-memory transaction barriers with phase tracking (sm_90).
//
// An mbarrier completes a phase when its pending-arrival count reaches zero and its expected
// transaction bytes (expect_tx, decremented by TMA complete_tx) reach zero. Waiters wait on the
// parity of the phase they expect to complete. `Pipeline` below wraps a ring of full/empty
// barrier pairs with the (stage, phase) bookkeeping every producer/consumer loop needs.
#pragma once
#include "kiln/cstdint.cuh"
#include "kiln/smem.cuh"
#include <cuda/ptx>

namespace kiln::dev::mbarrier {

__device__ __forceinline__ void init(uint64_t* bar, uint32_t arrivals) {
    cuda::ptx::mbarrier_init(bar, arrivals);
}

/// Plain arrive (release, CTA scope).
__device__ __forceinline__ void arrive(uint64_t* bar) {
    (void)cuda::ptx::mbarrier_arrive(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                     cuda::ptx::space_shared, bar);
}

/// Arrive on the barrier at the same smem offset in cluster CTA `cta`. Default (.release.cta)
/// semantics, as CUTLASS's ClusterBarrier: the arrive only signals "slot free" (the readers were
/// wgmmas that already retired), so no cluster-scope release fence is needed, and that fence
/// costs more than a whole k-block (measured: 2x slower GEMM with .release.cluster).
__device__ __forceinline__ void arrive_cluster(uint64_t* bar, uint32_t cta) {
    uint32_t local = dev::smem::address(bar);
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(cta));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

/// Arrive and announce `bytes` of incoming async-proxy transactions for the current phase.
__device__ __forceinline__ void arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
    (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                               cuda::ptx::space_shared, bar, bytes);
}

__device__ __forceinline__ bool try_wait(uint64_t* bar, uint32_t parity) {
    return cuda::ptx::mbarrier_try_wait_parity(bar, parity);
}

/// Blocks until the phase with the given parity has completed.
__device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) {
    while (!try_wait(bar, parity)) {
    }
}

/// A ring of `Stages` (stage, phase) positions. advance() steps to the next slot and flips the
/// phase each time the ring wraps. Producer and consumers each keep their own copy.
template <int Stages>
struct PipelineState {
    static_assert(Stages >= 1, "pipeline needs at least one stage");
    int stage = 0;
    uint32_t phase = 0;
    __device__ __forceinline__ void advance() {
        if (++stage == Stages) {
            stage = 0;
            phase ^= 1u;
        }
    }
};

}  // namespace kiln::dev::mbarrier
