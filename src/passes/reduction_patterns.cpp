// Reduction folding, a dependence-preserving pattern of copy elimination (declared in
// copy_patterns.h).
//
// depend gives every level a `reduce` argument passes through a fresh private tensor: filled with
// the reduction's identity, folded into by the level below (`copy add|max`), then folded into the
// caller's view. When the mapping gives that tensor no storage (NONE), the private copy is only a
// way of grouping: by associativity and commutativity of the reduction, the folds from below can
// go straight into the caller's view. This is what lets a per-thread register partial reach a
// global result with nothing in between (GEMM + row sum: each lane's two row sums are added into
// the output rows directly, which codegen lowers to a quad shuffle and one atomic per row).
#include "passes/copy_patterns.h"

#include "passes/copy_elim_index.h"
#include "passes/event_rewrite.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace kiln::passes {

using event::CopyMode;
using event::EventRef;
using event::Op;
using event::OpKind;
using event::View;

namespace {

// A NONE tensor that exists only to gather a reduction: filled with the identity, folded into,
// and folded into the view it mirrors.
struct ReductionBuffer {
    const Op* alloc = nullptr;
    CopyMode mode = CopyMode::Add;
    std::vector<const Op*> identities; // calls that fill it with the identity
    std::vector<const Op*> folds;      // reducing copies into (pieces of) it from elsewhere
    const Op* out = nullptr;           // the reducing copy of it into the view it mirrors
};

double identity_of(CopyMode mode) {
    return mode == CopyMode::Max ? -std::numeric_limits<double>::infinity() : 0.0;
}

// `op` is a call whose leaf only fills its one argument, all of tensor `x`, with `value`.
bool fills_whole(const event::EventProgram& p, const Op& op, const std::string& x, double value) {
    const event::LeafDef* leaf = op.kind == OpKind::Call ? p.find_leaf(op.callee) : nullptr;
    if (!leaf || leaf->body.size() != 1 || op.args.size() != 1 || !op.args[0].whole() ||
        op.args[0].name != x)
        return false;
    const ir::LeafOp& fill = leaf->body[0];
    if (fill.op != "fill" || fill.operands.size() != 2 || fill.operands[1].is_tensor())
        return false;
    auto v = ir::evaluate(*fill.operands[1].scalar(), ir::lookup_in({}));
    return v && v->as_double() == value;
}

// The roles every access of `x` plays, or nothing when one access is anything else.
std::optional<ReductionBuffer> classify_accesses(const event::EventProgram& p,
                                                 const CopyElimIndex& ix, const Op& x) {
    const View& target = *x.alloc.mirrors;
    const std::string X = x.alloc.name;
    ReductionBuffer rb;
    rb.alloc = &x;
    std::vector<const Op*> calls;
    std::set<CopyMode> modes;
    for (const auto& s : ix.sites()) {
        const Op& op = *s.op;
        if (!ix.accesses(op, X))
            continue;
        const bool reducing = op.kind == OpKind::Copy && op.mode != CopyMode::Assign;
        if (reducing && op.src.whole() && op.src.name == X && same_dims(op.over, x.over) &&
            ix.same_piece(op.dst, target, op) && !rb.out) {
            rb.out = &op;
        } else if (reducing && ix.root_of(op.dst) == X && ix.root_of(op.src) != X) {
            rb.folds.push_back(&op);
        } else if (op.kind == OpKind::Call) {
            calls.push_back(&op);
            continue;
        } else {
            return std::nullopt;
        }
        modes.insert(op.mode);
    }
    if (!rb.out || modes.size() != 1)
        return std::nullopt;
    rb.mode = *modes.begin();
    for (const Op* c : calls)
        if (!fills_whole(p, *c, X, identity_of(rb.mode)))
            return std::nullopt;
    rb.identities = calls;
    return rb;
}

std::optional<ReductionBuffer> reduction_buffer(const event::EventProgram& p,
                                                const CopyElimIndex& ix, const Op& x) {
    if (x.kind != OpKind::Alloc || x.alloc.param || x.alloc.memory != ir::Memory::None ||
        !x.alloc.mirrors || x.alloc.stages != 1 || !ix.visible_at(*x.alloc.mirrors, x))
        return std::nullopt;
    const Op* root = ix.alloc_of(ix.root_of(*x.alloc.mirrors));
    if (!root || root->alloc.dtype != x.alloc.dtype ||
        ix.shape_of(*x.alloc.mirrors) != x.alloc.shape)
        return std::nullopt;
    return classify_accesses(p, ix, x);
}

// The copy-out's preconditions from before the buffer existed: what the folds must now wait for
// themselves, since they write the caller's view directly (e.g. the kernel that zeroes it).
std::vector<EventRef> outer_preconditions(const CopyElimIndex& ix, const ReductionBuffer& rb) {
    std::vector<EventRef> out;
    const int born = ix.site(*rb.alloc).order;
    for (const auto& r : rb.out->after) {
        const Op* def = ix.definition(r.id);
        if (def && ix.site(*def).order < born && r.distance == 0)
            out.push_back(r);
    }
    return out;
}

// A reference written for the copy-out also reads right in `fold`: each variable it indexes by
// is one of the fold's processor variables (the fold runs nested inside the copy-out's scope).
bool valid_in(const EventRef& r, const Op& fold) {
    for (const auto& e : r.index) {
        if (!e)
            continue;
        std::vector<std::string> names;
        ir::collect_names(*e, names);
        for (const auto& n : names)
            if (std::none_of(fold.over.begin(), fold.over.end(),
                             [&](const event::ProcDim& d) { return d.var == n; }))
                return false;
    }
    return true;
}

// After the rewrite, every other access to the target's tensor is ordered before all the folds
// or after all of them, or is itself a fold of the same kind (they commute).
bool folds_are_ordered(event::EventProgram& p, const std::set<std::string>& folds,
                       const std::string& root, CopyMode mode) {
    CopyElimIndex ix(p);
    std::vector<const Op*> fold_ops, others;
    for (const auto& s : ix.sites()) {
        const Op& op = *s.op;
        if (folds.count(op.result))
            fold_ops.push_back(&op);
        else if (ix.accesses(op, root))
            others.push_back(&op);
    }
    return std::all_of(others.begin(), others.end(), [&](const Op* o) {
        const bool commutes = o->kind == OpKind::Copy && o->mode == mode &&
                              ix.root_of(o->dst) == root && ix.root_of(o->src) != root;
        auto before = [&](const Op* f) { return ix.happens_before(*o, *f); };
        auto after = [&](const Op* f) { return ix.happens_before(*f, *o); };
        return commutes || std::all_of(fold_ops.begin(), fold_ops.end(), before) ||
               std::all_of(fold_ops.begin(), fold_ops.end(), after);
    });
}

// Rewrites `rb` in a copy of `p`: the folds target the mirrored view and wait for the copy-out's
// outer preconditions; the fills and the copy-out become joins; the buffer goes.
std::optional<event::EventProgram>
fold_into_target(const event::EventProgram& p, const CopyElimIndex& ix, const ReductionBuffer& rb) {
    const auto outer = outer_preconditions(ix, rb);
    std::set<std::string> fold_ids;
    for (const Op* f : rb.folds) {
        fold_ids.insert(f->result);
        if (!std::all_of(outer.begin(), outer.end(),
                         [&](const EventRef& r) { return valid_in(r, *f); }))
            return std::nullopt;
    }
    const std::string X = rb.alloc->alloc.name, out_id = rb.out->result;
    const View target = *rb.alloc->alloc.mirrors;
    std::set<std::string> identity_ids;
    for (const Op* c : rb.identities)
        identity_ids.insert(c->result);
    event::EventProgram q = p;
    event::walk(q.body, [&](Op& op) {
        if (fold_ids.count(op.result)) {
            op.after.insert(op.after.end(), outer.begin(), outer.end());
            dedupe_refs(op.after);
        } else if (identity_ids.count(op.result)) {
            retire_as_join(op, "identity of " + X + " folded away");
        } else if (op.result == out_id) {
            retire_as_join(op, "reduction " + X + " folded into " + target.name);
        }
    });
    {
        CopyElimIndex qx(q);
        const Op* alloc = qx.alloc_of(X);
        erase_op(*qx.site(*alloc).block, *alloc);
    }
    rename_tensor(q.body, X, target);
    if (!folds_are_ordered(q, fold_ids, ix.root_of(target), rb.mode))
        return std::nullopt;
    return q;
}

} // namespace

bool fold_reduction(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        auto rb = reduction_buffer(p, ix, *s.op);
        if (!rb)
            continue;
        if (auto q = fold_into_target(p, ix, *rb)) {
            p = std::move(*q);
            return true;
        }
    }
    return false;
}

} // namespace kiln::passes
