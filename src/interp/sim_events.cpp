#include "interp/sim_events.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace kiln::interp::sim {
namespace {

bool is_event_op(const event::Op& op) {
    return op.kind != event::OpKind::Alloc && op.kind != event::OpKind::Part;
}

bool pipelined(const event::Op& loop) {
    return loop.kind == event::OpKind::For && loop.loop.controls.pipeline > 0;
}

std::string ref_text(const event::EventRef& r) {
    std::string s = "%" + r.id;
    if (!r.index.empty()) {
        s += "[";
        for (std::size_t i = 0; i < r.index.size(); ++i)
            s += (i ? ", " : "") + (r.index[i] ? ir::to_string(r.index[i]) : std::string(":"));
        s += "]";
    }
    if (r.distance > 0)
        s += "@-" + std::to_string(r.distance);
    return s;
}

// The index of `op` in the block of `s`.
int64_t position(const Scope& s, const event::Op& op) {
    return &op - s.block->ops.data();
}

} // namespace

int64_t point_count(const std::vector<event::ProcDim>& dims) {
    int64_t n = 1;
    for (const auto& d : dims)
        n *= d.extent;
    return n;
}

int64_t point_coord(const std::vector<event::ProcDim>& dims, int64_t p, std::size_t d) {
    for (std::size_t i = dims.size(); i-- > d + 1;)
        p /= dims[i].extent;
    return p % dims[d].extent;
}

EventTable::EventTable(const event::EventProgram& p) : program_(p) {
    index_block(p.body);
}

void EventTable::index_block(const event::Block& b) {
    BlockInfo& info = blocks_[&b];
    for (std::size_t i = 0; i < b.ops.size(); ++i) {
        const event::Op& op = b.ops[i];
        if (op.kind == event::OpKind::Alloc)
            info.decls[op.alloc.name] = &op;
        else if (op.kind == event::OpKind::Part)
            info.decls[op.part.name] = &op;
        else
            info.events[op.result] = static_cast<int>(i);
        if (op.kind == event::OpKind::For || op.kind == event::OpKind::PFor)
            index_block(op.loop.body);
    }
}

void EventTable::expand_program() {
    expand_block(new_scope(ScopeKind::Program, program_.body, nullptr, nullptr));
}

Scope* EventTable::new_scope(ScopeKind kind, const event::Block& b, Scope* parent, LoopRun* loop) {
    auto s = std::make_unique<Scope>();
    s->kind = kind;
    s->block = &b;
    s->info = &blocks_.at(&b);
    s->parent = parent;
    s->loop = loop;
    s->events.resize(b.ops.size());
    scopes_.push_back(std::move(s));
    return scopes_.back().get();
}

NodeId EventTable::add_node(NodeKind kind, const event::Op* op, Scope* scope, int32_t point) {
    Node n;
    n.kind = kind;
    n.op = op;
    n.scope = scope;
    n.point = point;
    n.pending = 1; // held until its creator has added every dependency
    nodes_.push_back(std::move(n));
    return static_cast<NodeId>(nodes_.size() - 1);
}

void EventTable::depend(NodeId waiter, NodeId on) {
    if (nodes_[on].complete)
        return;
    ++nodes_[waiter].pending;
    nodes_[on].dependents.push_back(waiter);
}

void EventTable::release(NodeId id) {
    assert(nodes_[id].pending > 0);
    if (--nodes_[id].pending == 0)
        ready_.push_back(id);
}

void EventTable::wait_on_refs(NodeId waiter, const std::vector<event::EventRef>& refs,
                              const Ctx& c) {
    std::vector<NodeId> on;
    const Loc& loc = c.op ? c.op->loc : nodes_[waiter].op->loc;
    for (const auto& r : refs)
        resolve(r, c, loc, on);
    for (NodeId n : on)
        depend(waiter, n);
}

void EventTable::expand_block(Scope* s) {
    const auto& ops = s->block->ops;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const event::Op& op = ops[i];
        if (!is_event_op(op))
            continue;
        if (op.kind == event::OpKind::For || op.kind == event::OpKind::PFor) {
            expand_loop_op(s, op, i);
            continue;
        }
        const NodeKind kind = op.kind == event::OpKind::Join ? NodeKind::Join : NodeKind::Work;
        s->events[i].assign(point_count(op.over), -1);
        for (int32_t p : instance_points(s, op)) {
            NodeId id = add_node(kind, &op, s, p);
            wait_on_refs(id, op.after, Ctx{s, &op, p});
            s->events[i][p] = id;
            release(id);
        }
    }
}

