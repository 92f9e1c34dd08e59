// The dependence-preserving patterns of copy elimination (declared in copy_patterns.h).
#include "passes/copy_patterns.h"

#include "passes/copy_elim_index.h"
#include "passes/event_rewrite.h"

#include <algorithm>
#include <set>

namespace kiln::passes {

using event::Block;
using event::EventRef;
using event::Op;
using event::OpKind;
using event::View;

namespace {

// The copy moves data between `x` (whole) and `v`, in either direction.
bool copies_between(const CopyElimIndex& ix, const Op& op, const std::string& x, const View& v) {
    if (op.kind != OpKind::Copy)
        return false;
    return (op.src.whole() && op.src.name == x && ix.same_piece(op.dst, v, op)) ||
           (op.dst.whole() && op.dst.name == x && ix.same_piece(op.src, v, op));
}

// X can be the view V it mirrors: same memory, element type, shape and layout, so nothing but
// the copies between them tells them apart.
bool same_storage(const CopyElimIndex& ix, const Op& x, const View& v) {
    const Op* root = ix.alloc_of(ix.root_of(v));
    const auto& a = x.alloc;
    return root && root != &x && !a.param && a.memory == root->alloc.memory &&
           a.dtype == root->alloc.dtype && a.shape == ix.shape_of(v) && a.stages == 1 &&
           root->alloc.stages == 1 && (!a.layout || a.layout == root->alloc.layout);
}

// Folding X into V is sound when every other access to V's tensor is ordered before or after
// all accesses to X (so redirecting X's accesses to V creates no race and changes no value).
bool foldable(const CopyElimIndex& ix, const Op& x, const View& v) {
    if (!same_storage(ix, x, v) || !ix.visible_at(v, x))
        return false;
    const std::string X = x.alloc.name, R = ix.root_of(v);
    std::vector<const Op*> accessors, others;
    bool written = false, read = false;
    for (const auto& s : ix.sites()) {
        const Op& op = *s.op;
        const bool boundary = copies_between(ix, op, X, v);
        if (boundary && op.mode != event::CopyMode::Assign)
            return false;
        if (ix.accesses(op, X)) {
            accessors.push_back(&op);
            written |= ix.writes(op).count(X) && !(boundary && op.dst.name == X);
            read |= ix.reads(op).count(X) && !(boundary && op.src.name == X);
        } else if (ix.accesses(op, R)) {
            others.push_back(&op);
        }
    }
    // A padded piece reads back zeros outside V: only a tensor written then read would notice.
    if (accessors.empty() || (written && read && !ix.exact_pieces(v)))
        return false;
    // Written instances of X (one per processor) must land in different, disjoint pieces of V.
    const auto names = ix.names_in(v);
    const auto chain = ix.chain_of(v);
    if (written && (std::any_of(x.over.begin(), x.over.end(),
                                [&](const event::ProcDim& d) { return !names.count(d.var); }) ||
                    std::any_of(chain.begin(), chain.end(), [](const event::Partition* q) {
                        return !ir::partition_disjoint(q->spec);
                    })))
        return false;
    for (const Op* o : others) {
        if (!written && !ix.writes(*o).count(R))
            continue;
        // In a `for` around X's accesses but not its alloc, the other access of one iteration
        // would reach X's accesses of the next.
        for (const Op* loop : ix.site(*o).loops) {
            const OpSite& l = ix.site(*loop);
            if (loop->kind == OpKind::For && !CopyElimIndex::within(ix.site(x), l) &&
                std::any_of(accessors.begin(), accessors.end(),
                            [&](const Op* a) { return CopyElimIndex::within(ix.site(*a), l); }))
                return false;
        }
        const bool before = std::all_of(accessors.begin(), accessors.end(),
                                        [&](const Op* a) { return ix.happens_before(*o, *a); });
        const bool after = std::all_of(accessors.begin(), accessors.end(),
                                       [&](const Op* a) { return ix.happens_before(*a, *o); });
        if (!before && !after)
            return false;
    }
    return true;
}

} // namespace

bool fold_mirror(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        const Op& x = *s.op;
        if (x.kind != OpKind::Alloc || !x.alloc.mirrors || !foldable(ix, x, *x.alloc.mirrors))
            continue;
        const std::string name = x.alloc.name;
        const View v = *x.alloc.mirrors;
        erase_op(*s.block, x);
        rename_tensor(p.body, name, v);
        return true;
    }
    return false;
}

bool remove_self_copy(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        Op& op = *s.op;
        if (op.kind == OpKind::Copy && op.mode != event::CopyMode::Add &&
            ix.same_piece(op.src, op.dst, op)) {
            retire_as_join(op, "self copy of " + ix.key_of(op.src) + " removed");
            return true;
        }
    }
    return false;
}

