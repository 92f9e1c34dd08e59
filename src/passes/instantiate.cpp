#include "passes/instantiate.h"

#include "passes/diagnostics.h"
#include "passes/entry_sizes.h"
#include "passes/leaf_rules.h"
#include "passes/mapping_check.h"
#include "passes/operand.h"
#include "passes/processor_fit.h"
#include "passes/shape_env.h"
#include "passes/unify.h"
#include "passes/verify.h"

#include <algorithm>
#include <cassert>

namespace kiln::passes {
namespace {

template <class... F> struct Overloaded : F... { using F::operator()...; };
template <class... F> Overloaded(F...) -> Overloaded<F...>;

struct Context {
    const ir::Program &program;
    const mapping::Machine &machine;
    Diagnostics &d;
    std::vector<std::string> path; // instances from the root to the node being built
    std::size_t nodes = 1;
};

// Far beyond any real kernel; a mapping whose sites fan out level after level could otherwise
// ask for exponentially many nodes.
constexpr std::size_t kMaxNodes = 100000;

ir::Memory memory_of(const mapping::Instance &inst, const std::string &tensor) {
    const auto *m = inst.find_mem(tensor);
    assert(m && "verify() guarantees a memory for every tensor");
    return m->memory;
}

// A node's identity and mapping, before its inputs are known.
TaskNode make_node(const ir::Program &program, const mapping::Instance &inst) {
    TaskNode n;
    n.instance = inst.name;
    n.instance_ir = &inst;
    n.variant_ir = program.find_variant(inst.variant);
    assert(n.variant_ir && "verify() guarantees every instance's variant");
    n.variant = n.variant_ir->name;
    n.task = n.variant_ir->task;
    n.level = inst.level;
    n.leaf = n.variant_ir->is_leaf;
    for (const auto &t : inst.tunables)
        n.tunables[t.name] = t.value;
    return n;
}

// A tensor argument resolved in the parent's scope.
struct Resolved {
    TensorArg arg; // dtype, shape and source; the caller fills in the callee's side
    ir::Memory parent_memory = ir::Memory::Global;
    std::size_t depth = 0; // of the parent's tensor (TensorSlot::depth)
    const PartitionInfo *partition = nullptr;
};

// Builds one node: binds its inputs, walks its variant, recurses into the launches.
class NodeBuilder {
public:
    NodeBuilder(Context &ctx, TaskNode &node)
        : ctx_(ctx), node_(node), inst_(*node.instance_ir), where_("instance " + node.instance) {}

    void run() {
        bind_inputs();
        walk(node_.variant_ir->body);
    }

private:
    void bind_inputs() {
        for (const auto &[name, value] : node_.symbols)
            env_.set_scalar(name, ScalarSlot::known(ir::Value::of_int(value)));
        for (const auto &[name, value] : node_.tunables)
            env_.set_scalar(name, ScalarSlot::known(ir::Value::of_int(value)));
        for (const auto &s : node_.scalars) {
            std::string why = "scalar parameter " + s.param +
                              (node_.site ? ", whose argument is not known statically"
                                          : " of the entry task, known only at run time");
            env_.set_scalar(s.param, s.value ? ScalarSlot::known(*s.value)
                                             : ScalarSlot::unknown_because(why));
        }
        for (auto &t : node_.tensors)
            env_.set_tensor(t.param, TensorSlot{t.dtype, t.shape, t.memory, 0});
    }

    void walk(const std::vector<ir::Stmt> &body) {
        for (const auto &s : body)
            std::visit(Overloaded{
                           [&](const ir::TunableDecl &) {}, // bound from the instance
                           [&](const ir::LetTensor &t) { let_tensor(t); },
                           [&](const ir::LetBlocks &b) { let_blocks(b); },
                           [&](const ir::LetMma &m) { let_mma(m); },
                           [&](const ir::LetScalar &s) { let_scalar(s); },
                           [&](const ir::Launch &l) { launch(l); },
                           [&](const ir::Loop &l) { loop(l); },
                           [&](const ir::LeafOp &op) { leaf_op(op); },
                       },
                       s.node);
    }

