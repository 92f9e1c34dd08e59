// Host-side launcher for kiln::gemm::sm90::gemm_kernel: builds the TMA maps, picks the grid,
// raises the smem limit, launches. Returns cudaErrorInvalidValue when a TMA rule fails (the
// caller then takes the generic path).
#pragma once
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include "kiln/gemm/cluster_residency.cuh"
#include "kiln/gemm/env.h"
#include "kiln/gemm/kernel_sm90.cuh"

namespace kiln::gemm::sm90 {

template <class T>
inline CUtensorMapDataType tma_dtype() {
    if constexpr (std::is_same_v<T, __nv_bfloat16>) return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    else if constexpr (std::is_same_v<T, __half>) return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    else return CU_TENSOR_MAP_DATA_TYPE_UINT8;  // fp8: TMA moves bytes, wgmma interprets them
}

/// True when (ptr, ld, batch stride) of `elem_bytes`-byte elements satisfy TMA's 16-byte rules.
inline bool tma_compatible(const void* p, int64_t ld, int64_t batch_stride, int batch,
                           int elem_bytes) {
    return reinterpret_cast<uintptr_t>(p) % 16 == 0 && (ld * elem_bytes) % 16 == 0 &&
           (batch <= 1 || (batch_stride * elem_bytes) % 16 == 0);
}

/// B's L2 hint: evict-first when one cluster's M-tiles cover M (`covered` rows), so that the
/// grid loads each of its boxes once (the multicast reaches every M-tile), the batches do not
/// share it, the tiles are at most 128 wide and B (`b_bytes`) is more than 7/8 of the L2
/// (`l2_bytes`). Streamed so, it keeps A's lines, which every N-tile reads again, in L2: on
/// 128-wide tiles kiln's rate rose 0.6-5.3% (127 x 4096 x 4096: 0.63 -> 0.65 of cuBLAS, 128 x
/// 6144 x 8192: 0.87 -> 0.91), the peer unchanged. A smaller B stays normal: a caller's next
/// product on the same weights finds it there, as cuBLAS's does: the few-row and short
/// products on 16-32 MiB of weights ran 2.5-9% faster called back to back and 1.7-5% slower on
/// weights streamed cold, still 1.02-1.13 of cuBLASLt (bench/NOTES.md v45). From 48 MiB of a
/// 50 MiB L2 normal loads gained nothing called back to back and lost 1-7% (96 x 5120 x 5120's
/// pairs 7%). The one 256-wide case measured, 64 x 28672 x 8192, lost 3% with it; A
/// evict-first on the transposed few-row product's weights lost 2-25% (v30), so A stays normal.
constexpr dev::tma::L2Hint streaming_hint(int M, int covered, int bn, bool shared_by_batches,
                                          int64_t b_bytes, int64_t l2_bytes) {
    return M <= covered && bn <= 128 && !shared_by_batches && 8 * b_bytes > 7 * l2_bytes
               ? dev::tma::L2Hint::evict_first
               : dev::tma::L2Hint::normal;
}

/// An attribute of the current device, read once per process by the caller's static.
inline int current_device_attribute(cudaDeviceAttr attr) {
    int dev_id = 0, n = 0;
    cudaGetDevice(&dev_id);
    cudaDeviceGetAttribute(&n, attr, dev_id);
    return n;
}

/// Sets both operands' hints (A normal, or evict-first where the view is read once:
/// OperandView::read_once; B streaming_hint, `b_bytes` its bytes in all batches).
/// KILN_GEMM_L2=A,B (each normal, first or last) overrides them, for A/B experiments.
inline void choose_l2_hints(TmaOperand& oa, TmaOperand& ob, bool a_read_once, int M, int batch,
                            int bm, int bn, int cluster_m, int64_t b_bytes) {
    using dev::tma::L2Hint;
    static const int64_t l2_bytes = current_device_attribute(cudaDevAttrL2CacheSize);
    oa.l2 = a_read_once ? L2Hint::evict_first : L2Hint::normal;
    ob.l2 = streaming_hint(M, bm * cluster_m, bn, batch > 1 && ob.batch_mul == 0, b_bytes,
                           l2_bytes);
    static const char* forced = std::getenv("KILN_GEMM_L2");
    if (!forced) return;
    auto parse = [](const char* w) {
        return std::strncmp(w, "first", 5) == 0  ? L2Hint::evict_first
               : std::strncmp(w, "last", 4) == 0 ? L2Hint::evict_last
                                                 : L2Hint::normal;
    };
    oa.l2 = parse(forced);
    const char* comma = std::strchr(forced, ',');
    ob.l2 = comma ? parse(comma + 1) : L2Hint::normal;
}

/// Encodes the tensor map (rank 3 to 5) of one operand (see TmaOperand) for a tile of `tile_rows`
/// rows per CTA, and where a K-major rank-3 tile is one box and the last one overhangs the rows,
/// `tail_map` (null: the kernel loads whole boxes, Config::TailMaps): a map whose box is the
/// rows that last box holds. False when the view breaks
/// sm90_view_ok (views.h), the tile is not whole boxes, or TMA refuses the map (a 16-byte aligned
/// base). A box row is one 128-byte swizzle row: 64 16-bit or 128 8-bit elements.
template <class E>
inline bool make_operand_map(CUtensorMap* map, CUtensorMap* tail_map, TmaOperand* op,
                             const OperandView& v_in, int batch, int tile_rows) {
    const int64_t unit = sizeof(E);
    constexpr uint32_t row_elems = 128 / sizeof(E);
    OperandView v = v_in;
    // Experiment (KILN_GEMM_MN_CHUNKS=2): an MN-major single-mode operand with rows % 64 == 0
    // viewed as rows (64, rows/64), so one TMA box {64, 64, chunks} loads `chunks` 64-row chunks.
    static const int env_chunks = std::max(1, env_int("KILN_GEMM_MN_CHUNKS", 1));
    int chunks = 1;
    if (env_chunks > 1 && v.mn_major && v.rows[1] == 1 && v.rows[0] % 64 == 0 &&
        v.rows[0] > 64 && tile_rows % (64 * env_chunks) == 0) {
        chunks = env_chunks;
        v.rows[1] = v.rows[0] / 64, v.rows[0] = 64;
        v.row_stride[1] = 64;
    }
    if (!sm90_view_ok(v, int(sizeof(E)))) return false;
    const int nb = v.batch_stride == 0 ? 1 : batch;
    op->r0 = v.rows[1] > 1 ? v.rows[0] : INT_MAX;
    op->k0 = v.ks[1] > 1 ? v.ks[0] : INT_MAX;
    op->batch_mul = nb > 1 ? 1 : 0;
    // K-major single-mode rows: one box for the whole tile; otherwise 64-row chunks.
    op->box_rows = v.one_box() ? tile_rows : 64 * chunks;
    // load_rows fills the tile box by box: a tile that is not whole boxes (a 144-wide one in
    // 64-row chunks) would overrun it.
    if (tile_rows % op->box_rows != 0) return false;
    // Dims in map order: the contiguous mode, the other inner mode, then r1, k1, batch.
    const bool mn = v.mn_major;
    uint64_t dims[5] = {uint64_t(mn ? v.rows[0] : v.ks[0]), uint64_t(mn ? v.ks[0] : v.rows[0]),
                        uint64_t(v.rows[1]), uint64_t(v.ks[1]), uint64_t(nb)};
    int64_t strides[4] = {mn ? v.k_stride[0] : v.row_stride[0], v.row_stride[1], v.k_stride[1],
                          v.batch_stride};
    // Extent-1 modes: continue the previous stride (strides stay non-decreasing).
    uint64_t str[4];
    uint64_t prev = dims[0] * unit;
    for (int i = 0; i < 4; ++i) {
        str[i] = dims[i + 1] > 1 ? uint64_t(strides[i] * unit) : ((prev + 15) / 16) * 16;
        prev = str[i] * dims[i + 1];
    }
    const uint32_t box_y = mn ? 64u : uint32_t(v.rows[1] == 1 ? op->box_rows : 64);
    // Keep only the outer modes that exist (KILN_GEMM_TMA_RANK5=1 keeps all: experiments only).
    static const bool all5 = std::getenv("KILN_GEMM_TMA_RANK5") != nullptr;
    uint64_t d[5], s[4];
    const uint32_t box5[5] = {row_elems, box_y, uint32_t(chunks), 1, 1};
    uint32_t box[5] = {row_elems, box_y, 1, 1, 1};
    int r = 0;
    d[r++] = dims[0];
    for (int i = 1; i < 5; ++i) {
        if (i < 4 && dims[i] == 1 && !all5 && i > 1) continue;
        s[r - 1] = str[i - 1];
        box[r] = box5[i];
        d[r++] = dims[i];
    }
    op->rank = r;
    auto dt = tma_dtype<E>();
    auto sw = dev::swizzle::Mode::B128;
    if (r == 3) {
        const uint64_t d3[3] = {d[0], d[1], d[2]}, s3[2] = {s[0], s[1]};
        const uint32_t b3[3] = {box[0], box[1], 1};
        // One box per tile that overhangs the rows: a map of the rows it holds (TmaOperand).
        // KILN_GEMM_TAIL_MAPS=0: zero fill instead (A/B experiments).
        static const bool tail_maps = !env_off("KILN_GEMM_TAIL_MAPS");
        const uint32_t tail = uint32_t(d[1] % box[1]);
        if (tail_map && tail_maps && !mn && op->box_rows == tile_rows && tail != 0) {
            const uint32_t t3[3] = {box[0], tail, 1};
            if (!dev::tma::make_tensor_map<3>(tail_map, dt, v.ptr, d3, s3, t3, sw)) return false;
            op->tail_start = int(d[1] - tail);
            op->tail_rows = int(tail);
        }
        return dev::tma::make_tensor_map<3>(map, dt, v.ptr, d3, s3, b3, sw);
    }
    if (r == 4) {
        const uint64_t d4[4] = {d[0], d[1], d[2], d[3]}, s4[3] = {s[0], s[1], s[2]};
        const uint32_t b4[4] = {box[0], box[1], box[2], 1};
        return dev::tma::make_tensor_map<4>(map, dt, v.ptr, d4, s4, b4, sw);
    }
    return dev::tma::make_tensor_map<5>(map, dt, v.ptr, d, s, box, sw);
}

/// Encodes D's map for the TMA-store epilogue (store_staged.cuh) when TMA can write the output:
/// a plain 16-bit matrix as rank 3 {N, M, batch}, or a GETT view with one row mode and two
/// column modes whose inner extent c0 is a multiple of the 64-column panel (so a panel never
/// straddles an outer index) as rank 4 {c0, M, N / c0, batch}; box {64, 64, 1[, 1]}, 128B
/// swizzle. False (the kernel then stores directly) for other views, misaligned pointers or
/// strides, or KILN_GEMM_TMA_STORE=0 (A/B experiments).
template <class Out>
inline bool make_output_map(CUtensorMap* map, const Out* d, const OutView& dv, int M, int N,
                            int batch) {
    static const bool off = env_off("KILN_GEMM_TMA_STORE");
    constexpr int64_t eb = sizeof(Out);
    const bool two_cols = dv.c0 != INT_MAX;
    if (off || eb != 2 || dv.r0 != INT_MAX || dv.cs0 != 1) return false;
    if (reinterpret_cast<uintptr_t>(d) % 16 != 0 || (dv.rs0 * eb) % 16 != 0) return false;
    if (two_cols ? dv.c0 % 64 != 0 || N % dv.c0 != 0 || (dv.cs1 * eb) % 16 != 0 : dv.rs0 < N)
        return false;
    if (batch > 1 && ((dv.batch_stride * eb) % 16 != 0 || dv.batch_stride < dv.rs0 * M))
        return false;
    const uint64_t batch_bytes = batch > 1 ? dv.batch_stride * eb : dv.rs0 * eb * M;
    const auto sw = dev::swizzle::Mode::B128;
    if (two_cols) {
        const uint64_t dims[4] = {uint64_t(dv.c0), uint64_t(M), uint64_t(N / dv.c0),
                                  uint64_t(batch)};
        const uint64_t strides[3] = {uint64_t(dv.rs0 * eb), uint64_t(dv.cs1 * eb), batch_bytes};
        const uint32_t box[4] = {64, 64, 1, 1};
        return dev::tma::make_tensor_map<4>(map, tma_dtype<Out>(), d, dims, strides, box, sw);
    }
    const uint64_t dims[3] = {uint64_t(N), uint64_t(M), uint64_t(batch)};
    const uint64_t strides[2] = {uint64_t(dv.rs0 * eb), batch_bytes};
    const uint32_t box[3] = {64, 64, 1};
    return dev::tma::make_tensor_map<3>(map, tma_dtype<Out>(), d, dims, strides, box, sw);
}

/// General launch: operands as Cfg::Planes views each (va[0], vb[0]: real parts; va[1], vb[1]:
/// imaginary parts, same geometry), the output as a view (views.h; unused by complex
/// epilogues, which carry their own). Returns cudaErrorInvalidValue when a TMA rule fails (the
/// caller takes the generic path; for Cfg::StageC kernels also when C's map fails those rules,
/// for Cfg::AccBias kernels when the bias cannot start the accumulator: bias_in_accumulator, or
/// when the epilogue cannot scale by alpha: EpilogueBiasAct::takes_alpha).
/// Cfg::MnMajorA/B must match the views.
/// xf: the operand transform (operand_transform.cuh), K-major real operands only.
/// split: K splits per tile and their buffers (split_k.h, sized for split_k_cta_tiles(M, N,
/// batch, Cfg::BM, Cfg::BN, Cfg::ClusterM) tiles, or for the range's), Cfg::SplitK kernels only.
/// range: the tiles of the scheduler's order (cluster tiles) this launch runs (default: all).
template <class Cfg, class Epi, class Xf = NoOperandTransform>
cudaError_t launch_planes(const OperandView* va, const OperandView* vb, typename Cfg::Out* d,
                          OutView dv, int M, int N, int K, int batch, const Epi& epi,
                          cudaStream_t stream, int group_m = 16, const Xf& xf = {},
                          const SplitK& split = {}, const TileRange& range = {}) {
    using E = typename Cfg::Element;
    if (M <= 0 || N <= 0 || batch <= 0) return cudaSuccess;
    if (va[0].mn_major != Cfg::MnMajorA || vb[0].mn_major != Cfg::MnMajorB || K <= 0)
        return cudaErrorInvalidValue;
    if (split.splits < 1 ||
        (split.splits > 1 && (!Cfg::SplitK || !split.partials || !split.counters)))
        return cudaErrorInvalidValue;
    OperandMaps<Cfg::Planes> ma{}, mb{};
    TmaOperand oa, ob;
    for (int pl = 0; pl < Cfg::Planes; ++pl) {
        if (va[pl].mn_major != va[0].mn_major || vb[pl].mn_major != vb[0].mn_major ||
            !make_operand_map<E>(&ma.plane[pl], Cfg::TailMaps ? &ma.tail[pl] : nullptr, &oa,
                                 va[pl], batch, Cfg::ARowsPerCta) ||
            !make_operand_map<E>(&mb.plane[pl], Cfg::TailMaps ? &mb.tail[pl] : nullptr, &ob,
                                 vb[pl], batch, Cfg::BRowsPerCta))
            return cudaErrorInvalidValue;
    }
    choose_l2_hints(oa, ob, va[0].read_once, M, batch, Cfg::BM, Cfg::BN, Cfg::ClusterM,
                    int64_t(N) * K * sizeof(E) * Cfg::Planes * (ob.batch_mul ? batch : 1));
    // The epilogue walks columns 8 at a time inside the inner column mode.
    if (dv.c0 != INT_MAX && dv.c0 % 8 != 0) return cudaErrorInvalidValue;
    static const bool column_pairs = !env_off("KILN_GEMM_COLUMN_PAIRS");
    set_store_pairs(dv, reinterpret_cast<uintptr_t>(d), int(sizeof(typename Cfg::Out)),
                    column_pairs);
    CUtensorMap md{}, me{};
    dv.tma_store = Cfg::StagedStore && make_output_map(&md, d, dv, M, N, batch);
    // Staged C (epilogue_stage.cuh) is read through a map of D's form, the accumulator's bias
    // (acc_bias.cuh) through its own: no map, no launch.
    if constexpr (Cfg::StageC) {
        const CSource c = epi.c_source();
        if (c.ptr && !make_output_map(&me, static_cast<const typename Cfg::Out*>(c.ptr),
                                      OutView::matrix(c.ld, c.batch_stride), M, N, batch))
            return cudaErrorInvalidValue;
    }
    if constexpr (Cfg::AccBias) {
        if (!epi.takes_alpha()) return cudaErrorInvalidValue;
        if (epi.bias && (!bias_in_accumulator(epi.bias, epi.bias_type, epi.batch_stride_bias,
                                              epi.alpha) ||
                         !make_bias_map(&me, epi.bias, epi.bias_type, Cfg::AccBiasRows ? M : N,
                                        batch, epi.batch_stride_bias, Cfg::AccBiasLength)))
            return cudaErrorInvalidValue;
    }

    // KILN_GEMM_GROUP_M overrides the rasterization group (tuning experiments only).
    if (const char* g = std::getenv("KILN_GEMM_GROUP_M")) group_m = std::max(1, std::atoi(g));
    // The scheduler walks cluster tiles (ClusterM M-tiles or ClusterN N-tiles each); see
    // gemm_kernel. A cluster along N covers whole pairs of N-tiles only: its last CTA would
    // otherwise load its share of A for a tile past N.
    const int tiles_m = (M + Cfg::BM - 1) / Cfg::BM, tiles_n = (N + Cfg::BN - 1) / Cfg::BN;
    if (tiles_n % Cfg::ClusterN != 0) return cudaErrorInvalidValue;
    TileScheduler sched{scheduled_rows(tiles_m, Cfg::ClusterM, range), tiles_n / Cfg::ClusterN,
                        batch, std::max(1, group_m / Cfg::ClusterM), split.splits, range};
    if (range.begin < 0 || range.count < 0 || sched.span() <= 0 ||
        range.begin + sched.span() > sched.tiles())
        return cudaErrorInvalidValue;
    static const int sms = current_device_attribute(cudaDevAttrMultiProcessorCount);
    auto kernel = gemm_kernel<Cfg, Epi, Xf>;
    static const cudaError_t attr = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::SmemBytes);  // once per kernel
    if (attr != cudaSuccess) return attr;
    // A persistent grid must be co-resident (cluster_residency.cuh: clusters leave SMs idle).
    static const int max_clusters = [&] {
        if (Cfg::ClusterSize == 1) return sms;
        const int n = resident_clusters(kernel, Cfg::ClusterSize, Cfg::Threads, Cfg::SmemBytes);
        return n >= 1 ? n : sms / Cfg::ClusterSize;
    }();
    const int grid = std::min(max_clusters, sched.total()) * Cfg::ClusterSize;
    if (std::getenv("KILN_GEMM_DEBUG"))
        std::fprintf(stderr,
                     "kiln sm90: BM=%d BN=%d stages=%d cluster=%dx%d group=%d mn=%d%d "
                     "max_clusters=%d grid=%d units=%d splits=%d rank=%d/%d box_rows=%d/%d "
                     "tail_rows=%d/%d pair_ok=%d/%d tma_store=%d\n",
                     Cfg::BM, Cfg::BN, Cfg::Stages, Cfg::ClusterM, Cfg::ClusterN, group_m,
                     Cfg::MnMajorA,
                     Cfg::MnMajorB, max_clusters, grid, sched.total(), sched.splits, oa.rank,
                     ob.rank, oa.box_rows,
                     ob.box_rows, oa.tail_rows, ob.tail_rows, int(dv.pair_ok),
                     int(dv.row_pair_ok), int(dv.tma_store));
    Problem p{M, N, K, batch};
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(Cfg::Threads);
    cfg.dynamicSmemBytes = Cfg::SmemBytes;
    cfg.stream = stream;
    // Programmatic dependent launch (kiln/grid_dependency.cuh): the prologue overlaps the previous
    // kernel's tail. KILN_GEMM_PDL=0 turns it off (A/B experiments).
    static const bool pdl = !env_off("KILN_GEMM_PDL");
    // A cluster dimension only for real clusters: KILN_GEMM_CLUSTER_ATTR=1 adds it for 1-CTA
    // ones too (A/B experiments).
    static const bool cluster_attr = [] {
        const char* e = std::getenv("KILN_GEMM_CLUSTER_ATTR");
        return Cfg::ClusterSize > 1 || (e && e[0] == '1');
    }();
    cudaLaunchAttribute attrs[2];
    int n_attrs = 0;
    if (cluster_attr) {
        attrs[n_attrs].id = cudaLaunchAttributeClusterDimension;
        attrs[n_attrs].val.clusterDim.x = Cfg::ClusterSize;
        attrs[n_attrs].val.clusterDim.y = 1;
        attrs[n_attrs].val.clusterDim.z = 1;
        ++n_attrs;
    }
    if (pdl) {
        attrs[n_attrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[n_attrs].val.programmaticStreamSerializationAllowed = 1;
        ++n_attrs;
    }
    cfg.attrs = attrs;
    cfg.numAttrs = n_attrs;
    return cudaLaunchKernelEx(&cfg, kernel, ma, mb, oa, ob, md, me, d, dv, p, sched, epi, xf,
                              split);
}

/// Real operands: one view each.
template <class Cfg, class Epi, class Xf = NoOperandTransform>
cudaError_t launch_views(const OperandView& va, const OperandView& vb, typename Cfg::Out* d,
                         OutView dv, int M, int N, int K, int batch, const Epi& epi,
                         cudaStream_t stream, int group_m = 16, const Xf& xf = {},
                         const SplitK& split = {}, const TileRange& range = {}) {
    static_assert(Cfg::Planes == 1, "complex kernels take launch_planes");
    if (Xf::enabled && (va.mn_major || vb.mn_major)) return cudaErrorInvalidValue;
    return launch_planes<Cfg>(&va, &vb, d, dv, M, N, K, batch, epi, stream, group_m, xf, split,
                              range);
}

/// Plain strided-batched form: A (M x K, lda) and B (N x K, ldb) both K-major unless Cfg says
/// MN-major (then A is stored K x M and B K x N), D (M x N, ldd).
template <class Cfg, class Epi>
cudaError_t launch(const typename Cfg::Element* a, int64_t lda, int64_t stride_a,
                   const typename Cfg::Element* b, int64_t ldb, int64_t stride_b,
                   typename Cfg::Out* d, int64_t ldd, int64_t stride_d, int M, int N, int K,
                   int batch, const Epi& epi, cudaStream_t stream, int group_m = 16) {
    constexpr int eb = sizeof(typename Cfg::Element);
    if (!tma_compatible(a, lda, stride_a, batch, eb) ||
        !tma_compatible(b, ldb, stride_b, batch, eb))
        return cudaErrorInvalidValue;
    return launch_views<Cfg>(
        OperandView::matrix(a, M, K, lda, Cfg::MnMajorA, batch > 1 ? stride_a : 0),
        OperandView::matrix(b, N, K, ldb, Cfg::MnMajorB, batch > 1 ? stride_b : 0), d,
        OutView::matrix(ldd, stride_d), M, N, K, batch, epi, stream, group_m);
}

}  // namespace kiln::gemm::sm90
