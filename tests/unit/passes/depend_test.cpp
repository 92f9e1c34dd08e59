// The dependence analysis (src/passes/depend.h): golden cases under tests/golden/depend/ (a
// program whose `# CHECK:` lines must match the printed event IR in order) and every example.
#include "check_lines.h"
#include "ir/event_printer.h"
#include "lowering_test_util.h"

#include <filesystem>

namespace kiln::passes::testing {
namespace {

// Each golden case must lower, verify, and match its CHECK lines in order.
TEST(Depend, GoldenCases) {
    int count = 0;
    for (const auto& f : std::filesystem::directory_iterator(source_path("tests/golden/depend"))) {
        if (f.path().extension() != ".kiln")
            continue;
        ++count;
        std::string text = read_text(f.path());
        auto e = lower_through(parse(text, f.path().filename()), "depend");
        ASSERT_TRUE(e.ok()) << f.path() << ": " << e.error_text();
        std::string printed = event::print_event_program(*e);
        EXPECT_FALSE(kiln::testing::check_patterns(text).empty()) << f.path();
        EXPECT_EQ(kiln::testing::check_lines(text, printed), "") << f.path() << "\n" << printed;
    }
    EXPECT_GE(count, 6);
}

TEST(Depend, CheckLinesFailOnAMissingOrMisorderedLine) {
    const std::string out = "%e0 = copy A -> X1\n%e1 = call f(X1) after [%e0]\n";
    EXPECT_EQ(kiln::testing::check_lines("# CHECK: copy A\n# CHECK: after [%e0]", out), "");
    EXPECT_NE(kiln::testing::check_lines("# CHECK: after [%e0]\n# CHECK: copy A", out), "");
    EXPECT_NE(kiln::testing::check_lines("# CHECK: copy B", out), "");
}

TEST(Depend, EntryScalarParameterIsAnError) {
    auto p = parse(R"(program s
task main(A: write f32[4], x: f32)
variant main_leaf of main leaf {
  fill(A, x)
}
mapping {
  instance m : main_leaf @ HOST {
    mem A = GLOBAL
  }
  entry m
}
)",
                   "s.kiln");
    auto e = lower_through(p, "depend");
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error_text(), "s.kiln:2:28: error: entry task main takes scalar parameter x; the "
                              "event IR has no run-time scalars to bind it to\n");
}

// Every example lowers to verified event IR (lowered_examples fails the test where one does not).
TEST(Depend, EveryExampleLowers) {
    EXPECT_GE(lowered_examples("depend").size(), 8u);
}

} // namespace
} // namespace kiln::passes::testing
