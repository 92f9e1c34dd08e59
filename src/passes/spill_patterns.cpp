// The spill patterns of copy elimination (declared in copy_patterns.h): Cypress Figure 10(a)
// spill elimination and Figure 10(b) spill hoisting.
#include "passes/copy_elim_index.h"
#include "passes/copy_patterns.h"
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

// T and T' can stand for each other: same storage kind, element type, shape and replication.
bool interchangeable(const Op& a, const Op& b) {
    const auto &x = a.alloc, &y = b.alloc;
    return !x.param && !y.param && x.memory == y.memory && x.dtype == y.dtype &&
           x.shape == y.shape && x.layout == y.layout && x.stages == 1 && y.stages == 1 &&
           same_dims(a.over, b.over);
}

bool any_site(const CopyElimIndex& ix, int from, int to,
              const std::function<bool(const Op&)>& pred) {
    for (const auto& s : ix.sites())
        if (s.order > from && s.order < to && pred(*s.op))
            return true;
    return false;
}

// The reference waits only on copy-outs of spill pairs (directly or through joins): the broadcast
// a copy-in needed to see every piece of V written. Each of those pairs is itself eliminable, and
// its own copy-in keeps a point-wise wait on its copy-out, so nothing that needs the data of one
// loses it (two accumulators copied out by one join, as in dual_gemm, drop their broadcast too).
bool waits_only_on(const CopyElimIndex& ix, const EventRef& r, const std::set<std::string>& outs) {
    if (outs.count(r.id))
        return true;
    const Op* d = ix.definition(r.id);
    return d && d->kind == OpKind::Join && !d->after.empty() &&
           std::all_of(d->after.begin(), d->after.end(),
                       [&](const EventRef& x) { return waits_only_on(ix, x, outs); });
}

// `op` writes all of tensor `t` (named whole, not through a partition) without reading it.
bool overwrites_whole(const CopyElimIndex& ix, const Op& op, const std::string& t) {
    if (ix.reads(op).count(t) || !ix.writes(op).count(t))
        return false;
    if (op.kind == OpKind::Copy)
        return op.dst.whole() && op.dst.name == t;
    return std::any_of(op.args.begin(), op.args.end(),
                       [&](const View& v) { return v.whole() && v.name == t; });
}

bool spill_pair(const CopyElimIndex& ix, const Op& out, const Op& in) {
    const std::string T = out.src.name, Tp = in.dst.name;
    const Op *aT = ix.alloc_of(T), *aTp = ix.alloc_of(Tp);
    const Op* aV = ix.alloc_of(ix.root_of(out.dst));
    if (T == Tp || !aT || !aTp || !aV || !interchangeable(*aT, *aTp) ||
        aV->alloc.dtype != aT->alloc.dtype || !same_dims(out.over, in.over) ||
        out.level != in.level || !ix.exact_pieces(out.dst))
        return false;
    const std::string V = ix.root_of(out.dst);
    const int o = ix.site(out).order, i = ix.site(in).order;
    // Nothing writes V's tensor or touches T between the copies (T' writers will wait for the
    // copy-out only); T' is fresh before the copy-in and T is never touched after it (T' takes
    // its place from there on).
    if (any_site(ix, o, i, [&](const Op& x) { return ix.writes(x).count(V) || ix.accesses(x, T); }))
        return false;
    if (any_site(ix, -1, i, [&](const Op& x) { return ix.accesses(x, Tp); }) ||
        any_site(ix, i, int(ix.sites().size()), [&](const Op& x) { return ix.accesses(x, T); }))
        return false;
    // In a `for`, the next iteration's reads of T before the copy-out would see T' writes,
    // unless the iteration starts by overwriting T.
    for (const Op* loop : ix.site(out).loops) {
        if (loop->kind != OpKind::For)
            continue;
        const int start = ix.site(*loop).order;
        const Op* first = nullptr;
        for (const auto& x : ix.sites())
            if (!first && x.order > start && x.order < o && ix.accesses(*x.op, T))
                first = x.op;
        const bool refreshed = first && overwrites_whole(ix, *first, T);
        if (first && !refreshed)
            return false;
    }
    const Block& scope = *ix.site(*aT).block;
    for (const Op* user : ix.users_of(Tp))
        if (!ix.inside(*user, scope))
            return false;
    return true;
}

struct SpillPair {
    Op* out;
    Op* in;
};

// What eliminating one pair does, computed before any pair of the batch is applied.
struct SpillPlan {
    std::string in, T, Tp;
    std::vector<EventRef> after;
};