std::vector<int32_t> EventTable::instance_points(const Scope* s, const event::Op& op) const {
    std::vector<int32_t> points{0};
    for (const auto& d : op.over) {
        int64_t fixed = -1;
        for (const Scope* t = s; t && fixed < 0; t = t->parent)
            for (const auto& b : t->bindings)
                if (b.processor && *b.name == d.var)
                    fixed = b.value;
        if (fixed >= d.extent)
            fail_at(op.loc, "%" + op.result + " runs over " + d.var + " of extent " +
                                std::to_string(d.extent) + " inside a loop instance at " + d.var +
                                " = " + std::to_string(fixed));
        std::vector<int32_t> next;
        for (int32_t p : points)
            for (int64_t v = 0; v < d.extent; ++v)
                if (fixed < 0 || v == fixed)
                    next.push_back(static_cast<int32_t>(p * d.extent + v));
        points.swap(next);
    }
    return points;
}

void EventTable::expand_loop_op(Scope* s, const event::Op& op, std::size_t index) {
    int64_t iterations = 1;
    for (int64_t e : op.loop.extents)
        iterations *= e;
    if (op.loop.extents.size() != op.loop.vars.size())
        fail_at(op.loc, "%" + op.result + " has " + std::to_string(op.loop.vars.size()) +
                            " loop variables and " + std::to_string(op.loop.extents.size()) +
                            " extents");
    const int64_t points = point_count(op.over);
    s->events[index].assign(op.kind == event::OpKind::For ? points : points * iterations, -1);
    for (int32_t p : instance_points(s, op)) {
        runs_.push_back(std::make_unique<LoopRun>());
        LoopRun* run = runs_.back().get();
        run->op = &op;
        run->outer = s;
        run->point = p;
        run->iterations = iterations;
        if (op.loop.limit)
            run->iterations =
                std::clamp<int64_t>(eval(Ctx{s, &op, p}, op.loop.limit, op.loc), 0, iterations);
        const NodeId start = add_node(NodeKind::LoopStart, &op, s, p);
        nodes_[start].loop = run;
        wait_on_refs(start, op.after, Ctx{s, &op, p});
        if (op.kind == event::OpKind::For) {
            // Held (pending = 1) until the last iteration's yield: see complete().
            run->done = add_node(NodeKind::LoopDone, &op, s, p);
            nodes_[run->done].loop = run;
            s->events[index][p] = run->done;
        } else {
            // The pfor's event array exists before its iterations do; each element is held
            // until its iteration is expanded.
            for (int64_t k = 0; k < iterations; ++k) {
                NodeId y = add_node(NodeKind::Yield, &op, nullptr, p);
                nodes_[y].loop = run;
                run->yields.push_back(y);
                s->events[index][p * iterations + k] = y;
            }
        }
        release(start);
    }
}

void EventTable::start_loop(NodeId id) {
    LoopRun& run = *nodes_[id].loop;
    if (run.op->kind == event::OpKind::PFor || pipelined(*run.op)) {
        for (int64_t k = 0; k < run.iterations; ++k)
            expand_iteration(run, k);
        if (run.op->kind == event::OpKind::For)
            release(run.done);
    } else if (run.iterations == 0) {
        release(run.done);
    } else {
        expand_iteration(run, 0);
    }
}

void EventTable::expand_iteration(LoopRun& run, int64_t k) {
    const event::Op& op = *run.op;
    const bool is_for = op.kind == event::OpKind::For;
    Scope* s = new_scope(is_for ? ScopeKind::ForIteration : ScopeKind::PForIteration, op.loop.body,
                         run.outer, &run);
    s->iteration = k;
    s->order = run.outer->order;
    s->order.insert(s->order.end(), {position(*run.outer, op), run.point, k});
    for (std::size_t d = 0; d < op.over.size(); ++d)
        s->bindings.push_back({&op.over[d].var, point_coord(op.over, run.point, d), true});
    int64_t rest = k;
    std::vector<Binding> vars(op.loop.vars.size());
    for (std::size_t d = op.loop.vars.size(); d-- > 0;) {
        vars[d] = {&op.loop.vars[d], rest % op.loop.extents[d], false};
        rest /= op.loop.extents[d];
    }
    s->bindings.insert(s->bindings.end(), vars.begin(), vars.end());
    run.bodies.push_back(s);
    expand_block(s);

    NodeId y;
    if (is_for) {
        y = add_node(NodeKind::Yield, &op, s, run.point);
        nodes_[y].loop = &run;
        run.yields.push_back(y);
        if (pipelined(op))
            depend(run.done, y);
    } else {
        y = run.yields[k];
        nodes_[y].scope = s;
    }
    if (op.loop.body.yield)
        wait_on_refs(y, {*op.loop.body.yield}, Ctx{s, nullptr, 0});
    release(y);
}

