#pragma once
// Lowers each event reference of the kernel onto Hopper synchronization (Cypress §4.2.6):
//  - a compute op waiting on the TMA copies of its iteration (`cross %copy`) waits on the
//    stage's `full` mbarrier, whose phase the TMA completes with the copies' transaction bytes;
//  - a DMA copy waiting on the consumers of the stage it overwrites (`cross %call[:, :, :]@-D`,
//    D = stages) waits on the stage's `empty` mbarrier, which each compute warp arrives on once
//    its wgmmas reading that stage have retired (wgmma's own commit/wait);
//  - a reference to a fill kernel's pfor (launched earlier on the same stream) is dropped;
//  - a reference indexed by the op's own processor variables (point-wise) is dropped: the same
//    thread runs both ops in program order, and wgmmas on the same accumulator retire in order;
//  - a reference broadcast over WARPGROUP or WARP dimensions becomes a named barrier of the
//    compute threads, over THREAD only a __syncwarp; the pipelined loop's event additionally
//    drains the wgmma queue (wait<0>);
//  - in a loop of several calls: a compute op waiting on a copy loaded once per tile waits on
//    that copy's mbarrier; a broadcast reference to the previous iteration's op (`@-1`: a buffer
//    it read is rewritten) is a named barrier (the wgmmas of every call have retired by then,
//    see emit_loop_call); one to an op before the loop is a named barrier in the first
//    iteration only; and such a barrier narrows to what the two ops can exchange data through
//    (fragment_ops.h, sharing_scope): nothing (only per-thread registers: dropped), one warp's
//    instance of a tensor (__syncwarp) or the warpgroup's rows (its own named barrier).
// Anything else is a Diagnostic naming the op and the reference.
#include "codegen/kernel_plan.h"

#include <string>
#include <vector>

namespace kiln::codegen {

enum class SyncKind {
    Dropped,        // satisfied by program order
    WaitFull,       // mbarrier wait: the stage's TMA bytes have landed
    WaitEmpty,      // mbarrier wait: every compute warp released the stage
    ComputeBarrier, // named barrier over all compute threads
    WarpSync,       // __syncwarp
    WaitOnce,       // mbarrier wait: the copy loaded once per tile has landed
    FirstBarrier,   // named barrier over all compute threads, first loop iteration only
    WarpgroupBarrier, // named barrier over the warpgroup's 128 threads
};

struct SyncAction {
    SyncKind kind = SyncKind::Dropped;
    std::string ref; // the reference as printed, for the comment
    std::string why;
    std::string event; // the referenced op (its result name)
};

// The actions for every reference in `op.after` (one per reference, in order).
std::vector<SyncAction> lower_refs(const KernelPlan& plan, const event::Op& op);

} // namespace kiln::codegen
