// kiln::gemm::cgemm_planar: argument checks, path choice and dispatch of the split-complex GEMM
// (tensor cores through the sm90 kernel with two planes; the generic FPU kernel with the
// SplitComplex layout when TMA's rules fail).
#include "dispatch.h"
#include "kiln/gemm.h"
#include "kiln/gemm/complex_out.cuh"
#include "kiln/gemm/kernel_generic.cuh"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace kiln::gemm {
namespace {

using detail::is16;
int64_t max1(int64_t x) {
    return x < 1 ? 1 : x;
}

template <class In, bool MnA, bool MnB> cudaError_t run_sm90_out(const detail::Problem& p) {
    switch (p.c_type) {
    case DataType::F32:
        return detail::run_complex_sm90<In, float, MnA, MnB>(p);
    case DataType::BF16:
        return detail::run_complex_sm90<In, __nv_bfloat16, MnA, MnB>(p);
    default:
        return detail::run_complex_sm90<In, __half, MnA, MnB>(p);
    }
}

template <class In> cudaError_t run_sm90_in(const detail::Problem& p) {
    switch ((p.va.mn_major ? 2 : 0) | (p.vb.mn_major ? 1 : 0)) {
    case 0:
        return run_sm90_out<In, false, false>(p);
    case 1:
        return run_sm90_out<In, false, true>(p);
    case 2:
        return run_sm90_out<In, true, false>(p);
    default:
        return run_sm90_out<In, true, true>(p);
    }
}

/// op(X) as a SplitComplex layout of planes stored as `op` says (row-major: op(X)(r, c) lives at
/// X[r*ld + c] for Op::N, X[c*ld + r] for Op::T).
template <class In>
layout::SplitComplex<In> planes_of(const void* re, const void* im, int rows, int cols, Op op,
                                   int64_t ld, int64_t batch_stride) {
    const bool n = op == Op::N;
    return {static_cast<const In*>(re),
            static_cast<const In*>(im),
            rows,
            cols,
            n ? ld : 1,
            n ? 1 : ld,
            batch_stride};
}

/// Generic FPU fallback: SplitComplex layouts, Complex<float> multiply-add, ComplexOut store.
template <class In, class Out> cudaError_t run_generic_typed(const detail::Problem& p) {
    const auto la = planes_of<In>(p.a, p.va_im.ptr, p.M, p.K, p.ta, p.lda, p.sa);
    const auto lb = planes_of<In>(p.b, p.vb_im.ptr, p.K, p.N, p.tb, p.ldb, p.sb);
    ComplexOut<Out> out;
    out.re = static_cast<Out*>(p.c);
    out.im = static_cast<Out*>(p.c_im);
    out.ld = p.ldc;
    out.batch_stride = p.sc;
    generic::gemm_kernel<<<generic::grid(p.M, p.N, p.batch), generic::Threads, 0, p.stream>>>(
        la, lb, transform::Identity{}, transform::Identity{}, generic::FpuOp{}, predicate::Always{},
        EpilogueCopy{}, out, p.M, p.N, p.K);
    return cudaGetLastError();
}

template <class In> cudaError_t run_generic_in(const detail::Problem& p) {
    switch (p.c_type) {
    case DataType::F32:
        return run_generic_typed<In, float>(p);
    case DataType::BF16:
        return run_generic_typed<In, __nv_bfloat16>(p);
    default:
        return run_generic_typed<In, __half>(p);
    }
}

} // namespace