void EventTable::complete(NodeId id) {
    Node& n = nodes_[id];
    assert(!n.complete && n.pending == 0);
    n.complete = true;
    ++completed_;
    for (NodeId d : n.dependents)
        release(d);
    if (n.kind != NodeKind::Yield || n.op->kind != event::OpKind::For || pipelined(*n.op))
        return;
    // An ordinary `for`: iteration k + 1 starts once iteration k's yield has completed.
    LoopRun& run = *n.loop;
    const int64_t next = n.scope->iteration + 1;
    if (next < run.iterations)
        expand_iteration(run, next);
    else
        release(run.done);
}

std::vector<NodeId> EventTable::take_ready() {
    std::vector<NodeId> out;
    out.swap(ready_);
    return out;
}

Ctx EventTable::ctx(NodeId id) const {
    const Node& n = nodes_[id];
    if (n.kind == NodeKind::Yield)
        return Ctx{n.scope, nullptr, 0};
    return Ctx{n.scope, n.op, n.point};
}

void EventTable::resolve(const event::EventRef& r, const Ctx& c, const Loc& loc,
                         std::vector<NodeId>& out) const {
    const Scope* s = c.scope;
    while (s && !s->info->events.count(r.id))
        s = s->parent;
    if (!s)
        fail_at(loc, "reference " + ref_text(r) + ": no enclosing block defines %" + r.id);
    const int index = s->info->events.at(r.id);
    const event::Op& def = s->block->ops[index];
    if (r.distance > 0) {
        if (s->kind != ScopeKind::ForIteration)
            fail_at(loc, "reference " + ref_text(r) + ": %" + r.id +
                             " is not defined in the body of a for");
        const int64_t k = s->iteration - r.distance;
        if (k < 0)
            return; // before the first iteration: satisfied
        s = s->loop->bodies[k];
    }
    const std::vector<NodeId>& events = s->events[index];
    if (events.empty())
        fail_at(loc, "reference " + ref_text(r) + " precedes the definition of %" + r.id);
    const std::vector<event::ProcDim> dims = event::event_dims(def);
    if (r.index.size() != dims.size())
        fail_at(loc, "reference " + ref_text(r) + " has " + std::to_string(r.index.size()) +
                         " indices; %" + r.id + " has " + std::to_string(dims.size()) +
                         " event dimensions");
    // Row-major walk over the selected points: one value per indexed dimension, all for `:`.
    std::vector<int64_t> lo(dims.size()), hi(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (!r.index[d]) {
            lo[d] = 0;
            hi[d] = dims[d].extent;
            continue;
        }
        lo[d] = eval(c, r.index[d], loc);
        hi[d] = lo[d] + 1;
        if (lo[d] < 0 || lo[d] >= dims[d].extent)
            fail_at(loc, "reference " + ref_text(r) + ": index " + std::to_string(lo[d]) +
                             " is outside dimension " + dims[d].var + " of extent " +
                             std::to_string(dims[d].extent));
    }
    std::vector<int64_t> at = lo;
    while (true) {
        int64_t flat = 0;
        for (std::size_t d = 0; d < dims.size(); ++d)
            flat = flat * dims[d].extent + at[d];
        if (events[flat] < 0)
            fail_at(loc, "reference " + ref_text(r) + " names an instance of %" + r.id +
                             " that another instance of the enclosing loop runs");
        out.push_back(events[flat]);
        std::size_t d = dims.size();
        while (d > 0 && ++at[d - 1] == hi[d - 1]) {
            at[d - 1] = lo[d - 1];
            --d;
        }
        if (d == 0)
            return;
    }
}

bool EventTable::lookup(const Ctx& c, const std::string& name, int64_t& out) const {
    if (c.op)
        for (std::size_t d = 0; d < c.op->over.size(); ++d)
            if (c.op->over[d].var == name) {
                out = point_coord(c.op->over, c.point, d);
                return true;
            }
    for (const Scope* s = c.scope; s; s = s->parent)
        for (auto b = s->bindings.rbegin(); b != s->bindings.rend(); ++b)
            if (*b->name == name) {
                out = b->value;
                return true;
            }
    auto it = program_.sizes.find(name);
    if (it == program_.sizes.end())
        return false;
    out = it->second;
    return true;
}

