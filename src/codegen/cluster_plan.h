#pragma once
// The thread-block cluster a BLOCK pfor mapped with `cluster = 2` runs in: two CTAs take the
// row-adjacent tiles 2p and 2p + 1 of the pfor's second-to-last variable (the tile rows), so the
// operand tiles whose coordinates do not read that variable (B of a GEMM) are the same in both.
// Each CTA loads half of such a tile's 64-column panels (or, for a tile of one panel — the A
// tile of a K-major operand 64 deep — half of its rows) and multicasts them to the pair, halving
// that operand's L2 -> SM traffic; each compute warp releases a stage in both CTAs, since both
// CTAs' DMA threads write into it. The tiles are scheduled per pair: a pair whose second row
// tile lies past the end still runs it (its loads are zero-filled by the TMA, its stores
// clipped or predicated), so both CTAs take part in every barrier phase.
//
// Requires: a KernelPlan and its TMA loads. Guarantees: a plan (size 1: no cluster) or a
// Diagnostic naming the pfor and the rule it breaks (a grid of one variable, no operand shared
// by the pair, a shared tile that splits neither by panels nor by 8-row swizzle atoms).
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
    std::set<std::string> by_rows; // those of `shared` split by rows, not panels (box rows / 2)
    event::Loop schedule;          // the grid the CTAs loop over (vars, extents, controls)
    bool multicast(const TmaLoad& l) const { return shared.count(l.copy->result) != 0; }
    bool splits_rows(const TmaLoad& l) const { return by_rows.count(l.copy->result) != 0; }
};

ClusterPlan plan_cluster(const KernelPlan& plan, const std::vector<TmaLoad>& loads);

} // namespace kiln::codegen
