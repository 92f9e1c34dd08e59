#include "passes/depend.h"

#include "passes/event_tracker.h"
#include "passes/leaf_defs.h"
#include "passes/substitute.h"

#include <set>

namespace kiln::passes {
namespace {

using event::EventRef;
using event::Op;
using event::OpKind;
using event::View;

template <class... F> struct Overloaded : F... { using F::operator()...; };
template <class... F> Overloaded(F...) -> Overloaded<F...>;

// The names of one variant body while it is lowered: program names -> event-IR terms.
struct Scope {
    std::map<std::string, std::string> tensors;             // -> event tensor
    std::map<std::string, const PartitionInfo*> partitions; // -> what the tree evaluated
    std::map<std::string, std::string> partition_names;     // -> event partition
    Bindings scalars;                                       // -> expression over loop variables
};

// The tree lists a node's children, created tensors and partitions in program order, so the
// lowering walks the variant body and these lists in step.
struct Cursor {
    std::size_t child = 0, created = 0, partition = 0;
};

// A launch's fresh allocation for one tensor argument.
struct Fresh {
    const TensorArg* arg = nullptr;
    std::string name;
    View caller;               // the caller's view it mirrors
    std::string caller_tensor; // the event tensor under that view (what the tracker keys)
};

EventRef all_of(const Op& op) {
    EventRef r{op.result, {}};
    r.index.assign(event::event_dims(op).size(), nullptr);
    return r;
}

bool contains_launch(const std::vector<ir::Stmt>& body) {
    for (const auto& s : body) {
        if (std::holds_alternative<ir::Launch>(s.node))
            return true;
        if (const auto* l = std::get_if<ir::Loop>(&s.node); l && contains_launch(l->body))
            return true;
    }
    return false;
}

// Moves the cursor past a body that launches nothing (it lowers to no operation).
void skip(const std::vector<ir::Stmt>& body, Cursor& c) {
    for (const auto& s : body)
        std::visit(Overloaded{
                       [&](const ir::LetTensor&) { ++c.created; },
                       [&](const ir::LetBlocks&) { ++c.partition; },
                       [&](const ir::LetMma&) { ++c.partition; },
                       [&](const ir::Loop& l) { skip(l.body, c); },
                       [&](const auto&) {},
                   },
                   s.node);
}

void collect_refs(const event::Block& b, std::set<std::string>& out) {
    event::walk(b, [&](const Op& op) {
        for (const auto& r : op.after)
            out.insert(r.id);
        if (op.kind == OpKind::For || op.kind == OpKind::PFor)
            if (op.loop.body.yield)
                out.insert(op.loop.body.yield->id);
    });
}

std::optional<mapping::Layout> layout_of(const TaskNode& n, const std::string& tensor) {
    for (const auto& l : n.instance_ir->layouts)
        if (l.tensor == tensor)
            return l.layout;
    return std::nullopt;
}

event::TensorDecl tensor_decl(std::string name, ir::Memory memory, ir::DType dtype,
                              ir::Shape shape) {
    event::TensorDecl d;
    d.name = std::move(name);
    d.memory = memory;
    d.dtype = dtype;
    d.shape = std::move(shape);
    return d;
}

bool has_controls(const mapping::Instance& i) {
    return i.warpspecialize || i.pipeline || i.smem_limit || i.persistent || i.cluster != 1;
}

class Depend {
public:
    Depend(const TaskTree& tree, const ir::Program& program) : tree_(tree), program_(program) {}

    event::EventProgram run() {
        out_.name = program_.name;
        out_.sizes = tree_.sizes;
        blocks_.push_back(&out_.body);
        const TaskNode& root = tree_.root;
        Scope s = scope_of(root);
        entry_params(root, s);
        Cursor c;
        lower_body(root.variant_ir->body, root, s, c);
        out_.leaves = leaves_.take();
        return std::move(out_);
    }

private:
    // ---- names ----
    std::string new_event() { return "e" + std::to_string(next_event_++); }

