#pragma once
// What every event-IR pass may consult besides the program: the machine model (capacities,
// levels) the program is compiled for. Passes never read the mapping through this: whatever the
// mapping decided is already on the IR (memories, controls, layouts).
#include "ir/event.h"
#include "mapping/machine.h"

#include <functional>
#include <set>
#include <string>

namespace kiln::passes {

struct PassContext {
    const mapping::Machine& machine = mapping::hopper();
    // The SHARED tensors the code generator will hold in registers (their exchanges become quad
    // shuffles, their wgmma reads the RS form): alloc-smem leaves them unplaced. Drivers that
    // generate code install codegen::shared_kept_in_registers; unset, every one is placed.
    std::function<std::set<std::string>(const event::EventProgram&)> shared_in_registers;
};

} // namespace kiln::passes
