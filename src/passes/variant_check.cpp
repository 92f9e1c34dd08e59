#include "passes/variant_check.h"

#include "passes/leaf_rules.h"
#include "passes/operand.h"
#include "passes/scope.h"

#include <set>

namespace kiln::passes {
namespace {

template <class... F> struct Overloaded : F... { using F::operator()...; };
template <class... F> Overloaded(F...) -> Overloaded<F...>;

class VariantCheck {
public:
    VariantCheck(const ir::Program &program, const ir::Variant &variant, const ir::Task &task,
                 Diagnostics &d)
        : program_(program), variant_(variant), task_(task), scope_(task), d_(d),
          where_("variant " + variant.name) {}

    void run() { walk(variant_.body); }

private:
    void walk(const std::vector<ir::Stmt> &body) {
        for (const auto &s : body)
            std::visit(Overloaded{
                           [&](const ir::TunableDecl &t) { tunables(t); },
                           [&](const ir::LetTensor &t) { let_tensor(t); },
                           [&](const ir::LetBlocks &b) { partition(b, b.source, b.tile); },
                           [&](const ir::LetMma &m) { partition(m, m.source, {m.n}); },
                           [&](const ir::LetScalar &s) { let_scalar(s); },
                           [&](const ir::Launch &l) { launch(l); },
                           [&](const ir::Loop &l) { loop(l); },
                           [&](const ir::LeafOp &op) { leaf_op(op); },
                       },
                       s.node);
    }

    void declare(const std::string &name, const Declared &decl) {
        if (const Declared *earlier = scope_.declare(name, decl))
            d_.error(decl.loc, "duplicate name " + name + " in " + where_ +
                                   ": already declared at " + loc_text(earlier->loc));
    }

    void exprs(const std::vector<ir::ExprPtr> &es) {
        for (const auto &e : es)
            if (e)
                check_expr(*e, scope_, where_, d_);
    }

    // Statements only inner variants may hold.
    bool inner_only(const Loc &loc, const std::string &what, const std::string &rule) {
        if (variant_.is_leaf)
            d_.error(loc,
                     what + " in leaf variant " + variant_.name + ": only inner variants " + rule);
        return !variant_.is_leaf;
    }

    void tunables(const ir::TunableDecl &t) {
        for (const auto &n : t.names)
            declare(n, Declared::of(NameKind::Tunable, t.loc));
    }

    void let_tensor(const ir::LetTensor &t) {
        exprs(t.shape);
        declare(t.name, Declared::of(NameKind::Tensor, t.loc, t.dtype, t.shape.size()));
    }

    template <class Let>
    void partition(const Let &let, const std::string &source,
                   const std::vector<ir::ExprPtr> &params) {
        if (!inner_only(let.loc, "partition " + let.name, "partition tensors"))
            return;
        exprs(params);
        const Declared *src = scope_.find(source);
        Declared fallback = Declared::of(NameKind::Tensor, let.loc, ir::DType::F32, 2);
        if (!src)
            d_.error(let.loc,
                     "partition " + let.name + " of unknown tensor '" + source + "' in " + where_);
        else if (src->kind != NameKind::TensorParam && src->kind != NameKind::Tensor)
            d_.error(let.loc, "partition " + let.name + " in " + where_ + ": " + source + " is " +
                                  std::string(kind_text(src->kind)) + ", not a tensor");
        bool usable = src && (src->kind == NameKind::TensorParam || src->kind == NameKind::Tensor);
        // Declared even when the source is bad, so its uses do not pile up "unknown name" errors.
        declare(let.name, partition_decl(let, usable ? *src : fallback));
    }

    void let_scalar(const ir::LetScalar &s) {
        if (!inner_only(s.loc, "scalar " + s.name, "compute scalars"))
            return;
        check_expr(*s.value, scope_, where_, d_);
        declare(s.name, Declared::of(NameKind::ScalarLet, s.loc));
    }

    void loop(const ir::Loop &l) {
        std::string kind = l.parallel ? "prange" : "srange";
        if (!inner_only(l.loc, kind, "have loops"))
            return;
        if (!l.grid_of.empty()) {
            const Declared *p = scope_.find(l.grid_of);
            if (!p)
                d_.error(l.loc, kind + " over " + l.grid_of + ".grid in " + where_ +
                                    ": unknown partition '" + l.grid_of + "'");
            else if (p->kind != NameKind::Partition)
                d_.error(l.loc, kind + " over " + l.grid_of + ".grid in " + where_ + ": " +
                                    l.grid_of + " is " + std::string(kind_text(p->kind)) +
                                    ", not a partition");
            else if (p->grid_rank != l.vars.size())
                d_.error(l.loc, kind + " over " + l.grid_of + ".grid in " + where_ + ": " +
                                    l.grid_of + " has a " + std::to_string(p->grid_rank) +
                                    "-d grid but the loop has " + std::to_string(l.vars.size()) +
                                    " variables");
        } else {
            if (l.extents.size() != l.vars.size())
                d_.error(l.loc, kind + " in " + where_ + " has " + std::to_string(l.vars.size()) +
                                    " variables but " + std::to_string(l.extents.size()) +
                                    " extents");
            exprs(l.extents);
        }
        exprs({l.limit});
        scope_.open();
        for (const auto &v : l.vars)
            declare(v, Declared::of(NameKind::LoopVar, l.loc));
        walk(l.body);
        scope_.close();
    }

