#pragma once
// Subcommand registration and the exit codes every subcommand shares (documented in README.md).
#include "ir/diagnostic.h"
#include "ir/program.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

namespace kiln::cli {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;    // the program or mapping is wrong (diagnostics on stderr)
constexpr int kExitUsage = 2;    // bad command line
constexpr int kExitMismatch = 3; // ran, but the result is off its reference

// check, print, tree
void register_program_commands(CLI::App& app);
// compile (src/passes/pipeline.h)
void register_compile_command(CLI::App& app);
// run
void register_run_command(CLI::App& app);
// schedule (src/schedule)
void register_schedule_command(CLI::App& app);

// Prints diagnostics to stderr and stops the command with kExitError.
[[noreturn]] void fail(const std::vector<Diagnostic>& errors);
// --tunable, --pipeline, --dtype, --cluster (src/ir/overrides.h), as typed.
struct OverrideOptions {
    std::vector<std::string> tunables;
    std::vector<std::string> pipelines;
    std::vector<std::string> dtypes;
    int cluster = 0; // 0: as mapped
};
void add_override_options(CLI::App& cmd, OverrideOptions& o);

// Parses FILE and applies the overrides, or stops with the diagnostics (a malformed override:
// kExitUsage; one the program does not have: kExitError).
ir::Program load_program(const std::string& path, const OverrideOptions& overrides = {});
// --size M=256 --size N=128 → {M: 256, N: 128}; malformed entries stop with kExitUsage.
std::map<std::string, int64_t> parse_sizes(const std::vector<std::string>& entries);

} // namespace kiln::cli
