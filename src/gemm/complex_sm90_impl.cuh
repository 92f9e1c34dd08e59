// Internal: instantiates the split-complex sm90 kernel (Config Planes = 2) for one input type.
#pragma once
#include "dispatch.h"
#include "kiln/gemm/complex_out.cuh"
#include "kiln/gemm/launch_sm90.cuh"

namespace kiln::gemm::detail {

template <class In, class Out, bool MnA, bool MnB, int ClusterM>
cudaError_t run_complex_sm90_cfg(const Problem& p) {
    // 128x128 tiles: two 64x128 fp32 accumulators per consumer warpgroup (128 registers, the
    // real kernel's 64x256 budget); a stage is four 16 KiB planes, so 3 stages fill 192 KiB.
    // ClusterM = 2 shares B between two CTAs by multicast, as the real kernel's wide tiles do.
    using Cfg = sm90::Config<In, Out, 128, 3, ClusterM, MnA, MnB, 2>;
    ComplexOut<Out> out;
    out.re = static_cast<Out*>(p.c);
    out.im = static_cast<Out*>(p.c_im);
    out.ld = p.ldc;
    out.batch_stride = p.batch > 1 ? p.sc : 0;
    out.wide = ComplexOut<Out>::wide_stores_ok(out.re, out.im, out.ld, out.batch_stride);
    const OperandView va[2] = {p.va, p.va_im}, vb[2] = {p.vb, p.vb_im};
    return sm90::launch_planes<Cfg>(va, vb, static_cast<Out*>(nullptr), OutView{}, p.M, p.N, p.K,
                                    p.batch, out, p.stream);
}

template <class In, class Out, bool MnA, bool MnB> cudaError_t run_complex_sm90(const Problem& p) {
    // No cluster by default: measured 2.5% faster at 4096^3 and equal at 8192^3 than 2-CTA
    // clusters (bench/NOTES.md, v8). KILN_GEMM_COMPLEX_CLUSTER=1|2 picks the cluster size (A/B
    // experiments only; read on every call so that one benchmark process can time both).
    const char* e = std::getenv("KILN_GEMM_COMPLEX_CLUSTER");
    return e && std::atoi(e) == 2 ? run_complex_sm90_cfg<In, Out, MnA, MnB, 2>(p)
                                  : run_complex_sm90_cfg<In, Out, MnA, MnB, 1>(p);
}

} // namespace kiln::gemm::detail

// One translation unit per input type; KILN_SM90_MAJOR = 0..3 restricts it to one operand
// order (as sm90_impl.cuh), every output type.
#define KILN_COMPLEX_SM90_INSTANTIATE_ONE(IN, MA, MB)                                              \
    template cudaError_t kiln::gemm::detail::run_complex_sm90<IN, float, MA, MB>(const Problem&);  \
    template cudaError_t kiln::gemm::detail::run_complex_sm90<IN, __nv_bfloat16, MA, MB>(          \
        const Problem&);                                                                           \
    template cudaError_t kiln::gemm::detail::run_complex_sm90<IN, __half, MA, MB>(const Problem&);
#if defined(KILN_SM90_MAJOR)
#define KILN_COMPLEX_SM90_INSTANTIATE(IN)                                                          \
    KILN_COMPLEX_SM90_INSTANTIATE_ONE(IN, bool(KILN_SM90_MAJOR & 2), bool(KILN_SM90_MAJOR & 1))
#else
#define KILN_COMPLEX_SM90_INSTANTIATE(IN)                                                          \
    KILN_COMPLEX_SM90_INSTANTIATE_ONE(IN, false, false)                                            \
    KILN_COMPLEX_SM90_INSTANTIATE_ONE(IN, false, true)                                             \
    KILN_COMPLEX_SM90_INSTANTIATE_ONE(IN, true, false)                                             \
    KILN_COMPLEX_SM90_INSTANTIATE_ONE(IN, true, true)
#endif