bool remove_duplicate_copy(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        const Op& first = *s.op;
        if (!is_assign_copy(first))
            continue;
        const std::string src = ix.root_of(first.src), dst = ix.root_of(first.dst);
        for (const auto& t : ix.sites()) {
            if (t.block != s.block || t.order <= s.order)
                continue;
            Op& second = *t.op;
            if (ix.writes(second).count(src) || ix.writes(second).count(dst)) {
                if (is_assign_copy(second) && same_dims(second.over, first.over) &&
                    second.level == first.level && ix.same_piece(second.src, first.src, second) &&
                    ix.same_piece(second.dst, first.dst, second)) {
                    second.after.push_back(ref_to(first, second.over));
                    dedupe_refs(second.after);
                    retire_as_join(second, "duplicate of " + first.result + " removed");
                    return true;
                }
                break; // a different write of either tensor ends the search
            }
            // Nested writes (inside a loop between the copies) end it as well.
            bool nested_write = false;
            for (const auto& u : ix.sites())
                if (u.order > t.order && u.order <= t.end &&
                    (ix.writes(*u.op).count(src) || ix.writes(*u.op).count(dst)))
                    nested_write = true;
            if (nested_write)
                break;
        }
    }
    return false;
}

namespace {

// A later copy in the same block overwrites the same pieces before anything reads them.
bool overwritten(const CopyElimIndex& ix, const OpSite& s, const std::string& dst) {
    const Op& op = *s.op;
    if (!is_assign_copy(op))
        return false;
    for (const auto& t : ix.sites()) {
        if (t.order <= s.order)
            continue;
        if (ix.reads(*t.op).count(dst))
            return false;
        if (t.block == s.block && is_assign_copy(*t.op) && same_dims(t.op->over, op.over) &&
            ix.same_piece(t.op->dst, op.dst, *t.op))
            return true;
        if (t.block != s.block && !ix.inside(*t.op, *s.block))
            return false; // left the block: the overwrite is not certain
    }
    return false;
}

} // namespace

bool remove_dead_copy(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        Op& op = *s.op;
        if (op.kind != OpKind::Copy)
            continue;
        const std::string dst = ix.root_of(op.dst);
        const Op* alloc = ix.alloc_of(dst);
        if (!alloc || alloc->alloc.param)
            continue;
        // A reducing copy into the tensor reads it only to fold into it: not a consumer.
        auto consumes = [&](const OpSite& u) {
            const Op& o = *u.op;
            const bool folds_only = o.kind == OpKind::Copy && ix.root_of(o.src) != dst;
            return ix.reads(o).count(dst) && !folds_only;
        };
        const bool read = std::any_of(ix.sites().begin(), ix.sites().end(), consumes);
        if (!read || overwritten(ix, s, dst)) {
            retire_as_join(op, "dead copy into " + dst + " removed");
            return true;
        }
    }
    return false;
}

bool forward_join(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        const Op& join = *s.op;
        if (join.kind != OpKind::Join ||
            std::any_of(join.after.begin(), join.after.end(),
                        [](const EventRef& r) { return r.distance != 0; }))
            continue;
        bool in_yield = false;
        const auto consumers = ix.consumers_of(join.result, &in_yield);
        // A yield names one event; a join of several with several consumers stays (forwarding
        // it would repeat its list in each of them); one that nothing waits on just goes.
        if ((in_yield && join.after.size() != 1) ||
            (join.after.size() > 1 && consumers.size() + (in_yield ? 1 : 0) > 1))
            continue;
        const bool carried = std::any_of(consumers.begin(), consumers.end(), [&](const Op* c) {
            return std::any_of(c->after.begin(), c->after.end(), [&](const EventRef& r) {
                return r.id == join.result && r.distance != 0;
            });
        });
        if (carried)
            continue;
        const Op copy = join;
        replace_refs(p.body, copy.result, [&](const EventRef& r) {
            std::vector<EventRef> fwd;
            for (const auto& target : copy.after)
                fwd.push_back(substitute_ref(r, copy, target));
            return fwd;
        });
        erase_op(*s.block, join);
        return true;
    }
    return false;
}

