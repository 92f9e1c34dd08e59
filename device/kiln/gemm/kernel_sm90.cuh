// kiln::gemm::sm90 — warp-specialized, persistent TMA + wgmma GEMM for Hopper (sm_90a).
//
//   D[b](MxN) = epilogue( A[b](MxK) * B[b](NxK)^T )      A, B: bf16, f16, e4m3 or e5m2
//
// Planes = 2 is the complex form (GemmKernels' SplitComplex operands): A and B arrive as real
// and imaginary planes, each tile is loaded per plane, and every k-step issues four real
// products into two accumulators, Re += Ar*Br + Ai*(-Bi) (wgmma's imm-scale-b = -1) and
// Im += Ar*Bi + Ai*Br; the epilogue (a ComplexOut) writes both fragments.
// 8-bit inputs (e4m3/e5m2) must be K-major (wgmma has no transpose for them); their k-block is
// 128 elements so that every tile row is still one 128-byte swizzle row.
//
// Each operand is K-major (K contiguous) or MN-major (rows contiguous: transposed A, B stored
// K x N), a compile-time choice (Config::MnMajorA/B) that sets wgmma's transpose bit and the smem
// descriptor, and may be a GETT tensor view (views.h): two row modes, two K modes and a batch
// mode, addressed by a rank 3-5 TMA map. Every operand tile lands in smem as 64-row chunks of
// 8 KiB in the canonical 128B-swizzled layout: K-major chunk = 64 rows x 128 B (64 k), MN-major
// chunk = 64 k-rows x 128 B (64 rows), so a tile's row r always starts in chunk r/64.
//
// Block = 1 + BM/64 warpgroups (384 threads at BM = 128, 256 at 64). Warpgroup 0 is the
// producer: it gives registers away (setmaxnreg.dec) and one thread streams A/B tiles with TMA
// into a Stages-deep ring of smem buffers, each guarded by a `full` mbarrier (TMA completes tx
// bytes) and an `empty` mbarrier (one arrive per consumer warp once its wgmmas on that buffer
// retired; in a 2-CTA cluster one per consumer warpgroup of both CTAs, Config::EmptyArrivals,
// and the producer's last act is to see every buffer released once more, so that no CTA leaves
// while its peer may still arrive on its barriers). Warpgroups 1 (and 2) are consumers: each
// owns 64 rows of the BM x BN tile, keeps a 64xBN fp32 accumulator in registers
// (setmaxnreg.inc) and issues m64nBNk16 wgmmas.
// In a 2-CTA cluster the pair shares one operand tile by TMA multicast, each CTA loading its
// half: B along M (Config::ClusterM), or A along N (Config::ClusterN). A 4 x 2 cluster does
// both: each row of four M-tiles shares its B tile, each column of two N-tiles its A tile.
// The grid is persistent (one CTA per SM); work units come from TileScheduler (grouped
// rasterization for L2 reuse): a tile, or with split-K one of its K splits, whose partial sums
// split_k.cuh adds before the epilogue of the last one. Ragged M, N, K are handled by TMA's zero
// fill on loads (or a tail map: TmaOperand::tail_rows) and by predicated stores in the epilogue.
//
// Epilogue: the fragment goes through the Epilogue in registers (apply_epilogue), then leaves
// either through the TMA-store path (store_staged.cuh: 16-bit plain-matrix outputs, one 16 KiB
// swizzled staging buffer per consumer after the ring; the host sets dv.tma_store) or through
// direct predicated stores (fp32 outputs, GETT views, rows TMA cannot address; a column-major
// 16-bit output, a transposed product's D^T, in row pairs: store_direct_column_major). With
// Config::EpiStage the epilogue's inputs (C's tile, column vectors) are brought into shared
// memory during the tile's mainloop (epilogue_stage.cuh).
// Operand transforms (Xf, operand_transform.cuh; optional): after a stage lands, the consumers
// rewrite its A and B tiles in place before their wgmmas read it.
#pragma once
#include <climits>
#include <cstdint>
#include <type_traits>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "kiln/barrier.cuh"
#include "kiln/cluster.cuh"
#include "kiln/fence.cuh"
#include "kiln/mbarrier.cuh"
#include "kiln/regs.cuh"
#include "kiln/swizzle.cuh"
#include "kiln/tma.cuh"
#include "kiln/wgmma.cuh"
#include "kiln/grid_dependency.cuh"
#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/numeric.cuh"
#include "kiln/gemm/operand_transform.cuh"
#include "kiln/gemm/scheduler.cuh"
#include "kiln/gemm/split_k.cuh"
#include "kiln/gemm/store_deferred.cuh"
#include "kiln/gemm/store_staged.cuh"
#include "kiln/gemm/views.h"