    std::string fresh_tensor(const std::string& base) {
        std::string name;
        for (int k = ++counters_[base];; k = ++counters_[base])
            if (!taken_.count(name = base + std::to_string(k)))
                break;
        taken_.insert(name);
        return name;
    }

    std::string fresh_partition(const std::string& base) {
        std::string name = base;
        for (int k = 1; taken_.count(name); ++k)
            name = base + std::to_string(k);
        taken_.insert(name);
        return name;
    }

    // Loop variables keep their name unless an enclosing loop of the event program uses it.
    std::string fresh_var(const std::string& base) {
        std::string name = base;
        for (int k = 1; active_vars_.count(name); ++k)
            name = base + std::to_string(k);
        return name;
    }

    // ---- emission ----
    void emit(Op op) { blocks_.back()->ops.push_back(std::move(op)); }

    EventRef emit_event(Op op) {
        op.result = new_event();
        op.after = implications_.reduce(op.after);
        implications_.record(op);
        EventRef r = all_of(op);
        emit(std::move(op));
        return r;
    }

    void emit_alloc(event::TensorDecl decl, ir::Level level, const Loc& loc) {
        Op op;
        op.kind = OpKind::Alloc;
        op.level = level;
        op.loc = loc;
        tracker_.declare(decl.name);
        op.alloc = std::move(decl);
        emit(std::move(op));
    }

    // ---- scopes and expressions ----
    Scope scope_of(const TaskNode& n) {
        Scope s;
        for (const auto& [name, v] : n.symbols)
            s.scalars[name] = ir::int_lit(v);
        for (const auto& [name, v] : n.tunables)
            s.scalars[name] = ir::int_lit(v);
        return s;
    }

    ir::ExprPtr expr(const ir::ExprPtr& e, const Scope& s, const Loc& loc) {
        ir::GridLookup grids = [&](const std::string& p, int64_t d, int64_t& out) {
            auto it = s.partitions.find(p);
            if (it == s.partitions.end() || d < 0 ||
                d >= static_cast<int64_t>(it->second->shape.grid.size()))
                return false;
            out = it->second->shape.grid[d];
            return true;
        };
        auto r = substitute(e, s.scalars, grids);
        if (!r)
            fail_at(r.errors().front().loc.known() ? r.errors().front().loc : loc,
                    r.errors().front().message);
        return *r;
    }

    const std::string& tensor_in(const Scope& s, const std::string& name, const Loc& loc) {
        auto it = s.tensors.find(name);
        if (it == s.tensors.end())
            fail_at(loc, "tensor '" + name + "' has no allocation at this point");
        return it->second;
    }

    const ir::ExprPtr& scalar_in(const Scope& s, const std::string& name, const Loc& loc) {
        auto it = s.scalars.find(name);
        if (it == s.scalars.end())
            fail_at(loc, "scalar '" + name + "' has no value at this point");
        return it->second;
    }

    View caller_view(const ArgSource& src, const Scope& s, const Loc& loc) {
        if (src.whole())
            return View{tensor_in(s, src.tensor, loc), {}};
        auto it = s.partition_names.find(src.partition);
        if (it == s.partition_names.end())
            fail_at(loc, "partition '" + src.partition + "' is not declared at this point");
        View v{it->second, {}};
        for (const auto& i : src.indices)
            v.index.push_back(expr(i, s, loc));
        return v;
    }

    // ---- statements ----
    void entry_params(const TaskNode& root, Scope& s) {
        const ir::Task& task = *program_.find_task(root.task);
        for (const auto& p : task.params)
            if (!p.is_tensor)
                fail_at(p.loc, "entry task " + task.name + " takes scalar parameter " + p.name +
                                   "; the event IR has no run-time scalars to bind it to");
        for (const auto& t : root.tensors) {
            taken_.insert(t.param);
            event::TensorDecl d = tensor_decl(t.param, t.memory, t.dtype, t.shape);
            d.param = true;
            d.privilege = t.privilege;
            d.layout = layout_of(root, t.param);
            d.origin = root.instance + "." + t.param;
            emit_alloc(std::move(d), root.level, t.loc);
            s.tensors[t.param] = t.param;
        }
    }

