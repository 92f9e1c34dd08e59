// Internal: typed entry points that gemm.cu dispatches to (one translation unit per input type,
// so the heavy wgmma instantiations build in parallel).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cuda_runtime.h>
#include "kiln/gemm.h"
#include "kiln/gemm/env.h"
#include "kiln/gemm/params.h"
#include "kiln/gemm/split_k.h"
#include "kiln/gemm/views.h"

namespace kiln::gemm::detail {

/// 16-bit floating-point elements (bf16 or fp16).
constexpr bool is16(DataType t) { return t == DataType::BF16 || t == DataType::F16; }

struct Problem {
    Op ta, tb;
    int M, N, K, batch;
    float alpha, beta;
    const void* a;
    int64_t lda, sa;
    const void* b;
    int64_t ldb, sb;
    void* c;
    int64_t ldc, sc;
    const void* bias;
    DataType bias_type;
    BiasMode bias_mode;
    int64_t sbias;
    Activation act;
    DataType a_type, c_type;
    cudaStream_t stream;
    // The sm90 path reads A, B and writes D through these (plain matrices for gemmEx, tensor
    // views for contract); the fields above still give the epilogue's C / bias.
    OperandView va{}, vb{};
    OutView vd{};
    // Element-wise transforms of A, B and C after their load (gemmEx's options.op_*).
    ElementOp op_a{}, op_b{}, op_c{};
    // Row / column sums of the result (gemmEx's options.row_sum / col_sum; null: none).
    float* row_sum = nullptr;
    float* col_sum = nullptr;
    void* workspace = nullptr;  // for folding affine A/B transforms (gemmEx's options)
    int64_t workspace_bytes = 0;
    // Complex (cgemm_planar): A's and B's imaginary planes (views shaped as va / vb) and C's
    // (null: C interleaved at c). ldc and sc count complex elements there.
    OperandView va_im{}, vb_im{};
    void* c_im = nullptr;
    SplitK split{};     // K splits of the sm90 kernel (run_sm90_any sets them)
    TileRange range{};  // the tiles of the sm90 launch (run_sm90_any: a tail split's two)
    int cluster_m = 1;  // CTAs per cluster of the sm90 kernel (run_sm90_any sets it)
    int cluster_n = 1;  // or along N, sharing A: the two-tile product's (short_rows.cuh)
    int block_m = 128;  // rows of the sm90 kernel's tile: 128, or 64 (short_rows.cuh)
    // Whether this is a call's D^T = B.A^T (transposed_problem, few_rows.cuh): the kernel's row
    // bias is then D's column bias, so its 64-row unpaired tiles start the accumulator from
    // rows; untransposed, the few-row product's start from columns.
    bool transposed = false;
    int group_m = 16;   // M-tiles per rasterization group of the sm90 launch (launch_sm90.cuh)
};

/// CTAs per cluster of the sm90 instantiations that take no Params (the chain kernel): 2
/// (sharing B) at BN = 256.
constexpr int sm90_default_cluster_m(int bn) { return bn == 256 ? 2 : 1; }

/// The cluster a BN-wide launch of `cluster_tiles` pair tiles on `sms` SMs may take of the
/// `wanted` one: any at BN = 256; at BN = 128 pairs for one wave only, so that a launch whose
/// kernel runs them unpaired (run_sm90_act, runs_narrow_pairs) needs no other plan (no tail
/// split).
constexpr int sm90_cluster_fits(int bn, int wanted, int64_t cluster_tiles, int sms) {
    return bn == 256 || (bn == 128 && cluster_tiles <= sms / 2) ? wanted : 1;
}

/// The cluster of a launch (sm90_cluster_fits): the heuristic's, or KILN_GEMM_CLUSTER=1|2
/// (experiments only).
inline int sm90_cluster_m(int bn, int heuristic, int64_t cluster_tiles, int sms) {
    static const int env = env_int("KILN_GEMM_CLUSTER", 0);
    return sm90_cluster_fits(bn, env == 1 || env == 2 ? env : heuristic, cluster_tiles, sms);
}

/// An attribute of the current device, or `fallback` where the query fails (callers keep it in a
/// static: the planners ask on every call).
inline int device_attribute(cudaDeviceAttr attr, int fallback) {
    int dev = 0, n = fallback;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&n, attr, dev);
    return n;
}

/// The current device's SMs (132 on an H100 or H200).
inline int device_sms() {
    static const int sms = device_attribute(cudaDevAttrMultiProcessorCount, 132);
    return sms;
}

/// The current device's L2 bytes (50 MiB on an H100 or H200).
inline int64_t device_l2_bytes() {
    static const int64_t bytes = device_attribute(cudaDevAttrL2CacheSize, 50 << 20);
    return bytes;
}

/// Whether a call's epilogue fields leave D = A.B exactly (alpha 1, beta 0, no bias, no
/// activation): what the sm90 kernels' EpilogueCopy runs (sm90_impl.cuh, epilogue_kind).
constexpr bool plain_epilogue(float alpha, float beta, bool bias, BiasMode mode, Activation act) {
    return alpha == 1.f && beta == 0.f && !(bias && mode != BiasMode::None) &&
           act == Activation::None;
}
inline bool plain_epilogue(const Problem& p) {
    return plain_epilogue(p.alpha, p.beta, p.bias != nullptr, p.bias_mode, p.act);
}

/// The most CTAs a cluster may hold without the non-portable opt-in.
inline constexpr int kMaxPortableClusterSize = 8;

/// How many clusters of `size` CTAs (1 to kMaxPortableClusterSize) the current device keeps
/// resident at once at one CTA per SM (occupancy.cu; asked once), or 0 where it cannot say.
int device_resident_clusters(int size);

