#include "joint_smt.h"
#include "normalize.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace kiln::schedule;

namespace {

LoopGraph normalized(const std::string &name) {
    auto n = normalize_graph(test::load(name), 300, {});
    EXPECT_TRUE(n.ok());
    return n->graph;
}

JointOptions with(Encoding e) {
    JointOptions o;
    o.encoding = e;
    return o;
}

bool has(const std::vector<Family> &core, Family f) {
    return std::find(core.begin(), core.end(), f) != core.end();
}

TEST(JointSmt, Figure1LengthBoundary) {
    LoopGraph g = normalized("fig1_attention");
    for (Encoding e : {Encoding::boolean, Encoding::lia}) {
        EXPECT_EQ(solve_joint(g, hopper(), 2, 4, with(e)).status, JointStatus::sat);
        EXPECT_EQ(solve_joint(g, hopper(), 2, 3, with(e)).status, JointStatus::unsat);
    }
}

// The two encodings are two spellings of one problem: they must agree on every query.
TEST(JointSmt, EncodingsAgree) {
    for (const char *name : {"fig1_attention", "resource_and_recurrence", "warp_forces_ii",
                             "recurrence_distance2", "fa3_forward_hopper", "unsat_registers"}) {
        LoopGraph g = normalized(name);
        Machine m = test::machine_of(g);
        for (int64_t ii = 1; ii <= 4; ++ii)
            for (int64_t len = ii; len <= 2 * ii + 2; ++len) {
                auto b = solve_joint(g, m, ii, len, with(Encoding::boolean));
                auto l = solve_joint(g, m, ii, len, with(Encoding::lia));
                EXPECT_EQ(b.status, l.status) << name << " II=" << ii << " L=" << len;
            }
    }
}

TEST(JointSmt, WarpAssignmentForcesLargerIi) {
    LoopGraph g = normalized("warp_forces_ii");
    auto r = solve_joint(g, hopper(), 2, 3, {});
    ASSERT_EQ(r.status, JointStatus::unsat);
    EXPECT_TRUE(has(r.core, Family::cross_warp));
    EXPECT_TRUE(has(r.core, Family::variable_latency));
    JointOptions relaxed;
    relaxed.relaxed = {Family::cross_warp};
    EXPECT_EQ(solve_joint(g, hopper(), 2, 3, relaxed).status, JointStatus::sat);
    auto ok = solve_joint(g, hopper(), 3, 3, {});
    ASSERT_EQ(ok.status, JointStatus::sat);
    EXPECT_EQ(ok.warps[g.find("Y")], std::vector<int>{0});
    EXPECT_NE(ok.warps[g.find("X")], std::vector<int>{0});
}

TEST(JointSmt, RegisterCoreNamesRegisters) {
    LoopGraph g = normalized("unsat_registers");
    Machine m = test::machine_of(g);
    auto r = solve_joint(g, m, 3, 4, {});
    ASSERT_EQ(r.status, JointStatus::unsat);
    EXPECT_TRUE(has(r.core, Family::registers));
    EXPECT_FALSE(has(r.core, Family::capacity)) << "the core is minimized";
}

TEST(JointSmt, NoWarpSpecializationUsesOneWarp) {
    LoopGraph g = normalized("fa3_forward_hopper");
    JointOptions o;
    o.warp_specialize = false;
    // Without WS, the exp's blocking wait stalls the warp that issues every GEMM: the TC can no
    // longer be kept busy at II = 8.
    auto r = solve_joint(g, hopper(), 8, 8, o);
    EXPECT_EQ(r.status, JointStatus::unsat);
    EXPECT_TRUE(has(r.core, Family::concurrency));
}

} // namespace
