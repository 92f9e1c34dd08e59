// Compile-time checks of gemmEx's epilogue choice on the sm90 kernel (src/gemm/sm90_impl.cuh's
// epilogue_kind; tests/cuda/compile_check.sh builds this file, a failing row is a compile error).
// The rule that matters most: a call with C (beta != 0) or a row bias never reaches
// EpilogueBiasAct, which reads neither, and neither does a column bias that cannot start the
// accumulator (acc_bias.cuh: misaligned for TMA, or |alpha| < 1, where bias / alpha could
// overflow), nor a GELU whose alpha its folded constants cannot hold (epilogue.cuh).
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
    bool split;
    bool bias_fits;  // bias_in_accumulator
    Kind want;
};

constexpr Row kRows[] = {
    // the plain product, split or not
    {1.f, 0.f, false, BiasMode::None, Activation::None, false, false, Kind::Copy},
    {1.f, 0.f, false, BiasMode::None, Activation::None, true, false, Kind::Copy},
    // a bias pointer with mode None adds nothing
    {1.f, 0.f, true, BiasMode::None, Activation::None, false, false, Kind::Copy},
    // cuBLASLt's fused epilogues: column bias and / or activation, any alpha
    {1.f, 0.f, true, BiasMode::Col, Activation::GELU, false, true, Kind::BiasAct},
    {1.f, 0.f, false, BiasMode::None, Activation::ReLU, false, false, Kind::BiasAct},
    {0.5f, 0.f, false, BiasMode::None, Activation::None, false, false, Kind::BiasAct},
    {0.f, 0.f, false, BiasMode::None, Activation::ReLU, false, false, Kind::BiasAct},
    {2.f, 0.f, true, BiasMode::Col, Activation::SiLU, false, true, Kind::BiasAct},
    // a row-mode pointer that is null adds nothing either
    {1.f, 0.f, false, BiasMode::Row, Activation::ReLU, false, false, Kind::BiasAct},
    // C, a row bias, a split tile, or a column bias that cannot start the accumulator: the
    // general epilogue
    {1.f, 1.f, false, BiasMode::None, Activation::None, false, false, Kind::Linear},
    {1.f, 0.5f, true, BiasMode::Col, Activation::ReLU, false, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Row, Activation::None, false, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Row, Activation::GELU, false, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Col, Activation::ReLU, true, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Col, Activation::ReLU, false, false, Kind::Linear},
    {0.f, 0.f, true, BiasMode::Col, Activation::GELU, false, false, Kind::Linear},
    {0.5f, 0.f, true, BiasMode::Col, Activation::ReLU, false, false, Kind::Linear},
    // GELU folds alpha into its constants (GeluScaled) within 2^-40 <= |alpha| <= 2^40 or 0;
    // past that the general epilogue (ReLU takes any alpha; a NaN alpha, which no constant
    // expression can compare, fails both of gelu_folds_alpha's tests at run time)
    {0x1p40f, 0.f, true, BiasMode::Col, Activation::GELU, false, true, Kind::BiasAct},
    {-0x1p-40f, 0.f, false, BiasMode::None, Activation::GELU, false, false, Kind::BiasAct},
    {0.f, 0.f, false, BiasMode::None, Activation::GELU, false, false, Kind::BiasAct},
    {0x1p41f, 0.f, true, BiasMode::Col, Activation::GELU, false, true, Kind::Linear},
    {0x1p-41f, 0.f, false, BiasMode::None, Activation::GELU, false, false, Kind::Linear},
    {0x1p41f, 0.f, true, BiasMode::Col, Activation::ReLU, false, true, Kind::BiasAct},
};

constexpr bool every_row_holds() {
    for (const Row& r : kRows)
        if (epilogue_kind(r.alpha, r.beta, r.bias, r.mode, r.act, r.split, r.bias_fits) != r.want)
            return false;
    return true;
}
static_assert(every_row_holds(), "epilogue_kind disagrees with a row of the table");

}  // namespace
