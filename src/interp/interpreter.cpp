#include "interp/interpreter.h"

#include "interp/leaf_eval.h"
#include "interp/random.h"
#include "interp/view.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace kiln::interp {
namespace {

using mapping::Instance;

// Launch chains deeper than this are a mapping that dispatches in a cycle.
constexpr int kMaxDepth = 64;
// The interpreter holds tensors as doubles in host memory; larger ones are refused, not attempted.
constexpr int64_t kMaxElements = int64_t(1) << 30;

[[noreturn]] void rethrow(const std::vector<Diagnostic>& ds) { throw DiagnosticError(ds.front()); }

// A launch argument after evaluation.
struct Arg {
    std::optional<View> tensor;
    ir::Value scalar;
};

struct Partition {
    ir::PartitionSpec spec;
    ir::PartitionShape shape;
    View source;
};

// The names visible while one variant runs. Lookups search from the most recent binding, so a
// loop body's names shadow outer ones; restoring a Mark ends the body's scope.
class Frame {
public:
    struct Mark {
        std::size_t scalars, tensors, partitions;
    };
    Mark mark() const { return {scalars_.size(), tensors_.size(), partitions_.size()}; }
    void restore(const Mark& m) {
        scalars_.erase(scalars_.begin() + m.scalars, scalars_.end());
        tensors_.erase(tensors_.begin() + m.tensors, tensors_.end());
        partitions_.erase(partitions_.begin() + m.partitions, partitions_.end());
    }

    void bind(std::string n, ir::Value v) { scalars_.emplace_back(std::move(n), v); }
    void bind(std::string n, View v) { tensors_.emplace_back(std::move(n), std::move(v)); }
    void bind(std::string n, Partition p) { partitions_.emplace_back(std::move(n), std::move(p)); }

    const ir::Value* scalar(const std::string& n) const { return find(scalars_, n); }
    const View* tensor(const std::string& n) const { return find(tensors_, n); }
    const Partition* partition(const std::string& n) const { return find(partitions_, n); }

    ir::NameLookup names() const {
        return [this](const std::string& n, ir::Value& out) {
            const ir::Value* v = scalar(n);
            if (v)
                out = *v;
            return v != nullptr;
        };
    }
    ir::GridLookup grids() const {
        return [this](const std::string& n, int64_t d, int64_t& out) {
            const Partition* p = partition(n);
            if (!p || d < 0 || d >= static_cast<int64_t>(p->shape.grid.size()))
                return false;
            out = p->shape.grid[d];
            return true;
        };
    }

private:
    template <class T>
    static const T* find(const std::vector<std::pair<std::string, T>>& v, const std::string& n) {
        for (auto it = v.rbegin(); it != v.rend(); ++it)
            if (it->first == n)
                return &it->second;
        return nullptr;
    }
    std::vector<std::pair<std::string, ir::Value>> scalars_;
    std::vector<std::pair<std::string, View>> tensors_;
    std::vector<std::pair<std::string, Partition>> partitions_;
};

ir::Value eval(const ir::ExprPtr& e, const Frame& f, const Loc& loc) {
    if (!e)
        fail_at(loc, "missing expression");
    auto v = ir::evaluate(*e, f.names(), f.grids());
    if (!v)
        rethrow(v.errors());
    return *v;
}

int64_t eval_int(const ir::ExprPtr& e, const Frame& f, const Loc& loc) {
    ir::Value v = eval(e, f, loc);
    if (!v.is_int)
        fail_at(e->loc.known() ? e->loc : loc, "'" + ir::to_string(e) + "' must be an integer");
    return v.i;
}

// Refuses shapes the host cannot hold instead of failing to allocate them.
void check_allocatable(const ir::Shape& s, const std::string& what, const Loc& loc) {
    int64_t n = 1;
    for (int64_t d : s) {
        if (d < 0)
            fail_at(loc, what + " has a negative extent: " + ir::shape_string(s));
        if (d > 0 && n > kMaxElements / d)
            fail_at(loc, what + " with shape " + ir::shape_string(s) +
                             " is too large for the interpreter");
        n *= d;
    }
}

class Interpreter {
public:
    explicit Interpreter(const ir::Program& p) : p_(p) {}