namespace kiln::gemm::sm90 {

namespace dev = kiln::dev;

/// The wgmma input kind of an element type (Config rejects every other type).
template <class T>
inline constexpr bool is_wgmma_input =
    std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half> ||
    std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>;
template <class T>
inline constexpr dev::wgmma::DType wgmma_type =
    std::is_same_v<T, __nv_bfloat16>   ? dev::wgmma::DType::BF16
    : std::is_same_v<T, __half>        ? dev::wgmma::DType::F16
    : std::is_same_v<T, __nv_fp8_e4m3> ? dev::wgmma::DType::E4M3
                                       : dev::wgmma::DType::E5M2;

/// Compile-time shape of the kernel. BK is one 128-byte swizzle row of elements (64 16-bit or
/// 128 8-bit ones). Planes: 1 = real operands, 2 = split complex (real and imaginary planes).
/// SplitK: the kernel can split tiles along K (split_k.cuh). Off, the fix-up is not compiled
/// in: it costs registers (the element-wise chain kernels spilled 36 bytes with it).
/// EpiStage: stage_columns(n) | kStageC (epilogue_stage.cuh): the epilogue's n column vectors
/// and C's tile are brought into shared memory during the mainloop (C: the staging buffer grows
/// to the warpgroup's whole 64 x BN part, one store round per tile); or kAccBias (acc_bias.cuh):
/// the tile's column bias starts the accumulator; or kAccRowBias: its row bias does.
/// BM: 128 (two consumer warpgroups) or 64 (one), the tile's rows.
/// ClusterN: CTAs per cluster along N (2: the pair shares the A tile), or 1.
template <class ElementT, class OutT, int BN_ = 256, int Stages_ = 4, int ClusterM_ = 1,
          bool MnMajorA_ = false, bool MnMajorB_ = false, int Planes_ = 1, bool SplitK_ = false,
          int EpiStage_ = 0, int BM_ = 128, int ClusterN_ = 1>
struct Config {
    using Element = ElementT;
    using Out = OutT;
    static constexpr bool MnMajorA = MnMajorA_, MnMajorB = MnMajorB_;
    static constexpr int Planes = Planes_;
    static_assert(Planes == 1 || Planes == 2, "real (1 plane) or split complex (2 planes)");
    static constexpr bool SplitK = SplitK_;
    static_assert(!SplitK || Planes == 1, "split-K: real operands");
    static_assert(BM_ == 64 || BM_ == 128, "BM: 64 or 128 rows (one or two consumer warpgroups)");
    static constexpr int BM = BM_, BN = BN_, BK = 128 / int(sizeof(Element)), Stages = Stages_;
    // CTAs per cluster along M. With 2, the pair shares the B tile: each CTA loads half of it and
    // multicasts it to both, cutting L2->SM traffic per CTA from (A + B) to (A + B/2). With 4
    // (beside ClusterN = 2: cuBLAS's `tst_128x88_64x7_4x2` of the short-K two-tile products),
    // four M-tiles share it.
    static constexpr int ClusterM = ClusterM_;
    static_assert(ClusterM == 1 || ClusterM == 2 ||
                      (ClusterM == 4 && !MnMajorB_ && !SplitK_ && Planes_ == 1),
                  "cluster of 1, 2 or 4 CTAs along M (4: K-major real B, unsplit)");
    // Each CTA's share is whole 8-row swizzle groups, so the last share may reach past the tile
    // (88 rows in four: 24, 24, 24, 16 of the tile and 8 of the next): the B tile's smem holds
    // BTileRows, the wgmmas read its first BN.
    static constexpr int BRowsPerCta = (BN_ / ClusterM + (BN_ % ClusterM != 0) + 7) / 8 * 8;
    static constexpr int BTileRows = ClusterM * BRowsPerCta;
    // CTAs per cluster along N. With 2, the pair of N-tiles shares the A tile the same way: the
    // shape of cuBLAS's `tst_64x72_64x12_1x2`, the two column tiles of the two-tile product
    // against one 64- or 128-row weight tile (src/gemm/short_rows.cuh). A K-major A's half tile
    // is whole swizzle rows; an MN-major one would split every 64-row chunk, so it is not
    // offered.
    static constexpr int ClusterN = ClusterN_;
    static_assert(ClusterN == 1 || (ClusterN == 2 && !MnMajorA_ && !SplitK_ &&
                                    Planes_ == 1),
                  "cluster along N: 2 CTAs, K-major real A, unsplit");
    static constexpr int ClusterSize = ClusterM * ClusterN;
    static constexpr int ARowsPerCta = BM_ / ClusterN;
    static constexpr int Consumers = BM / 64;  // warpgroups, 64 rows each
    static constexpr int Threads = 128 * (1 + Consumers);
    // Arrivals that release a ring slot. In a pair, one per consumer warpgroup of each CTA
    // (lane 0 of its warp 0 on its own CTA's barrier, of warp 1 on the peer's): a wgmma is
    // warpgroup-wide, so one warp's wait shows the warpgroup's reads retired, and one arrive per
    // warp and CTA cost paired 128x128 tiles 0.3-3% (bench/NOTES.md v33). Unpaired, one per
    // consumer warp: level in the harness, and the per-warpgroup predicate pushed the 256-wide
    // split-K kernels' consumers into spills.
    static constexpr int EmptyArrivals =
        ClusterSize == 1 ? 4 * Consumers : Consumers * ClusterSize;
    static constexpr auto Swizzle = dev::swizzle::Mode::B128;
    static_assert(is_wgmma_input<Element>, "inputs: bf16, f16, fp8 e4m3 or fp8 e5m2");
    static_assert(sizeof(Element) == 2 || (!MnMajorA && !MnMajorB),
                  "8-bit inputs: K-major A and B only (wgmma has no transpose for 8-bit types)");
    static_assert(Planes * BN / 2 <= 128, "accumulators of all planes must fit the registers");
    // 16: the few-row kernel's column tile (src/gemm/few_rows.cuh); 72 to 104: half of 129-208
    // rows of A in the transposed two-tile product (src/gemm/short_rows.cuh); 32 to 256: the
    // untransposed few-row product's weight tiles (kFewRowsUntransposedWidths, dispatch.h);
    // 144 and 160: fill widths (params.h, fill_tile_n). Widths that are not whole 64-column
    // panels are stored directly.
    static_assert(BN == 16 || (BN % 8 == 0 && BN >= 32 && BN <= 256),
                  "BN must be 16 or a multiple of 8 from 32 to 256");
    static constexpr int ATileBytes = BM * BK * sizeof(Element);
    static constexpr int BTileBytes = BTileRows * BK * sizeof(Element);
    static constexpr int StageBytes = Planes * (ATileBytes + BTileBytes);
    // The 256-wide split-K kernels keep 128 accumulators beside the fix-up: ptxas spilled their
    // consumers when their producer took tail maps (56-248 byte frames, bench/NOTES.md v33) or
    // the single-box path as well (70 kernels, v34). Their compute-bound tiles leave the
    // producer slack, and the skinny products whose boxes overhang most split 128-wide tiles.
    static constexpr bool TightRegisters = SplitK && BN == 256;
    // A box that overhangs M or N loads only its rows (TmaOperand::tail_rows).
    static constexpr bool TailMaps = !TightRegisters;
    // Real 16-bit outputs of whole 64-column panels may leave through the TMA-store epilogue
    // (store_staged.cuh): one 16 KiB staging buffer per consumer warpgroup after the ring and
    // the barriers.
    static constexpr bool StagedStore = sizeof(Out) == 2 && Planes == 1 && BN % 64 == 0;
    // 2 * Stages mbarriers, then one split-K flag per consumer; padded to keep alignment
    static constexpr int BarrierBytes = 1024;
    static constexpr int SplitFlagOffset = 2 * Stages * 8;
    static constexpr int ColumnVectors = EpiStage_ & 3;
    static constexpr bool StageColumns = ColumnVectors > 0;
    static constexpr bool StageC = (EpiStage_ & kStageC) != 0;
    static constexpr bool AccBias = (EpiStage_ & (kAccBias | kAccRowBias)) != 0;
    static constexpr bool AccBiasRows = (EpiStage_ & kAccRowBias) != 0;  // else columns
    static_assert(!AccBias || (!StageC && !StageColumns && Planes == 1),
                  "accumulator bias: real tiles, nothing else staged");
    static_assert(!AccBiasRows || (EpiStage_ & kAccBias) == 0,
                  "accumulator row bias: not also by columns");
    static constexpr int AccBiasLength = AccBiasRows ? BM : BN;  // the slot's bias values
    static constexpr int AccBiasBytes = AccBias ? AccBiasLength * 4 : 0;  // fp32 at most
    static_assert(!StageC || StagedStore, "staged C: 16-bit real outputs (the staging buffer)");
    static_assert(!(StageC || StageColumns) || !SplitK,
                  "staged epilogue inputs: unsplit tiles (every unit runs its epilogue)");
    // Per consumer: column vectors, and staging panels: the whole 64 x BN part when C is
    // staged, else two, or one where two do not fit next to the ring and the vectors.
    static constexpr int ColumnBytes = Consumers * ColumnVectors * BN * 4;
    static constexpr int SmemLimit = 227 * 1024;
    // The block's shared memory with `staging` bytes of staging per consumer. +1024: dynamic
    // smem is only 16-byte aligned; swizzled tiles need 1024.
    static constexpr int smem_with(int staging) {
        return Stages * StageBytes + BarrierBytes + (StagedStore ? Consumers * staging : 0) +
               ColumnBytes + AccBiasBytes + 1024;
    }
    static constexpr int StagingPerConsumer = StageC ? 64 * BN * 2
                                              : smem_with(kStagingBytes) <= SmemLimit
                                                  ? kStagingBytes
                                                  : kPanelBytes;
    static constexpr int StagingBytes = StagedStore ? Consumers * StagingPerConsumer : 0;
    // Store rounds (store_staged.cuh): staged C leaves in one round; otherwise, where the tile's
    // panels pair up, two one-panel buffers in turn, so a round never waits for the one before
    // (not in split-K kernels: their 128 x 256 EpilogueLinear instantiations then spilled).
    static constexpr int StagingPanels = StagingPerConsumer / kPanelBytes;
    static constexpr int StoreBuffers =
        !StageC && !SplitK && StagingPanels == 2 && BN / 64 % 2 == 0 ? 2 : 1;
    static constexpr int StoreRound = StagingPanels / StoreBuffers;
    // Deferred store (store_deferred.cuh): a tile's results wait in registers and leave one panel
    // per k-block under the next tile's wgmmas. Not with staged C (the next tile's C lands in
    // the staging buffer), in split-K kernels (their fix-up stores partial sums first), nor with
    // more than one staged column vector: the chain kernels' epilogues (the affine fold's v, row
    // and column sums) spilled 132-144 bytes beside the held tile. Where it was measured: 16-bit
    // inputs on 128 x 256 tiles; the 128 x 128 kernels lost 2-5% with it at decode-ish
    // 256 x 8192 x 8192 (bench/NOTES.md, "v19"), and 8-bit inputs are not measured. Whether a
    // kernel defers also depends on its epilogue (StorePlan below). -DKILN_SM90_DEFER_STORE=0
    // turns it off (A/B).
#ifndef KILN_SM90_DEFER_STORE
#define KILN_SM90_DEFER_STORE 1
#endif
    static constexpr bool CanDeferStore = KILN_SM90_DEFER_STORE && StagedStore && !StageC &&
                                          !SplitK && ColumnVectors <= 1 && BN == 256 &&
                                          sizeof(Element) == 2;
    static constexpr int DeferBuffers = CanDeferStore ? StagingPanels : 1;
    static constexpr int CFullOffset = 512;  // one mbarrier per consumer: its C tile landed
    // AccBias: the bias slot's full and empty mbarriers
    static constexpr int BiasBarrierOffset = CFullOffset + 8 * Consumers;
    static_assert(SplitFlagOffset + 4 * Consumers <= CFullOffset &&
                  BiasBarrierOffset + 16 <= BarrierBytes, "barrier block layout");
    static constexpr int SmemBytes = smem_with(StagingPerConsumer);
    static_assert(SmemBytes <= SmemLimit, "pipeline does not fit in 227 KiB of shared memory");
};

/// What one instantiation does with its stores and registers: Cfg's deferred store where the
/// epilogue gains from it (holds_tiles, store_deferred.cuh).
template <class Cfg, class Epilogue>
struct StorePlan {
    static constexpr bool DeferStore = Cfg::CanDeferStore && holds_tiles<Epilogue>;
    // Registers per thread after setmaxnreg (ptxas allocates up to them in each role's code).
    // Holding a tile takes 64 more beside the accumulator: the producer's thread gives up 16
    // (its scheduler math is 32-bit, so 24 suffice), else bias + ReLU and bias-only kernels
    // spilled 16-40 bytes.
    static constexpr int ProducerRegs = DeferStore ? 24 : 40;
    static constexpr int ConsumerRegs = DeferStore ? 240 : 232;
    static_assert(ProducerRegs * 128 + ConsumerRegs * 128 * Cfg::Consumers <= 65536,
                  "register split exceeds the SM's 64K registers");
};

struct Problem {
    int M, N, K, batch;
};

/// The tensor maps of one operand, one per plane (both planes share one TmaOperand geometry),
/// and where the last box of a one-box operand overhangs its rows, a map of that box's rows only
/// (TmaOperand::tail_rows).
template <int Planes>
struct OperandMaps {
    CUtensorMap plane[Planes];
    CUtensorMap tail[Planes];
};

/// Device form of an OperandView: how the producer turns (first row, k, batch) into the
/// coordinates of the operand's tensor map. Map dims: MN-major {r0, k0, [r1], [k1], batch},
/// K-major {k0, r0, [r1], [k1], batch} (outer modes only where they exist, so a plain matrix
/// keeps a rank-3 map); box {64, box_rows or 64, 1, ...}.
struct TmaOperand {
    int r0 = INT_MAX, k0 = INT_MAX;  // inner mode extents (INT_MAX: a single mode)
    int box_rows = 64;               // rows per TMA box: 64, or a one-box tile's rows
    int batch_mul = 1;               // 0: the same operand for every batch
    int rank = 5;                    // map rank: 3 + (two row modes) + (two K modes)
    dev::tma::L2Hint l2 = dev::tma::L2Hint::normal;  // the loads' L2 policy (rank 3 only)
    // The box that starts at row tail_start holds tail_rows < box_rows rows of the operand and
    // loads through OperandMaps::tail: TMA's zero fill of the rest cost a one-wave launch up to
    // 16% (bench/NOTES.md v32). The rows it leaves unwritten only reach outputs past M or N.
    // tail_rows = 0: no such box (rank 3 one-box operands only).
    int tail_start = INT_MAX, tail_rows = 0;

