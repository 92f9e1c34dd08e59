// Issue 4's proof without a GPU: every example, lowered through all passes under its own mapping,
// gives its float64 reference result under 200 adversarial schedules of the event-IR simulator
// (async copies and MMAs complete late, processors interleave randomly, an early read is poison)
// — at a size where the k-loop runs more iterations than the pipeline is deep, and at a ragged
// size (padded edge tiles) under fewer schedules.
#include "compiled_example.h"
#include "interp/schedule_check.h"
#include "passes/instantiate.h"

#include <gtest/gtest.h>

namespace kiln {
namespace {

using testing_support::compile_example;

struct Case {
    std::string example;
    passes::Sizes sizes;
    int schedules = 200;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.example;
}

class CompiledExample : public testing::TestWithParam<Case> {};

TEST_P(CompiledExample, MatchesItsReferenceUnderAdversarialSchedules) {
    const Case& c = GetParam();
    auto ex = compile_example(c.example, c.sizes);
    ASSERT_TRUE(ex);
    interp::ScheduleCheckOptions options;
    options.schedules = c.schedules;
    auto check = interp::check_schedules(ex->lowered, ex->inputs, ex->expected, options);
    ASSERT_TRUE(check.ok()) << check.error_text();
    EXPECT_EQ(check->runs, c.schedules);
    std::string failures;
    for (std::size_t i = 0; i < check->failures.size() && i < 3; ++i)
        failures += "seed " + std::to_string(check->failures[i].seed) + ": " +
                    check->failures[i].reason + "\n";
    EXPECT_TRUE(check->passed()) << check->failures.size() << " of " << check->runs
                                 << " schedules failed:\n"
                                 << failures;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
    std::string n = info.param.example + (info.param.schedules < 200 ? "_ragged" : "");
    return n;
}

// Deep enough loops: K / 64 = 6 k-iterations against a 4-deep pipeline (GEMM family); 3 KV tiles
// for attention.
INSTANTIATE_TEST_SUITE_P(Examples, CompiledExample,
                         testing::Values(Case{"gemm", {{"M", 128}, {"N", 256}, {"K", 384}}},
                                         Case{"gemm", {{"M", 100}, {"N", 300}, {"K", 72}}, 20},
                                         Case{"batched_gemm",
                                              {{"Z", 2}, {"M", 128}, {"N", 256}, {"K", 320}}},
                                         Case{"dual_gemm", {{"M", 128}, {"N", 128}, {"K", 384}}},
                                         Case{"dual_gemm", {{"M", 130}, {"N", 129}, {"K", 65}}, 20},
                                         Case{"gemm_rowsum", {{"M", 128}, {"N", 256}, {"K", 384}}},
                                         Case{"attention_d64", {{"Z", 1}, {"N", 192}}},
                                         Case{"attention_d64_causal", {{"Z", 1}, {"N", 192}}},
                                         Case{"attention_d64_causal", {{"Z", 1}, {"N", 100}}, 20},
                                         Case{"attention_d128", {{"Z", 1}, {"N", 192}}},
                                         Case{"attention_d128_causal", {{"Z", 1}, {"N", 192}}}),
                         case_name);

} // namespace
} // namespace kiln
