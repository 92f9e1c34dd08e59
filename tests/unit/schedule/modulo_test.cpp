#include "modulo_ilp.h"
#include "normalize.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace kiln::schedule;

namespace {

// Independent check of a pure modulo schedule: dependences and unit capacities.
void expect_valid_modulo(const LoopGraph &g, const Machine &m, const ModuloSchedule &s) {
    for (const auto &e : g.edges)
        EXPECT_GE(s.start[e.to] + e.distance * s.ii - s.start[e.from], e.latency)
            << g.ops[e.from].name << " -> " << g.ops[e.to].name;
    for (const auto &[unit, cap] : m.units) {
        std::vector<int> use(s.ii, 0);
        for (size_t v = 0; v < g.ops.size(); ++v)
            for (int64_t c = 0; c < g.ops[v].occupancy(unit); ++c)
                ++use[(s.start[v] + c) % s.ii];
        for (int u : use)
            EXPECT_LE(u, cap) << unit;
    }
}

LoopGraph normalized(const std::string &name) {
    auto n = normalize_graph(test::load(name), 300, {});
    EXPECT_TRUE(n.ok());
    return n->graph;
}

TEST(Mii, ResourceBound) {
    LoopGraph g = normalized("resource_bound");
    Mii mii = compute_mii(g, hopper());
    EXPECT_EQ(mii.resource, 3);
    EXPECT_EQ(mii.resource_unit, "tc");
    EXPECT_EQ(mii.recurrence, 1);
}

TEST(Mii, RecurrenceWithDistanceTwo) {
    LoopGraph g = normalized("recurrence_distance2");
    Mii mii = compute_mii(g, hopper());
    EXPECT_EQ(mii.resource, 1);
    EXPECT_EQ(mii.recurrence, 3); // delay 6 over distance 2
    EXPECT_FALSE(recurrences_allow(g, 2));
    EXPECT_TRUE(recurrences_allow(g, 3));
}

TEST(ModuloIlp, Figure1) {
    LoopGraph g = normalized("fig1_attention");
    auto r = solve_modulo(g, hopper(), 2, {});
    ASSERT_EQ(r.status, ModuloStatus::found);
    EXPECT_EQ(r.schedule.length, 4); // Figure 1(d): P and O delayed one cycle
    expect_valid_modulo(g, hopper(), r.schedule);
    EXPECT_EQ(solve_modulo(g, hopper(), 1, {}).status, ModuloStatus::infeasible);
}

TEST(ModuloIlp, HandCheckedOptima) {
    struct Case {
        const char *graph;
        int64_t mii, ii;
    };
    for (Case c : {Case{"resource_bound", 3, 3}, Case{"recurrence_distance2", 3, 3},
                   Case{"resource_and_recurrence", 2, 3}, Case{"warp_forces_ii", 2, 2}}) {
        LoopGraph g = normalized(c.graph);
        Mii mii = compute_mii(g, hopper());
        EXPECT_EQ(mii.mii(), c.mii) << c.graph;
        for (int64_t ii = mii.mii(); ii < c.ii; ++ii)
            EXPECT_EQ(solve_modulo(g, hopper(), ii, {}).status, ModuloStatus::infeasible)
                << c.graph << " II=" << ii;
        auto r = solve_modulo(g, hopper(), c.ii, {});
        ASSERT_EQ(r.status, ModuloStatus::found) << c.graph;
        expect_valid_modulo(g, hopper(), r.schedule);
    }
}

TEST(ModuloIlp, ShortestLength) {
    // recurrence_distance2 at II = 3: A at 0, B at 3 (3 cycles later), B runs 3: L = 6.
    auto r = solve_modulo(normalized("recurrence_distance2"), hopper(), 3, {});
    ASSERT_EQ(r.status, ModuloStatus::found);
    EXPECT_EQ(r.schedule.length, 6);
}

} // namespace
