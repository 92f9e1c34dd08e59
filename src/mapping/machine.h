#pragma once
// The machine model (Cypress §3.1) as data: processor levels, which memories each level can
// see, how many processors of a level one parent holds, and capacities. Hopper is the only
// model today; a Blackwell model is another instance of the same struct.
#include "ir/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::mapping {

struct LevelInfo {
    ir::Level level;
    // How many processors of this level one processor of the next-outer level holds:
    // exactly `count` when `exact`, otherwise at most `count` (0 = unbounded).
    int64_t count = 0;
    bool exact = false;
    std::vector<ir::Memory> visible; // memories a task at this level may name
};

struct Machine {
    std::string name;
    std::vector<LevelInfo> levels; // outermost first
    int64_t smem_bytes = 0;        // usable shared memory per block
    int64_t registers_per_sm = 0;
    int64_t max_registers_per_thread = 0;
    int64_t sm_count = 0;

    const LevelInfo& info(ir::Level l) const;
    bool can_see(ir::Level l, ir::Memory m) const;
    // Processors of level `inner` inside one processor of level `outer` (outer above inner):
    // the product of the per-level counts; nullopt when unbounded.
    std::optional<int64_t> processors_between(ir::Level outer, ir::Level inner) const;
};

// H100 / H200 (sm_90a).
const Machine& hopper();

} // namespace kiln::mapping
