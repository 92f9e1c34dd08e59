#include "codegen/sync_lowering.h"

#include "codegen/fragment_ops.h"
#include "ir/event_printer.h"

#include <algorithm>

namespace kiln::codegen {
namespace {

bool contains(const std::vector<const event::Op*>& ops, const std::string& event) {
    return std::any_of(ops.begin(), ops.end(),
                       [&](const event::Op* o) { return o->result == event; });
}

bool point_wise(const event::EventRef& ref, const event::Op& op) {
    if (ref.index.size() != op.over.size())
        return false;
    for (size_t d = 0; d < ref.index.size(); ++d) {
        const auto& e = ref.index[d];
        if (!e || e->kind != ir::ExprKind::Name || e->name != op.over[d].var)
            return false;
    }
    return true;
}

bool all_broadcast(const event::EventRef& ref) {
    return !ref.index.empty() &&
           std::all_of(ref.index.begin(), ref.index.end(), [](const auto& e) { return !e; });
}

// The coarsest processor level a broadcast reference synchronizes over the compute dimensions.
SyncKind broadcast_kind(const KernelPlan& plan, const event::EventRef& ref) {
    bool above_thread = false;
    for (size_t d = 0; d < ref.index.size() && d < plan.compute_dims.size(); ++d)
        if (!ref.index[d] && plan.compute_dims[d].level != ir::Level::Thread)
            above_thread = true;
    return above_thread ? SyncKind::ComputeBarrier : SyncKind::WarpSync;
}

SyncAction dma_ref(const KernelPlan& plan, const event::Op& op, const event::EventRef& ref) {
    if (ref.cross && ref.distance == plan.stages && contains(plan.loop_calls, ref.id) &&
        all_broadcast(ref))
        return {SyncKind::WaitEmpty, "", "every compute warp released this stage", {}};
    unsupported(op, "reference " + event::print_ref(ref) +
                        " of a DMA copy is not the stage's write-after-read edge (cross, "
                        "broadcast, distance = pipeline depth " +
                        std::to_string(plan.stages) + ")");
}

SyncAction compute_ref(const KernelPlan& plan, const event::Op& op, const event::EventRef& ref) {
    bool in_loop = contains(plan.loop_body, op.result);
    if (ref.cross && ref.distance == 0 && in_loop && contains(plan.dma_copies, ref.id))
        return {SyncKind::WaitFull, "", "the TMA completed this stage's bytes", {}};
    if (ref.cross && ref.distance == 0 && contains(plan.once_copies, ref.id))
        return {SyncKind::WaitOnce, "", "the TMA completed the tile's copy", {}};
    if (ref.cross)
        unsupported(op, "cross reference " + event::print_ref(ref) +
                            " is not to a DMA copy of the same iteration or tile");
    if (contains(plan.post_grids, ref.id))
        unsupported(op, "reference " + event::print_ref(ref) +
                            " is to an element-wise kernel launched after this one (kernels run "
                            "in program order)");
    if (contains(plan.pre_grids, ref.id) && ref.distance == 0)
        return {SyncKind::Dropped, "", "kernel order: that element-wise kernel completed before this one", {}};
    if (point_wise(ref, op) && ref.id == op.result && ref.distance == 1)
        return {SyncKind::Dropped, "", "accumulator chain: wgmmas of a warpgroup retire in order", {}};
    if (point_wise(ref, op) && ref.distance == 1 && in_loop && contains(plan.loop_body, ref.id))
        return {SyncKind::Dropped, "", "point-wise: program order of the same thread", {}};
    if (ref.distance == 1 && in_loop && !plan.single_call_loop() &&
        contains(plan.loop_body, ref.id) && ref.index.size() == plan.compute_dims.size())
        return {broadcast_kind(plan, ref), "",
                "the previous iteration's op, broadcast over compute processors (its wgmmas "
                "retired)", {}};
    if (ref.distance != 0)
        unsupported(op, "loop-carried reference " + event::print_ref(ref) + " is not supported");
    if (point_wise(ref, op))
        return {SyncKind::Dropped, "", "point-wise: program order of the same thread", {}};
    if (ref.id == plan.loop->result) {
        const auto& yield = plan.loop->loop.body.yield;
        SyncKind k = yield ? broadcast_kind(plan, *yield) : SyncKind::Dropped;
        return {k, "",
                "the pipelined loop's yield " + (yield ? event::print_ref(*yield) : "") +
                    " (wgmma queue drained)", {}};
    }
    if (in_loop && contains(plan.before_loop, ref.id) &&
        ref.index.size() == plan.compute_dims.size()) {
        SyncKind k = broadcast_kind(plan, ref);
        return {k == SyncKind::ComputeBarrier ? SyncKind::FirstBarrier : k, "",
                "an op before the loop, broadcast over compute processors", {}};
    }
    bool compute_event = contains(plan.before_loop, ref.id) ||
                         contains(plan.after_loop, ref.id) || contains(plan.loop_body, ref.id);
    if (compute_event && ref.index.size() == plan.compute_dims.size())
        return {broadcast_kind(plan, ref), "", "broadcast over compute processors", {}};
    unsupported(op, "reference " + event::print_ref(ref) + " has no lowering");
}

const event::Op* compute_op(const KernelPlan& plan, const std::string& id) {
    for (const auto* list : {&plan.before_loop, &plan.loop_body, &plan.after_loop})
        for (const auto* o : *list)
            if (o->result == id)
                return o;
    return nullptr;
}

// In a loop of several calls, a barrier between two compute ops narrows to the processors they
// can exchange data between.
SyncAction narrow(const KernelPlan& plan, const event::Op& op, const event::EventRef& ref,
                  SyncAction a) {
    const bool barrier = a.kind == SyncKind::ComputeBarrier || a.kind == SyncKind::FirstBarrier;
    const event::Op* target = compute_op(plan, ref.id);
    if (plan.single_call_loop() || !barrier || !target)
        return a;
    switch (sharing_scope(plan, op, *target)) {
    case SharingScope::None:
        return {SyncKind::Dropped, "", a.why + "; only per-thread registers are shared", {}};
    case SharingScope::Warp:
        return {SyncKind::WarpSync, "", a.why + "; the warp's own instance is shared", {}};
    case SharingScope::Warpgroup:
        return {SyncKind::WarpgroupBarrier, "", a.why + "; the warpgroup's own rows are shared",
                {}};
    case SharingScope::All:
        break;
    }
    return a;
}

} // namespace

std::vector<SyncAction> lower_refs(const KernelPlan& plan, const event::Op& op) {
    std::vector<SyncAction> out;
    for (const auto& ref : op.after) {
        SyncAction a =
            op.role == event::Role::Dma ? dma_ref(plan, op, ref) : narrow(plan, op, ref, compute_ref(plan, op, ref));
        a.ref = event::print_ref(ref);
        a.event = ref.id;
        out.push_back(a);
    }
    return out;
}

} // namespace kiln::codegen
