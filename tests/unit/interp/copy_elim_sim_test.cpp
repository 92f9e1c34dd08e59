// copy-elim keeps every example's meaning: lowered by depend + vectorize + copy-elim, each
// example computes exactly what the program interpreter computes (small-integer inputs, so every
// sum is exact) under many adversarial schedules of the event-IR simulator, with no race. Where
// copy elimination removed every memory-NONE tensor (GEMM and its variants), the simulator is
// told to reject any touch of one, so a NONE tensor left in use would fail the run as well.
// gemm_rowsum is not here: the lanes' `copy add`s into a shared row race in the simulator already
// before copy-elim (depend + vectorize output), and copy-elim leaves that reduction chain as is.
#include "interp/compare.h"
#include "interp/entry.h"
#include "interp/event_sim.h"
#include "interp/interpreter.h"
#include "ir/parser.h"
#include "passes/copy_elim.h"
#include "passes/depend.h"
#include "passes/instantiate.h"
#include "passes/vectorize.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kiln::interp {
namespace {

struct ElimCase {
    std::string name;
    Sizes sizes;    // small, with ragged edges where the tiles allow
    uint64_t seeds; // schedules (and inputs) tried
    bool none_gone; // copy-elim removes every NONE tensor of this example
};

ir::Program load(const std::string& name) {
    std::ifstream in(std::string(KILN_SOURCE_DIR) + "/examples/" + name + ".kiln");
    std::stringstream ss;
    ss << in.rdbuf();
    auto p = ir::parse_program(ss.str(), name + ".kiln");
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? *p : ir::Program{};
}

Result<event::EventProgram> lower(const ir::Program& p, const Sizes& sizes) {
    auto tree = passes::instantiate(p, sizes);
    if (!tree)
        return tree.errors();
    auto e = passes::depend(*tree, p, passes::PassContext{});
    if (!e)
        return e;
    auto v = passes::vectorize(std::move(*e), passes::PassContext{});
    if (!v)
        return v;
    return passes::copy_elim(std::move(*v), passes::PassContext{});
}

// "" when the simulated run races nowhere and equals the interpreter's result exactly.
std::string simulate_and_compare(const event::EventProgram& e, const TensorMap& inputs,
                                 const TensorMap& expected, const SimOptions& o) {
    std::map<std::string, std::shared_ptr<HostTensor>> params;
    for (const auto& [name, t] : inputs)
        params[name] = std::make_shared<HostTensor>(t);
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

class CopyElimSim : public testing::TestWithParam<ElimCase> {};

TEST_P(CopyElimSim, MatchesTheInterpreter) {
    const ElimCase& c = GetParam();
    ir::Program p = load(c.name);
    auto sizes = resolve_sizes(p, c.sizes);
    ASSERT_TRUE(sizes.ok()) << sizes.error_text();
    auto e = lower(p, c.sizes);
    ASSERT_TRUE(e.ok()) << e.error_text();
    InputOptions small;
    small.fill = InputOptions::Fill::SmallIntegers;
    for (uint64_t seed = 0; seed < c.seeds; ++seed) {
        auto inputs = make_inputs(p, *sizes, seed, small);
        ASSERT_TRUE(inputs.ok()) << inputs.error_text();
        auto expected = run(p, *sizes, *inputs);
        ASSERT_TRUE(expected.ok()) << expected.error_text();
        SimOptions o;
        o.seed = seed;
        o.reject_none = c.none_gone;
        EXPECT_EQ(simulate_and_compare(*e, *inputs, *expected, o), "") << "seed " << seed;
    }
}

std::string case_name(const testing::TestParamInfo<ElimCase>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Examples, CopyElimSim,
    testing::Values(ElimCase{"gemm", {{"M", 129}, {"N", 257}, {"K", 65}}, 50, true},
                    ElimCase{"batched_gemm", {{"Z", 2}, {"M", 64}, {"N", 64}, {"K", 64}}, 10, true},
                    ElimCase{"dual_gemm", {{"M", 130}, {"N", 129}, {"K", 65}}, 10, true},
                    ElimCase{"attention_d64", {{"Z", 1}, {"N", 200}}, 5, false},
                    ElimCase{"attention_d64_causal", {{"Z", 1}, {"N", 200}}, 5, false},
                    ElimCase{"attention_d128", {{"Z", 1}, {"N", 17}}, 5, false},
                    ElimCase{"attention_d128_causal", {{"Z", 1}, {"N", 17}}, 5, false}),
    case_name);

} // namespace
} // namespace kiln::interp