namespace {

// Every instance of `x` waits (in the same iteration) on every instance of `y`: `x` names all of
// `y` in its preconditions, or all of an event that does. A loop's preconditions hold before
// its completion too.
bool waits_on_all(const CopyElimIndex& ix, const std::string& x, const std::string& y, int depth) {
    const Op* d = ix.definition(x);
    if (!d || depth > 8)
        return false;
    return std::any_of(d->after.begin(), d->after.end(), [&](const EventRef& r) {
        const bool all = r.distance == 0 && std::all_of(r.index.begin(), r.index.end(),
                                                        [](const ir::ExprPtr& e) { return !e; });
        return all && (r.id == y || waits_on_all(ix, r.id, y, depth + 1));
    });
}

} // namespace

bool remove_implied_wait(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        Op& op = *s.op;
        for (auto r = op.after.begin(); r != op.after.end(); ++r) {
            const bool implied = r->distance == 0 &&
                                 std::any_of(op.after.begin(), op.after.end(), [&](const auto& o) {
                                     return &o != &*r && o.distance == 0 && o.id != r->id &&
                                            waits_on_all(ix, o.id, r->id, 0);
                                 });
            if (implied) {
                op.after.erase(r);
                return true;
            }
        }
    }
    return false;
}

namespace {

// Tensors whose coordinates a leaf needs (`mask`): their `mirrors` chains must survive.
std::set<std::string> masked_tensors(const event::EventProgram& p, const CopyElimIndex& ix) {
    std::set<std::string> out;
    for (const auto& s : ix.sites()) {
        const Op& op = *s.op;
        const event::LeafDef* leaf = op.kind == OpKind::Call ? p.find_leaf(op.callee) : nullptr;
        if (!leaf)
            continue;
        for (const auto& lop : leaf->body) {
            if (lop.op != "mask" || lop.operands.empty() || !lop.operands[0].is_tensor())
                continue;
            std::size_t arg = 0;
            for (const auto& prm : leaf->params) {
                if (!prm.is_tensor)
                    continue;
                if (prm.name == lop.operands[0].tensor().name && arg < op.args.size())
                    out.insert(ix.root_of(op.args[arg]));
                ++arg;
            }
        }
    }
    return out;
}

std::set<std::string> used_names(const event::EventProgram& p, const CopyElimIndex& ix) {
    std::set<std::string> used;
    auto add = [&](const View& v) {
        auto n = ix.names_in(v);
        used.insert(n.begin(), n.end());
    };
    for (const auto& s : ix.sites()) {
        const Op& op = *s.op;
        if (op.kind == OpKind::Copy) {
            add(op.src);
            add(op.dst);
        }
        for (const auto& a : op.args)
            add(a);
        if (op.kind == OpKind::Part)
            used.insert(op.part.source.name);
    }
    std::vector<std::string> todo(0);
    for (const auto& t : masked_tensors(p, ix))
        todo.push_back(t);
    while (!todo.empty()) {
        const Op* a = ix.alloc_of(todo.back());
        todo.pop_back();
        if (!a || !a->alloc.mirrors)
            continue;
        add(*a->alloc.mirrors);
        todo.push_back(ix.root_of(*a->alloc.mirrors));
    }
    return used;
}

void drop_dangling_mirrors(Block& b, const std::set<std::string>& removed) {
    for (auto& op : b.ops) {
        if (op.kind == OpKind::Alloc && op.alloc.mirrors && removed.count(op.alloc.mirrors->name))
            op.alloc.mirrors.reset();
        if (op.kind == OpKind::For || op.kind == OpKind::PFor)
            drop_dangling_mirrors(op.loop.body, removed);
    }
}

void erase_declarations(Block& b, const std::set<std::string>& removed) {
    auto dead = [&](const Op& op) {
        return (op.kind == OpKind::Alloc && removed.count(op.alloc.name)) ||
               (op.kind == OpKind::Part && removed.count(op.part.name));
    };
    b.ops.erase(std::remove_if(b.ops.begin(), b.ops.end(), dead), b.ops.end());
    for (auto& op : b.ops)
        if (op.kind == OpKind::For || op.kind == OpKind::PFor)
            erase_declarations(op.loop.body, removed);
}

} // namespace

bool remove_dead_declarations(event::EventProgram& p) {
    std::set<std::string> removed;
    {
        CopyElimIndex ix(p);
        const auto used = used_names(p, ix);
        for (const auto& s : ix.sites()) {
            const Op& op = *s.op;
            if (op.kind == OpKind::Alloc && !op.alloc.param && !used.count(op.alloc.name))
                removed.insert(op.alloc.name);
            if (op.kind == OpKind::Part && !used.count(op.part.name))
                removed.insert(op.part.name);
        }
    }
    if (removed.empty())
        return false;
    erase_declarations(p.body, removed);
    drop_dangling_mirrors(p.body, removed);
    return true;
}

} // namespace kiln::passes
