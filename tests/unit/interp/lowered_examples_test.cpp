// The strongest check of the first compiler passes: every example (and every golden program of
// the dependence analysis), lowered to event IR by depend (and then vectorize), computes what the
// program interpreter computes, under 20 adversarial schedules of the event-IR simulator, each on
// its own seeded inputs. Small-integer inputs make every sum exact and the copies change no
// value, so the results must be equal element for element; the simulator must report no race.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace kiln::interp {
namespace {

constexpr uint64_t kSeeds = 20;

struct LoweredCase {
    std::string name;
    std::string file; // from the source root
    Sizes sizes;      // small, with ragged edges where the tiles allow
};

void PrintTo(const LoweredCase& c, std::ostream* os) {
    *os << c.file;
}

LoweredCase example(const std::string& name, Sizes sizes) {
    return {name, "examples/" + name + ".kiln", std::move(sizes)};
}

// A golden program of the dependence analysis (one behaviour each), at its own sizes.
LoweredCase depend_case(const std::string& name) {
    return {name, "tests/golden/depend/" + name + ".kiln", {}};
}

class Lowered : public testing::TestWithParam<LoweredCase> {
protected:
    void check(bool vectorized) {
        const LoweredCase& c = GetParam();
        EXPECT_EQ(lowered_mismatch(c.file, c.sizes, vectorized ? "vectorize" : "depend", kSeeds,
                                   /*reject_none=*/false),
                  "");
    }
};

TEST_P(Lowered, DependMatchesTheInterpreter) {
    check(false);
}
TEST_P(Lowered, DependThenVectorizeMatchesTheInterpreter) {
    check(true);
}

std::string case_name(const testing::TestParamInfo<LoweredCase>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Examples, Lowered,
                         testing::Values(example("gemm", {{"M", 129}, {"N", 257}, {"K", 65}}),
                                         example("batched_gemm",
                                                 {{"Z", 2}, {"M", 64}, {"N", 64}, {"K", 64}}),
                                         example("dual_gemm", {{"M", 130}, {"N", 129}, {"K", 65}}),
                                         example("attention_d64", {{"Z", 1}, {"N", 200}}),
                                         example("attention_d64_causal", {{"Z", 1}, {"N", 200}}),
                                         example("attention_d128", {{"Z", 1}, {"N", 17}}),
                                         example("attention_d128_causal", {{"Z", 1}, {"N", 17}})),
                         case_name);

INSTANTIATE_TEST_SUITE_P(
    Golden, Lowered,
    testing::Values(depend_case("anti_dependence"), depend_case("external_and_mask"),
                    depend_case("independent_reads"), depend_case("leaf_scalars_and_locals"),
                    depend_case("prange_broadcast"), depend_case("srange_padded"),
                    depend_case("true_dependence")),
    case_name);

// Reduce arguments (gemm_rowsum, reduce_arg): the parallel iterations' `copy add`s into the same
// piece commute (red.global.add on the GPU); the simulator applies them atomically, so these
// must match exactly too.
class LoweredReduce : public Lowered {};
TEST_P(LoweredReduce, DependMatchesTheInterpreter) {
    check(false);
}
INSTANTIATE_TEST_SUITE_P(Examples, LoweredReduce,
                         testing::Values(example("gemm_rowsum",
                                                 {{"M", 130}, {"N", 300}, {"K", 40}}),
                                         // two K chunks of one tile: the chunks' adds commute
                                         example("gemm_splitk",
                                                 {{"M", 70}, {"N", 40}, {"K", 2060}}),
                                         depend_case("reduce_arg")),
                         case_name);

} // namespace
} // namespace kiln::interp
