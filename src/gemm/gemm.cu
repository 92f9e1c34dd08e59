// kiln::gemm::gemmEx: argument checks, path choice (TMA/wgmma vs generic), dispatch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include "dispatch.h"
#include "few_rows.cuh"
#include "short_rows.cuh"
#include "kiln/gemm.h"
#include "kiln/gemm/params.h"

namespace kiln::gemm {

const char* status_string(Status s) {
    switch (s) {
    case Status::Success: return "success";
    case Status::InvalidValue: return "invalid value";
    case Status::BadLeadingDimension: return "bad leading dimension";
    case Status::UnsupportedDataType: return "unsupported data type combination";
    case Status::PathUnavailable: return "requested path unavailable for these arguments";
    case Status::CudaError: return "CUDA error";
    }
    return "unknown status";
}

namespace {

using detail::is16;
bool is8(DataType t) { return t == DataType::F8E4M3 || t == DataType::F8E5M2; }
int64_t max1(int64_t x) { return x < 1 ? 1 : x; }

template <class In, bool MnA, bool MnB>
cudaError_t run_sm90_out(const detail::Problem& p, int bn) {
    switch (p.c_type) {
    case DataType::BF16: return detail::run_sm90<In, __nv_bfloat16, MnA, MnB>(p, bn);
    case DataType::F16: return detail::run_sm90<In, __half, MnA, MnB>(p, bn);
    case DataType::F32: return detail::run_sm90<In, float, MnA, MnB>(p, bn);
    default: return cudaErrorInvalidValue;
    }
}

/// 8-bit inputs: wgmma reads them K-major only (A with Op::N, B with Op::T).
template <class In>
cudaError_t run_sm90_kmajor(const detail::Problem& p, int bn) {
    if (p.va.mn_major || p.vb.mn_major) return cudaErrorInvalidValue;
    return run_sm90_out<In, false, false>(p, bn);
}

template <class In>
cudaError_t run_sm90_major(const detail::Problem& p, int bn) {
    const int major = (p.va.mn_major ? 2 : 0) | (p.vb.mn_major ? 1 : 0);
    switch (major) {
    case 0: return run_sm90_out<In, false, false>(p, bn);
    case 1: return run_sm90_out<In, false, true>(p, bn);
    case 2: return run_sm90_out<In, true, false>(p, bn);
    default: return run_sm90_out<In, true, true>(p, bn);
    }
}

}  // namespace

namespace detail {
namespace {

/// The sm90 launch of p with bn-wide tiles, by input type.
cudaError_t run_sm90_in(const Problem& p, int bn) {
    if (p.a_type == DataType::BF16) return run_sm90_major<__nv_bfloat16>(p, bn);
    if (p.a_type == DataType::F16) return run_sm90_major<__half>(p, bn);
    if (p.a_type == DataType::F8E4M3) return run_sm90_kmajor<__nv_fp8_e4m3>(p, bn);
    if (p.a_type == DataType::F8E5M2) return run_sm90_kmajor<__nv_fp8_e5m2>(p, bn);
    return cudaErrorInvalidValue;
}

/// The split-K workspace of `cta_tiles` tiles split `splits` ways on p's stream; splits 1 (no
/// split) when it cannot be had.
SplitK split_workspace(const Problem& p, int64_t cta_tiles, int splits, int bm, int bn) {
    auto* counters = static_cast<int*>(
        stream_scratch(Scratch::SplitKCounters, split_k_counter_bytes(cta_tiles), p.stream));
    auto* partials = static_cast<float*>(stream_scratch(
        Scratch::SplitKPartials, split_k_partial_bytes(cta_tiles, splits, bm, bn), p.stream));
    if (!counters || !partials) return {};
    return {splits, counters, partials};
}

/// The few-row product untransposed on 64 x w tiles where those fill one wave
/// (few_rows_untransposed_width_for), else transposed (few_rows.cuh) on 128 x few_rows_tile_n
/// tiles, K split where the tiles leave SMs idle (few_rows_splits; the KILN_GEMM_SPLITK override
/// applied).
cudaError_t run_few_rows(const Problem& p, int sms) {
    if (const int w = few_rows_untransposed_width_for(p, sms)) {
        Problem u = p;
        u.block_m = 64;
        u.cluster_m = 1;
        u.cluster_n = 1;
        return run_sm90_in(u, w);
    }
    Problem q = transposed_problem(p);
    const int bn = few_rows_tile_n(p.M);
    const int64_t tiles = split_k_cta_tiles(q.M, q.N, q.batch, 128, bn, 1);
    const int splits = split_k_override(few_rows_splits(tiles, k_blocks_of(q.K, 2), sms));
    if (splits > 1) q.split = split_workspace(q, tiles, splits, 128, bn);
    return run_sm90_in(q, bn);
}

/// The short product (short_rows.cuh) on 64 x plan.bn tiles in 2-CTA clusters, transposed or
/// K split as planned (unsplit when no workspace can be had), or the transposed two-tile
/// product on 128 or 64 x plan.bn tiles, each weight tile's two CTAs a cluster sharing it or
/// consecutive (group 1), its weights evict-first where planned.
cudaError_t run_short_rows(Problem p, const ShortRows& plan) {
    if (plan.transposed) p = transposed_problem(p);
    p.block_m = plan.block_m;
    p.cluster_m = plan.cluster_m;
    p.cluster_n = plan.cluster_n;
    if (plan.cluster_m == 1) p.group_m = 1;
    p.va.read_once = plan.read_once;
    if (plan.splits > 1) {
        const int64_t tiles =
            split_k_cta_tiles(p.M, p.N, p.batch, p.block_m, plan.bn, p.cluster_m);
        p.split = split_workspace(p, tiles, plan.splits, p.block_m, plan.bn);
    }
    return run_sm90_in(p, plan.bn);
}

}  // namespace

cudaError_t run_sm90_any(Problem p, const Params& prm) {
    const int bn = block_n_override(prm.block_n), splits = split_k_override(prm.split_k);
    // Split 128 x 256 tiles run unpaired: paired, they were slower than split 128 x 128 tiles on
    // every shape measured (bench/NOTES.md, v10 run 3).
    const int64_t pair_tiles = split_k_cta_tiles(p.M, p.N, p.batch, prm.block_m, bn, 2) / 2;
    p.cluster_m = splits > 1 ? 1 : sm90_cluster_m(bn, prm.cluster_m, pair_tiles, prm.sms);
    const int64_t tiles = split_k_cta_tiles(p.M, p.N, p.batch, prm.block_m, bn, p.cluster_m);
    if (splits > 1) {
        p.split = split_workspace(p, tiles, splits, prm.block_m, bn);
        return run_sm90_in(p, bn);
    }
    const int64_t k_blocks = k_blocks_of(p.K, is8(p.a_type) ? 1 : 2);
    const TailSplit tail = prm.tail_split && tail_split_enabled()
                               ? tail_split_plan(tiles / p.cluster_m, int(k_blocks),
                                                 prm.sms / p.cluster_m)
                               : TailSplit{};
    const SplitK tail_split =
        tail.tiles ? split_workspace(p, int64_t(tail.tiles) * p.cluster_m, tail.splits,
                                     prm.block_m, bn)
                   : SplitK{};
    if (tail_split.splits == 1) return run_sm90_in(p, bn);
    // The whole tiles, then the last ones split (tail_split.h), unpaired: the split kernel has
    // no register left for a cluster's rank (paired, it spilled). Pair (m, n) of the first
    // launch's order is its CTA tiles (2m, n), (2m + 1, n), consecutive in the order of an
    // unpaired launch whose rasterization groups are twice as many rows, as launch_planes makes
    // them, and whose rows are rounded up to even as the pairs' are (TileRange::pair_rows).
    p.range = whole_tiles(tail);
    if (const cudaError_t e = run_sm90_in(p, bn); e != cudaSuccess) return e;
    p.range = split_tiles(tail, p.cluster_m);
    p.cluster_m = 1;
    p.split = tail_split;
    return run_sm90_in(p, bn);
}
}  // namespace detail

Status gemmEx(Op ta, Op tb, int M, int N, int K, float alpha, const void* A, int64_t lda,
              const void* B, int64_t ldb, float beta, void* C, int64_t ldc, const Options& o) {
    if (M < 0 || N < 0 || K < 0 || o.batch < 1) return Status::InvalidValue;
    if (!C || (K > 0 && (!A || !B))) return Status::InvalidValue;
    if (lda < max1(ta == Op::N ? K : M) || ldb < max1(tb == Op::N ? N : K) || ldc < max1(N))
        return Status::BadLeadingDimension;
    const bool same_in = o.a_type == o.b_type || (is8(o.a_type) && is8(o.b_type));
    if (!same_in || is8(o.c_type)) return Status::UnsupportedDataType;
    const bool bias_type_ok = is16(o.bias_type) || o.bias_type == DataType::F32;
    if (o.bias && o.bias_mode != BiasMode::None && !bias_type_ok)
        return Status::UnsupportedDataType;
    if (o.a_type != o.b_type) return Status::UnsupportedDataType;  // fp8 mixes: not yet
    if (M == 0 || N == 0) return Status::Success;

    detail::Problem p{ta, tb, M, N, K, o.batch, alpha, beta, A, lda, o.stride_a, B, ldb,
                      o.stride_b, C, ldc, o.stride_c, o.bias, o.bias_type, o.bias_mode,
                      o.stride_bias, o.activation, o.a_type, o.c_type,
                      static_cast<cudaStream_t>(o.stream)};

    p.op_a = o.op_a, p.op_b = o.op_b, p.op_c = o.op_c;
    p.row_sum = o.row_sum, p.col_sum = o.col_sum;
    p.workspace = o.workspace, p.workspace_bytes = o.workspace_bytes;
    // transforms or reductions: the chain kernel (or the generic one)
    const bool transforms = !o.op_a.identity() || !o.op_b.identity() || !o.op_c.identity() ||
                            o.row_sum || o.col_sum;
    // Row-major storage: op(A) = A is K-major (M x K), op(A) = A^T is MN-major (stored K x M);
    // op(B) = B^T is K-major (N x K), op(B) = B is MN-major (stored K x N).
    p.va = OperandView::matrix(A, M, K, lda, ta == Op::T, o.batch > 1 ? o.stride_a : 0);
    p.vb = OperandView::matrix(B, N, K, ldb, tb == Op::N, o.batch > 1 ? o.stride_b : 0);
    p.vd = OutView::matrix(ldc, o.batch > 1 ? o.stride_c : 0);
    // 8-bit operands go to wgmma only K-major (PTX: no transpose for e4m3/e5m2); other layouts
    // of them run on the generic kernel.
    const bool wgmma_type = (is16(o.a_type) || (is8(o.a_type) && ta == Op::N && tb == Op::T)) &&
                            (!transforms || detail::chain_sm90_ok(p));
    const int eb = is8(o.a_type) ? 1 : 2;
    const bool tma_rules = wgmma_type && K > 0 &&
                           detail::tma_ok(A, lda, o.stride_a, o.batch, eb) &&
                           detail::tma_ok(B, ldb, o.stride_b, o.batch, eb);
    if (o.path == Path::Sm90Tma && !tma_rules) return Status::PathUnavailable;
    Path path = (o.path == Path::Generic || !tma_rules) ? Path::Generic : Path::Sm90Tma;
    if (path == Path::Sm90Tma) {
        const int sms = detail::device_sms();
        cudaError_t e;
        if (!transforms && detail::few_rows_path(p, sms)) {
            e = detail::run_few_rows(p, sms);
        } else if (const detail::ShortRows short_rows =
                       transforms ? detail::ShortRows{} : detail::short_rows_plan(p, sms);
                   short_rows.bn) {
            e = detail::run_short_rows(p, short_rows);
        } else {
            const Params prm = default_params(M, N, K, o.batch, eb, sms, p.vb.one_box());
            e = !transforms                   ? detail::run_sm90_any(p, prm)
                : o.a_type == DataType::BF16 ? detail::run_chain_sm90<__nv_bfloat16>(p)
                                             : detail::run_chain_sm90<__half>(p);
        }
        if (e == cudaErrorInvalidValue && o.path != Path::Sm90Tma) {
            path = Path::Generic;  // tensor map encoding refused: fall back
        } else {
            if (o.path_taken) *o.path_taken = path;
            return e == cudaSuccess ? Status::Success : Status::CudaError;
        }
    }
    cudaError_t e = detail::run_generic(p);
    if (o.path_taken) *o.path_taken = Path::Generic;
    return e == cudaSuccess ? Status::Success : Status::CudaError;
}

}  // namespace kiln::gemm