ir::Value EventTable::eval_value(const Ctx& c, const ir::ExprPtr& e, const Loc& loc) const {
    int64_t v = 0;
    if (e->kind == ir::ExprKind::Int)
        return ir::Value::of_int(e->int_value);
    if (e->kind == ir::ExprKind::Name) {
        if (!lookup(c, e->name, v))
            fail_at(loc, "unknown name '" + e->name + "' in " + ir::to_string(e));
        return ir::Value::of_int(v);
    }
    auto r = ir::evaluate(*e, [&](const std::string& n, ir::Value& out) {
        if (!lookup(c, n, v))
            return false;
        out = ir::Value::of_int(v);
        return true;
    });
    if (!r)
        fail_at(r.errors().front().loc.known() ? r.errors().front().loc : loc,
                r.errors().front().message);
    return *r;
}

int64_t EventTable::eval(const Ctx& c, const ir::ExprPtr& e, const Loc& loc) const {
    const ir::Value v = eval_value(c, e, loc);
    if (!v.is_int)
        fail_at(loc, ir::to_string(e) + " is not an integer");
    return v.i;
}

std::pair<const event::Op*, const Scope*>
EventTable::find_decl(const Ctx& c, const std::string& name, const Loc& loc) const {
    for (const Scope* s = c.scope; s; s = s->parent) {
        auto it = s->info->decls.find(name);
        if (it != s->info->decls.end())
            return {it->second, s};
    }
    fail_at(loc, "no tensor or partition named '" + name + "' is visible here");
}

std::vector<int64_t> EventTable::textual_key(NodeId id) const {
    constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
    const Node& n = nodes_[id];
    std::vector<int64_t> key = n.scope->order;
    if (n.kind == NodeKind::Yield) {
        key.push_back(kLast);
        return key;
    }
    key.insert(key.end(), {position(*n.scope, *n.op), n.point});
    if (n.kind == NodeKind::LoopDone)
        key.push_back(kLast);
    return key;
}

bool EventTable::textual_before(NodeId a, NodeId b) const {
    return textual_key(a) < textual_key(b);
}

std::string EventTable::describe(NodeId id) const {
    const Node& n = nodes_[id];
    const Ctx c = ctx(id);
    std::vector<std::string> vars;
    std::vector<const Scope*> chain;
    for (const Scope* s = c.scope; s; s = s->parent)
        chain.push_back(s);
    for (auto s = chain.rbegin(); s != chain.rend(); ++s)
        for (const auto& b : (*s)->bindings)
            vars.push_back(*b.name + " = " + std::to_string(b.value));
    if (c.op)
        for (std::size_t d = 0; d < c.op->over.size(); ++d)
            vars.push_back(c.op->over[d].var + " = " +
                           std::to_string(point_coord(c.op->over, c.point, d)));
    std::string s = (n.kind == NodeKind::Yield ? "the yield of %" : "%") + n.op->result;
    if (n.kind == NodeKind::LoopStart)
        s += " (start)";
    if (!vars.empty()) {
        s += " (";
        for (std::size_t i = 0; i < vars.size(); ++i)
            s += (i ? ", " : "") + vars[i];
        s += ")";
    }
    return s;
}

std::string EventTable::deadlock_report() const {
    // Name the instances that wait on refs (not the loop bookkeeping nodes that wait on them).
    std::string blocked;
    int shown = 0;
    for (NodeId id = 0; id < node_count() && shown < 3; ++id) {
        const Node& n = nodes_[id];
        if (n.complete || n.kind == NodeKind::LoopDone || (n.kind == NodeKind::Yield && !n.scope))
            continue;
        const Ctx c = ctx(id);
        std::vector<event::EventRef> refs = n.op->after;
        if (n.kind == NodeKind::Yield)
            refs = {*n.op->loop.body.yield};
        std::string waits;
        for (const auto& r : refs) {
            std::vector<NodeId> on;
            resolve(r, c, n.op->loc, on);
            auto open =
                std::find_if(on.begin(), on.end(), [&](NodeId o) { return !nodes_[o].complete; });
            if (open != on.end())
                waits += (waits.empty() ? "" : ", ") + ref_text(r) + " (" + describe(*open) +
                         " is not complete)";
        }
        if (waits.empty())
            continue;
        blocked += "; " + describe(id) + " waits on " + waits;
        ++shown;
    }
    return "deadlock: " + std::to_string(node_count() - completed_) + " of " +
           std::to_string(node_count()) + " event instances can never run" + blocked;
}

} // namespace kiln::interp::sim