    void leaf_op(const ir::LeafOp &op) {
        if (!variant_.is_leaf) {
            d_.error(op.loc, "leaf operation " + op.op + " in inner variant " + variant_.name +
                                 ": only leaf variants access tensor data");
            return;
        }
        check_leaf_access(op, variant_, task_, scope_, written_, d_);
    }

    void launch(const ir::Launch &l) {
        if (!inner_only(l.loc, "launch of " + l.task, "launch tasks"))
            return;
        const ir::Task *callee = program_.find_task(l.task);
        if (!callee) {
            d_.error(l.loc, "launch of undefined task '" + l.task + "' in " + where_);
            return;
        }
        std::string head = "launch of " + l.task + " at " + loc_text(l.loc) + ": ";
        if (l.args.size() != callee->params.size()) {
            d_.error(l.loc, head + "task " + l.task + " takes " +
                                std::to_string(callee->params.size()) + " arguments, got " +
                                std::to_string(l.args.size()));
            return;
        }
        for (std::size_t i = 0; i < l.args.size(); ++i)
            argument(head, callee->params[i], l.args[i]);
    }

    void argument(const std::string &head, const ir::Param &param, const ir::Operand &arg) {
        OperandView v =
            view_operand(arg, [&](const std::string &n) { return scope_.names_tensor(n); });
        std::string param_text = "parameter " + param.name;
        if (!v.is_tensor) {
            check_expr(*v.scalar, scope_, where_, d_);
            bool known = v.scalar->kind != ir::ExprKind::Name || scope_.find(v.scalar->name);
            if (param.is_tensor && known)
                d_.error(v.scalar->loc, head + "tensor " + param_text + " gets the scalar " +
                                            ir::to_string(v.scalar));
            return;
        }
        const Declared *decl = tensor_ref(v.tensor);
        if (!decl)
            return;
        if (!param.is_tensor) {
            d_.error(v.tensor.loc,
                     head + "scalar " + param_text + " gets the tensor " + ref_text(v.tensor));
            return;
        }
        std::string arg_text = ref_text(v.tensor);
        if (decl->kind == NameKind::Partition)
            arg_text += " (a piece of " + decl->source + ")";
        if (decl->dtype != param.dtype)
            d_.error(v.tensor.loc, head + param_text + " is " +
                                       std::string(ir::spelling(param.dtype)) + " but gets " +
                                       arg_text + " of dtype " +
                                       std::string(ir::spelling(decl->dtype)));
        const Declared *root = decl->kind == NameKind::Partition ? scope_.find(decl->source) : decl;
        if (root && root->param && root->param->is_tensor &&
            !ir::privilege_allows(root->param->privilege, param.privilege))
            d_.error(v.tensor.loc, head + param_text + " asks for " +
                                       std::string(ir::spelling(param.privilege)) + " on " +
                                       arg_text + ", but task " + task_.name + " holds " +
                                       std::string(ir::spelling(root->param->privilege)) + " on " +
                                       root->param->name);
    }

    // Checks a whole tensor or a partition piece; returns its declaration when usable.
    const Declared *tensor_ref(const ir::TensorRef &ref) {
        exprs(ref.indices);
        const Declared *decl = scope_.find(ref.name);
        std::string text = ref_text(ref);
        if (!decl) {
            d_.error(ref.loc, "unknown tensor '" + ref.name + "' in " + where_);
            return nullptr;
        }
        if (ref.indices.empty()) {
            if (decl->kind != NameKind::Partition)
                return decl;
            d_.error(ref.loc, ref.name + " in " + where_ + " is a partition; pass one of its " +
                                  "pieces (" + ref.name + "[...])");
            return nullptr;
        }
        if (decl->kind != NameKind::Partition) {
            d_.error(ref.loc, text + " in " + where_ + ": " + ref.name + " is " +
                                  std::string(kind_text(decl->kind)) +
                                  ", not a partition; only partitions are indexed");
            return nullptr;
        }
        if (ref.indices.size() != decl->grid_rank) {
            std::size_t n = ref.indices.size();
            d_.error(ref.loc, text + " in " + where_ + ": " + ref.name + " has a " +
                                  std::to_string(decl->grid_rank) + "-d grid but gets " +
                                  std::to_string(n) + (n == 1 ? " index" : " indices"));
            return nullptr;
        }
        return decl;
    }

    const ir::Program &program_;
    const ir::Variant &variant_;
    const ir::Task &task_;
    Scope scope_;
    Diagnostics &d_;
    std::string where_;
    std::set<std::string> written_; // write-only parameters written so far (leaf variants)
};

} // namespace

void check_variant(const ir::Program &program, const ir::Variant &variant, Diagnostics &d) {
    VariantCheck(program, variant, *program.find_task(variant.task), d).run();
}

} // namespace kiln::passes