// C entry points for Python (ctypes) and other languages; return the Status as int.
// kiln_gemm_ex_ops: `ops` = 9 floats (scale, shift, relu != 0) for A, B, C, or null;
// row_sum / col_sum, workspace / workspace_bytes as Options (null: none).
extern "C" int kiln_gemm_ex_ops(int ta, int tb, int M, int N, int K, float alpha, const void* A,
                                int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                                int64_t ldc, int a_type, int c_type, int act, const void* bias,
                                int bias_type, int bias_mode, int batch, int64_t sa, int64_t sb,
                                int64_t sc, int64_t sbias, void* stream, int path,
                                int* path_taken, const float* ops, float* row_sum,
                                float* col_sum, void* workspace, int64_t workspace_bytes) {
    using namespace kiln::gemm;
    Options o;
    o.row_sum = row_sum, o.col_sum = col_sum;
    o.workspace = workspace, o.workspace_bytes = workspace_bytes;
    if (ops) {
        ElementOp* each[3] = {&o.op_a, &o.op_b, &o.op_c};
        for (int i = 0; i < 3; ++i) *each[i] = {ops[3 * i], ops[3 * i + 1], ops[3 * i + 2] != 0.f};
    }
    o.a_type = o.b_type = static_cast<DataType>(a_type);
    o.c_type = static_cast<DataType>(c_type);
    o.activation = static_cast<Activation>(act);
    o.bias = bias;
    o.bias_type = static_cast<DataType>(bias_type);
    o.bias_mode = static_cast<BiasMode>(bias_mode);
    o.batch = batch;
    o.stride_a = sa, o.stride_b = sb, o.stride_c = sc, o.stride_bias = sbias;
    o.stream = stream;
    o.path = static_cast<Path>(path);
    Path taken = Path::Auto;
    o.path_taken = &taken;
    Status s = gemmEx(static_cast<Op>(ta), static_cast<Op>(tb), M, N, K, alpha, A, lda, B, ldb,
                      beta, C, ldc, o);
    if (path_taken) *path_taken = static_cast<int>(taken);
    return static_cast<int>(s);
}

extern "C" int kiln_gemm_ex(int ta, int tb, int M, int N, int K, float alpha, const void* A,
                            int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                            int64_t ldc, int a_type, int c_type, int act, const void* bias,
                            int bias_type, int bias_mode, int batch, int64_t sa, int64_t sb,
                            int64_t sc, int64_t sbias, void* stream, int path, int* path_taken) {
    return kiln_gemm_ex_ops(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, a_type, c_type,
                            act, bias, bias_type, bias_mode, batch, sa, sb, sc, sbias, stream,
                            path, path_taken, nullptr, nullptr, nullptr, nullptr, 0);
}