    void run_instance(const Instance& inst, const ir::Task& task, std::vector<Arg> args,
                      const Loc& site, int depth) {
        if (depth > kMaxDepth)
            fail_at(site, "launches nest deeper than " + std::to_string(kMaxDepth) +
                              " levels at instance " + inst.name +
                              " (does the mapping dispatch in a cycle?)");
        const ir::Variant* v = p_.find_variant(inst.variant);
        if (!v)
            fail_at(inst.loc, "instance " + inst.name + " uses undefined variant '" +
                                  inst.variant + "'");
        if (v->task != task.name)
            fail_at(site, "launch of task " + task.name + " dispatches to instance " + inst.name +
                              ", whose variant " + v->name + " is of task " + v->task);
        Frame f;
        bind_params(task, args, f, site);
        if (v->is_leaf)
            exec_leaf(*v, inst, f);
        else
            exec_inner(v->body, *v, inst, f, depth);
    }

private:
    void bind_params(const ir::Task& task, std::vector<Arg>& args, Frame& f, const Loc& site) {
        if (args.size() != task.params.size())
            fail_at(site, "task " + task.name + " takes " + std::to_string(task.params.size()) +
                              " arguments, the launch passes " + std::to_string(args.size()));
        for (std::size_t i = 0; i < args.size(); ++i) {
            const ir::Param& prm = task.params[i];
            if (prm.is_tensor)
                bind_tensor(task, prm, args[i], f, site);
            else
                bind_scalar(task, prm, args[i], f, site);
        }
    }

    // Unifies the parameter's shape with the argument's: a symbol seen for the first time is
    // bound, anything else must evaluate to the argument's extent.
    void bind_tensor(const ir::Task& task, const ir::Param& prm, Arg& arg, Frame& f,
                     const Loc& site) {
        const std::string what = "task " + task.name + " parameter " + prm.name;
        if (!arg.tensor)
            fail_at(site, what + " is a tensor, the launch passes a scalar");
        const View& v = *arg.tensor;
        if (v.dtype() != prm.dtype)
            fail_at(site, what + " is " + std::string(ir::spelling(prm.dtype)) +
                              ", the argument is " + std::string(ir::spelling(v.dtype())));
        if (v.shape().size() != prm.shape.size())
            fail_at(site, what + " has rank " + std::to_string(prm.shape.size()) +
                              ", the argument has shape " + ir::shape_string(v.shape()));
        for (std::size_t d = 0; d < prm.shape.size(); ++d) {
            const ir::ExprPtr& e = prm.shape[d];
            const int64_t got = v.shape()[d];
            if (e && e->kind == ir::ExprKind::Name && !f.scalar(e->name)) {
                f.bind(e->name, ir::Value::of_int(got));
                continue;
            }
            const int64_t want = eval_int(e, f, prm.loc);
            if (want != got)
                fail_at(site, what + ": dimension " + std::to_string(d) + " (" +
                                  ir::to_string(e) + " = " + std::to_string(want) +
                                  ") does not match the argument's shape " +
                                  ir::shape_string(v.shape()));
        }
        f.bind(prm.name, std::move(*arg.tensor));
    }

    void bind_scalar(const ir::Task& task, const ir::Param& prm, const Arg& arg, Frame& f,
                     const Loc& site) {
        const std::string what = "task " + task.name + " parameter " + prm.name;
        if (arg.tensor)
            fail_at(site, what + " is a scalar, the launch passes a tensor");
        if (prm.dtype == ir::DType::I32) {
            if (!arg.scalar.is_int)
                fail_at(site, what + " is i32, the launch passes a float");
            f.bind(prm.name, arg.scalar);
        } else {
            f.bind(prm.name, ir::Value::of_float(round_to(prm.dtype, arg.scalar.as_double())));
        }
    }

