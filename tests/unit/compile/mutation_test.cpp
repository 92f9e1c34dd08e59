// Mutation testing of the synchronization the passes insert (issue 4): for the lowered GEMM and
// attention, delete each event edge in turn; some simulated schedule must then race or compute a
// wrong result. The edges allowed to survive every schedule are the yields of top-level loops
// (the kernel's end, which nothing in the program waits on) and, per program, a pinned list of
// known survivors, each explained where it is pinned; a new survivor (over-synchronization) or a
// pinned one that became needed fails the test with the full report.
#include "compiled_example.h"
#include "interp/mutation.h"

#include <gtest/gtest.h>

#include <set>

namespace kiln {
namespace {

using testing_support::compile_example;

constexpr int kSchedulesPerEdge = 30;

// "yield of %e0" for every loop at the top level of the program.
std::set<std::string> top_level_yields(const event::EventProgram& p) {
    std::set<std::string> out;
    for (const auto& op : p.body.ops)
        if (op.kind == event::OpKind::For || op.kind == event::OpKind::PFor)
            out.insert("yield of %" + op.result);
    return out;
}

void expect_every_edge_needed(const std::string& example, const passes::Sizes& sizes,
                              const std::set<std::string>& known_survivors = {}) {
    auto ex = compile_example(example, sizes);
    ASSERT_TRUE(ex);
    auto verdicts = interp::mutate_edges(ex->lowered, ex->inputs, ex->expected, kSchedulesPerEdge);
    ASSERT_TRUE(verdicts.ok()) << verdicts.error_text();
    ASSERT_GT(verdicts->size(), 4u);
    auto allowed = top_level_yields(ex->lowered);
    std::string redundant, report;
    std::set<std::string> survivors;
    int killed = 0;
    for (const auto& v : *verdicts) {
        std::string edge = v.edge.consumer + " after " + v.edge.ref;
        report += (v.killed ? "  needed    " : "  redundant ") + edge +
                  (v.killed ? "  (seed " + std::to_string(v.seed) + ")" : "") + "\n";
        killed += v.killed;
        if (!v.killed && !allowed.count(v.edge.consumer))
            survivors.insert(edge);
    }
    for (const auto& e : survivors)
        if (!known_survivors.count(e))
            redundant += "  " + e + "\n";
    for (const auto& e : known_survivors)
        EXPECT_TRUE(survivors.count(e)) << example << ": pinned survivor is now needed: " << e
                                        << "\n" << report;
    std::cout << example << ": " << killed << " of " << verdicts->size() << " edges needed\n"
              << report;
    EXPECT_EQ(redundant, "") << example << ": edges no schedule needs (over-synchronization):\n"
                             << redundant;
}

TEST(Mutation, EveryEdgeOfTheLoweredGemmIsNeeded) {
    expect_every_edge_needed("gemm", {{"M", 128}, {"N", 256}, {"K", 320}});
}

// Four KV tiles against the 3-deep pipeline, so the stage-reuse (@-3) edges matter. Survivors:
// - the two @-1 waits of %e61 and %e63 on %e63 are implied through S's own wait on the previous
//   iteration (pipeline-loops prunes implications within one tensor only: over-synchronization);
// - %e63 after %e7[:, :, :] (the P·V accumulation waits for every lane's O clear) and %e98 after
//   %e85 (the V tile's arrival) are needed, but implied in every schedule by other paths.
TEST(Mutation, EveryEdgeOfTheLoweredAttentionIsNeeded) {
    expect_every_edge_needed("attention_d64", {{"Z", 1}, {"N", 512}},
                             {"%e61 after %e63[g, w, t]@-1", "%e63 after %e7[:, :, :]",
                              "%e63 after %e63[g, w, t]@-1", "%e98 after cross %e85"});
}

} // namespace
} // namespace kiln
