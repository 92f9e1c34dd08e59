#pragma once
// Helpers shared by the pass tests: read files of the source tree, parse, instantiate.
#include "ir/parser.h"
#include "passes/instantiate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kiln::passes::testing {

inline std::string source_path(const std::string &relative) {
    return std::string(KILN_SOURCE_DIR) + "/" + relative;
}

inline std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Parses `text` (reported as `filename` in locations); fails the test on a syntax error.
inline ir::Program parse(const std::string &text, const std::string &filename) {
    auto p = ir::parse_program(text, filename);
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? std::move(p).value() : ir::Program{};
}

inline ir::Program gemm_example() {
    return parse(read_text(source_path("examples/gemm.kiln")), "gemm.kiln");
}

// The diagnostics of instantiate(), one per line ("" when it succeeds).
inline std::string errors_of(const ir::Program &p, const Sizes &overrides = {}) {
    return instantiate(p, overrides).error_text();
}

} // namespace kiln::passes::testing