    void bind_tunables(const ir::TunableDecl& t, const ir::Variant& v, const Instance& inst,
                       Frame& f) {
        for (const auto& n : t.names) {
            const auto* b = inst.find_tunable(n);
            if (!b)
                fail_at(inst.loc, "instance " + inst.name + " does not bind tunable " + n +
                                      " of variant " + v.name);
            f.bind(n, ir::Value::of_int(b->value));
        }
    }

    void let_tensor(const ir::LetTensor& t, Frame& f) {
        ir::Shape shape;
        for (const auto& d : t.shape)
            shape.push_back(eval_int(d, f, t.loc));
        check_allocatable(shape, "tensor " + t.name, t.loc);
        f.bind(t.name, View::whole(std::make_shared<HostTensor>(
                           HostTensor::poison(t.dtype, std::move(shape)))));
    }

    const View& tensor_named(const std::string& n, const Frame& f, const Loc& loc) {
        if (const View* v = f.tensor(n))
            return *v;
        if (f.partition(n))
            fail_at(loc, "partition " + n + " is used without a piece index");
        fail_at(loc, "unknown tensor '" + n + "'");
    }

    void let_partition(const std::string& name, const std::string& source, ir::PartitionSpec spec,
                       Frame& f, const Loc& loc) {
        const View& src = tensor_named(source, f, loc);
        auto shape = ir::partition_shape(spec, src.shape(), source, loc);
        if (!shape)
            rethrow(shape.errors());
        f.bind(name, Partition{std::move(spec), std::move(*shape), src});
    }

    void let_blocks(const ir::LetBlocks& b, Frame& f) {
        ir::PartitionSpec spec;
        spec.blocks.remainder = b.remainder;
        for (const auto& t : b.tile)
            spec.blocks.tile.push_back(t ? std::optional<int64_t>(eval_int(t, f, b.loc))
                                         : std::nullopt);
        let_partition(b.name, b.source, std::move(spec), f, b.loc);
    }

    void let_mma(const ir::LetMma& m, Frame& f) {
        ir::PartitionSpec spec;
        spec.is_mma = true;
        spec.mma.role = m.role;
        spec.mma.level = m.level;
        spec.mma.n = m.n ? eval_int(m.n, f, m.loc) : 0;
        let_partition(m.name, m.source, std::move(spec), f, m.loc);
    }

    View resolve_tensor(const ir::TensorRef& ref, const Frame& f) {
        if (ref.indices.empty())
            return tensor_named(ref.name, f, ref.loc);
        const Partition* p = f.partition(ref.name);
        if (!p)
            fail_at(ref.loc, "'" + ref.name + "' is indexed but is not a partition");
        ir::Shape index;
        for (const auto& e : ref.indices)
            index.push_back(eval_int(e, f, ref.loc));
        auto piece = p->source.piece(p->spec, p->shape, index, ref.loc);
        if (!piece)
            rethrow(piece.errors());
        return std::move(*piece);
    }

    const Instance& dispatch(const ir::Launch& l, const Instance& inst) {
        const auto* d = l.label.empty() ? nullptr : inst.find_dispatch(l.label);
        if (!d)
            d = inst.find_dispatch(l.task);
        if (!d)
            fail_at(l.loc, "instance " + inst.name + " has no dispatch for the launch of " +
                               (l.label.empty() ? l.task : "[" + l.label + "] " + l.task));
        const Instance* child = p_.mapping.find_instance(d->instance);
        if (!child)
            fail_at(d->loc, "instance " + inst.name + " dispatches " + d->site +
                                " to undefined instance '" + d->instance + "'");
        return *child;
    }