    std::optional<int64_t> positive(const ir::Expr &e, const std::string &what) {
        auto v = env_.static_int(e, what, ctx_.d);
        if (v && *v <= 0) {
            ctx_.d.error(e.loc, what + " in " + where_ + " is " + std::to_string(*v) +
                                    "; it must be positive");
            return std::nullopt;
        }
        return v;
    }

    void let_tensor(const ir::LetTensor &t) {
        CreatedTensor c{t.name, t.dtype, {}, memory_of(inst_, t.name), t.loc};
        for (std::size_t i = 0; i < t.shape.size(); ++i) {
            auto v =
                positive(*t.shape[i], "dimension " + std::to_string(i) + " of tensor " + t.name);
            if (!v)
                return;
            c.shape.push_back(*v);
        }
        env_.set_tensor(c.name, TensorSlot{c.dtype, c.shape, c.memory, loops_.size()});
        node_.created.push_back(std::move(c));
    }

    void let_blocks(const ir::LetBlocks &b) {
        ir::PartitionSpec spec;
        spec.blocks.remainder = b.remainder;
        for (const auto &t : b.tile) {
            if (!t) {
                spec.blocks.tile.push_back(std::nullopt);
                continue;
            }
            auto v = env_.static_int(*t, "tile of partition " + b.name, ctx_.d);
            if (!v)
                return;
            spec.blocks.tile.push_back(*v);
        }
        add_partition(b.name, b.source, spec, b.loc);
    }

    void let_mma(const ir::LetMma &m) {
        ir::PartitionSpec spec;
        spec.is_mma = true;
        spec.mma.role = m.role;
        spec.mma.level = m.level;
        if (m.n) {
            auto v = env_.static_int(*m.n, "instruction N of partition " + m.name, ctx_.d);
            if (!v)
                return;
            spec.mma.n = *v;
        }
        add_partition(m.name, m.source, spec, m.loc);
    }

    void add_partition(const std::string &name, const std::string &source,
                       const ir::PartitionSpec &spec, const Loc &loc) {
        const TensorSlot *src = env_.tensor(source);
        if (!src)
            return;
        auto shape = ir::partition_shape(spec, src->shape, source, loc);
        if (!shape) {
            for (const auto &e : shape.errors())
                ctx_.d.error(e.loc, e.message + " (partition " + name + " in " + where_ +
                                        ", variant " + node_.variant + ")");
            return;
        }
        PartitionInfo p{name, source, spec, *shape, loc};
        env_.set_partition(name, p);
        node_.partitions.push_back(std::move(p));
    }

    void let_scalar(const ir::LetScalar &s) {
        std::string why = env_.unknown_reason(*s.value);
        if (why == "?") {
            env_.set_scalar(s.name, ScalarSlot::unusable());
            return;
        }
        if (!why.empty()) {
            env_.set_scalar(
                s.name, ScalarSlot::unknown_because(s.name + ", which depends on " + why, s.value));
            return;
        }
        auto v = env_.evaluate(*s.value);
        if (!v) {
            ctx_.d.error(s.loc,
                         "scalar " + s.name + " in " + where_ + ": " + v.errors()[0].message);
            env_.set_scalar(s.name, ScalarSlot::unusable());
            return;
        }
        env_.set_scalar(s.name, ScalarSlot::known(*v));
    }