    /// The bytes a box of `rows` rows starting at `row` delivers.
    __host__ __device__ int box_bytes(int row, int rows) const {
        return (row == tail_start ? tail_rows : rows) * 128;
    }
    /// The map a rank-3 box starting at `row` loads through: the tail map for the tail box.
    __device__ const CUtensorMap* box_map(int row, const CUtensorMap* map,
                                          const CUtensorMap* tail_map) const {
        return row == tail_start ? tail_map : map;
    }
};

/// Splits a flattened index over (inner extent e, outer): no division for single modes.
__device__ __forceinline__ void split_index(int i, int e, int& inner, int& outer) {
    outer = i < e ? 0 : i / e;
    inner = i - outer * e;
}

/// The cluster's CTAs (rank = rank_m + ClusterM * rank_n) that share a B tile: those of one
/// rank_n, a row of ClusterM.
template <class Cfg>
__host__ __device__ constexpr uint16_t multicast_row_mask(int rank_n) {
    return uint16_t(((1u << Cfg::ClusterM) - 1) << (Cfg::ClusterM * rank_n));
}

/// The cluster's CTAs that share an A tile: those of one rank_m, a column of ClusterN.
template <class Cfg>
__host__ __device__ constexpr uint16_t multicast_column_mask(int rank_m) {
    uint32_t mask = 0;
    for (int j = 0; j < Cfg::ClusterN; ++j) mask |= 1u << (rank_m + Cfg::ClusterM * j);
    return uint16_t(mask);
}

/// Loads the one box of a rank-3 operand whose tile rows are a single box: rows from `row`,
/// k-block at `k`, batch coordinate `batch` (already scaled by batch_mul). mask != 0: TMA
/// multicast; policy: l2_policy(op.l2) (0: none).
template <bool MnMajor>
__device__ __forceinline__ void load_box(uint8_t* dst, const CUtensorMap* map, uint64_t* bar,
                                         int k, int row, int batch, uint16_t mask,
                                         uint64_t policy) {
    const int32_t c[3] = {MnMajor ? row : k, MnMajor ? k : row, batch};
    if (policy) dev::tma::load_with_policy(dst, map, bar, mask, c, policy);
    else dev::tma::load_or_multicast(dst, map, bar, mask, c);
}

/// Loads `rows` rows (a multiple of op.box_rows) starting at `row`, k-block at `k`, into `dst`
/// (row r of the range lands in 64-row chunk r/64, 8 KiB each). mask != 0: TMA multicast.
/// policy: l2_policy(op.l2), made once per thread.
template <bool MnMajor>
__device__ __forceinline__ void load_rows(uint8_t* dst, const CUtensorMap* map,
                                          const CUtensorMap* tail_map, uint64_t* bar,
                                          const TmaOperand& op, int row, int rows, int k,
                                          int batch, uint16_t mask, uint64_t policy) {
    int k0, k1;
    split_index(k, op.k0, k0, k1);
    for (int i = 0; i < rows; i += op.box_rows) {
        int r0, r1;
        split_index(row + i, op.r0, r0, r1);
        const int b = batch * op.batch_mul;
        const int x = MnMajor ? r0 : k0, y = MnMajor ? k0 : r0;
        // The map has only the modes that exist: {x, y, [r1], [k1], batch} (rank 3 to 5).
        if (op.rank == 3) {
            load_box<MnMajor>(dst + i * 128, op.box_map(row + i, map, tail_map), bar, k0, r0, b,
                              mask, policy);
        } else if (op.rank == 5) {
            const int32_t c[5] = {x, y, r1, k1, b};
            dev::tma::load_or_multicast(dst + i * 128, map, bar, mask, c);
        } else {
            const int32_t c[4] = {x, y, op.r0 != INT_MAX ? r1 : k1, b};
            dev::tma::load_or_multicast(dst + i * 128, map, bar, mask, c);
        }
    }
}

/// smem descriptor of a 64-row chunk-tiled operand (see the header comment). K-major: rows at
/// 128 B, 8-row groups at 1024 B, one instruction's k-step (k16 of 16-bit, k32 of 8-bit) +32 B
/// inside the swizzle row. MN-major (16-bit only): LBO = next 64-row chunk (8 KiB), SBO = next
/// 8 k-rows (1024 B), k16 steps +2048 B.
template <bool MnMajor>
__device__ __forceinline__ uint64_t operand_desc(const uint8_t* tile) {
    if constexpr (MnMajor) return dev::wgmma::make_desc<dev::swizzle::Mode::B128>(tile, 8192, 1024);
    else return dev::wgmma::make_desc<dev::swizzle::Mode::B128>(tile, 16, 1024);
}
template <bool MnMajor>
inline constexpr uint32_t kstep_bytes = MnMajor ? 2048 : 32;

/// Applies `epi` to one consumer warpgroup's fragment in registers (acc[4j+e] holds
/// (row0 + 8*(e/2), col0 + 8j + e%2), the wgmma layout).
/// s: what was staged for the tile (NoStage: nothing; epilogue_stage.cuh).
template <int NAcc, class Epilogue, class S = NoStage>
__device__ __forceinline__ void apply_epilogue(float (&acc)[NAcc], const Epilogue& epi, int row0,
                                               int col0, int batch, const Problem& p,
                                               const S& s = {}) {
    if constexpr (requires { epi.apply(acc, row0, col0, batch, p.M, p.N, s); }) {
        epi.apply(acc, row0, col0, batch, p.M, p.N, s);  // batched loads of C / bias
        // Results pinned before the store pass. Known: the fp32-output, no-activation,
        // BN = 256 instantiation still spills 60 bytes in ptxas (see bench/NOTES.md).
        dev::wgmma::fence_operand(acc);
    } else {
#pragma unroll
        for (int j = 0; j < NAcc / 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[4 * j + e] = epi(acc[4 * j + e], row0 + 8 * (e / 2),
                                     col0 + 8 * j + (e % 2), batch);
    }
}

/// The widest tile that stores a column-major output in row pairs: the transposed products'
/// tiles are at most 160 wide, and with the path compiled in the 256-wide split-K kernels
/// spilled (up to 120 bytes); wider tiles store such an output element by element.
inline constexpr int kColumnPairsMaxBN = 160;

/// The direct store of a 16-bit fragment into a column-major output (dv.row_pair_ok: a
/// transposed product's D^T, few_rows.cuh), from a fragment at (row0, col0) as store_direct's.
/// Each 8 x 8 block of a row half and column group is transposed across the warp, so that a lane
/// holds two adjacent rows of one column and writes them with one 4-byte store: a warp's store
/// writes 16 contiguous bytes in each of 8 columns, where one element per lane scattered 2-byte
/// stores over 4 columns (half the store instructions).
template <class Out, int NAcc>
__device__ __forceinline__ void store_direct_column_major(const float (&acc)[NAcc],
                                                          Out* __restrict__ dbase,
                                                          const OutView& dv, int row0, int col0,
                                                          const Problem& p) {
    const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
    // the lane's transposed pair: column g of each block, its rows 2q and 2q + 1
    const int col = col0 - 2 * q + g, row = row0 - g + 2 * q;
    Out* dcol = dbase + int64_t(col) * dv.cs0 + row;
#pragma unroll
    for (int j = 0; j < NAcc / 4; ++j) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            // every lane transposes (movmatrix is .aligned); the stores are predicated
            const uint32_t bits = dev::wgmma::transpose_8x8(
                pack_pair<Out>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]));
            const int r = row + 8 * h;
            if (col + 8 * j < p.N && r < p.M) {
                Out* at = dcol + 8 * j * dv.cs0 + 8 * h;
                if (r + 1 < p.M)
                    *reinterpret_cast<uint32_t*>(at) = bits;
                else
                    *reinterpret_cast<uint16_t*>(at) = uint16_t(bits & 0xffffu);
            }
        }
    }
}

