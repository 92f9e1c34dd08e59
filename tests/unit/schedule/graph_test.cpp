#include "loop_graph.h"
#include "machine.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace kiln::schedule;

namespace {

std::string error_of(const std::string &text) {
    auto g = parse_loop_graph(text, "graph.json");
    return g.ok() ? std::string("(parsed)") : g.error();
}

TEST(LoopGraph, ParsesFigure1) {
    LoopGraph g = test::load("fig1_attention");
    ASSERT_EQ(g.ops.size(), 3u);
    EXPECT_EQ(g.ops[0].name, "S");
    EXPECT_EQ(g.ops[0].occupancy("tc"), 1024);
    EXPECT_EQ(g.ops[0].cycles(), 1024);
    ASSERT_EQ(g.edges.size(), 3u);
    EXPECT_EQ(g.edges[0].latency, 1024) << "edge delay defaults to the producer's latency";
    EXPECT_EQ(g.edges[2].distance, 1);
    EXPECT_EQ(g.machine, "hopper");
}

TEST(LoopGraph, ErrorsNameTheEdgeAndOp) {
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latency":1}],
                           "edges":[{"from":"a","to":"foo"}]})"),
              "graph.json: edge 0 refers to unknown op 'foo'");
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latncy":1}]})"),
              "graph.json: op 0: unknown field 'latncy'");
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latency":-3}]})"),
              "graph.json: op 0 ('a'): field 'latency' must be at least 0, got -3");
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latency":1},
                                  {"name":"a","unit":"tc","latency":1}]})"),
              "graph.json: op 1: duplicate op name 'a'");
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","latency":1}]})"),
              "graph.json: op 'a' uses no functional unit");
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latency":"2"}]})"),
              "graph.json: op 0 ('a'): field 'latency' must be an integer");
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latency":1}],
                           "edges":[{"from":"a","to":"a","distance":-1}]})"),
              "graph.json: edge 0: field 'distance' must be at least 0, got -1");
    EXPECT_NE(error_of("{not json").find("graph.json: invalid JSON"), std::string::npos);
}

TEST(LoopGraph, RejectsZeroDistanceCycle) {
    EXPECT_EQ(error_of(R"({"ops":[{"name":"a","unit":"tc","latency":1},
                                  {"name":"b","unit":"tc","latency":1}],
                           "edges":[{"from":"a","to":"b"},{"from":"b","to":"a"}]})"),
              "graph.json: dependence cycle with iteration distance 0: a -> b -> a");
}

TEST(LoopGraph, JsonRoundTrip) {
    LoopGraph g = test::load("fa4_forward_blackwell");
    auto again = parse_loop_graph(to_json(g).dump(), "again");
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(to_json(*again), to_json(g));
}

TEST(Machine, HopperAsData) {
    Machine h = hopper();
    EXPECT_EQ(h.units.at("tc"), 1);
    EXPECT_EQ(h.memories.at("smem"), 232448);
    EXPECT_EQ(h.register_limit, 240);
    auto parsed = parse_machine(to_json(h).dump(), "h.json");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(to_json(*parsed), to_json(h));
}

TEST(Machine, Errors) {
    auto m = parse_machine(R"({"units":{"tc":0},"warps":2,"register_limit":10})", "m.json");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error(), "m.json: units.tc must be a positive integer");
    m = parse_machine(R"({"units":{"tc":1},"register_limit":10})", "m.json");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error(), "m.json: missing field 'warps'");
    LoopGraph g = test::load("fa4_forward_blackwell");
    auto on = check_graph_on_machine(g, hopper(), "g.json");
    ASSERT_FALSE(on.ok());
    EXPECT_EQ(on.error(), "g.json: op 'S_a' needs memory 'tmem', which machine 'hopper' lacks");
}

} // namespace