SpillPlan plan_spill(const CopyElimIndex& ix, const SpillPair& pair,
                     const std::set<std::string>& outs) {
    SpillPlan plan{pair.in->result, pair.out->src.name, pair.in->dst.name, {}};
    plan.after.push_back(ref_to(*pair.out, pair.in->over));
    for (const auto& r : pair.in->after)
        if (!waits_only_on(ix, r, outs))
            plan.after.push_back(r);
    return plan;
}

void erase_alloc(Block& b, const std::string& tensor) {
    auto named = [&](const Op& op) { return op.kind == OpKind::Alloc && op.alloc.name == tensor; };
    b.ops.erase(std::remove_if(b.ops.begin(), b.ops.end(), named), b.ops.end());
    for (auto& op : b.ops)
        if (op.kind == OpKind::For || op.kind == OpKind::PFor)
            erase_alloc(op.loop.body, tensor);
}

void apply_spill(event::EventProgram& p, const SpillPlan& plan) {
    event::walk(p.body, [&](Op& op) {
        if (op.result != plan.in)
            return;
        op.after = plan.after;
        retire_as_join(op,
                       "spill of " + plan.T + " eliminated (" + plan.Tp + " is " + plan.T + ")");
    });
    rename_tensor(p.body, plan.Tp, View{plan.T, {}});
    erase_alloc(p.body, plan.Tp);
}

} // namespace

bool eliminate_spill(event::EventProgram& p) {
    CopyElimIndex ix(p);
    std::vector<SpillPair> pairs;
    for (const auto& s : ix.sites()) {
        Op& out = *s.op;
        if (!is_assign_copy(out) || !out.src.whole())
            continue;
        auto& ops = s.block->ops;
        auto at = std::find_if(ops.begin(), ops.end(), [&](const Op& o) { return &o == &out; });
        for (auto it = at + 1; it != ops.end(); ++it)
            if (is_assign_copy(*it) && it->dst.whole() && same_dims(out.over, it->over) &&
                ix.same_piece(it->src, out.dst, *it) && spill_pair(ix, out, *it)) {
                pairs.push_back({&out, &*it});
                break;
            }
    }
    if (pairs.empty())
        return false;
    std::set<std::string> outs;
    for (const auto& x : pairs)
        outs.insert(x.out->result);
    // Outer processor levels first, and every independent pair of a level at once: the next
    // level's copy-ins then wait on their copy-outs only through joins of this level's (dead)
    // copy-outs, so their broadcast goes too. Pairs sharing a tensor wait for the next round.
    std::size_t level = pairs.front().out->over.size();
    for (const auto& x : pairs)
        level = std::min(level, x.out->over.size());
    std::set<std::string> claimed;
    std::vector<SpillPlan> plans;
    for (const auto& x : pairs) {
        const std::string names[] = {x.out->src.name, x.in->dst.name, ix.root_of(x.out->dst)};
        if (x.out->over.size() != level ||
            std::any_of(std::begin(names), std::end(names),
                        [&](const std::string& n) { return claimed.count(n) > 0; }))
            continue;
        claimed.insert(std::begin(names), std::end(names));
        plans.push_back(plan_spill(ix, x, outs));
    }
    for (const auto& plan : plans)
        apply_spill(p, plan);
    return true;
}