    void launch(const ir::Launch& l, const Instance& inst, Frame& f, int depth) {
        const ir::Task* task = p_.find_task(l.task);
        if (!task)
            fail_at(l.loc, "launch of undefined task '" + l.task + "'");
        std::vector<Arg> args;
        args.reserve(l.args.size());
        for (const auto& a : l.args) {
            if (a.is_tensor())
                args.push_back({resolve_tensor(a.tensor(), f), {}});
            else
                args.push_back({std::nullopt, eval(a.scalar(), f, l.loc)});
        }
        run_instance(dispatch(l, inst), *task, std::move(args), l.loc, depth + 1);
    }

    // srange and prange alike: iterations run one after another in row-major order, which is
    // the sequential semantics every parallel schedule must reproduce.
    void loop(const ir::Loop& l, const ir::Variant& v, const Instance& inst, Frame& f, int depth) {
        ir::Shape extents;
        if (!l.grid_of.empty()) {
            const Partition* p = f.partition(l.grid_of);
            if (!p)
                fail_at(l.loc, "loop over the grid of '" + l.grid_of + "', not a partition");
            extents = p->shape.grid;
        } else {
            for (const auto& e : l.extents)
                extents.push_back(eval_int(e, f, l.loc));
        }
        if (extents.size() != l.vars.size())
            fail_at(l.loc, "loop has " + std::to_string(l.vars.size()) + " variables over a " +
                               std::to_string(extents.size()) + "-d domain");
        for (int64_t d : extents)
            if (d < 0)
                fail_at(l.loc, "loop extent " + std::to_string(d) + " is negative");
        int64_t total = element_count(extents);
        if (l.limit)
            total = std::clamp<int64_t>(eval_int(l.limit, f, l.loc), 0, total);
        for (int64_t it = 0; it < total; ++it) {
            const Frame::Mark m = f.mark();
            int64_t rest = it;
            for (std::size_t d = extents.size(); d-- > 0;) {
                f.bind(l.vars[d], ir::Value::of_int(rest % extents[d]));
                rest /= extents[d];
            }
            exec_inner(l.body, v, inst, f, depth);
            f.restore(m);
        }
    }

    void exec_inner(const std::vector<ir::Stmt>& body, const ir::Variant& v, const Instance& inst,
                    Frame& f, int depth) {
        for (const auto& s : body) {
            std::visit(
                [&](const auto& n) {
                    using T = std::decay_t<decltype(n)>;
                    if constexpr (std::is_same_v<T, ir::TunableDecl>)
                        bind_tunables(n, v, inst, f);
                    else if constexpr (std::is_same_v<T, ir::LetTensor>)
                        let_tensor(n, f);
                    else if constexpr (std::is_same_v<T, ir::LetBlocks>)
                        let_blocks(n, f);
                    else if constexpr (std::is_same_v<T, ir::LetMma>)
                        let_mma(n, f);
                    else if constexpr (std::is_same_v<T, ir::LetScalar>)
                        f.bind(n.name, eval(n.value, f, n.loc));
                    else if constexpr (std::is_same_v<T, ir::Launch>)
                        launch(n, inst, f, depth);
                    else if constexpr (std::is_same_v<T, ir::Loop>)
                        loop(n, v, inst, f, depth);
                    else
                        fail_at(n.loc, "inner variant " + v.name + " runs leaf operation " +
                                           (n.external.empty() ? n.op : n.external) +
                                           "; only leaf variants may touch tensor data");
                },
                s.node);
        }
    }

    void leaf_op(const ir::LeafOp& op, Frame& f) {
        std::vector<LeafArg> args;
        args.reserve(op.operands.size());
        for (const auto& o : op.operands) {
            if (o.is_tensor())
                args.push_back({resolve_tensor(o.tensor(), f), 0.0, o.tensor().loc});
            else
                args.push_back({std::nullopt, eval(o.scalar(), f, op.loc).as_double(),
                                o.scalar() ? o.scalar()->loc : op.loc});
        }
        if (auto d = eval_leaf(op, args))
            throw DiagnosticError(*d);
    }

