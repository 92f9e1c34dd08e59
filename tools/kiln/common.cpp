#include "ir/parser.h"
#include "tools/kiln/commands.h"

#include <charconv>
#include <iostream>

namespace kiln::cli {

void fail(const std::vector<Diagnostic>& errors) {
    std::cerr << format_diagnostics(errors);
    throw CLI::RuntimeError(kExitError);
}

ir::Program load_program(const std::string& path) {
    auto program = ir::parse_file(path);
    if (!program)
        fail(program.errors());
    return std::move(program).value();
}

std::map<std::string, int64_t> parse_sizes(const std::vector<std::string>& entries) {
    std::map<std::string, int64_t> sizes;
    for (const auto& entry : entries) {
        auto eq = entry.find('=');
        int64_t value = 0;
        const char* begin = entry.data() + (eq == std::string::npos ? 0 : eq + 1);
        const char* end = entry.data() + entry.size();
        auto [ptr, ec] = std::from_chars(begin, end, value);
        if (eq == std::string::npos || eq == 0 || ec != std::errc() || ptr != end || value <= 0) {
            std::cerr << "error: --size expects NAME=POSITIVE_INTEGER, got '" << entry << "'\n";
            throw CLI::RuntimeError(kExitUsage);
        }
        sizes[entry.substr(0, eq)] = value;
    }
    return sizes;
}

} // namespace kiln::cli
