// The validator is the oracle for every schedule the search emits, so it is tested on its own:
// a hand-checked valid schedule, then one deliberate break per rule.
#include "search.h"
#include "test_util.h"
#include "validate.h"

#include <gtest/gtest.h>

using namespace kiln::schedule;

namespace {

// Figure 1 with normalized costs (every op 1 cycle).
LoopGraph fig1() {
    auto g = parse_loop_graph(R"({"name":"fig1","ops":[
        {"name":"S","unit":"tc","latency":1,"regs":64},
        {"name":"P","unit":"sfu","latency":1,"regs":32},
        {"name":"O","unit":"tc","latency":1,"regs":64}],
      "edges":[{"from":"S","to":"P"},{"from":"P","to":"O"},
               {"from":"O","to":"O","distance":1}]})",
                              "fig1");
    EXPECT_TRUE(g.ok());
    return *g;
}

// Figure 1(d): S at 0, P and O one cycle later than ASAP: II = 2, L = 4.
Schedule fig1_schedule() {
    Schedule s;
    s.ii = 2;
    s.length = 4;
    s.ops = {"S", "P", "O"};
    s.start = {0, 2, 3};
    s.warps = {{1}, {1}, {1}};
    s.num_warps = 4;
    return s;
}

std::string first(const std::vector<std::string> &v) {
    return v.empty() ? "(valid)" : v.front();
}

TEST(Validate, AcceptsFigure1) {
    EXPECT_EQ(first(validate_schedule(fig1(), hopper(), fig1_schedule())), "(valid)");
}

TEST(Validate, Dependence) {
    Schedule s = fig1_schedule();
    s.start[1] = 0; // P before S's result
    EXPECT_EQ(first(validate_schedule(fig1(), hopper(), s)),
              "edge 0 (S -> P, distance 0): consumer issues 0 cycles after the producer, needs 1");
}

TEST(Validate, LoopCarriedDependence) {
    LoopGraph g = fig1();
    g.edges[2].latency = 3; // O(i) -> O(i+1) needs 3 cycles, but II is 2
    EXPECT_EQ(first(validate_schedule(g, hopper(), fig1_schedule())),
              "edge 2 (O -> O, distance 1): consumer issues 2 cycles after the producer, needs 3");
}

TEST(Validate, UnitCapacity) {
    Schedule s = fig1_schedule();
    s.start = {0, 1, 2}; // Figure 1's invalid ASAP schedule: S and O share slot 0 of the TC
    EXPECT_EQ(first(validate_schedule(fig1(), hopper(), s)),
              "unit 'tc' runs 2 ops at slot 0, capacity 1");
}

TEST(Validate, RegisterLimit) {
    Machine m = hopper();
    m.register_limit = 100; // slot 0 is t = 0, 2, 4: S (64) + P (32) + the previous O (64)
    EXPECT_EQ(first(validate_schedule(fig1(), m, fig1_schedule())),
              "warp 1 holds 160 registers at slot 0, limit 100");
    Schedule split = fig1_schedule();
    split.warps = {{1}, {1}, {2}};
    EXPECT_EQ(first(validate_schedule(fig1(), m, split)), "(valid)");
}

TEST(Validate, RegisterFile) {
    Machine m = hopper();
    m.register_file = 120;
    Schedule split = fig1_schedule();
    split.warps = {{1}, {1}, {2}};
    EXPECT_EQ(first(validate_schedule(fig1(), m, split)),
              "register file holds 160 at slot 0, capacity 120");
}

TEST(Validate, Placement) {
    Schedule s = fig1_schedule();
    s.length = 3;
    EXPECT_EQ(first(validate_schedule(fig1(), hopper(), s)),
              "op 'O' runs [3, 4), outside the schedule length 3");
    s = fig1_schedule();
    s.warps[0] = {7};
    EXPECT_EQ(first(validate_schedule(fig1(), hopper(), s)),
              "op 'S' is on warp 7, which does not exist");
    s = fig1_schedule();
    s.warps[0] = {1, 2};
    EXPECT_EQ(first(validate_schedule(fig1(), hopper(), s)),
              "op 'S' is on 2 distinct warps, needs 1");
}

TEST(Validate, BlockingConcurrency) {
    LoopGraph g = fig1();
    g.edges[0].blocking = true; // P waits on S's barrier; the next S is in flight at P's issue
    EXPECT_EQ(first(validate_schedule(g, hopper(), fig1_schedule())),
              "blocking op 'P' issues at slot 0 while 'S' is in flight on the same warp");
    Schedule s = fig1_schedule();
    s.warps = {{1}, {2}, {2}};
    EXPECT_EQ(first(validate_schedule(g, hopper(), s)), "(valid)");
}

TEST(Validate, CrossWarpInEdgeBlocks) {
    // P on another warp than S receives S's registers through shared memory, and that wait
    // blocks P's warp: O, on P's warp and now 2 cycles long ([3, 5) covers slot 0), collides.
    LoopGraph g = fig1();
    g.ops[2].latency = 2; // O in flight for 2 cycles: [3,5) covers slot 0
    Schedule s = fig1_schedule();
    s.length = 5;
    s.warps = {{1}, {2}, {2}};
    EXPECT_EQ(first(validate_schedule(g, hopper(), s)),
              "blocking op 'P' issues at slot 0 while 'O' is in flight on the same warp");
}

TEST(Validate, CrossWarpSpillCost) {
    LoopGraph g = fig1();
    g.ops[0].spill_cost = 2;
    Schedule s = fig1_schedule();
    s.warps = {{1}, {2}, {2}};
    EXPECT_EQ(first(validate_schedule(g, hopper(), s)),
              "edge 0 (S -> P, distance 0): consumer issues 2 cycles after the producer, needs 3");
    g.ops[0].spill_cost = 1;
    EXPECT_EQ(first(validate_schedule(g, hopper(), s)), "(valid)");
}

TEST(Validate, VariableLatencyWarpAndMemory) {
    LoopGraph raw = test::load("fa3_forward_hopper");
    auto r = find_schedule(raw, hopper(), {});
    ASSERT_TRUE(r.ok()) << r.error();
    const LoopGraph &g = r->normalized;
    EXPECT_EQ(first(validate_schedule(g, hopper(), r->schedule)), "(valid)");

    Schedule s = r->schedule;
    s.warps[g.find("LK")] = {1};
    EXPECT_EQ(first(validate_schedule(g, hopper(), s)),
              "variable-latency op 'LK' is not on warp 0");
    s = r->schedule;
    s.warps[g.find("S_a")] = {0};
    EXPECT_EQ(first(validate_schedule(g, hopper(), s)),
              "op 'S_a' shares the variable-latency warp 0");

    Machine small = hopper();
    small.memories["smem"] = 30000; // one 32 KiB tile no longer fits
    auto bad = validate_schedule(g, small, r->schedule);
    ASSERT_FALSE(bad.empty());
    EXPECT_NE(bad.front().find("memory 'smem' holds 32768 at slot"), std::string::npos)
        << bad.front();
}

} // namespace
