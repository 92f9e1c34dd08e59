// Internal: instantiates the sm90 kernel for one input type and every output type / tile width.
#pragma once
#include "dispatch.h"
#include "kiln/gemm/epilogue.cuh"
#include "kiln/gemm/launch_sm90.cuh"

namespace kiln::gemm::detail {

inline BiasType to_bias_type(DataType t) {
    return t == DataType::BF16 ? BiasType::BF16 : t == DataType::F16 ? BiasType::F16 : BiasType::F32;
}

template <class In, class Out, int BN, Activation Act>
cudaError_t run_sm90_typed(const Problem& p) {
    using Cfg = sm90::Config<In, Out, BN, BN == 256 ? 4 : 6, BN == 256 ? 2 : 1>;
    EpilogueLinear<Out, Act> epi;
    epi.alpha = p.alpha;
    epi.beta = p.beta;
    epi.c = static_cast<const Out*>(p.c);
    epi.ldc = p.ldc;
    epi.batch_stride_c = p.sc;
    epi.bias = p.bias;
    epi.bias_type = to_bias_type(p.bias_type);
    epi.bias_mode = p.bias ? p.bias_mode : BiasMode::None;
    epi.batch_stride_bias = p.sbias;
    return sm90::launch<Cfg>(static_cast<const In*>(p.a), p.lda, p.sa, static_cast<const In*>(p.b),
                             p.ldb, p.sb, static_cast<Out*>(p.c), p.ldc, p.sc, p.M, p.N, p.K,
                             p.batch, epi, p.stream);
}

template <class In, class Out, int BN>
cudaError_t run_sm90_act(const Problem& p) {
    switch (p.act) {
    case Activation::ReLU: return run_sm90_typed<In, Out, BN, Activation::ReLU>(p);
    case Activation::GELU: return run_sm90_typed<In, Out, BN, Activation::GELU>(p);
    case Activation::SiLU: return run_sm90_typed<In, Out, BN, Activation::SiLU>(p);
    default: return run_sm90_typed<In, Out, BN, Activation::None>(p);
    }
}

template <class In, class Out>
cudaError_t run_sm90(const Problem& p, int bn) {
    return bn == 256 ? run_sm90_act<In, Out, 256>(p) : run_sm90_act<In, Out, 128>(p);
}

}  // namespace kiln::gemm::detail

#define KILN_GEMM_SM90_INSTANTIATE(IN, OUT)                                                     \
    template cudaError_t kiln::gemm::detail::run_sm90<IN, OUT>(const Problem&, int);
