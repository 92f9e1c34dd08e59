// Internal: instantiates the sm90 kernel for one input type and every output type / tile width.
#pragma once
#include "dispatch.h"
#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/launch_sm90.cuh"

namespace kiln::gemm::detail {

inline BiasType to_bias_type(DataType t) {
    return t == DataType::BF16 ? BiasType::BF16 : t == DataType::F16 ? BiasType::F16 : BiasType::F32;
}

template <class In, class Out, int BN>
cudaError_t run_sm90_typed(const Problem& p) {
    using Cfg = sm90::Config<In, Out, BN, BN == 256 ? 4 : 6>;
    EpilogueLinear<Out> epi;
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
    return sm90::launch<Cfg>(static_cast<const In*>(p.a), p.lda, p.sa, static_cast<const In*>(p.b),
                             p.ldb, p.sb, static_cast<Out*>(p.c), p.ldc, p.sc, p.M, p.N, p.K,
                             p.batch, epi, p.stream);
}

template <class In>
cudaError_t run_sm90_in(const Problem& p, int bn) {
    switch (p.c_type) {
    case DataType::BF16:
        return bn == 256 ? run_sm90_typed<In, __nv_bfloat16, 256>(p)
                         : run_sm90_typed<In, __nv_bfloat16, 128>(p);
    case DataType::F16:
        return bn == 256 ? run_sm90_typed<In, __half, 256>(p) : run_sm90_typed<In, __half, 128>(p);
    case DataType::F32:
        return bn == 256 ? run_sm90_typed<In, float, 256>(p) : run_sm90_typed<In, float, 128>(p);
    default: return cudaErrorInvalidValue;
    }
}

}  // namespace kiln::gemm::detail
