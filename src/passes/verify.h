#pragma once
// verify: the size-independent checks of a whole program and its mapping (`kiln check` runs
// these, then instantiate()). Every task, variant and instance is checked, reached from the entry
// or not:
// - names: no task, variant or instance defined twice; a variant's task, an instance's variant,
//   launched tasks, dispatch targets and the entry instance exist; the entry runs at HOST;
// - task signatures: parameter names unique and distinct from shape symbols, scalars i32 or f32;
// - each variant body (variant_check.h) and each instance against its variant (mapping_check.h);
// - the reference names parameters of the entry task.
// Requires nothing; guarantees, when it returns no diagnostics, that every name in the program
// resolves, so instantiate() can walk it without re-checking names.
#include "ir/program.h"
#include "mapping/machine.h"

#include <vector>

namespace kiln::passes {

std::vector<Diagnostic> verify(const ir::Program &program,
                               const mapping::Machine &machine = mapping::hopper());

} // namespace kiln::passes