/// The direct store of a fragment that went through apply_epilogue: register -> global through
/// the view `dv`, predicated on M and N (any output type and view; see store_staged.cuh for the
/// TMA-store path of plain 16-bit outputs).
template <class Out, int NAcc>
__device__ __forceinline__ void store_direct(const float (&acc)[NAcc], Out* __restrict__ d,
                                             const OutView& dv, int row0, int col0, int batch,
                                             const Problem& p) {
    Out* dbase = d + batch * dv.batch_stride;
    if constexpr (sizeof(Out) == 2 && 2 * NAcc <= kColumnPairsMaxBN) {
        if (dv.row_pair_ok) return store_direct_column_major(acc, dbase, dv, row0, col0, p);
    }
    // Plain columns (one column mode, unit stride; rows may be two modes): one base per
    // row and 32-bit column offsets. Otherwise the column's (inner, outer) index pair
    // advances by 8 per fragment column group with a compare, never a division (an
    // earlier version split every column with `/` behind a never-taken branch and the
    // epilogue cost ~17 us per tile; the host guarantees c0 % 8 == 0).
    const bool plain = dv.c0 == INT_MAX && dv.cs0 == 1 && dv.pair_ok;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int row = row0 + 8 * h;
        if (row >= p.M) continue;
        int r0, r1;
        split_index(row, dv.r0, r0, r1);
        Out* drow = dbase + r0 * dv.rs0 + r1 * dv.rs1;
        if (plain) {
#pragma unroll
            for (int j = 0; j < NAcc / 4; ++j) {
                const int col = col0 + 8 * j;
                float v0 = acc[4 * j + 2 * h], v1 = acc[4 * j + 2 * h + 1];
                if (col + 1 < p.N) {
                    store_pair(drow + col, v0, v1);
                } else if (col < p.N) {
                    drow[col] = from_float<Out>(v0);
                }
            }
            continue;
        }
        int c0, c1;
        split_index(col0, dv.c0, c0, c1);
#pragma unroll
        for (int j = 0; j < NAcc / 4; ++j) {
            const int col = col0 + 8 * j;
            float v0 = acc[4 * j + 2 * h], v1 = acc[4 * j + 2 * h + 1];
            Out* dp = drow + (c0 * dv.cs0 + c1 * dv.cs1);
            if (col + 1 < p.N && dv.pair_ok) {
                store_pair(dp, v0, v1);
            } else {
                if (col < p.N) dp[0] = from_float<Out>(v0);
                if (col + 1 < p.N) dp[dv.cs0] = from_float<Out>(v1);
            }
            c0 += 8;
            if (c0 >= dv.c0) c0 -= dv.c0, ++c1;
        }
    }
}

