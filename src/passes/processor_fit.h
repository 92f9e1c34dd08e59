#pragma once
// Does a prange fit the machine? A task at level P that runs a prange of n tasks at a lower
// level C needs n processors of level C inside one P: exactly the machine's count where every
// level between them has a fixed count (WARPGROUP -> WARP: 4, WARP -> THREAD: 32, so
// WARPGROUP -> THREAD: 128), at most the product where one of them is only bounded
// (BLOCK -> WARPGROUP: at most 4), and always whole groups of the fixed counts below it.
#include "mapping/machine.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::passes {

// The rule `count` breaks ("a WARPGROUP holds exactly 4 WARP processors"), or nullopt.
std::optional<std::string> prange_misfit(const mapping::Machine &machine, ir::Level parent,
                                         ir::Level child, int64_t count);

} // namespace kiln::passes
