// Bad inputs: every tests/bad/*.kiln file is one case. Its header says what instantiate() must
// report, exactly and completely:
//   # sizes: M=200 N=7          (optional: size overrides, as `kiln check --size` passes them)
//   # error: NAME.kiln:L:C: error: MESSAGE      (one line per expected diagnostic, in order)
// The file is parsed under its bare name, so the locations in the expected lines are stable.
#include "test_util.h"

#include <algorithm>
#include <filesystem>

namespace kiln::passes::testing {
namespace {

struct BadCase {
    std::string name; // file name without the directory
    std::string text;
};

std::vector<BadCase> bad_cases() {
    std::vector<BadCase> out;
    for (const auto &e : std::filesystem::directory_iterator(source_path("tests/bad")))
        if (e.path().extension() == ".kiln")
            out.push_back({e.path().filename().string(), read_text(e.path().string())});
    std::sort(out.begin(), out.end(),
              [](const BadCase &a, const BadCase &b) { return a.name < b.name; });
    return out;
}

// The value of every "# KEY: value" header line, in order.
std::vector<std::string> header(const std::string &text, const std::string &key) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string prefix = "# " + key + ": ";
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0)
            out.push_back(line.substr(prefix.size()));
    return out;
}

Sizes overrides(const std::string &text) {
    Sizes out;
    for (const auto &line : header(text, "sizes")) {
        std::istringstream in(line);
        for (std::string item; in >> item;) {
            auto eq = item.find('=');
            out[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
        }
    }
    return out;
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, ReportsExactDiagnostics) {
    const BadCase &c = GetParam();
    std::string expected;
    for (const auto &e : header(c.text, "error"))
        expected += e + "\n";
    ASSERT_FALSE(expected.empty()) << c.name << " has no '# error:' line";
    auto program = ir::parse_program(c.text, c.name);
    ASSERT_TRUE(program.ok()) << program.error_text();
    EXPECT_EQ(errors_of(*program, overrides(c.text)), expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, BadInput, ::testing::ValuesIn(bad_cases()),
                         [](const ::testing::TestParamInfo<BadCase> &info) {
                             std::string n = info.param.name.substr(0, info.param.name.size() - 5);
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST(BadInput, AtLeastThirtyCases) {
    EXPECT_GE(bad_cases().size(), 30u);
}

} // namespace
} // namespace kiln::passes::testing
