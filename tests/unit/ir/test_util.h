#pragma once
// Helpers shared by the IR unit tests.
#include "ir/parser.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kiln::ir::testing {

inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every examples/*.kiln, sorted, found when the test runs (not when it is built).
inline std::vector<std::filesystem::path> example_files() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(KILN_SOURCE_DIR "/examples"))
        if (e.path().extension() == ".kiln")
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace kiln::ir::testing