namespace {

struct Hoist {
    Op* loop;
    Op* in;
    Op* out;
    std::vector<const Op*> parts; // partitions of V declared in the loop body
};

bool hoistable(const CopyElimIndex& ix, Hoist& h) {
    const Op &loop = *h.loop, &in = *h.in, &out = *h.out;
    const OpSite& L = ix.site(loop);
    const std::string T = in.dst.name, V = ix.root_of(in.src);
    const Op *aT = ix.alloc_of(T), *aV = ix.alloc_of(V);
    if (!aT || !aV || aT->alloc.param || aT->alloc.stages != 1 ||
        ix.site(*aT).block != &loop.loop.body || CopyElimIndex::within(ix.site(*aV), L) ||
        !same_dims(in.over, out.over))
        return false;
    auto names = ix.names_in(in.src);
    if (names.count(loop.loop.vars.front()))
        return false;
    for (const auto* part : ix.chain_of(in.src)) {
        const Op* decl = ix.part_of(part->name);
        if (CopyElimIndex::within(ix.site(*decl), L)) {
            if (ix.site(*decl).block != &loop.loop.body)
                return false;
            h.parts.push_back(decl);
        }
    }
    for (const auto& r : in.after) {
        const Op* d = ix.definition(r.id);
        if (!d || r.distance != 0 || CopyElimIndex::within(ix.site(*d), L))
            return false;
    }
    const int i = ix.site(in).order, o = ix.site(out).order;
    for (const auto& s : ix.sites()) {
        if (!CopyElimIndex::within(s, L) || s.op == &in || s.op == &out)
            continue;
        if (ix.accesses(*s.op, V) || (ix.accesses(*s.op, T) && (s.order < i || s.order > o)))
            return false;
    }
    return true;
}

std::string fresh_event(const CopyElimIndex& ix, const std::string& base) {
    std::string id = base + "_all";
    for (int n = 2; ix.definition(id); ++n)
        id = base + "_all" + std::to_string(n);
    return id;
}

void apply_hoist(event::EventProgram& p, const CopyElimIndex& ix, Hoist& h) {
    Op& loop = *h.loop;
    const OpSite L = ix.site(loop);
    Block& body = loop.loop.body;

    std::vector<Op> before;
    for (const Op& op : body.ops)
        if (std::find(h.parts.begin(), h.parts.end(), &op) != h.parts.end())
            before.push_back(op);
    before.push_back(*ix.alloc_of(h.in->dst.name));
    Op in = *h.in;
    in.after.insert(in.after.end(), loop.after.begin(), loop.after.end());
    dedupe_refs(in.after);
    before.push_back(in);

    // The copy-out leaves the iteration: what waited on it there (nothing in the loop touches V
    // or, after it, T) waits on what it waited on.
    Op out = *h.out;
    replace_refs(body, out.result, [&](const EventRef& r) {
        std::vector<EventRef> fwd;
        for (const auto& target : out.after)
            fwd.push_back(substitute_ref(r, out, target));
        return fwd;
    });
    std::set<const Op*> moved(h.parts.begin(), h.parts.end());
    moved.insert({ix.alloc_of(h.in->dst.name), h.in, h.out});
    std::vector<Op> kept;
    for (auto& op : body.ops)
        if (!moved.count(&op))
            kept.push_back(std::move(op));
    body.ops = std::move(kept);

    // What waited on the loop now waits on the loop and the copy-out: a join of both.
    const std::string whole = fresh_event(ix, loop.result);
    replace_refs(p.body, loop.result, [&](const EventRef& r) {
        EventRef j = r;
        j.id = whole;
        return std::vector<EventRef>{j};
    });
    std::vector<EventRef> outer;
    for (const auto& r : out.after)
        if (const Op* d = ix.definition(r.id); d && !CopyElimIndex::within(ix.site(*d), L))
            outer.push_back(r);
    out.after = {ref_to(loop, out.over)};
    out.after.insert(out.after.end(), outer.begin(), outer.end());
    Op join;
    join.kind = OpKind::Join;
    join.result = whole;
    join.level = loop.level;
    join.over = loop.over;
    join.after = {ref_to(loop, loop.over), ref_to(out, loop.over)};
    join.note = "the loop and its hoisted copy-out";
    join.loc = loop.loc;

    auto& ops = L.block->ops;
    auto at = std::find_if(ops.begin(), ops.end(), [&](const Op& o) { return &o == &loop; });
    const auto index = at - ops.begin();
    ops.insert(ops.begin() + index + 1, {out, join});
    ops.insert(ops.begin() + index, before.begin(), before.end());
}

} // namespace

bool hoist_spill(event::EventProgram& p) {
    CopyElimIndex ix(p);
    for (const auto& s : ix.sites()) {
        Op& loop = *s.op;
        if (loop.kind != OpKind::For || loop.loop.controls.pipeline > 0)
            continue;
        auto& ops = loop.loop.body.ops;
        for (auto in = ops.begin(); in != ops.end(); ++in) {
            if (!is_assign_copy(*in) || !in->dst.whole())
                continue;
            for (auto out = in + 1; out != ops.end(); ++out) {
                // Structurally the same view (not merely the same elements): the copy-out
                // leaves the loop with the partitions of the copy-in's view, hoisted with it.
                if (!is_assign_copy(*out) || !out->src.whole() || out->src.name != in->dst.name ||
                    ix.key_of(out->dst) != ix.key_of(in->src))
                    continue;
                Hoist h{&loop, &*in, &*out, {}};
                if (hoistable(ix, h)) {
                    apply_hoist(p, ix, h);
                    return true;
                }
            }
        }
    }
    return false;
}

} // namespace kiln::passes