    void lower_body(const std::vector<ir::Stmt>& body, const TaskNode& n, Scope& s, Cursor& c) {
        for (const auto& stmt : body)
            std::visit(
                Overloaded{
                    [&](const ir::TunableDecl&) {}, // bound in scope_of
                    [&](const ir::LetTensor& t) {
                        created(next(n.created, c.created, t.loc), n, s);
                    },
                    [&](const ir::LetBlocks& b) {
                        partition(next(n.partitions, c.partition, b.loc), n, s);
                    },
                    [&](const ir::LetMma& m) {
                        partition(next(n.partitions, c.partition, m.loc), n, s);
                    },
                    [&](const ir::LetScalar& l) { s.scalars[l.name] = expr(l.value, s, l.loc); },
                    [&](const ir::Launch& l) { launch(next(n.children, c.child, l.loc), s); },
                    [&](const ir::Loop& l) { loop(l, n, s, c); },
                    [&](const ir::LeafOp& op) {
                        fail_at(op.loc, "inner variant " + n.variant + " runs a leaf operation");
                    },
                },
                stmt.node);
    }

    template <class T> const T& next(const std::vector<T>& list, std::size_t& i, const Loc& loc) {
        if (i >= list.size())
            fail_at(loc, "the task tree does not match this statement (was it built by instantiate "
                         "from this program?)");
        return list[i++];
    }

    void created(const CreatedTensor& t, const TaskNode& n, Scope& s) {
        std::string name = fresh_tensor(t.name);
        event::TensorDecl d = tensor_decl(name, t.memory, t.dtype, t.shape);
        d.layout = layout_of(n, t.name);
        d.origin = n.instance + "." + t.name;
        emit_alloc(std::move(d), n.level, t.loc);
        s.tensors[t.name] = name;
    }

    void partition(const PartitionInfo& p, const TaskNode& n, Scope& s) {
        Op op;
        op.kind = OpKind::Part;
        op.level = n.level;
        op.loc = p.loc;
        op.part = event::Partition{fresh_partition(p.name), View{tensor_in(s, p.source, p.loc), {}},
                                   p.spec, p.shape};
        s.partitions[p.name] = &p;
        s.partition_names[p.name] = op.part.name;
        emit(std::move(op));
    }

    void loop(const ir::Loop& l, const TaskNode& n, Scope& s, Cursor& c) {
        if (!contains_launch(l.body)) {
            skip(l.body, c);
            return;
        }
        Op op;
        op.kind = l.parallel ? OpKind::PFor : OpKind::For;
        op.result = new_event();
        // A prange runs each iteration on a processor of the launched tasks' level; the loop op
        // itself belongs to the body it sits in.
        op.level = n.level;
        op.loop.level = l.parallel ? next_child_level(l, n, c) : n.level;
        op.loc = l.loc;
        op.note = std::string(l.parallel ? "prange" : "srange") + " in " + n.instance;
        op.loop.extents = loop_extents(l, s);
        if (l.limit)
            op.loop.limit = expr(l.limit, s, l.loc);
        Scope inner = s;
        for (const auto& v : l.vars) {
            std::string name = fresh_var(v);
            op.loop.vars.push_back(name);
            inner.scalars[v] = ir::name_ref(name);
        }
        for (const auto& v : op.loop.vars)
            active_vars_.insert(v);
        tracker_.open_loop();
        blocks_.push_back(&op.loop.body);
        if (l.parallel)
            controls_.push_back(&op.loop.controls);
        lower_body(l.body, n, inner, c);
        if (l.parallel)
            controls_.pop_back();
        blocks_.pop_back();
        for (const auto& v : op.loop.vars)
            active_vars_.erase(v);
        end_iteration(op.loop.body, op.loop.level, l.loc);
        tracker_.close_loop(all_of(op));
        implications_.record(op);
        emit(std::move(op));
    }

