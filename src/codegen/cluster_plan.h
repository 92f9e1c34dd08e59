#pragma once
// The thread-block cluster a BLOCK pfor mapped with `cluster = 2` runs in: two CTAs take the
// row-adjacent tiles 2p and 2p + 1 of the pfor's second-to-last variable (the tile rows), so the
// operand tiles whose coordinates do not read that variable (B of a GEMM) are the same in both.
// Each CTA loads half of such a tile's 64-column panels and multicasts them to the pair, halving
// that operand's L2 -> SM traffic; each compute warp releases a stage in both CTAs, since both
// CTAs' DMA threads write into it. The tiles are scheduled per pair: a pair whose second row
// tile lies past the end still runs it (its loads are zero-filled by the TMA, its stores
// clipped or predicated), so both CTAs take part in every barrier phase.
//
// Requires: a KernelPlan and its TMA loads. Guarantees: a plan (size 1: no cluster) or a
// Diagnostic naming the pfor and the rule it breaks (a grid of one variable, no operand shared
// by the pair, a shared tile with an odd number of panels).
#include "codegen/kernel_plan.h"
#include "codegen/tma_lowering.h"

#include <set>
#include <string>
#include <vector>

namespace kiln::codegen {

struct ClusterPlan {
    int64_t size = 1;             // CTAs per cluster
    std::string pair_var;         // the grid variable the pair splits (size > 1)
    std::set<std::string> shared; // copies (event ids) whose tile the pair shares: multicast
    event::Loop schedule;         // the grid the CTAs loop over (vars, extents, controls)
    bool multicast(const TmaLoad& l) const { return shared.count(l.copy->result) != 0; }
};

ClusterPlan plan_cluster(const KernelPlan& plan, const std::vector<TmaLoad>& loads);

} // namespace kiln::codegen