    void loop(const ir::Loop &l) {
        LoopFrame f{next_loop_id_++, l.parallel, l.vars, {}, l.loc};
        std::string kind = l.parallel ? "prange" : "srange";
        if (!l.grid_of.empty()) {
            const PartitionInfo *p = env_.partition(l.grid_of);
            if (!p)
                return;
            f.extents = p->shape.grid;
        } else {
            for (std::size_t i = 0; i < l.extents.size() && i < l.vars.size(); ++i) {
                auto v = positive(*l.extents[i], "extent of " + kind + " variable " + l.vars[i]);
                if (!v)
                    return;
                f.extents.push_back(*v);
            }
        }
        for (std::size_t i = 0; i < f.vars.size(); ++i)
            env_.set_scalar(f.vars[i], ScalarSlot::loop_variable(f.vars[i], f.extents[i]));
        loops_.push_back(f);
        walk(l.body);
        loops_.pop_back();
        for (const auto &v : f.vars)
            env_.erase_scalar(v);
    }

    void leaf_op(const ir::LeafOp &op) {
        ShapeOf shape_of = [&](const std::string &n) -> const ir::Shape * {
            const TensorSlot *t = env_.tensor(n);
            return t ? &t->shape : nullptr;
        };
        check_leaf_shapes(
            op, shape_of, [&](const std::string &n) { return env_.names_tensor(n); }, where_,
            ctx_.d);
    }

    void launch(const ir::Launch &l) {
        const ir::Program &program = ctx_.program;
        const ir::Task &callee = *program.find_task(l.task);
        const mapping::DispatchBinding &b = *find_dispatch(inst_, l);
        const mapping::Instance &target = *program.mapping.find_instance(b.instance);
        std::string head =
            "launch of " + l.task + " at " + loc_text(l.loc) + " in " + where_ + ": ";
        if (std::find(ctx_.path.begin(), ctx_.path.end(), target.name) != ctx_.path.end()) {
            std::string cycle;
            for (const auto &n : ctx_.path)
                cycle += n + " -> ";
            ctx_.d.error(b.loc, "instance " + inst_.name + " dispatches " + b.site +
                                    " back to instance " + target.name + " (" + cycle +
                                    target.name + "); the task tree must be finite");
            return;
        }
        if (++ctx_.nodes > kMaxNodes) {
            if (ctx_.nodes == kMaxNodes + 1)
                ctx_.d.error(l.loc, head + "the task tree exceeds " + std::to_string(kMaxNodes) +
                                        " nodes");
            return;
        }
        TaskNode child = make_node(program, target);
        child.site = &l;
        child.loops = loops_;
        std::vector<ArgShape> shapes;
        bool complete = true;
        for (std::size_t i = 0; i < callee.params.size(); ++i) {
            const ir::Param &param = callee.params[i];
            OperandView v =
                view_operand(l.args[i], [&](const std::string &n) { return env_.names_tensor(n); });
            if (!param.is_tensor) {
                child.scalars.push_back(
                    ScalarArg{param.name, param.dtype, v.scalar, env_.value(*v.scalar)});
                check_integer(param, child.scalars.back(), head);
                shapes.push_back({});
                continue;
            }
            auto r = resolve(v.tensor, head);
            if (!r) {
                complete = false;
                shapes.push_back({});
                continue;
            }
            TensorArg a = r->arg;
            a.param = param.name;
            a.privilege = param.privilege;
            a.memory = memory_of(target, param.name);
            a.loc = v.tensor.loc;
            check_aliasing(a, *r, v.tensor, head);
            check_none_stays_unmaterialized(a, *r, target, head);
            shapes.push_back({a.shape, ref_text(v.tensor), a.loc});
            child.tensors.push_back(std::move(a));
        }
        check_processor_count(target);
        if (!complete)
            return;
        auto symbols = unify_shapes(callee, shapes, head, ctx_.d);
        if (!symbols)
            return;
        child.symbols = *symbols;
        ctx_.path.push_back(target.name);
        NodeBuilder(ctx_, child).run();
        ctx_.path.pop_back();
        node_.children.push_back(std::move(child));
    }

