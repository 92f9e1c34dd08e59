// copy-elim keeps every example's meaning: lowered by depend + vectorize + copy-elim, each
// example computes exactly what the program interpreter computes (small-integer inputs, so every
// sum is exact) under many adversarial schedules of the event-IR simulator, with no race. Where
// copy elimination removed every memory-NONE tensor (GEMM and its variants), the simulator is
// told to reject any touch of one, so a NONE tensor left in use would fail the run as well.
// gemm_rowsum's lanes add straight into the global rows after reduction folding: the simulator's
// atomic `copy add`s make that exact with integer inputs, and no NONE buffer may be touched.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <string>

namespace kiln::interp {
namespace {

struct ElimCase {
    std::string name;
    Sizes sizes;    // small, with ragged edges where the tiles allow
    uint64_t seeds; // schedules (and inputs) tried
    bool none_gone; // copy-elim removes every NONE tensor of this example
};

class CopyElimSim : public testing::TestWithParam<ElimCase> {};

TEST_P(CopyElimSim, MatchesTheInterpreter) {
    const ElimCase& c = GetParam();
    EXPECT_EQ(lowered_mismatch("examples/" + c.name + ".kiln", c.sizes, "copy-elim", c.seeds,
                               c.none_gone),
              "");
}

std::string case_name(const testing::TestParamInfo<ElimCase>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Examples, CopyElimSim,
    testing::Values(ElimCase{"gemm", {{"M", 129}, {"N", 257}, {"K", 65}}, 50, true},
                    ElimCase{"batched_gemm", {{"Z", 2}, {"M", 64}, {"N", 64}, {"K", 64}}, 10, true},
                    ElimCase{"dual_gemm", {{"M", 130}, {"N", 129}, {"K", 65}}, 10, true},
                    ElimCase{"gemm_rowsum", {{"M", 130}, {"N", 257}, {"K", 65}}, 10, true},
                    ElimCase{"attention_d64", {{"Z", 1}, {"N", 200}}, 5, false},
                    ElimCase{"attention_d64_causal", {{"Z", 1}, {"N", 200}}, 5, false},
                    ElimCase{"attention_d128", {{"Z", 1}, {"N", 17}}, 5, false},
                    ElimCase{"attention_d128_causal", {{"Z", 1}, {"N", 17}}, 5, false}),
    case_name);

} // namespace
} // namespace kiln::interp