    ir::Level next_child_level(const ir::Loop& l, const TaskNode& n, const Cursor& c) {
        if (c.child >= n.children.size())
            fail_at(l.loc, "the task tree has no launch for this prange");
        return n.children[c.child].level;
    }

    ir::Shape loop_extents(const ir::Loop& l, const Scope& s) {
        if (!l.grid_of.empty()) {
            auto it = s.partitions.find(l.grid_of);
            if (it == s.partitions.end())
                fail_at(l.loc, "loop over the grid of '" + l.grid_of + "', not a partition");
            return it->second->shape.grid;
        }
        ir::Shape extents;
        for (const auto& e : l.extents) {
            ir::ExprPtr v = expr(e, s, l.loc);
            if (v->kind != ir::ExprKind::Int)
                fail_at(l.loc, "loop extent " + ir::to_string(e) + " is not a constant");
            extents.push_back(v->int_value);
        }
        return extents;
    }

    // The body's yield: the events nothing inside consumes (their completion implies every other
    // event of the iteration), joined when there are several.
    void end_iteration(event::Block& body, ir::Level level, const Loc& loc) {
        std::set<std::string> consumed;
        collect_refs(body, consumed);
        std::vector<EventRef> sinks;
        for (const auto& op : body.ops)
            if (!op.result.empty() && !consumed.count(op.result))
                sinks.push_back(all_of(op));
        if (sinks.size() <= 1) {
            if (!sinks.empty())
                body.yield = sinks.front();
            return;
        }
        Op join;
        join.kind = OpKind::Join;
        join.result = new_event();
        join.after = std::move(sinks);
        join.level = level;
        join.loc = loc;
        body.yield = all_of(join);
        body.ops.push_back(std::move(join));
    }

    // ---- launches (the four steps of §4.2.1) ----
    void launch(const TaskNode& c, const Scope& caller) {
        const Loc& loc = c.site->loc;
        apply_controls(c);
        Scope callee = scope_of(c);
        for (const auto& a : c.scalars)
            callee.scalars[a.param] = a.value ? literal(*a.value) : expr(a.expr, caller, loc);
        std::vector<Fresh> fresh;
        for (const auto& a : c.tensors) {
            Fresh f{&a, fresh_tensor(a.param), caller_view(a.source, caller, a.loc),
                    tensor_in(caller, a.source.tensor, a.loc)};
            event::TensorDecl d = tensor_decl(f.name, a.memory, a.dtype, a.shape);
            d.layout = layout_of(c, a.param);
            d.origin = c.instance + "." + a.param;
            d.mirrors = f.caller;
            emit_alloc(std::move(d), c.level, loc);
            callee.tensors[a.param] = f.name;
            fresh.push_back(std::move(f));
        }
        for (const auto& f : fresh)
            copy_in(f, c);
        if (c.leaf) {
            call_leaf(c, callee);
        } else {
            Cursor cc;
            lower_body(c.variant_ir->body, c, callee, cc);
        }
        for (const auto& f : fresh)
            copy_out(f, c);
    }

    void apply_controls(const TaskNode& c) {
        const mapping::Instance& i = *c.instance_ir;
        if (!has_controls(i) || controls_.empty())
            return;
        event::LoopControls& lc = *controls_.back();
        lc.warpspecialize = lc.warpspecialize || i.warpspecialize;
        lc.pipeline = i.pipeline.value_or(lc.pipeline);
        lc.smem_limit = i.smem_limit.value_or(lc.smem_limit);
        lc.persistent = lc.persistent || i.persistent;
        lc.cluster = std::max(lc.cluster, i.cluster);
    }

    Op copy_op(View src, View dst, const TaskNode& c, std::string note) {
        Op op;
        op.kind = OpKind::Copy;
        op.src = std::move(src);
        op.dst = std::move(dst);
        op.level = c.level;
        op.loc = c.site->loc;
        op.note = std::move(note);
        return op;
    }

