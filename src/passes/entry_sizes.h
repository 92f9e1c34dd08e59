#pragma once
// The problem sizes: the entry task's shape symbols, valued by the program's `sizes` and then by
// the caller's overrides (`kiln run --size M=4096`). Each symbol needs a positive value, and
// every size and override must name a symbol.
#include "ir/program.h"
#include "passes/diagnostics.h"
#include "passes/task_tree.h"

#include <optional>

namespace kiln::passes {

std::optional<Sizes> bind_entry_sizes(const ir::Program &program, const ir::Task &entry_task,
                                      const Sizes &overrides, Diagnostics &d);

} // namespace kiln::passes
