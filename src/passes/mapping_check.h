#pragma once
// The size-independent rules of one mapping instance against its variant (Cypress §3.3):
// - every tunable the variant declares is bound, and nothing else;
// - every tensor parameter and created tensor has a memory (and only those), one the instance's
//   processor level can see; a leaf instance maps no tensor its operations touch to NONE;
// - every launch site has exactly one dispatch entry (by label, else by task name) and every
//   entry matches a site; its target exists, implements the launched task, and runs at the
//   parent's level or below (strictly below for a launch inside a prange).
#include "ir/program.h"
#include "mapping/machine.h"
#include "passes/diagnostics.h"

namespace kiln::passes {

void check_instance(const ir::Program &program, const mapping::Instance &instance,
                    const mapping::Machine &machine, Diagnostics &d);

// The dispatch entry a launch site resolves to: its label's entry if it has one, else its task
// name's; nullptr when neither exists.
const mapping::DispatchBinding *find_dispatch(const mapping::Instance &instance,
                                              const ir::Launch &launch);

} // namespace kiln::passes
