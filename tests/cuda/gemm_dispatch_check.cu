// Compile-time checks of gemmEx's epilogue choice on the sm90 kernel (src/gemm/sm90_impl.cuh's
// epilogue_kind; tests/cuda/compile_check.sh builds this file, a failing row is a compile error).
// The rule that matters most: a call with C (beta != 0) or a row bias never reaches
// EpilogueBiasAct, which reads neither.
#include "../../src/gemm/sm90_impl.cuh"

namespace {

using kiln::gemm::Activation;
using kiln::gemm::BiasMode;
using kiln::gemm::detail::epilogue_kind;
using Kind = kiln::gemm::detail::EpilogueKind;

struct Row {
    float alpha, beta;
    bool bias;
    BiasMode mode;
    Activation act;
    Kind want;
};

constexpr Row kRows[] = {
    // the plain product
    {1.f, 0.f, false, BiasMode::None, Activation::None, Kind::Copy},
    // a bias pointer with mode None adds nothing
    {1.f, 0.f, true, BiasMode::None, Activation::None, Kind::Copy},
    // cuBLASLt's fused epilogues: column bias and / or activation, any alpha
    {1.f, 0.f, true, BiasMode::Col, Activation::GELU, Kind::BiasAct},
    {1.f, 0.f, false, BiasMode::None, Activation::ReLU, Kind::BiasAct},
    {0.5f, 0.f, false, BiasMode::None, Activation::None, Kind::BiasAct},
    {2.f, 0.f, true, BiasMode::Col, Activation::SiLU, Kind::BiasAct},
    // C or a row bias: the general epilogue
    {1.f, 1.f, false, BiasMode::None, Activation::None, Kind::Linear},
    {1.f, 0.5f, true, BiasMode::Col, Activation::ReLU, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Row, Activation::None, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Row, Activation::GELU, Kind::Linear},
};

constexpr bool every_row_holds() {
    for (const Row& r : kRows)
        if (epilogue_kind(r.alpha, r.beta, r.bias, r.mode, r.act) != r.want) return false;
    return true;
}
static_assert(every_row_holds(), "epilogue_kind disagrees with a row of the table");

}  // namespace
