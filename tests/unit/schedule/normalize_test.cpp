#include "normalize.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace kiln::schedule;

namespace {

int64_t ratio_error(const std::vector<int64_t> &c, const std::vector<int64_t> &n) {
    int64_t f = 0;
    for (size_t i = 0; i < c.size(); ++i)
        for (size_t j = i + 1; j < c.size(); ++j)
            f = std::max<int64_t>(f, std::llabs(c[i] * n[j] - c[j] * n[i]));
    return f;
}

// Exhaustive reference: the smallest F over every C' >= 1 with sum <= budget.
int64_t brute_force_f(const std::vector<int64_t> &c, int64_t budget) {
    std::vector<int64_t> n(c.size(), 1);
    int64_t best = INT64_MAX;
    std::function<void(size_t, int64_t)> rec = [&](size_t i, int64_t left) {
        if (i == c.size()) {
            best = std::min(best, ratio_error(c, n));
            return;
        }
        for (int64_t x = 1; x <= left - int64_t(c.size() - i - 1); ++x) {
            n[i] = x;
            rec(i + 1, left - x);
        }
    };
    rec(0, budget);
    return best;
}

TEST(Normalize, EqualCostsBecomeOne) {
    auto n = normalize_costs({1024, 1024, 1024, 0}, 300, {});
    ASSERT_TRUE(n.ok()) << n.error();
    EXPECT_EQ(n->cost.at(1024), 1);
    EXPECT_EQ(n->cost.at(0), 0);
    EXPECT_EQ(n->max_ratio_error, 0);
}

TEST(Normalize, ExactRatiosAtSmallestScale) {
    auto n = normalize_costs({1024, 512, 256}, 300, {});
    ASSERT_TRUE(n.ok()) << n.error();
    EXPECT_EQ(n->cost.at(1024), 4);
    EXPECT_EQ(n->cost.at(512), 2);
    EXPECT_EQ(n->cost.at(256), 1);
}

TEST(Normalize, MatchesExhaustiveOptimum) {
    const std::vector<std::vector<int64_t>> cases = {
        {1000, 333}, {997, 350, 120}, {1024, 700, 90}, {5, 7, 11}};
    for (const auto &c : cases) {
        const int64_t budget = 24;
        auto n = normalize_costs(c, budget, {});
        ASSERT_TRUE(n.ok()) << n.error();
        std::vector<int64_t> got;
        int64_t sum = 0;
        for (int64_t x : c) {
            got.push_back(n->cost.at(x));
            sum += n->cost.at(x);
        }
        EXPECT_LE(sum, budget);
        EXPECT_EQ(n->max_ratio_error, ratio_error(c, got));
        EXPECT_EQ(n->max_ratio_error, brute_force_f(c, budget)) << "costs " << c[0];
    }
}

TEST(Normalize, TooManyDistinctCosts) {
    auto n = normalize_costs({1, 2, 3, 4}, 3, {});
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error(), "cost normalization: 4 distinct costs cannot each get at least 1 within a "
                         "total of 3 (raise the cost budget)");
}

TEST(Normalize, StreamingOpsGetZeroLatency) {
    LoopGraph g = test::load("fa3_forward_hopper");
    auto n = normalize_graph(g, 300, {});
    ASSERT_TRUE(n.ok()) << n.error();
    int lk = g.find("LK");
    EXPECT_EQ(n->graph.ops[lk].latency, 0);
    EXPECT_EQ(n->graph.ops[lk].occupancy("tma"), 1);   // 512 -> 1
    EXPECT_EQ(n->graph.ops[g.find("S_a")].latency, 2); // 1024 -> 2
    for (const auto &e : n->graph.edges) {
        if (e.from == lk) {
            EXPECT_EQ(e.latency, 0);
        }
    }
}

} // namespace
