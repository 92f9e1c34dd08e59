#include "mapping/machine.h"

#include <algorithm>
#include <cassert>

namespace kiln::mapping {

using ir::Level;
using ir::Memory;

const Machine& hopper() {
    static const Machine m{
        "hopper",
        {
            {Level::Host, 1, true, {Memory::Global, Memory::None}},
            // Grid size is unbounded.
            {Level::Block, 0, false, {Memory::Global, Memory::Shared, Memory::None}},
            // 4 warpgroups = 512 threads: the most a block can hold at one block per SM with the
            // register file split by setmaxnreg (one of them is usually the DMA warpgroup).
            {Level::Warpgroup, 4, false, {Memory::Global, Memory::Shared, Memory::None}},
            {Level::Warp, 4, true, {Memory::Global, Memory::Shared, Memory::None}},
            {Level::Thread,
             32,
             true,
             {Memory::Global, Memory::Shared, Memory::Register, Memory::None}},
        },
        227 * 1024,
        65536,
        255,
        132,
    };
    return m;
}

const LevelInfo& Machine::info(Level l) const {
    auto it = std::find_if(levels.begin(), levels.end(),
                           [&](const LevelInfo& i) { return i.level == l; });
    assert(it != levels.end() && "machine model lacks a processor level");
    return *it;
}

bool Machine::can_see(Level l, Memory m) const {
    const auto& v = info(l).visible;
    return std::find(v.begin(), v.end(), m) != v.end();
}

std::optional<int64_t> Machine::processors_between(Level outer, Level inner) const {
    int64_t n = 1;
    for (const auto& li : levels) {
        if (li.level <= outer || li.level > inner)
            continue;
        if (li.count == 0)
            return std::nullopt;
        n *= li.count;
    }
    return n;
}

} // namespace kiln::mapping
