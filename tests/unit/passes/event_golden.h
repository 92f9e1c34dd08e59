#pragma once
// Golden cases of an event-IR pass: every tests/golden/<flag>/*.ev file is event IR text that
// the pass rewrites. Its `# CHECK:` lines must match the printed result in order (check_lines.h);
// a case whose pass must fail has `# ERROR:` lines instead, which together are exactly the
// diagnostics (one line each, message lines included, file names relative to the folder). A
// successful pass's output must also pass the event-IR verifier.
#include "check_lines.h"
#include "ir/event_parser.h"
#include "ir/event_printer.h"
#include "ir/event_verify.h"
#include "passes/pass_context.h"
#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <sstream>

namespace kiln::passes::testing {

using EventPass =
    std::function<Result<event::EventProgram>(event::EventProgram, const PassContext&)>;

// The text after each `# ERROR: ` line, one line each.
inline std::string expected_errors(const std::string& golden) {
    std::istringstream in(golden);
    std::string out;
    const std::string tag = "# ERROR: ";
    for (std::string line; std::getline(in, line);)
        if (line.rfind(tag, 0) == 0)
            out += line.substr(tag.size()) + "\n";
    return out;
}

inline std::vector<std::filesystem::path> golden_cases(const std::string& flag) {
    std::vector<std::filesystem::path> out;
    for (const auto& f : std::filesystem::directory_iterator(source_path("tests/golden/" + flag)))
        if (f.path().extension() == ".ev")
            out.push_back(f.path());
    std::sort(out.begin(), out.end());
    return out;
}

// Runs one case; "" when it passes, else what went wrong (with the output to look at).
inline std::string run_golden_case(const std::filesystem::path& path, const EventPass& pass) {
    std::string text = read_text(path.string());
    auto program = event::parse_event_program(text, path.filename().string());
    if (!program)
        return "does not parse: " + program.error_text();
    auto out = pass(std::move(program).value(), PassContext{});
    std::string errors = expected_errors(text);
    if (!errors.empty()) {
        if (out)
            return "expected errors, the pass succeeded:\n" + event::print_event_program(*out);
        return out.error_text() == errors ? "" : "errors differ:\n" + out.error_text();
    }
    if (!out)
        return "pass failed: " + out.error_text();
    std::string printed = event::print_event_program(*out);
    if (auto broken = event::verify_event_program(*out); !broken.empty())
        return "output breaks the IR's rules:\n" + format_diagnostics(broken) + printed;
    std::string failed = kiln::testing::check_lines(text, printed);
    return failed.empty() ? "" : failed + "\n" + printed;
}

// Runs every case of the folder; fails when it has fewer than `at_least`.
inline void run_golden_folder(const std::string& flag, const EventPass& pass, int at_least) {
    auto cases = golden_cases(flag);
    EXPECT_GE(static_cast<int>(cases.size()), at_least) << "golden cases of " << flag;
    for (const auto& path : cases)
        EXPECT_EQ(run_golden_case(path, pass), "") << path.filename();
}

} // namespace kiln::passes::testing