    // A read argument is copied in; a reduce argument starts from the reduction's identity.
    void copy_in(const Fresh& f, const TaskNode& c) {
        const ir::Privilege p = f.arg->privilege;
        if (ir::privilege_reduces(p)) {
            Op op;
            op.kind = OpKind::Call;
            op.callee = leaves_.fill_for_reduce(f.arg->dtype, f.arg->shape, p);
            op.args = {View{f.name, {}}};
            op.level = c.level;
            op.loc = c.site->loc;
            op.note = "identity of " + f.arg->param + " for " + c.instance;
            tracker_.wrote(f.name, emit_event(std::move(op)));
            return;
        }
        if (!ir::privilege_reads(p))
            return;
        Op op = copy_op(f.caller, View{f.name, {}}, c,
                        "copy-in " + f.arg->param + " for " + c.instance);
        op.after = tracker_.before_read(f.caller_tensor);
        EventRef e = emit_event(std::move(op));
        tracker_.read(f.caller_tensor, e);
        tracker_.wrote(f.name, e);
    }

    void copy_out(const Fresh& f, const TaskNode& c) {
        const ir::Privilege p = f.arg->privilege;
        if (!ir::privilege_writes(p) && !ir::privilege_reduces(p))
            return;
        Op op = copy_op(View{f.name, {}}, f.caller, c,
                        "copy-out " + f.arg->param + " for " + c.instance);
        op.mode = p == ir::Privilege::ReduceAdd   ? event::CopyMode::Add
                  : p == ir::Privilege::ReduceMax ? event::CopyMode::Max
                                                  : event::CopyMode::Assign;
        op.after = tracker_.before_read(f.name);
        for (const auto& r : tracker_.before_write(f.caller_tensor))
            add_unique(op.after, r);
        EventRef e = emit_event(std::move(op));
        tracker_.read(f.name, e);
        tracker_.wrote(f.caller_tensor, e);
    }

    void call_leaf(const TaskNode& c, Scope& callee) {
        auto leaf = leaves_.use(c, program_);
        if (!leaf)
            fail_at(leaf.errors().front().loc, leaf.errors().front().message);
        for (const auto& t : c.created)
            created(t, c, callee);
        Op op;
        op.kind = OpKind::Call;
        op.callee = *leaf;
        op.level = c.level;
        op.loc = c.site->loc;
        op.note = c.instance;
        std::vector<std::pair<std::string, bool>> touched; // event tensor, written
        for (const auto& p : leaves_.find(op.callee)->params) {
            if (!p.is_tensor) {
                op.scalars.push_back(scalar_in(callee, p.name, op.loc));
                continue;
            }
            const std::string& t = tensor_in(callee, p.name, op.loc);
            bool writes = ir::privilege_writes(p.privilege) || ir::privilege_reduces(p.privilege);
            for (const auto& r : writes ? tracker_.before_write(t) : tracker_.before_read(t))
                add_unique(op.after, r);
            op.args.push_back(View{t, {}});
            touched.emplace_back(t, writes);
        }
        EventRef e = emit_event(std::move(op));
        for (const auto& [t, written] : touched) {
            if (written)
                tracker_.wrote(t, e);
            else
                tracker_.read(t, e);
        }
    }

    const TaskTree& tree_;
    const ir::Program& program_;
    event::EventProgram out_;
    std::vector<event::Block*> blocks_;          // where operations go, innermost last
    std::vector<event::LoopControls*> controls_; // of the enclosing pfors, innermost last
    EventTracker tracker_;
    Implications implications_;
    LeafDefs leaves_;
    int next_event_ = 0;
    std::map<std::string, int> counters_;
    std::set<std::string> taken_;
    std::set<std::string> active_vars_;
};

} // namespace

Result<event::EventProgram> depend(const TaskTree& tree, const ir::Program& program,
                                   const PassContext&) {
    try {
        return Depend(tree, program).run();
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

} // namespace kiln::passes
