// Generic (FPU) path of gemmEx: any dtype, transposition, alignment and leading dimension.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include "dispatch.h"
#include "kiln/gemm/kernel_generic.cuh"
#include "kiln/gemm/reduce.cuh"

namespace kiln::gemm::detail {
namespace {

inline BiasType to_bias_type(DataType t) {
    return t == DataType::BF16  ? BiasType::BF16
           : t == DataType::F16 ? BiasType::F16
                                : BiasType::F32;
}

inline transform::Affine affine(const ElementOp& op) {
    return transform::Affine::make(op.scale, op.shift, op.relu);
}

/// A Strided operand whose elements pass through `f` as they are loaded. Out of bounds stays 0:
/// the kernel's zero fill past K must not turn into f(0) (which would add f(0) * g(0) per
/// padded k to every output).
template <class T>
struct TransformedStrided {
    using value_type = float;
    layout::Strided<T> in;
    transform::Affine f;
    __device__ __forceinline__ float load(int b, int r, int c) const {
        return r < in.rows && c < in.cols ? f(in.load(b, r, c)) : 0.f;
    }
};

template <class In, class Out>
cudaError_t run(const Problem& p) {
    // Row-major storage: op(A)(m, k) lives at A[m*lda + k] (N) or A[k*lda + m] (T).
    TransformedStrided<In> la{{static_cast<const In*>(p.a), p.M, p.K, p.ta == Op::N ? p.lda : 1,
                                p.ta == Op::N ? 1 : p.lda, p.sa},
                               affine(p.op_a)};
    TransformedStrided<In> lb{{static_cast<const In*>(p.b), p.K, p.N, p.tb == Op::N ? p.ldb : 1,
                                p.tb == Op::N ? 1 : p.ldb, p.sb},
                               affine(p.op_b)};
    EpilogueLinear<Out, Activation::None, true, transform::Affine> epi;
    epi.c_op = affine(p.op_c);
    epi.alpha = p.alpha;
    epi.beta = p.beta;
    epi.c = static_cast<const Out*>(p.c);
    epi.ldc = p.ldc;
    epi.batch_stride_c = p.sc;
    epi.bias = p.bias;
    epi.bias_type = to_bias_type(p.bias_type);
    epi.bias_mode = p.bias ? p.bias_mode : BiasMode::None;
    epi.batch_stride_bias = p.sbias;
    epi.act = p.act;
    const WithReductions<decltype(epi)> epi_sums{epi, {p.row_sum, p.col_sum, p.M, p.N}};
    generic::StridedOut<Out> out{static_cast<Out*>(p.c), p.ldc, 1, p.sc};
    generic::gemm_kernel<<<generic::grid(p.M, p.N, p.batch), generic::Threads, 0, p.stream>>>(
        la, lb, transform::Identity{}, transform::Identity{}, generic::FpuOp{},
        predicate::Always{}, epi_sums, out, p.M, p.N, p.K);
    return cudaGetLastError();
}

template <class In>
cudaError_t run_in(const Problem& p) {
    switch (p.c_type) {
    case DataType::BF16: return run<In, __nv_bfloat16>(p);
    case DataType::F16: return run<In, __half>(p);
    case DataType::F32: return run<In, float>(p);
    default: return cudaErrorInvalidValue;
    }
}

}  // namespace

cudaError_t run_generic(const Problem& p) {
    switch (p.a_type) {
    case DataType::BF16: return run_in<__nv_bfloat16>(p);
    case DataType::F16: return run_in<__half>(p);
    case DataType::F32: return run_in<float>(p);
    case DataType::F8E4M3: return run_in<__nv_fp8_e4m3>(p);
    case DataType::F8E5M2: return run_in<__nv_fp8_e5m2>(p);
    }
    return cudaErrorInvalidValue;
}

}  // namespace kiln::gemm::detail
