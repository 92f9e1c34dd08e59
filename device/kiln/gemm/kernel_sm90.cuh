// kiln::gemm::sm90 — warp-specialized, persistent TMA + wgmma GEMM for Hopper (sm_90a).
//
//   D[b](MxN) = epilogue( A[b](MxK) * B[b](NxK)^T )      A, B: bf16 or f16, both K-major
//
// Block = 3 warpgroups (384 threads). Warpgroup 0 is the producer: it gives registers away
// (setmaxnreg.dec) and one thread streams A/B tiles with TMA into a Stages-deep ring of smem
// buffers, each guarded by a `full` mbarrier (TMA completes tx bytes) and an `empty` mbarrier
// (one arrive per consumer warp once its wgmmas on that buffer retired). Warpgroups 1 and 2 are
// consumers: each owns 64 rows of the BM=128 x BN tile, keeps a 64xBN fp32 accumulator in
// registers (setmaxnreg.inc) and issues m64nBNk16 wgmmas. The grid is persistent (one CTA per
// SM); tiles come from TileScheduler (grouped rasterization for L2 reuse). Ragged M, N, K are
// handled by TMA's zero fill on loads and by predicated stores in the epilogue.
#pragma once
#include <cstdint>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kiln/barrier.cuh"
#include "kiln/cluster.cuh"
#include "kiln/fence.cuh"
#include "kiln/mbarrier.cuh"
#include "kiln/regs.cuh"
#include "kiln/swizzle.cuh"
#include "kiln/tma.cuh"
#include "kiln/wgmma.cuh"
#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/scheduler.cuh"

namespace kiln::gemm::sm90 {

namespace dev = kiln::dev;

template <class T>
struct WgmmaType;
template <>
struct WgmmaType<__nv_bfloat16> {
    static constexpr auto value = dev::wgmma::DType::BF16;
};
template <>
struct WgmmaType<__half> {
    static constexpr auto value = dev::wgmma::DType::F16;
};

/// Compile-time shape of the kernel. BK is one 128-byte swizzle row of 16-bit elements.
template <class ElementT, class OutT, int BN_ = 256, int Stages_ = 4, int ClusterM_ = 1>
struct Config {
    using Element = ElementT;
    using Out = OutT;
    static constexpr int BM = 128, BN = BN_, BK = 64, Stages = Stages_;
    // CTAs per cluster along M. With 2, the pair shares the B tile: each CTA loads half of it and
    // multicasts it to both, cutting L2->SM traffic per CTA from (A + B) to (A + B/2).
    static constexpr int ClusterM = ClusterM_;
    static_assert(ClusterM == 1 || ClusterM == 2, "cluster of 1 or 2 CTAs along M");
    static constexpr int BRowsPerCta = BN / ClusterM;
    static constexpr int Consumers = 2;  // warpgroups, 64 rows each
    static constexpr int Threads = 128 * (1 + Consumers);
    static constexpr int ProducerRegs = 40, ConsumerRegs = 232;
    static constexpr auto Swizzle = dev::swizzle::Mode::B128;
    static_assert(sizeof(Element) == 2, "the wgmma path takes 16-bit inputs");
    static_assert(BK * sizeof(Element) == 128, "BK must span one 128B swizzle row");
    static_assert(BN % 64 == 0 && BN <= 256, "BN must be 64, 128, 192 or 256");
    static_assert(ProducerRegs * 128 + ConsumerRegs * 128 * Consumers <= 65536,
                  "register split exceeds the SM's 64K registers");
    static constexpr int ATileBytes = BM * BK * sizeof(Element);
    static constexpr int BTileBytes = BN * BK * sizeof(Element);
    static constexpr int StageBytes = ATileBytes + BTileBytes;
    // +1024: dynamic smem is only 16-byte aligned; swizzled tiles need 1024.
    static constexpr int SmemBytes = Stages * StageBytes + 2 * Stages * 8 + 1024;
    static_assert(SmemBytes <= 227 * 1024, "pipeline does not fit in 227 KiB of shared memory");
};

struct Problem {
    int M, N, K, batch;
};

template <class Cfg, class Epilogue>
__global__ void __launch_bounds__(Cfg::Threads, 1)
    gemm_kernel(const __grid_constant__ CUtensorMap tm_a, const __grid_constant__ CUtensorMap tm_b,
                typename Cfg::Out* __restrict__ d, int64_t ldd, int64_t batch_stride_d,
                Problem p, TileScheduler sched, Epilogue epi) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using Element = typename Cfg::Element;
    constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages;
    extern __shared__ uint8_t smem_raw[];
    uint8_t* smem = reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
    auto a_tile = [&](int s) { return smem + s * Cfg::StageBytes; };
    auto b_tile = [&](int s) { return smem + s * Cfg::StageBytes + Cfg::ATileBytes; };
    uint64_t* full = reinterpret_cast<uint64_t*>(smem + Stages * Cfg::StageBytes);
    uint64_t* empty = full + Stages;