Status cgemm_planar(Op ta, Op tb, int M, int N, int K, ComplexPlanes A, int64_t lda,
                    ComplexPlanes B, int64_t ldb, ComplexOutput C, int64_t ldc, const Options& o) {
    if (M < 0 || N < 0 || K < 0 || o.batch < 1)
        return Status::InvalidValue;
    if (!C.re || (K > 0 && (!A.re || !A.im || !B.re || !B.im)))
        return Status::InvalidValue;
    if (lda < max1(ta == Op::N ? K : M) || ldb < max1(tb == Op::N ? N : K) || ldc < max1(N))
        return Status::BadLeadingDimension;
    const bool out_ok =
        o.c_type == DataType::F32 || o.c_type == DataType::BF16 || o.c_type == DataType::F16;
    if (o.a_type != o.b_type || !is16(o.a_type) || !out_ok)
        return Status::UnsupportedDataType;
    if (M == 0 || N == 0)
        return Status::Success;

    detail::Problem p{};
    p.ta = ta, p.tb = tb;
    p.M = M, p.N = N, p.K = K, p.batch = o.batch;
    p.a = A.re, p.lda = lda, p.sa = o.batch > 1 ? o.stride_a : 0;
    p.b = B.re, p.ldb = ldb, p.sb = o.batch > 1 ? o.stride_b : 0;
    p.c = C.re, p.c_im = C.im, p.ldc = ldc, p.sc = o.batch > 1 ? o.stride_c : 0;
    p.a_type = o.a_type, p.c_type = o.c_type;
    p.stream = static_cast<cudaStream_t>(o.stream);
    // Row-major storage, as gemmEx: op(A) = A is K-major, A^T MN-major; op(B) = B^T K-major,
    // B MN-major.
    p.va = OperandView::matrix(A.re, M, K, lda, ta == Op::T, p.sa);
    p.va_im = OperandView::matrix(A.im, M, K, lda, ta == Op::T, p.sa);
    p.vb = OperandView::matrix(B.re, N, K, ldb, tb == Op::N, p.sb);
    p.vb_im = OperandView::matrix(B.im, N, K, ldb, tb == Op::N, p.sb);

    bool tma_rules = K > 0;
    for (const void* plane : {A.re, A.im})
        tma_rules = tma_rules && detail::tma_ok(plane, lda, o.stride_a, o.batch, 2);
    for (const void* plane : {B.re, B.im})
        tma_rules = tma_rules && detail::tma_ok(plane, ldb, o.stride_b, o.batch, 2);
    if (o.path == Path::Sm90Tma && !tma_rules)
        return Status::PathUnavailable;
    if (o.path != Path::Generic && tma_rules) {
        const cudaError_t e =
            o.a_type == DataType::BF16 ? run_sm90_in<__nv_bfloat16>(p) : run_sm90_in<__half>(p);
        if (e != cudaErrorInvalidValue || o.path == Path::Sm90Tma) {
            if (o.path_taken)
                *o.path_taken = Path::Sm90Tma;
            return e == cudaSuccess ? Status::Success : Status::CudaError;
        }
        // tensor map encoding refused: fall back
    }
    const cudaError_t e =
        o.a_type == DataType::BF16 ? run_generic_in<__nv_bfloat16>(p) : run_generic_in<__half>(p);
    if (o.path_taken)
        *o.path_taken = Path::Generic;
    return e == cudaSuccess ? Status::Success : Status::CudaError;
}

} // namespace kiln::gemm

// C entry point (ctypes); returns the Status as int. c_im == nullptr: interleaved output.
extern "C" int kiln_cgemm_planar(int ta, int tb, int M, int N, int K, const void* a_re,
                                 const void* a_im, int64_t lda, const void* b_re, const void* b_im,
                                 int64_t ldb, void* c_re, void* c_im, int64_t ldc, int in_type,
                                 int c_type, int batch, int64_t sa, int64_t sb, int64_t sc,
                                 void* stream, int path, int* path_taken) {
    using namespace kiln::gemm;
    Options o;
    o.a_type = o.b_type = static_cast<DataType>(in_type);
    o.c_type = static_cast<DataType>(c_type);
    o.batch = batch;
    o.stride_a = sa, o.stride_b = sb, o.stride_c = sc;
    o.stream = stream;
    o.path = static_cast<Path>(path);
    Path taken = Path::Auto;
    o.path_taken = &taken;
    const Status s =
        cgemm_planar(static_cast<Op>(ta), static_cast<Op>(tb), M, N, K, ComplexPlanes{a_re, a_im},
                     lda, ComplexPlanes{b_re, b_im}, ldb, ComplexOutput{c_re, c_im}, ldc, o);
    if (path_taken)
        *path_taken = static_cast<int>(taken);
    return static_cast<int>(s);
}
