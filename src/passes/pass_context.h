#pragma once
// What every event-IR pass may consult besides the program: the machine model (capacities,
// levels) the program is compiled for. Passes never read the mapping through this: whatever the
// mapping decided is already on the IR (memories, controls, layouts).
#include "mapping/machine.h"

namespace kiln::passes {

struct PassContext {
    const mapping::Machine& machine = mapping::hopper();
};

} // namespace kiln::passes
