#include "passes/processor_fit.h"

namespace kiln::passes {

std::optional<std::string> prange_misfit(const mapping::Machine &machine, ir::Level parent,
                                         ir::Level child, int64_t count) {
    // Product of the fixed counts below the innermost bounded-only level, and whether the whole
    // chain is fixed.
    int64_t fixed_tail = 1;
    bool all_fixed = true;
    for (const auto &li : machine.levels) {
        if (li.level <= parent || li.level > child)
            continue;
        if (li.exact) {
            fixed_tail *= li.count;
        } else {
            all_fixed = false;
            fixed_tail = 1;
        }
    }
    auto bound = machine.processors_between(parent, child);
    std::string holds = "a " + std::string(ir::spelling(parent)) + " holds ";
    std::string what = " " + std::string(ir::spelling(child)) + " processors";
    if (all_fixed && count != fixed_tail)
        return holds + "exactly " + std::to_string(fixed_tail) + what;
    if (count % fixed_tail != 0)
        return holds + what.substr(1) + " in groups of " + std::to_string(fixed_tail);
    if (bound && count > *bound)
        return holds + "at most " + std::to_string(*bound) + what;
    return std::nullopt;
}

} // namespace kiln::passes
