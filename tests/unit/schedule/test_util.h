#pragma once
#include "loop_graph.h"
#include "machine.h"

#include <gtest/gtest.h>
#include <string>

namespace kiln::schedule::test {

inline std::string graph_path(const std::string &name) {
    return std::string(KILN_SCHEDULE_GRAPHS_DIR) + "/" + name + ".json";
}

inline LoopGraph load(const std::string &name) {
    auto g = load_loop_graph(graph_path(name));
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error());
    return g.ok() ? *g : LoopGraph{};
}

inline Machine machine_of(const LoopGraph &g) {
    auto m = machine_for(g, g.name);
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error());
    return m.ok() ? *m : hopper();
}

} // namespace kiln::schedule::test
