#pragma once
// FileCheck-style expectations for golden tests: every `# CHECK: text` line of a golden input must
// match the output, in order. A match is a substring of an output line at or after the line the
// previous CHECK matched (so one line can satisfy consecutive CHECKs left to right).
#include <sstream>
#include <string>
#include <vector>

namespace kiln::testing {

// The text of each `# CHECK:` line of `golden`, in order.
inline std::vector<std::string> check_patterns(const std::string& golden) {
    std::vector<std::string> out;
    std::istringstream in(golden);
    const std::string tag = "# CHECK:";
    for (std::string line; std::getline(in, line);) {
        auto at = line.find(tag);
        if (at == std::string::npos)
            continue;
        std::string text = line.substr(at + tag.size());
        out.push_back(text.empty() || text[0] != ' ' ? text : text.substr(1));
    }
    return out;
}

// "" when every pattern matches in order, else which pattern failed and where the search began.
inline std::string check_lines(const std::string& golden, const std::string& output) {
    std::vector<std::string> lines;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    std::size_t line = 0, col = 0;
    for (const auto& pattern : check_patterns(golden)) {
        bool found = false;
        for (; line < lines.size() && !found; col = 0) {
            auto at = lines[line].find(pattern, col);
            if (at != std::string::npos) {
                col = at + pattern.size();
                found = true;
                break;
            }
            ++line;
        }
        if (!found)
            return "CHECK not found: '" + pattern + "'";
    }
    return "";
}

} // namespace kiln::testing