/// TMA's 16-byte rules for an operand of `eb`-byte elements: aligned base, row and batch
/// strides multiples of 16 bytes.
inline bool tma_ok(const void* p, int64_t ld, int64_t stride, int batch, int eb) {
    return reinterpret_cast<uintptr_t>(p) % 16 == 0 && (ld * eb) % 16 == 0 &&
           (batch <= 1 || (stride * eb) % 16 == 0);
}

/// The weight tiles' widths of the untransposed few-row product (few_rows.cuh,
/// few_rows_untransposed_width): A's rows one 64-row M-tile, one wave of these N-tiles. Every
/// multiple of 8 from 32 to 256: a launch of one wave takes as long as its widest tile's
/// stream, so the narrowest width that fits one wave is the fastest (bench/NOTES.md v44: 168
/// wide 4.6% faster than 176 at 64 x 22016 x 4096, 132 CTAs against 126). Each is a set of
/// 64-row kernels (run_sm90_untransposed).
inline constexpr int kFewRowsUntransposedWidths[] = {
    32,  40,  48,  56,  64,  72,  80,  88,  96,  104, 112, 120, 128, 136, 144,
    152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256};

/// Returns cudaErrorInvalidValue when TMA's rules do not hold (caller falls back). Defined in
/// sm90_<in>_<out>.cu for In in {bf16, f16, e4m3, e5m2}, Out in {bf16, f16, f32}; MnA/MnB:
/// operand major order (p.va.mn_major / p.vb.mn_major; both false for 8-bit inputs). bn: 256 or
/// 128; 192, 160 or 144, a fill width (params.h: unpaired, unsplit, 16-bit inputs only); or 64
/// or 16 for the few-row kernel (few_rows.cuh: unpaired, 16-bit K-major only); 72, 80, 88, 96
/// or 104 for the transposed two-tile product (short_rows.cuh: unpaired, unsplit, 16-bit
/// K-major only, p.block_m 128, or 64 up to 96); with p.block_m = 64 in pairs (p.cluster_m 2),
/// 64 or 128 for the short product, or 160 transposed (short_rows.cuh: split only at 64, 16-bit
/// K-major only); with p.block_m = 64 unpaired and p.transposed false, one of
/// kFewRowsUntransposedWidths (the untransposed few-row product: unsplit, 16-bit K-major only).
template <class In, class Out, bool MnA, bool MnB>
cudaError_t run_sm90(const Problem& p, int bn);

/// KILN_GEMM_BN=128|256 overrides the heuristic's tile width (experiments only).
inline int block_n_override(int bn) {
    static const int env = env_int("KILN_GEMM_BN", 0);
    return env == 128 || env == 256 ? env : bn;
}

/// KILN_GEMM_TAIL_SPLIT=0 turns the tail split (tail_split.h) off (A/B experiments only). So
/// does a KILN_GEMM_GROUP_M override: an odd group would not give the unpaired second launch
/// the groups of the paired first (run_sm90_any).
inline bool tail_split_enabled() {
    static const bool on = !env_off("KILN_GEMM_TAIL_SPLIT") && !std::getenv("KILN_GEMM_GROUP_M");
    return on;
}

/// KILN_GEMM_SPLITK=S forces S K splits per tile (1: none) instead of the heuristic's
/// (experiments only).
inline int split_k_override(int splits) {
    static const int env = env_int("KILN_GEMM_SPLITK", 0);
    return env >= 1 ? env : splits;
}

/// The host API's device buffers, one of each per device and stream (scratch.cu).
/// ContractOperands: contract()'s copies of operands in another mode order (contract_plan.h).
enum class Scratch : int { SplitKCounters, SplitKPartials, ContractOperands };

/// A zeroed device buffer of at least `bytes` for launches on `stream` (grown on demand, kept
/// for the process). Null when it would have to grow during a stream capture or the allocation
/// fails: the caller then runs without it.
void* stream_scratch(Scratch which, int64_t bytes, cudaStream_t stream);

/// Runs p on the sm90 kernel with the tile width and K splits of `prm` (the KILN_GEMM_BN and
/// KILN_GEMM_SPLITK overrides applied), or, unsplit and prm.tail_split, as a tail split
/// (tail_split_plan: two launches); splits dropped when no workspace can be had; dispatches
/// on p.a_type, p.c_type and the operands' major order.
cudaError_t run_sm90_any(Problem p, const Params& prm);

/// Split-complex GEMM on the sm90 kernel (two planes, four real products per k-step); defined
/// in complex_sm90_<in>.cu for In in {bf16, f16}, Out in {bf16, f16, f32}. Returns
/// cudaErrorInvalidValue when TMA's rules do not hold.
template <class In, class Out, bool MnA, bool MnB>
cudaError_t run_complex_sm90(const Problem& p);
cudaError_t run_generic(const Problem& p);

/// True when the sm90 chain kernel (transforms, reductions) can run p: 16-bit A, B and C of
/// one type, A and B K-major (other layouts run them on the generic kernel).
inline bool chain_sm90_ok(const Problem& p) {
    return is16(p.a_type) && p.c_type == p.a_type && !p.va.mn_major && !p.vb.mn_major;
}
/// The sm90 kernel with in-smem A/B transforms, the C transform and row / column sums in the
/// epilogue (chain_sm90_impl.cuh; 128 x 256 tiles), T = __nv_bfloat16 or __half (A, B, C).
/// Returns cudaErrorInvalidValue when TMA's rules do not hold.
template <class T>
cudaError_t run_chain_sm90(const Problem& p);

}  // namespace kiln::gemm::detail
