#pragma once
// Accumulates generated source with indentation, so lowering code reads as the code it writes.
#include <string>
#include <vector>

namespace kiln::codegen {

// "a<sep>b<sep>c": argument lists, initializers, extents in comments.
inline std::string join(const std::vector<std::string>& xs, const std::string& sep) {
    std::string out;
    for (const auto& x : xs)
        out += (out.empty() ? "" : sep) + x;
    return out;
}

class CodeWriter {
public:
    // One line at the current indentation ("" writes an empty line).
    void line(const std::string& s) {
        out_ += s.empty() ? "\n" : std::string(depth_ * 4, ' ') + s + "\n";
    }
    // A line at column 0 (preprocessor directives).
    void raw(const std::string& s) { out_ += s + "\n"; }
    // `head {`, then the body one level deeper; close() writes the matching `}`.
    void open(const std::string& head) {
        line(head.empty() ? "{" : head + " {");
        ++depth_;
    }
    // `} else {` between the two bodies of an if.
    void otherwise() {
        --depth_;
        line("} else {");
        ++depth_;
    }
    void close(const std::string& tail = "") {
        --depth_;
        line("}" + tail);
    }
    const std::string& text() const { return out_; }

private:
    std::string out_;
    int depth_ = 0;
};

} // namespace kiln::codegen