/// Named barriers of the consumers (id 0 is __syncthreads). The staging barrier of a consumer
/// also orders its split-K fix-up (the same 128 threads, one after the other).
enum Barrier : int { kStagingBarrier = 1 /* + consumer index */, kTransformBarrier = 3 };

/// tm_d: D's map, rank 3 {N, M, batch} or, for two column modes, rank 4 {c0, M, N / c0, batch};
/// used when dv.tma_store (Cfg::StagedStore kernels only).
/// tm_e: the epilogue input's map: C's, of D's form, when Cfg::StageC and the epilogue reads C;
/// the column bias's (make_bias_map) when Cfg::AccBias and the epilogue has a bias.
/// xf: the operand transform (NoOperandTransform: none), see operand_transform.cuh.
/// split: the K splits' workspace when sched.splits > 1 (Cfg::SplitK kernels only).
template <class Cfg, class Epilogue, class Xf = NoOperandTransform>
__global__ void __launch_bounds__(Cfg::Threads, 1)
    gemm_kernel(const __grid_constant__ OperandMaps<Cfg::Planes> tm_a,
                const __grid_constant__ OperandMaps<Cfg::Planes> tm_b, TmaOperand oa,
                TmaOperand ob, const __grid_constant__ CUtensorMap tm_d,
                const __grid_constant__ CUtensorMap tm_e,
                typename Cfg::Out* __restrict__ d, OutView dv, Problem p, TileScheduler sched,
                Epilogue epi, Xf xf, SplitK split) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using Element = typename Cfg::Element;
    using Plan = StorePlan<Cfg, Epilogue>;
    constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages;
    constexpr int Planes = Cfg::Planes;
    extern __shared__ uint8_t smem_raw[];
    uint8_t* smem = reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
    // A stage holds A's planes, then B's: [A re][A im][B re][B im] (one plane each when real).
    auto a_tile = [&](int s, int pl) { return smem + s * Cfg::StageBytes + pl * Cfg::ATileBytes; };
    auto b_tile = [&](int s, int pl) {
        return smem + s * Cfg::StageBytes + Planes * Cfg::ATileBytes + pl * Cfg::BTileBytes;
    };
    uint64_t* full = reinterpret_cast<uint64_t*>(smem + Stages * Cfg::StageBytes);
    uint64_t* empty = full + Stages;
    int* split_flags =
        reinterpret_cast<int*>(smem + Stages * Cfg::StageBytes + Cfg::SplitFlagOffset);
    uint8_t* staging = smem + Stages * Cfg::StageBytes + Cfg::BarrierBytes;
    uint64_t* c_full =
        reinterpret_cast<uint64_t*>(smem + Stages * Cfg::StageBytes + Cfg::CFullOffset);
    float* columns = reinterpret_cast<float*>(staging + Cfg::StagingBytes);
    // AccBias: the tile's bias slot (after the staging, where column vectors would be) and its
    // full / empty barriers.
    uint8_t* bias_slot = staging + Cfg::StagingBytes;
    uint64_t* bias_full =
        reinterpret_cast<uint64_t*>(smem + Stages * Cfg::StageBytes + Cfg::BiasBarrierOffset);
    uint64_t* bias_empty = bias_full + 1;
    const AccBias acc_bias = [&] {
        if constexpr (Cfg::AccBias) {
            static_assert(requires { epi.acc_bias(); },
                          "kAccBias kernels run an epilogue with acc_bias() (EpilogueBiasAct)");
            return epi.acc_bias();
        } else {
            return AccBias{};
        }
    }();

    // Uniform (warpgroup_index), except in the split-K kernels: there it moved their register
    // allocation into spills around the fix-up (bench/NOTES.md v27).
    const int warpgroup =
        Cfg::SplitK ? int(threadIdx.x / 128) : dev::wgmma::warpgroup_index();
    const int k_blocks = (p.K + BK - 1) / BK;
    const int rank = Cfg::ClusterSize > 1 ? int(dev::cluster::block_rank()) : 0;
    const int cluster_id = blockIdx.x / Cfg::ClusterSize;
    const int clusters = gridDim.x / Cfg::ClusterSize;
    // The CTA's place in its cluster: rank = rank_m + ClusterM * rank_n (in a 1-D cluster the
    // other index is the constant 0, so those kernels compile as before). Units are scheduled
    // per cluster: cluster tile (m, n) covers M-tiles ClusterM*m + rank_m and N-tiles
    // ClusterN*n + rank_n. rank_m is also the CTA's share of the B tile its ClusterM CTAs
    // share, rank_n its share of the A tile.
    const int rank_m = Cfg::ClusterM == 1 ? 0 : Cfg::ClusterN == 1 ? rank : rank % Cfg::ClusterM;
    const int rank_n = Cfg::ClusterN == 1 ? 0 : Cfg::ClusterM == 1 ? rank : rank / Cfg::ClusterM;
    auto unit_at = [&](int u) {
        WorkUnit w = sched.unit(u, k_blocks);
        w.coord.m = w.coord.m * Cfg::ClusterM + rank_m;
        w.coord.n = w.coord.n * Cfg::ClusterN + rank_n;
        return w;
    };
    // The producer's first unit, worked out while warp 1 initializes the barriers: its scheduler
    // arithmetic runs once, from cold instruction lines, and otherwise sits between the CTA's
    // barrier and its first load. The empty asm keeps ptxas from sinking it past the barrier.
    const WorkUnit first = unit_at(cluster_id);
    if constexpr (!Cfg::SplitK)
        asm volatile("" ::"r"(first.coord.m), "r"(first.coord.n), "r"(first.coord.batch),
                     "r"(first.k_begin), "r"(first.k_end));

    if (threadIdx.x == 32) {
        for (int s = 0; s < Stages; ++s) {
            dev::mbarrier::init(&full[s], 1);
            dev::mbarrier::init(&empty[s], Cfg::EmptyArrivals);
        }
        if constexpr (Cfg::StageC)
            for (int c = 0; c < Cfg::Consumers; ++c) dev::mbarrier::init(&c_full[c], 1);
        if constexpr (Cfg::AccBias) {
            dev::mbarrier::init(bias_full, 1);
            dev::mbarrier::init(bias_empty, Cfg::Consumers * 4);  // one arrive per consumer warp
        }
        dev::fence::mbarrier_init();
        for (int pl = 0; pl < Planes; ++pl) {
            dev::tma::prefetch_descriptor(&tm_a.plane[pl]);
            dev::tma::prefetch_descriptor(&tm_b.plane[pl]);
        }
    }
    if constexpr (Cfg::AccBias) {
        if (!acc_bias.present && threadIdx.x < Cfg::AccBiasBytes / 4)
            reinterpret_cast<float*>(bias_slot)[threadIdx.x] = 0.f;
    }
    // The peer CTA signals our barriers: they must be initialized cluster-wide first.
    if constexpr (Cfg::ClusterSize > 1) dev::cluster::sync();
    else __syncthreads();
    // Everything above may overlap the previous kernel in the stream (kiln/grid_dependency.cuh):
    // no global memory access before this wait.
    dev::grid::wait_previous();
    dev::grid::launch_dependents();

    if (warpgroup == 0) {
        // ---------------- producer ----------------
        dev::regs::decrease<Plan::ProducerRegs>();
        // One thread issues the loads; the others leave now rather than wait at the closing
        // cluster barrier: waiting there for the whole kernel slowed every CTA of a 2-CTA launch
        // by 25% on DRAM-streaming shapes (bench/NOTES.md, "v15").
        if (threadIdx.x != 0) return;
        dev::mbarrier::PipelineState<Stages> st;
        uint32_t bias_phase = 0;
        WorkUnit w = first;
        const uint64_t policy_a = dev::tma::l2_policy(oa.l2);
        const uint64_t policy_b = dev::tma::l2_policy(ob.l2);
        // Both operands plain matrices (rank-3 maps) whose tile rows are one box each, where the
        // registers allow (Config::TightRegisters). -DKILN_SM90_SINGLE_BOXES=0: the general path
        // for every operand (A/B).
#ifndef KILN_SM90_SINGLE_BOXES
#define KILN_SM90_SINGLE_BOXES 1
#endif
        constexpr bool SingleBoxPath =
            KILN_SM90_SINGLE_BOXES && Planes == 1 && !Cfg::TightRegisters;
        const bool single_boxes = SingleBoxPath && oa.rank == 3 && ob.rank == 3 &&
                                  oa.box_rows == Cfg::ARowsPerCta &&
                                  ob.box_rows == Cfg::BRowsPerCta;
        for (int u = cluster_id; u < sched.total(); u += clusters) {
            if (u != cluster_id) w = unit_at(u);
            const TileCoord tc = w.coord;
            // What the tile's boxes deliver per stage: an overhanging box only its rows.
            const int stage_bytes = [&] {
                if constexpr (!Cfg::TailMaps) {
                    return Cfg::StageBytes;
                } else {
                    // The shared operand's boxes come from every CTA of the cluster (the
                    // N-tile of ClusterM's pair, the M-tile of ClusterN's: the unit's own).
                    int a_bytes = 0, b_bytes = 0;
#pragma unroll
                    for (int r = 0; r < Cfg::ClusterN; ++r)
                        a_bytes +=
                            oa.box_bytes(tc.m * BM + r * Cfg::ARowsPerCta, Cfg::ARowsPerCta);
#pragma unroll
                    for (int r = 0; r < Cfg::ClusterM; ++r)
                        b_bytes +=
                            ob.box_bytes(tc.n * BN + r * Cfg::BRowsPerCta, Cfg::BRowsPerCta);
                    return Planes * (a_bytes + b_bytes);
                }
            }();
            const auto tail_of = [&](const auto& maps, int pl) {
                return Cfg::TailMaps ? &maps.tail[pl] : &maps.plane[pl];
            };
            // The tile's bias first: the consumers start its accumulator from it. The slot is
            // free once they started the previous tile, long before this one.
            if (acc_bias.present) {
                dev::mbarrier::wait(bias_empty, bias_phase ^ 1u);
                dev::mbarrier::arrive_expect_tx(bias_full,
                                                Cfg::AccBiasLength * bias_bytes(acc_bias.type));
                // A split tile's bias goes into split 0's accumulator only: the other splits
                // load a box wholly past the bias (N columns, or M rows for a row bias), which
                // TMA fills with zeros, so that every unit starts its accumulator the same way
                // (acc_bias.cuh). The box starts on a tile boundary: at N itself (an fp32 bias
                // with N = 1990: not 16-byte aligned) the load raised an illegal-instruction
                // error.
                const int bias_tile = Cfg::AccBiasRows ? tc.m : tc.n;
                const int bias_tiles = Cfg::AccBiasRows ? (p.M + BM - 1) / BM
                                                        : (p.N + BN - 1) / BN;
                const int bias_at =
                    (w.split == 0 ? bias_tile : bias_tiles) * Cfg::AccBiasLength;
                dev::tma::load(bias_slot, &tm_e, bias_full, bias_at,
                               acc_bias.batched ? tc.batch : 0);
                bias_phase ^= 1u;
            }
            // A goes to the CTAs of our rank_m, B to those of our rank_n.
            const uint16_t a_mask = Cfg::ClusterN > 1 ? multicast_column_mask<Cfg>(rank_m) : 0;
            const uint16_t b_mask = Cfg::ClusterM > 1 ? multicast_row_mask<Cfg>(rank_n) : 0;
            const int a_row = tc.m * BM + rank_n * Cfg::ARowsPerCta;
            const int b_row = tc.n * BN + rank_m * Cfg::BRowsPerCta;
            // Fills the ring with the unit's k-blocks; issue(stage, k) loads one.
            const auto stream = [&](const auto& issue) {
                for (int kb = w.k_begin; kb < w.k_end; ++kb) {
                    // A fresh barrier counts as having completed the phase before phase 0, so
                    // the first pass through the ring does not block.
                    dev::mbarrier::wait(&empty[st.stage], st.phase ^ 1u);
                    // Our full barrier receives our A, our B half and the peer's B half (every
                    // plane of each).
                    dev::mbarrier::arrive_expect_tx(&full[st.stage], stage_bytes);
                    issue(st.stage, kb * BK);
                    st.advance();
                }
            };
            if (single_boxes) {
                // Only the k coordinate moves: everything else is the tile's, worked out here
                // and not per k-block. The general path's box loop and mode split made the
                // thread's issue the ring's bottleneck at decode-ish (bench/NOTES.md v34).
                const CUtensorMap* map_a = oa.box_map(a_row, &tm_a.plane[0], tail_of(tm_a, 0));
                const CUtensorMap* map_b = ob.box_map(b_row, &tm_b.plane[0], tail_of(tm_b, 0));
                const int batch_a = tc.batch * oa.batch_mul, batch_b = tc.batch * ob.batch_mul;
                stream([&](int s, int k) {
                    // With a cluster, each CTA loads its share of the shared operand's rows
                    // and multicasts it.
                    load_box<Cfg::MnMajorA>(a_tile(s, 0) + rank_n * Cfg::ARowsPerCta * 128,
                                            map_a, &full[s], k, a_row, batch_a, a_mask,
                                            policy_a);
                    load_box<Cfg::MnMajorB>(b_tile(s, 0) + rank_m * Cfg::BRowsPerCta * 128,
                                            map_b, &full[s], k, b_row, batch_b, b_mask,
                                            policy_b);
                });
            } else {
                stream([&](int s, int k) {
                    for (int pl = 0; pl < Planes; ++pl) {
                        load_rows<Cfg::MnMajorA>(a_tile(s, pl) + rank_n * Cfg::ARowsPerCta * 128,
                                                 &tm_a.plane[pl], tail_of(tm_a, pl), &full[s], oa,
                                                 a_row, Cfg::ARowsPerCta, k, tc.batch, a_mask,
                                                 policy_a);
                        load_rows<Cfg::MnMajorB>(b_tile(s, pl) + rank_m * Cfg::BRowsPerCta * 128,
                                                 &tm_b.plane[pl], tail_of(tm_b, pl), &full[s], ob,
                                                 b_row, Cfg::BRowsPerCta, k, tc.batch, b_mask,
                                                 policy_b);
                    }
                });
            }
        }
        // The CTA may not leave while the peer's consumers can still arrive on our empty
        // barriers (the peer's multicasts into our ring landed before our consumers finished):
        // wait until every consumer of the cluster has released each slot once more. A closing
        // cluster barrier did this before, for every thread and after the epilogue, and its
        // release compiled to a GPU-scope fence in every thread.
        if constexpr (Cfg::ClusterSize > 1) {
            for (int s = 0; s < Stages; ++s) {
                dev::mbarrier::wait(&empty[st.stage], st.phase ^ 1u);
                st.advance();
            }
        }
    } else {
        // ---------------- consumers ----------------
        dev::regs::increase<Plan::ConsumerRegs>();
        constexpr auto DT = wgmma_type<Element>;
        // consumer index: rows [64*cw, 64*cw + 64) of the tile. A constant with one consumer:
        // the split kernels' warpgroup is not uniform to ptxas, and the stage's descriptors built
        // from it went through vector registers on every k-block (the loop's 71 instructions
        // became 49; 64-wide short products +1.5-2.5% in the harness, +2-8% in the library
        // against the previous session's run, bench/NOTES.md v37).
        const int cw = Cfg::Consumers == 1 ? 0 : warpgroup - 1;
        const int t = threadIdx.x % 128;
        const bool lane0 = (threadIdx.x % 32) == 0;
        float acc[Planes][BN / 2];  // [0]: the real result (or Re), [1]: Im
        dev::mbarrier::PipelineState<Stages> st;
        // Release a slot: every CTA of the cluster wrote its share of the shared operand into our
        // slot and waits for our consumers before refilling it (Cfg::EmptyArrivals).
        auto release = [&](int stage) {
            if constexpr (Cfg::ClusterSize == 1) {
                if (lane0) dev::mbarrier::arrive(&empty[stage]);
            } else if constexpr (Cfg::ClusterSize <= 4) {
                // Lane 0 of warp c signals CTA (rank + c) % ClusterSize. Picking the same threads
                // as threadIdx.x % 128 == 0 / 32 built the addresses on the uniform datapath in
                // nested branches and ran 2-5% slower (bench/NOTES.md v33).
                const int warp = (threadIdx.x / 32) % 4;
                if (!lane0 || warp >= Cfg::ClusterSize) return;
                if (warp == 0)
                    dev::mbarrier::arrive(&empty[stage]);
                else
                    dev::mbarrier::arrive_cluster(&empty[stage],
                                                  (rank + warp) % Cfg::ClusterSize);
            } else {
                // Lanes 0 and 1 of warp c signal CTAs (rank + c) and (rank + c + 4): every CTA
                // of the cluster, though only those of our row or column write into our ring (a
                // wider wait, one barrier count for every slot).
                const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
                if (lane >= 2) return;
                const int peer = warp + 4 * lane;
                if (peer == 0)
                    dev::mbarrier::arrive(&empty[stage]);
                else
                    dev::mbarrier::arrive_cluster(&empty[stage],
                                                  (rank + peer) % Cfg::ClusterSize);
            }
        };

        // Staged epilogue inputs (epilogue_stage.cuh) of this warpgroup's 64 x BN part.
        constexpr bool Staged = Cfg::StageC || Cfg::StageColumns;
        uint8_t* my_staging = staging + cw * Cfg::StagingPerConsumer;
        float* my_columns = columns + cw * Cfg::ColumnVectors * BN;
        const bool stage_c = [&] {
            if constexpr (Cfg::StageC) return epi.c_source().ptr != nullptr;
            else return false;
        }();
        uint32_t c_phase = 0;
        // The previous tile's results while their panels are stored (Plan::DeferStore kernels;
        // a tile narrower than a panel never defers, its unused holder is one panel wide).
        HeldTile<typename Cfg::Out, BN % 64 == 0 ? BN : 64, Cfg::DeferBuffers> held;
        static_assert(!Cfg::StageColumns || column_vectors_of<Epilogue> <= Cfg::ColumnVectors,
                      "the epilogue reads more column vectors than the kernel stages");
        // Called once per tile after its first wgmmas are issued, so both loads overlap them.
        auto stage_inputs = [&](const TileCoord& tc) {
            // The previous tile's epilogue has read the buffers (and, for C, the previous
            // tile's stores have read the staging buffer) before they are refilled.
            dev::named_barrier::sync(kStagingBarrier + cw, 128);
            if (stage_c && t == 0) {
                dev::tma::store_wait_read<0>();
                dev::mbarrier::arrive_expect_tx(&c_full[cw], Cfg::StagingPerConsumer);
                for (int pn = 0; pn < BN / 64; ++pn)
                    dev::tma::load(my_staging + pn * kPanelBytes, &tm_e, &c_full[cw],
                                   tc.n * BN + 64 * pn, tc.m * BM + cw * 64, tc.batch);
            }
            if constexpr (Cfg::StageColumns && column_vectors_of<Epilogue> > 0)
                epi.stage_columns(my_columns, BN, tc.n * BN, tc.batch, p.N, t);
        };

        uint32_t bias_phase = 0;
        for (int u = cluster_id; u < sched.total(); u += clusters) {
            const WorkUnit w = unit_at(u);
            const TileCoord tc = w.coord;
            if constexpr (Cfg::AccBias) {
                // Without a bias the slot holds zeros (zeroed before the CTA's barrier): the
                // accumulator starts from the slot on both paths, because one started by
                // different instructions on two paths made ptxas serialize the wgmmas.
                if (acc_bias.present) {
                    dev::mbarrier::wait(bias_full, bias_phase);
                    bias_phase ^= 1u;
                }
                if constexpr (Cfg::AccBiasRows)
                    start_from_row_bias(acc[0], dev::smem::address(bias_slot),
                                        64 * cw + dev::wgmma::accumulator_row(t, 0),
                                        acc_bias.type, acc_bias.scale);
                else
                    start_from_bias(acc[0], dev::smem::address(bias_slot),
                                    dev::wgmma::accumulator_col(t, 0), acc_bias.type,
                                    acc_bias.scale);
                if (acc_bias.present) {
                    // Every lane's reads are done before its warp frees the slot.
                    __syncwarp();
                    if (lane0) dev::mbarrier::arrive(bias_empty);
                }
            } else {
#pragma unroll
                for (int pl = 0; pl < Planes; ++pl)
#pragma unroll
                    for (int i = 0; i < BN / 2; ++i) acc[pl][i] = 0.f;
            }
            if constexpr (Staged) {
                if (w.k_begin == w.k_end) stage_inputs(tc);
            }
            int prev_stage = -1;
            for (int kb = w.k_begin; kb < w.k_end; ++kb) {
                dev::mbarrier::wait(&full[st.stage], st.phase);
                if constexpr (Xf::enabled) {
                    static_assert(Planes == 1 && !Cfg::MnMajorA && !Cfg::MnMajorB,
                                  "operand transforms: real K-major operands");
                    transform_stage<Element, Cfg::ATileBytes, Cfg::BTileBytes,
                                    128 * Cfg::Consumers>(a_tile(st.stage, 0), xf,
                                                          p.K - kb * BK, threadIdx.x - 128);
                    dev::fence::proxy_async_shared();  // wgmma reads the stage via the async proxy
                    dev::named_barrier::sync(kTransformBarrier, 128 * Cfg::Consumers);
                }
                // consumer cw's 64 rows of A are chunk cw in either major order
                auto desc_a = [&](int pl, int k) {
                    return dev::wgmma::advance(
                        operand_desc<Cfg::MnMajorA>(a_tile(st.stage, pl) + cw * 8192),
                        k * kstep_bytes<Cfg::MnMajorA>);
                };
                auto desc_b = [&](int pl, int k) {
                    return dev::wgmma::advance(operand_desc<Cfg::MnMajorB>(b_tile(st.stage, pl)),
                                               k * kstep_bytes<Cfg::MnMajorB>);
                };
#pragma unroll
                for (int pl = 0; pl < Planes; ++pl) dev::wgmma::fence_operand(acc[pl]);
                dev::wgmma::fence();
                constexpr int MA = Cfg::MnMajorA, MB = Cfg::MnMajorB;
#pragma unroll
                for (int k = 0; k < BK / dev::wgmma::k_per_mma<DT>; ++k) {
                    if constexpr (Planes == 1) {
                        dev::wgmma::mma<BN, DT, MA, MB>(acc[0], desc_a(0, k), desc_b(0, k), 1);
                    } else {
                        // (Ar + i Ai)(Br + i Bi); Re and Im alternate so that consecutive
                        // wgmmas never wait on the same accumulator.
                        dev::wgmma::mma<BN, DT, MA, MB>(acc[0], desc_a(0, k), desc_b(0, k), 1);
                        dev::wgmma::mma<BN, DT, MA, MB>(acc[1], desc_a(0, k), desc_b(1, k), 1);
                        dev::wgmma::mma<BN, DT, MA, MB, 1, -1>(acc[0], desc_a(1, k), desc_b(1, k),
                                                               1);
                        dev::wgmma::mma<BN, DT, MA, MB>(acc[1], desc_a(1, k), desc_b(0, k), 1);
                    }
                }
                dev::wgmma::commit();
                if constexpr (Staged) {
                    if (kb == w.k_begin) stage_inputs(tc);
                }
                // One panel of the previous tile per k-block, while this batch runs.
                if constexpr (Plan::DeferStore)
                    held.store_next(my_staging, &tm_d, dv.c0, kStagingBarrier + cw, t);
                // Keep one batch in flight: the previous stage's wgmmas have retired once at
                // most one group is pending, so its buffer can go back to the producer.
                dev::wgmma::wait<1>();
#pragma unroll
                for (int pl = 0; pl < Planes; ++pl) dev::wgmma::fence_operand(acc[pl]);
                if (prev_stage >= 0) release(prev_stage);
                prev_stage = st.stage;
                st.advance();
            }
            dev::wgmma::wait<0>();
#pragma unroll
            for (int pl = 0; pl < Planes; ++pl) dev::wgmma::fence_operand(acc[pl]);
            if (prev_stage >= 0) release(prev_stage);

            // ---------------- epilogue: registers -> global, predicated ----------------
            // A short K may leave panels of the previous tile held: they go first, which also
            // frees their registers for the epilogue's arithmetic on every path.
            if constexpr (Plan::DeferStore)
                held.flush(my_staging, &tm_d, dv.c0, kStagingBarrier + cw, t);
            const int part_row = tc.m * BM + cw * 64, part_col = tc.n * BN;  // this part's origin
            const int row0 = part_row + dev::wgmma::accumulator_row(t, 0);
            const int col0 = part_col + dev::wgmma::accumulator_col(t, 0);
            // The TMA-store path (Cfg::StagedStore kernels, dv.tma_store); before_round: what
            // runs ahead of each store round (store_staged.cuh). A relu_in_pack epilogue's pack
            // applies its ReLU: its rounds run it without (apply_columns<false> below), and on
            // a path that ran it whole the pack's ReLU changes nothing.
            constexpr bool PackRelu = relu_in_pack<Epilogue>;
            const auto store_tile = [&](const auto& before_round) {
                if constexpr (Plan::DeferStore) {
                    // The CTA's last tile has no mainloop after it to hide its rounds under:
                    // held and flushed, its rounds ran 3% slower than pipelined ones (2048^3).
                    if (u + clusters < sched.total()) {
                        held.template hold<PackRelu>(acc[0], part_row, part_col, tc.batch,
                                                     before_round);
                        return;
                    }
                }
                if constexpr (Cfg::StagedStore)
                    store_staged<typename Cfg::Out, Cfg::StoreRound, Cfg::StoreBuffers, PackRelu>(
                        acc[0], my_staging, &tm_d, part_row, part_col, tc.batch, dv.c0,
                        kStagingBarrier + cw, t, before_round);
            };
            // The epilogue e (epi: a parameter, so that only kernels that stage compile this) on
            // what the tile staged (ts): one store round at a time where it works per column
            // group (true: the tile is stored), else on the whole fragment.
            const auto apply_staged = [&](const auto& e, const auto& ts) {
                if constexpr (Cfg::StagedStore &&
                              requires { e.apply_columns(acc[0], ts, 0, 1); }) {
                    if (dv.tma_store) {
                        store_tile([&](int p0, int panels) {
                            e.template apply_columns<!PackRelu>(
                                acc[0], ts, kGroupsPerPanel * p0, kGroupsPerPanel * (p0 + panels));
                        });
                        return true;
                    }
                }
                apply_epilogue(acc[0], e, row0, col0, tc.batch, p, ts);
                return false;
            };
            if constexpr (Planes == 2) {
                epi.store_fragment(acc[0], acc[1], row0, col0, tc.batch, p.M, p.N);
            } else {
                // K split: only the last split of the tile to finish has the sum to store.
                if constexpr (Cfg::SplitK) {
                    if (sched.splits > 1 &&
                        !split_k_reduce<Cfg::Consumers>(
                            acc[0], split, w.index * Cfg::ClusterM + rank_m, w.split, cw, t,
                            kStagingBarrier + cw, split_flags + cw))
                        continue;
                }
                if constexpr (Cfg::AccBias) {
                    using Stage = std::conditional_t<Cfg::SplitK, AccBiasSplitStage, AccBiasStage>;
                    if (apply_staged(epi, Stage{})) continue;
                } else if constexpr (Staged) {
                    dev::named_barrier::sync(kStagingBarrier + cw, 128);  // columns written
                    if (stage_c) {
                        dev::mbarrier::wait(&c_full[cw], c_phase);
                        c_phase ^= 1u;
                    }
                    const TileStage<Cfg::StageC> ts{dev::smem::address(my_columns), BN,
                                                    dev::smem::address(my_staging),
                                                    dev::wgmma::accumulator_row(t, 0),
                                                    dev::wgmma::accumulator_col(t, 0)};
                    if (apply_staged(epi, ts)) continue;
                } else {
                    apply_epilogue(acc[0], epi, row0, col0, tc.batch, p);
                }
                if constexpr (Cfg::StagedStore) {
                    if (dv.tma_store) {
                        store_tile(NoRoundWork{});
                        continue;
                    }
                }
                store_direct(acc[0], d, dv, row0, col0, tc.batch, p);
            }
        }
        if constexpr (Cfg::StagedStore) drain_staged_stores(t);
    }
#endif
}

}  // namespace kiln::gemm::sm90