    // A float argument where an i32 parameter expects an integer (when its value is known).
    void check_integer(const ir::Param &param, const ScalarArg &s, const std::string &head) {
        if (param.dtype == ir::DType::I32 && s.value && !s.value->is_int)
            ctx_.d.error(s.expr->loc, head + "scalar parameter " + param.name +
                                          " is i32 but gets " + ir::to_string(s.expr) + " = " +
                                          ir::to_string(*ir::float_lit(s.value->f)));
    }

    std::optional<Resolved> resolve(const ir::TensorRef &ref, const std::string &head) {
        Resolved r;
        if (ref.indices.empty()) {
            const TensorSlot *t = env_.tensor(ref.name);
            if (!t)
                return std::nullopt;
            r.arg.dtype = t->dtype;
            r.arg.shape = t->shape;
            r.arg.source = ArgSource{ref.name, "", {}};
            r.parent_memory = t->memory;
            r.depth = t->depth;
            return r;
        }
        const PartitionInfo *p = env_.partition(ref.name);
        const TensorSlot *t = p ? env_.tensor(p->source) : nullptr;
        if (!t)
            return std::nullopt;
        check_indices(ref, *p, head);
        r.arg.dtype = t->dtype;
        r.arg.shape = p->shape.piece;
        r.arg.source = ArgSource{p->source, p->name, ref.indices};
        r.parent_memory = t->memory;
        r.depth = t->depth;
        r.partition = p;
        return r;
    }

    // Checked only where the range is decidable (interval arithmetic over the loop domains).
    void check_indices(const ir::TensorRef &ref, const PartitionInfo &p, const std::string &head) {
        for (std::size_t d = 0; d < ref.indices.size() && d < p.shape.grid.size(); ++d) {
            const ir::Expr &e = *ref.indices[d];
            auto r = env_.range(e);
            int64_t n = p.shape.grid[d];
            if (!r || (r->lo >= 0 && r->hi < n))
                continue;
            std::string values = r->lo == r->hi ? "is " + std::to_string(r->lo)
                                                : "ranges over [" + std::to_string(r->lo) + ", " +
                                                      std::to_string(r->hi) + "]";
            ctx_.d.error(e.loc, head + "index " + ir::to_string(e) + " of " + ref_text(ref) + " " +
                                    values + ", outside dimension " + std::to_string(d) +
                                    " of the grid of " + p.name + " " +
                                    ir::shape_string(p.shape.grid));
        }
    }

    // Parallel iterations that write must write different elements (reductions may share).
    // Only the pranges opened after the tensor was declared share it between iterations.
    void check_aliasing(const TensorArg &a, const Resolved &r, const ir::TensorRef &ref,
                        const std::string &head) {
        if (!ir::privilege_writes(a.privilege))
            return;
        std::vector<const LoopFrame *> sharing;
        int64_t iterations = 1;
        for (std::size_t l = r.depth; l < loops_.size(); ++l)
            if (loops_[l].parallel) {
                sharing.push_back(&loops_[l]);
                for (auto e : loops_[l].extents)
                    iterations *= e;
            }
        if (iterations <= 1)
            return;
        std::string gets = "parameter " + a.param + " (" + std::string(ir::spelling(a.privilege)) +
                           ") gets " + ref_text(ref);
        const std::string rule = "; parallel iterations must write disjoint pieces";
        if (!r.partition) {
            ctx_.d.error(ref.loc, head + gets + ", the whole tensor, in each of " +
                                      std::to_string(iterations) + " parallel iterations" + rule);
            return;
        }
        if (!ir::partition_disjoint(r.partition->spec)) {
            ctx_.d.error(ref.loc, head + gets + ", but the pieces of " + r.partition->name + " = " +
                                      partition_text(*r.partition) + " overlap" + rule);
            return;
        }
        for (const LoopFrame *f : sharing)
            for (std::size_t i = 0; i < f->vars.size(); ++i) {
                bool indexed = std::any_of(ref.indices.begin(), ref.indices.end(), [&](auto &e) {
                    return e->kind == ir::ExprKind::Name && e->name == f->vars[i];
                });
                if (f->extents[i] > 1 && !indexed)
                    ctx_.d.error(ref.loc, head + gets + ", which does not vary with prange " +
                                              "variable " + f->vars[i] + rule);
            }
    }

