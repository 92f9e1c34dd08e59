#pragma once
// `--cluster N` on `kiln compile` and `kiln run --gpu`: maps the program's warp-specialized
// BLOCK instance with `cluster = N` (2: CTA pairs sharing an operand tile by TMA multicast,
// docs/codegen.md) without editing the .kiln file, for comparing both on one shape.
#include "ir/program.h"

#include <CLI/CLI.hpp>

namespace kiln::cli {

void add_cluster_option(CLI::App& cmd, int& cluster);

// Applies a --cluster value (0: the mapping's own); one the mapping cannot take stops the
// command with the instance and the rule (kExitError).
void apply_cluster(ir::Program& program, int cluster);

} // namespace kiln::cli
