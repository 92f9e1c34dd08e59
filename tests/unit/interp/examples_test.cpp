// Every example runs in the interpreter and matches its float64 reference, at its default sizes
// and at sizes that are not multiples of the tiles (padded edge pieces); small-integer inputs
// give results equal to the reference exactly; and a deliberately broken program fails the check.
#include "interp/compare.h"
#include "interp/interpreter.h"
#include "interp/reference.h"
#include "ir/parser.h"
#include "passes/instantiate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kiln::interp {
namespace {

std::string example_path(const std::string& name) {
    return std::string(KILN_SOURCE_DIR) + "/examples/" + name + ".kiln";
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

ir::Program parse_text(const std::string& text, const std::string& name) {
    auto p = ir::parse_program(text, name);
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? *p : ir::Program{};
}

struct Outcome {
    std::vector<Comparison> comparisons;
    TensorMap out, ref;
};

// Verifies the program at `overrides`, runs it on seeded inputs and compares with its reference.
Outcome run_and_compare(const ir::Program& p, const Sizes& overrides,
                        const InputOptions& options = {}) {
    auto tree = passes::instantiate(p, overrides);
    EXPECT_TRUE(tree.ok()) << tree.error_text();
    auto sizes = resolve_sizes(p, overrides);
    EXPECT_TRUE(sizes.ok()) << sizes.error_text();
    if (!tree.ok() || !sizes.ok())
        return {};
    EXPECT_EQ(tree->sizes, *sizes);
    auto inputs = make_inputs(p, *sizes, 1234, options);
    EXPECT_TRUE(inputs.ok()) << inputs.error_text();
    auto out = run(p, *sizes, *inputs);
    EXPECT_TRUE(out.ok()) << out.error_text();
    auto ref = run_reference(p, *sizes, *inputs);
    EXPECT_TRUE(ref.ok()) << ref.error_text();
    if (!out.ok() || !ref.ok())
        return {};
    return {compare(*out, *ref), *out, *ref};
}

bool all_pass(const Outcome& o) {
    if (o.comparisons.empty())
        return false;
    for (const auto& c : o.comparisons)
        if (!c.passed(tolerance_for(o.out.at(c.tensor).dtype)))
            return false;
    return true;
}

struct ExampleCase {
    std::string name;
    std::vector<Sizes> sizes; // the first is {} (the program's defaults)
};

std::string case_name(const testing::TestParamInfo<ExampleCase>& info) { return info.param.name; }

class Example : public testing::TestWithParam<ExampleCase> {};

TEST_P(Example, MatchesItsReferenceAtEverySize) {
    const ir::Program p = parse_text(read_text(example_path(GetParam().name)), GetParam().name);
    for (const Sizes& s : GetParam().sizes) {
        std::string label;
        for (const auto& [k, v] : s)
            label += k + "=" + std::to_string(v) + " ";
        const Outcome o = run_and_compare(p, s);
        EXPECT_TRUE(all_pass(o)) << GetParam().name << " at " << (label.empty() ? "defaults" : label)
                                 << ":\n"
                                 << describe(o.comparisons);
    }
}

const Sizes kDefaults = {};

INSTANTIATE_TEST_SUITE_P(
    Interp, Example,
    testing::Values(
        ExampleCase{"gemm",
                    {kDefaults, {{"M", 200}, {"N", 300}, {"K", 100}}, {{"M", 64}, {"N", 40}, {"K", 24}},
                     {{"M", 129}, {"N", 257}, {"K", 65}}}},
        ExampleCase{"batched_gemm",
                    {kDefaults,
                     {{"Z", 2}, {"M", 100}, {"N", 300}, {"K", 72}},
                     {{"Z", 1}, {"M", 129}, {"N", 257}, {"K", 65}},
                     {{"Z", 4}, {"M", 64}, {"N", 64}, {"K", 64}}}},
        ExampleCase{"dual_gemm",
                    {kDefaults, {{"M", 100}, {"N", 200}, {"K", 72}}, {{"M", 130}, {"N", 129}, {"K", 65}},
                     {{"M", 64}, {"N", 64}, {"K", 16}}}},
        ExampleCase{"gemm_rowsum",
                    {kDefaults, {{"M", 100}, {"N", 300}, {"K", 72}}, {{"M", 300}, {"N", 100}, {"K", 40}},
                     {{"M", 1}, {"N", 8}, {"K", 8}}}},
        ExampleCase{"gemm_splitk",
                    {kDefaults, {{"M", 130}, {"N", 70}, {"K", 2100}}, {{"M", 1}, {"N", 8}, {"K", 8}}}},
        ExampleCase{"attention_d64", {kDefaults, {{"Z", 1}, {"N", 200}}, {{"Z", 3}, {"N", 100}}, {{"Z", 1}, {"N", 17}}}},
        ExampleCase{"attention_d64_causal",
                    {kDefaults, {{"Z", 1}, {"N", 200}}, {{"Z", 3}, {"N", 100}}, {{"Z", 1}, {"N", 17}}}},
        ExampleCase{"attention_d128", {kDefaults, {{"Z", 1}, {"N", 200}}, {{"Z", 3}, {"N", 100}}, {{"Z", 1}, {"N", 17}}}},
        ExampleCase{"attention_d128_causal",
                    {kDefaults, {{"Z", 1}, {"N", 200}}, {{"Z", 3}, {"N", 100}}, {{"Z", 1}, {"N", 17}}}}),
    case_name);

// With inputs in {-2..2} every product and partial sum is an integer well inside f32's exact
// range, so the result must equal the reference rounded to the output dtype, element for element.
class ExactExample : public testing::TestWithParam<ExampleCase> {};

TEST_P(ExactExample, SmallIntegerInputsGiveTheExactResult) {
    const ir::Program p = parse_text(read_text(example_path(GetParam().name)), GetParam().name);
    InputOptions ints;
    ints.fill = InputOptions::Fill::SmallIntegers;
    for (const Sizes& s : GetParam().sizes) {
        const Outcome o = run_and_compare(p, s, ints);
        ASSERT_FALSE(o.ref.empty());
        for (const auto& [name, ref] : o.ref)
            EXPECT_EQ(exact_mismatches(o.out.at(name), ref), 0) << GetParam().name << " " << name;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Interp, ExactExample,
    testing::Values(ExampleCase{"gemm", {kDefaults, {{"M", 129}, {"N", 257}, {"K", 65}}}},
                    ExampleCase{"batched_gemm", {{{"Z", 2}, {"M", 100}, {"N", 300}, {"K", 72}}}},
                    ExampleCase{"gemm_rowsum", {kDefaults, {{"M", 100}, {"N", 300}, {"K", 72}}}},
                    ExampleCase{"gemm_splitk", {{{"M", 130}, {"N", 70}, {"K", 2100}}}}),
    case_name);

// The check can fail: the same example with one deliberate bug must not pass.
using Edit = std::pair<std::string, std::string>; // replace the first `first` by `second`

Outcome run_mutated(const std::string& example, const std::vector<Edit>& edits,
                    const Sizes& sizes) {
    std::string text = read_text(example_path(example));
    for (const auto& [from, to] : edits) {
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at == std::string::npos)
            return {};
        text.replace(at, from.size(), to);
    }
    return run_and_compare(parse_text(text, example + "_mutated"), sizes);
}

TEST(BrokenProgram, MissingClearLeavesPoisonAndFails) {
    const Outcome o = run_mutated(
        "gemm", {{"  launch clear(acc)\n", ""}, {"dispatch clear -> clear_block, ", "dispatch "}}, {});
    ASSERT_EQ(o.comparisons.size(), 1u);
    EXPECT_EQ(o.comparisons[0].nan_count, o.comparisons[0].elements);
    EXPECT_FALSE(all_pass(o));
}

TEST(BrokenProgram, CausalMaskOffByOneFails) {
    const Outcome o = run_mutated("attention_d64_causal",
                                  {{"mask(S, row0, col0, ncols, 1)", "mask(S, row0 + 1, col0, ncols, 1)"}},
                                  {{"Z", 1}, {"N", 128}});
    ASSERT_EQ(o.comparisons.size(), 1u);
    EXPECT_EQ(o.comparisons[0].nan_count, 0);
    EXPECT_GT(o.comparisons[0].rel_error, 1e-2) << describe(o.comparisons);
}

TEST(BrokenProgram, SequenceMaskMissingFailsOnRaggedLengths) {
    // Padded keys read as zeros: unmasked, they take softmax weight exp(0 - m).
    const Outcome o = run_mutated("attention_d64",
                                  {{"mask(S, row0, col0, ncols, 0)", "mask(S, row0, col0, ncols + 128, 0)"}},
                                  {{"Z", 1}, {"N", 100}});
    ASSERT_EQ(o.comparisons.size(), 1u);
    EXPECT_GT(o.comparisons[0].rel_error, 1e-2) << describe(o.comparisons);
}

TEST(BrokenProgram, RowsumStartingFromOneFails) {
    const Outcome o = run_mutated("gemm_rowsum", {{"fill(r, 0.0)", "fill(r, 1.0)"}}, {});
    bool r_failed = false;
    for (const auto& c : o.comparisons)
        r_failed = r_failed || (c.tensor == "r" && !c.passed(tolerance_for(ir::DType::F32)));
    EXPECT_TRUE(r_failed) << describe(o.comparisons);
}

} // namespace
} // namespace kiln::interp
