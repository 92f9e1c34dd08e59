#include "codegen/cluster_plan.h"

namespace kiln::codegen {

ClusterPlan plan_cluster(const KernelPlan& plan, const std::vector<TmaLoad>& loads) {
    const event::Op& pfor = *plan.grid;
    ClusterPlan c;
    c.size = pfor.loop.controls.cluster;
    c.schedule.vars = pfor.loop.vars;
    c.schedule.extents = pfor.loop.extents;
    c.schedule.controls = pfor.loop.controls;
    if (c.size == 1)
        return c;
    const std::string rule = "cluster = " + std::to_string(c.size);
    const size_t n = pfor.loop.vars.size();
    if (c.size != 2)
        unsupported(pfor, rule + ": clusters of 1 or 2 CTAs only");
    if (n < 2)
        unsupported(pfor, rule + " pairs row-adjacent tiles: the grid needs (rows, columns) "
                                 "variables, it has one");
    c.pair_var = pfor.loop.vars[n - 2];
    for (const auto& l : loads) {
        if (l.vars.count(c.pair_var))
            continue;
        // Row halves must be whole 8-row swizzle atoms (1024 B), where the 128B pattern repeats.
        const int64_t rows = l.buffer->shape.empty() ? 0 : l.buffer->shape[0];
        if (l.panels % c.size != 0 && rows % (8 * c.size) != 0)
            unsupported(*l.copy, rule + ": the pair splits the shared tile " + l.buffer->name +
                                     " by 64-column panels or by 8-row swizzle atoms, and it " +
                                     "has " + std::to_string(l.panels) + " panels of " +
                                     std::to_string(rows) + " rows");
        c.shared.insert(l.copy->result);
        if (l.panels % c.size != 0)
            c.by_rows.insert(l.copy->result);
    }
    if (c.shared.empty())
        unsupported(pfor,
                    rule + ": every DMA copy reads a tile that depends on '" + c.pair_var +
                        "', so the pair of row-adjacent tiles shares no operand to multicast");
    c.schedule.vars[n - 2] = "pair";
    c.schedule.extents[n - 2] = (pfor.loop.extents[n - 2] + c.size - 1) / c.size;
    return c;
}

} // namespace kiln::codegen
