// The strongest check of the first compiler passes: every example (and every golden program of
// the dependence analysis), lowered to event IR by depend (and then vectorize), computes what the
// program interpreter computes, under 20 adversarial schedules of the event-IR simulator, each on
// its own seeded inputs. Small-integer inputs make every sum exact and the copies change no
// value, so the results must be equal element for element; the simulator must report no race.
#include "interp/compare.h"
#include "interp/event_sim.h"
#include "interp/interpreter.h"
#include "ir/parser.h"
#include "passes/depend.h"
#include "passes/instantiate.h"
#include "passes/vectorize.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
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

ir::Program load(const std::string& file) {
    std::ifstream in(std::string(KILN_SOURCE_DIR) + "/" + file);
    std::stringstream ss;
    ss << in.rdbuf();
    auto p = ir::parse_program(ss.str(), file);
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? *p : ir::Program{};
}

Result<event::EventProgram> lower(const ir::Program& p, const Sizes& sizes, bool vectorized) {
    auto tree = passes::instantiate(p, sizes);
    if (!tree)
        return tree.errors();
    auto e = passes::depend(*tree, p, passes::PassContext{});
    if (!e || !vectorized)
        return e;
    return passes::vectorize(std::move(*e), passes::PassContext{});
}

std::map<std::string, std::shared_ptr<HostTensor>> shared_copies(const TensorMap& m) {
    std::map<std::string, std::shared_ptr<HostTensor>> out;
    for (const auto& [name, t] : m)
        out[name] = std::make_shared<HostTensor>(t);
    return out;
}

// "" when the simulated run races nowhere and equals the interpreter's result exactly.
std::string simulate_and_compare(const event::EventProgram& e, const TensorMap& inputs,
                                 const TensorMap& expected, uint64_t seed) {
    auto params = shared_copies(inputs);
    SimOptions o;
    o.seed = seed;
    auto report = simulate(e, params, o);
    if (!report)
        return report.error_text();
    if (!report->races.empty())
        return "race: " + report->races.front().what;
    std::string out;
    for (const auto& [name, want] : expected)
        if (int64_t n = exact_mismatches(*params.at(name), want))
            out += name + ": " + std::to_string(n) + " elements differ; ";
    return out;
}

class Lowered : public testing::TestWithParam<LoweredCase> {
protected:
    void check(bool vectorized) {
        const LoweredCase& c = GetParam();
        ir::Program p = load(c.file);
        auto sizes = resolve_sizes(p, c.sizes);
        ASSERT_TRUE(sizes.ok()) << sizes.error_text();
        auto e = lower(p, c.sizes, vectorized);
        ASSERT_TRUE(e.ok()) << e.error_text();
        InputOptions small;
        small.fill = InputOptions::Fill::SmallIntegers;
        for (uint64_t seed = 0; seed < kSeeds; ++seed) {
            auto inputs = make_inputs(p, *sizes, seed, small);
            ASSERT_TRUE(inputs.ok()) << inputs.error_text();
            auto expected = run(p, *sizes, *inputs);
            ASSERT_TRUE(expected.ok()) << expected.error_text();
            EXPECT_EQ(simulate_and_compare(*e, *inputs, *expected, seed), "") << "seed " << seed;
        }
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
                                         depend_case("reduce_arg")),
                         case_name);

} // namespace
} // namespace kiln::interp
