// Internal: typed entry points that gemm.cu dispatches to (one translation unit per input type,
// so the heavy wgmma instantiations build in parallel).
#pragma once
#include <cuda_runtime.h>
#include "kiln/gemm.h"

namespace kiln::gemm::detail {

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
};

/// Returns cudaErrorInvalidValue when TMA's rules do not hold (caller falls back). Defined in
/// sm90_<in>_<out>.cu for In in {bf16, f16}, Out in {bf16, f16, f32}.
template <class In, class Out>
cudaError_t run_sm90(const Problem& p, int bn);
cudaError_t run_generic(const Problem& p);

}  // namespace kiln::gemm::detail
