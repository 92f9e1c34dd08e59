#include "ir/overrides.h"
#include "ir/parser.h"
#include "tools/kiln/commands.h"

#include <charconv>
#include <iostream>

namespace kiln::cli {

void fail(const std::vector<Diagnostic>& errors) {
    std::cerr << format_diagnostics(errors);
    throw CLI::RuntimeError(kExitError);
}

void add_override_options(CLI::App& cmd, OverrideOptions& o) {
    cmd.add_option("--tunable", o.tunables,
                   "set a mapping tunable: NAME in every instance that declares it, or "
                   "INSTANCE.NAME in one, e.g. --tunable V=128")
        ->type_name("[INSTANCE.]NAME=INT");
    cmd.add_option("--pipeline", o.pipelines,
                   "set the software-pipelining depth of an instance's srange loops, e.g. "
                   "--pipeline gemm_block=6")
        ->type_name("INSTANCE=INT");
    cmd.add_option("--dtype", o.dtypes,
                   "retype every tensor of element type FROM, e.g. --dtype bf16=f16 (the "
                   "reference follows)")
        ->type_name("FROM=TO");
    cmd.add_option("--cluster", o.cluster,
                   "CTAs per thread-block cluster of the warp-specialized block instance (1 or 2; "
                   "default: as mapped)")
        ->check(CLI::Range(1, 2))
        ->type_name("N");
}

namespace {

// Each entry parsed by `parse`, or the command stops with kExitUsage naming it.
template <class T, class Parse>
std::vector<T> parse_entries(const std::vector<std::string>& entries, Parse parse) {
    std::vector<T> out;
    for (const auto& e : entries) {
        auto parsed = parse(e);
        if (!parsed) {
            std::cerr << format_diagnostics(parsed.errors());
            throw CLI::RuntimeError(kExitUsage);
        }
        out.push_back(std::move(parsed).value());
    }
    return out;
}

} // namespace

ir::Program load_program(const std::string& path, const OverrideOptions& o) {
    auto program = ir::parse_file(path);
    if (!program)
        fail(program.errors());
    ir::Overrides overrides;
    overrides.tunables = parse_entries<ir::TunableOverride>(o.tunables, ir::parse_tunable_override);
    overrides.pipelines =
        parse_entries<ir::PipelineOverride>(o.pipelines, ir::parse_pipeline_override);
    overrides.dtypes = parse_entries<ir::DTypeOverride>(o.dtypes, ir::parse_dtype_override);
    if (o.cluster != 0)
        overrides.cluster = o.cluster;
    if (overrides.empty())
        return std::move(program).value();
    auto overridden = ir::apply_overrides(*program, overrides);
    if (!overridden)
        fail(overridden.errors());
    return std::move(overridden).value();
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
