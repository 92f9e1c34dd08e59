#pragma once
// The program's entry point as the interpreter, the inputs and the references see it: the entry
// instance, its task, the problem sizes and the shapes of the entry task's tensor parameters.
#include "interp/host_tensor.h"
#include "ir/program.h"

#include <map>
#include <string>

namespace kiln::interp {

using Sizes = std::map<std::string, int64_t>;

struct Entry {
    const mapping::Instance* instance = nullptr;
    const ir::Variant* variant = nullptr;
    const ir::Task* task = nullptr;
};

// The instance named by `entry` in the mapping, its variant and task; a Diagnostic if any is
// missing or they disagree.
Result<Entry> find_entry(const ir::Program& p);

// The program's `sizes` line with `overrides` applied. An override must name a shape symbol of
// the entry task; every symbol must end up with a positive value.
Result<Sizes> resolve_sizes(const ir::Program& p, const Sizes& overrides);

// The shape of an entry tensor parameter at the given sizes.
Result<ir::Shape> entry_shape(const ir::Param& param, const Sizes& sizes);

} // namespace kiln::interp