    // NONE: never materialized at this level, only in pieces below.
    void check_none_stays_unmaterialized(const TensorArg &a, const Resolved &r,
                                         const mapping::Instance &target, const std::string &head) {
        if (r.parent_memory != ir::Memory::None || target.level != inst_.level ||
            a.memory == ir::Memory::None)
            return;
        ctx_.d.error(a.loc, head + r.arg.source.tensor + " is mapped to NONE at " + inst_.name +
                                ", but instance " + target.name + " maps parameter " + a.param +
                                " to " + std::string(ir::spelling(a.memory)) +
                                " at the same level (" + std::string(ir::spelling(inst_.level)) +
                                "); a NONE tensor is materialized only below");
    }

    void check_processor_count(const mapping::Instance &target) {
        int64_t count = 1;
        const LoopFrame *innermost = nullptr;
        for (const auto &f : loops_)
            if (f.parallel) {
                innermost = &f;
                for (auto e : f.extents)
                    count *= e;
            }
        if (!innermost || target.level <= inst_.level)
            return; // no prange, or a level error verify() already reported
        if (auto misfit = prange_misfit(ctx_.machine, inst_.level, target.level, count))
            ctx_.d.error(innermost->loc, "prange in " + where_ + " launches " +
                                             std::to_string(count) + " tasks at " +
                                             std::string(ir::spelling(target.level)) +
                                             " (instance " + target.name + "), but " + *misfit);
    }

    Context &ctx_;
    TaskNode &node_;
    const mapping::Instance &inst_;
    std::string where_;
    ShapeEnv env_;
    std::vector<LoopFrame> loops_;
    int next_loop_id_ = 0;
};

std::optional<ir::Shape> entry_shape(const ir::Param &p, const Sizes &sizes, Diagnostics &d) {
    ir::NameLookup lookup = ir::lookup_in(sizes);
    ir::Shape shape;
    for (const auto &dim : p.shape) {
        auto v = ir::evaluate_int(*dim, lookup);
        if (!v || *v <= 0) {
            d.error(dim->loc, "dimension " + ir::to_string(dim) + " of entry parameter " + p.name +
                                  (v ? " is " + std::to_string(*v) + "; it must be positive"
                                     : ": " + v.errors()[0].message));
            return std::nullopt;
        }
        shape.push_back(*v);
    }
    return shape;
}

} // namespace

Result<TaskTree> instantiate(const ir::Program &program, const Sizes &overrides,
                             const mapping::Machine &machine) {
    auto errors = verify(program, machine);
    if (!errors.empty())
        return errors;
    Diagnostics d;
    const mapping::Instance &entry = *program.mapping.find_instance(program.mapping.entry);
    TaskTree tree;
    tree.root = make_node(program, entry);
    const ir::Task &task = *program.find_task(tree.root.task);
    auto sizes = bind_entry_sizes(program, task, overrides, d);
    if (!sizes)
        return d.take();
    tree.sizes = *sizes;
    tree.root.symbols = *sizes;
    for (const auto &p : task.params) {
        if (!p.is_tensor) {
            tree.root.scalars.push_back(ScalarArg{p.name, p.dtype, nullptr, std::nullopt});
            continue;
        }
        auto shape = entry_shape(p, *sizes, d);
        if (shape)
            tree.root.tensors.push_back(TensorArg{p.name, p.dtype, *shape, p.privilege,
                                                  memory_of(entry, p.name), ArgSource{}, p.loc});
    }
    if (!d.empty())
        return d.take();
    Context ctx{program, machine, d, {entry.name}};
    NodeBuilder(ctx, tree.root).run();
    if (!d.empty())
        return d.take();
    return tree;
}

} // namespace kiln::passes
