#include "passes/pipeline_loops.h"

#include "passes/add_ref.h"
#include "passes/happens_before.h"
#include "passes/tensor_access.h"

#include <algorithm>
#include <set>

namespace kiln::passes {

using event::Op;
using event::OpKind;

namespace {

bool is_dma_copy(const Op& op) {
    return op.kind == OpKind::Copy && op.role == event::Role::Dma;
}

bool contains_dma_copy(const Op& loop) {
    return std::any_of(loop.loop.body.ops.begin(), loop.loop.body.ops.end(), is_dma_copy);
}

// What the pass changes in one loop, decided before any edit.
struct LoopPlan {
    const Op* loop;
    int64_t depth;
    std::vector<const Op*> staged; // allocs
    std::vector<PendingRef> refs;
};

// The operation of `loop`'s body that is or contains `op`.
const Op* in_body(const Op& op, const Op& loop, const HappensBefore& hb) {
    const auto& loops = hb.loops_around(op);
    auto it = std::find(loops.begin(), loops.end(), &loop);
    if (it == loops.end())
        return nullptr;
    return it + 1 == loops.end() ? &op : *(it + 1);
}

std::vector<const Op*> staged_tensors(const Op& loop, const TensorAccess& access) {
    std::vector<const Op*> out;
    for (const Op& op : loop.loop.body.ops) {
        if (op.kind != OpKind::Alloc || op.alloc.memory != ir::Memory::Shared)
            continue;
        const auto& users = access.accesses(op.alloc.name);
        bool dma_written = std::any_of(users.begin(), users.end(), [&](const Op* u) {
            return is_dma_copy(*u) && access.use(*u).writes.count(op.alloc.name);
        });
        if (dma_written)
            out.push_back(&op);
    }
    return out;
}

// The body-level accesses of tensor `t` in `loop`, in textual order.
std::vector<const Op*> body_accesses(const std::string& t, const Op& loop,
                                     const TensorAccess& access, const HappensBefore& hb) {
    std::vector<const Op*> out;
    for (const Op* op : access.accesses(t))
        if (const Op* lifted = in_body(*op, loop, hb))
            if (std::find(out.begin(), out.end(), lifted) == out.end())
                out.push_back(lifted);
    return out;
}

struct Carried {
    const Op* consumer; // in iteration k
    const Op* producer; // in iteration k - d
};

bool no_later(const Op* a, const Op* b, const HappensBefore& hb) {
    return a == b || hb.before(*a, *b);
}

// Every conflicting pair, less those another pair implies: (x, y) is implied by (x2, y2) when
// x2 ends before x starts and y ends before y2 does, in one iteration.
std::vector<Carried> carried_conflicts(const std::string& t, const std::vector<const Op*>& ops,
                                       const TensorAccess& access, const HappensBefore& hb) {
    auto writes = [&](const Op* op) { return access.use(*op).writes.count(t) > 0; };
    std::vector<Carried> all;
    for (const Op* x : ops)
        for (const Op* y : ops)
            if (writes(x) || writes(y))
                all.push_back({x, y});
    std::vector<Carried> kept;
    for (const auto& c : all) {
        bool implied = std::any_of(all.begin(), all.end(), [&](const Carried& o) {
            return (o.consumer != c.consumer || o.producer != c.producer) &&
                   no_later(o.consumer, c.consumer, hb) && no_later(c.producer, o.producer, hb);
        });
        if (!implied)
            kept.push_back(c);
    }
    return kept;
}

std::set<std::string> processor_vars(const Op& alloc) {
    std::set<std::string> vars;
    for (const auto& d : alloc.over)
        vars.insert(d.var);
    return vars;
}

LoopPlan plan_loop(const Op& loop, int64_t depth, const TensorAccess& access,
                   const HappensBefore& hb) {
    LoopPlan plan{&loop, depth, staged_tensors(loop, access), {}};
    for (const auto& t : access.use(loop).writes) {
        const Op* alloc = access.alloc_of(t);
        bool staged = std::find(plan.staged.begin(), plan.staged.end(), alloc) != plan.staged.end();
        auto pointwise = alloc ? processor_vars(*alloc) : std::set<std::string>{};
        auto ops = body_accesses(t, loop, access, hb);
        for (const auto& c : carried_conflicts(t, ops, access, hb))
            plan.refs.push_back({c.consumer, c.producer, staged ? depth : 1, pointwise});
    }
    return plan;
}

void apply(const LoopPlan& plan, event::Block& body) {
    event::walk(body, [&](Op& op) {
        if (&op == plan.loop)
            op.loop.controls.pipeline = plan.depth;
        if (std::find(plan.staged.begin(), plan.staged.end(), &op) != plan.staged.end()) {
            op.alloc.stages = plan.depth;
            op.alloc.stage_var = plan.loop->loop.vars.front();
        }
    });
    add_refs(body, plan.refs);
}

} // namespace

Result<event::EventProgram> pipeline_loops(event::EventProgram program, const PassContext&) {
    TensorAccess access(program);
    HappensBefore hb(program.body);
    std::vector<LoopPlan> plans;
    event::walk(program.body, [&](const Op& pfor) {
        const auto& c = pfor.loop.controls;
        if (pfor.kind != OpKind::PFor || pfor.loop.level != ir::Level::Block || !c.warpspecialize ||
            c.pipeline <= 1)
            return;
        event::walk(pfor.loop.body, [&](const Op& op) {
            if (op.kind == OpKind::For && !op.loop.vars.empty() && contains_dma_copy(op))
                plans.push_back(plan_loop(op, c.pipeline, access, hb));
        });
    });
    // The plans point into `program`; the edits change fields only, never a block.
    for (const auto& plan : plans)
        apply(plan, program.body);
    return program;
}

} // namespace kiln::passes