    void exec_leaf(const ir::Variant& v, const Instance& inst, Frame& f) {
        for (const auto& s : v.body) {
            if (const auto* t = std::get_if<ir::TunableDecl>(&s.node))
                bind_tunables(*t, v, inst, f);
            else if (const auto* lt = std::get_if<ir::LetTensor>(&s.node))
                let_tensor(*lt, f);
            else if (const auto* ls = std::get_if<ir::LetScalar>(&s.node))
                f.bind(ls->name, eval(ls->value, f, ls->loc));
            else if (const auto* op = std::get_if<ir::LeafOp>(&s.node))
                leaf_op(*op, f);
            else
                fail_at(s.loc(), "leaf variant " + v.name +
                                     " may only create tensors and run leaf operations");
        }
    }

    const ir::Program& p_;
};

const HostTensor& entry_tensor(const TensorMap& tensors, const ir::Param& prm,
                               const ir::Shape& shape) {
    auto it = tensors.find(prm.name);
    if (it == tensors.end())
        fail_at(prm.loc, "no tensor given for entry parameter " + prm.name);
    const HostTensor& t = it->second;
    if (t.dtype != prm.dtype || t.shape != shape ||
        t.size() != element_count(shape))
        fail_at(prm.loc, "entry parameter " + prm.name + " expects " +
                             std::string(ir::spelling(prm.dtype)) + ir::shape_string(shape) +
                             ", the tensor given is " + std::string(ir::spelling(t.dtype)) +
                             ir::shape_string(t.shape));
    return t;
}

template <class T> T value_or_throw(Result<T> r) {
    if (!r)
        rethrow(r.errors());
    return std::move(r).value();
}

} // namespace

Result<TensorMap> make_inputs(const ir::Program& p, const Sizes& sizes, uint64_t seed,
                              const InputOptions& options) {
    try {
        const Entry entry = value_or_throw(find_entry(p));
        TensorMap out;
        for (const auto& prm : entry.task->params) {
            if (!prm.is_tensor)
                continue;
            ir::Shape shape = value_or_throw(entry_shape(prm, sizes));
            check_allocatable(shape, "entry parameter " + prm.name, prm.loc);
            HostTensor t = HostTensor::poison(prm.dtype, std::move(shape));
            const uint64_t s = tensor_seed(seed, prm.name);
            if (prm.privilege != ir::Privilege::Write) {
                if (options.fill == InputOptions::Fill::Uniform)
                    fill_uniform(t, s, options.lo, options.hi);
                else
                    fill_integers(t, s, options.int_lo, options.int_hi);
            }
            out.emplace(prm.name, std::move(t));
        }
        return out;
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

Result<TensorMap> run(const ir::Program& p, const Sizes& sizes, TensorMap tensors) {
    try {
        const Entry entry = value_or_throw(find_entry(p));
        std::vector<Arg> args;
        std::vector<std::pair<std::string, std::shared_ptr<HostTensor>>> owned;
        for (const auto& prm : entry.task->params) {
            if (!prm.is_tensor) {
                auto it = sizes.find(prm.name);
                if (it == sizes.end())
                    fail_at(prm.loc, "entry parameter " + prm.name +
                                         " is a scalar; give it a value with the sizes");
                args.push_back({std::nullopt, ir::Value::of_int(it->second)});
                continue;
            }
            const ir::Shape shape = value_or_throw(entry_shape(prm, sizes));
            entry_tensor(tensors, prm, shape);
            auto root = std::make_shared<HostTensor>(std::move(tensors.at(prm.name)));
            owned.emplace_back(prm.name, root);
            args.push_back({View::whole(root), {}});
        }
        Interpreter(p).run_instance(*entry.instance, *entry.task, std::move(args),
                                    entry.instance->loc, 0);
        for (auto& [name, root] : owned)
            tensors[name] = std::move(*root);
        return tensors;
    } catch (const DiagnosticError& e) {
        return e.diag;
    } catch (const std::bad_alloc&) {
        return Diagnostic{p.loc, "the interpreter ran out of memory running " + p.name};
    }
}

} // namespace kiln::interp
