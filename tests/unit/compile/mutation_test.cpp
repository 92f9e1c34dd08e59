// Mutation testing of the synchronization the passes insert (issue 4): for the lowered GEMM and
// attention, delete each event edge in turn; some simulated schedule must then race or compute a
// wrong result. The only edges allowed to survive every schedule are the yields of top-level
// loops (the kernel's end, which nothing in the program waits on); any other survivor is
// over-synchronization and is listed in the failure message.
#include "compiled_example.h"
#include "interp/mutation.h"

#include <gtest/gtest.h>

#include <set>

namespace kiln {
namespace {

using testing_support::compile_example;

constexpr int kSchedulesPerEdge = 40;

// "yield of %e0" for every loop at the top level of the program.
std::set<std::string> top_level_yields(const event::EventProgram& p) {
    std::set<std::string> out;
    for (const auto& op : p.body.ops)
        if (op.kind == event::OpKind::For || op.kind == event::OpKind::PFor)
            out.insert("yield of %" + op.result);
    return out;
}

void expect_every_edge_needed(const std::string& example, const passes::Sizes& sizes) {
    auto ex = compile_example(example, sizes);
    ASSERT_TRUE(ex);
    auto verdicts = interp::mutate_edges(ex->lowered, ex->inputs, ex->expected, kSchedulesPerEdge);
    ASSERT_TRUE(verdicts.ok()) << verdicts.error_text();
    ASSERT_GT(verdicts->size(), 4u);
    auto allowed = top_level_yields(ex->lowered);
    std::string redundant, report;
    int killed = 0;
    for (const auto& v : *verdicts) {
        report += (v.killed ? "  needed    " : "  redundant ") + v.edge.consumer + " after " +
                  v.edge.ref + (v.killed ? "  (seed " + std::to_string(v.seed) + ")" : "") + "\n";
        killed += v.killed;
        if (!v.killed && !allowed.count(v.edge.consumer))
            redundant += "  " + v.edge.consumer + " after " + v.edge.ref + "\n";
    }
    std::cout << example << ": " << killed << " of " << verdicts->size() << " edges needed\n"
              << report;
    EXPECT_EQ(redundant, "") << example << ": edges no schedule needs (over-synchronization):\n"
                             << redundant;
}

TEST(Mutation, EveryEdgeOfTheLoweredGemmIsNeeded) {
    expect_every_edge_needed("gemm", {{"M", 128}, {"N", 256}, {"K", 320}});
}

TEST(Mutation, EveryEdgeOfTheLoweredAttentionIsNeeded) {
    expect_every_edge_needed("attention_d64", {{"Z", 1}, {"N", 192}});
}

} // namespace
} // namespace kiln