    const int warpgroup = threadIdx.x / 128;
    const int k_blocks = (p.K + BK - 1) / BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < Stages; ++s) {
            dev::mbarrier::init(&full[s], 1);
            // one arrive per consumer warp of every CTA that reads this slot's B half
            dev::mbarrier::init(&empty[s], Cfg::Consumers * 4 * Cfg::ClusterM);
        }
        dev::fence::mbarrier_init();
        dev::tma::prefetch_descriptor(&tm_a);
        dev::tma::prefetch_descriptor(&tm_b);
    }
    // The peer CTA signals our barriers: they must be initialized cluster-wide first.
    if constexpr (Cfg::ClusterM > 1) dev::cluster::sync();
    else __syncthreads();
    const int rank = Cfg::ClusterM > 1 ? int(dev::cluster::block_rank()) : 0;
    const int cluster_id = blockIdx.x / Cfg::ClusterM;
    const int clusters = gridDim.x / Cfg::ClusterM;
    // Tiles are scheduled per cluster: cluster tile (m, n) covers M-tiles ClusterM*m + rank.
    auto tile_at = [&](int t) {
        TileCoord tc = sched.at(t);
        tc.m = tc.m * Cfg::ClusterM + rank;
        return tc;
    };

    if (warpgroup == 0) {
        // ---------------- producer ----------------
        dev::regs::decrease<Cfg::ProducerRegs>();
        if (threadIdx.x == 0) {
            dev::mbarrier::PipelineState<Stages> st;
            for (int t = cluster_id; t < sched.total(); t += clusters) {
                TileCoord tc = tile_at(t);
                for (int kb = 0; kb < k_blocks; ++kb) {
                    // A fresh barrier counts as having completed the phase before phase 0, so
                    // the first pass through the ring does not block.
                    dev::mbarrier::wait(&empty[st.stage], st.phase ^ 1u);
                    // Our full barrier receives our A, our B half and the peer's B half.
                    dev::mbarrier::arrive_expect_tx(&full[st.stage], Cfg::StageBytes);
                    dev::tma::load(a_tile(st.stage), &tm_a, &full[st.stage], kb * BK, tc.m * BM,
                                   tc.batch);
                    if constexpr (Cfg::ClusterM == 1) {
                        dev::tma::load(b_tile(st.stage), &tm_b, &full[st.stage], kb * BK,
                                       tc.n * BN, tc.batch);
                    } else {
                        dev::tma::load_multicast(
                            b_tile(st.stage) + rank * Cfg::BRowsPerCta * 128, &tm_b,
                            &full[st.stage], uint16_t((1u << Cfg::ClusterM) - 1), kb * BK,
                            tc.n * BN + rank * Cfg::BRowsPerCta, tc.batch);
                    }
                    st.advance();
                }
            }
        }
    } else {
        // ---------------- consumers ----------------
        dev::regs::increase<Cfg::ConsumerRegs>();
        constexpr auto DT = WgmmaType<Element>::value;
        const int cw = warpgroup - 1;  // consumer index: rows [64*cw, 64*cw + 64) of the tile
        const int t = threadIdx.x % 128;
        const bool lane0 = (threadIdx.x % 32) == 0;
        float acc[BN / 2];
        dev::mbarrier::PipelineState<Stages> st;
        // Release a slot: every CTA of the cluster wrote half of its B into our slot and waits
        // for our consumers before refilling it.
        auto release = [&](int stage) {
            if (!lane0) return;
            if constexpr (Cfg::ClusterM == 1) {
                dev::mbarrier::arrive(&empty[stage]);
            } else {
                dev::mbarrier::arrive(&empty[stage]);
#pragma unroll
                for (int c = 1; c < Cfg::ClusterM; ++c)
                    dev::mbarrier::arrive_cluster(&empty[stage], (rank + c) % Cfg::ClusterM);
            }
        };

        for (int tile = cluster_id; tile < sched.total(); tile += clusters) {
            TileCoord tc = tile_at(tile);
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
            int prev_stage = -1;
            for (int kb = 0; kb < k_blocks; ++kb) {
                dev::mbarrier::wait(&full[st.stage], st.phase);
                uint64_t da = dev::wgmma::make_desc<Cfg::Swizzle>(a_tile(st.stage) + cw * 64 * 128,
                                                                  16, 1024);
                uint64_t db = dev::wgmma::make_desc<Cfg::Swizzle>(b_tile(st.stage), 16, 1024);
                dev::wgmma::fence_operand(acc);
                dev::wgmma::fence();
#pragma unroll
                for (int k = 0; k < BK / 16; ++k)
                    dev::wgmma::mma<BN, DT>(acc, dev::wgmma::advance(da, k * 32),
                                            dev::wgmma::advance(db, k * 32), 1);
                dev::wgmma::commit();
                // Keep one batch in flight: the previous stage's wgmmas have retired once at
                // most one group is pending, so its buffer can go back to the producer.
                dev::wgmma::wait<1>();
                dev::wgmma::fence_operand(acc);
                if (prev_stage >= 0) release(prev_stage);
                prev_stage = st.stage;
                st.advance();
            }
            dev::wgmma::wait<0>();
            dev::wgmma::fence_operand(acc);
            if (prev_stage >= 0) release(prev_stage);

            // ---------------- epilogue: registers -> global, predicated ----------------
            const int row0 = tc.m * BM + cw * 64 + dev::wgmma::accumulator_row(t, 0);
            const int col0 = tc.n * BN + dev::wgmma::accumulator_col(t, 0);
            typename Cfg::Out* dbase = d + tc.batch * batch_stride_d;
            const bool vec_ok = (ldd % 2) == 0;
            if constexpr (requires { epi.apply(acc, row0, col0, tc.batch, p.M, p.N); }) {
                epi.apply(acc, row0, col0, tc.batch, p.M, p.N);  // batched loads of C / bias
                // Results pinned before the store pass. Known: the fp32-output, no-activation,
                // BN = 256 instantiation still spills 60 bytes in ptxas (see bench/NOTES.md).
                dev::wgmma::fence_operand(acc);
            } else {
#pragma unroll
                for (int j = 0; j < BN / 8; ++j)
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        acc[4 * j + e] = epi(acc[4 * j + e], row0 + 8 * (e / 2),
                                             col0 + 8 * j + (e % 2), tc.batch);
            }
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + 8 * h;
                if (row >= p.M) continue;
                typename Cfg::Out* drow = dbase + int64_t(row) * ldd;
#pragma unroll
                for (int j = 0; j < BN / 8; ++j) {
                    const int col = col0 + 8 * j;
                    float v0 = acc[4 * j + 2 * h], v1 = acc[4 * j + 2 * h + 1];
                    if (col + 1 < p.N && vec_ok) {
                        store_pair(drow + col, v0, v1);
                    } else {
                        if (col < p.N) drow[col] = from_float<typename Cfg::Out>(v0);
                        if (col + 1 < p.N) drow[col + 1] = from_float<typename Cfg::Out>(v1);
                    }
                }
            }
        }
    }
    // No CTA may leave while its peer can still multicast into its smem or arrive on its
    // barriers.
    if constexpr (Cfg::ClusterM > 1) dev::cluster::sync();
#endif
}

}  // namespace kiln::gemm::sm90
