#include "passes/unify.h"

namespace kiln::passes {
namespace {

struct Binding {
    int64_t value;
    std::string param; // the parameter that bound it
};

class Unifier {
public:
    Unifier(const ir::Task &callee, const std::string &head, Diagnostics &d)
        : callee_(callee), head_(head), d_(d) {}

    std::optional<Sizes> run(const std::vector<ArgShape> &args) {
        for (std::size_t i = 0; i < args.size() && i < callee_.params.size(); ++i)
            if (args[i].shape && callee_.params[i].is_tensor)
                bind(callee_.params[i], args[i]);
        // Expressions are checked once every symbol has its value.
        for (std::size_t i = 0; i < args.size() && i < callee_.params.size(); ++i)
            if (args[i].shape && callee_.params[i].is_tensor && rank_ok(callee_.params[i], args[i]))
                check_expressions(callee_.params[i], args[i]);
        if (!ok_)
            return std::nullopt;
        Sizes out;
        for (const auto &[name, b] : bound_)
            out[name] = b.value;
        return out;
    }

private:
    static bool rank_ok(const ir::Param &p, const ArgShape &a) {
        return p.shape.size() == a.shape->size();
    }

    void error(const Loc &loc, const std::string &message) {
        d_.error(loc, head_ + message);
        ok_ = false;
    }

    void bind(const ir::Param &p, const ArgShape &a) {
        const ir::Shape &s = *a.shape;
        if (!rank_ok(p, a)) {
            error(a.loc, "parameter " + p.name + " is " + std::to_string(p.shape.size()) +
                             "-d but gets " + a.text + " of shape " + ir::shape_string(s));
            return;
        }
        for (std::size_t d = 0; d < s.size(); ++d) {
            const ir::Expr &dim = *p.shape[d];
            std::string extent = std::to_string(s[d]);
            if (dim.kind == ir::ExprKind::Int && dim.int_value != s[d])
                error(a.loc, "dimension " + std::to_string(d) + " of parameter " + p.name + " is " +
                                 extent + " but must be " + std::to_string(dim.int_value));
            if (dim.kind != ir::ExprKind::Name)
                continue;
            auto [it, fresh] = bound_.emplace(dim.name, Binding{s[d], p.name});
            if (!fresh && it->second.value != s[d])
                error(a.loc, "dimension " + dim.name + " of parameter " + p.name + " is " + extent +
                                 " but " + dim.name + " = " + std::to_string(it->second.value) +
                                 " from parameter " + it->second.param);
        }
    }

    void check_expressions(const ir::Param &p, const ArgShape &a) {
        const ir::Shape &s = *a.shape;
        ir::NameLookup lookup = [&](const std::string &n, ir::Value &out) {
            auto it = bound_.find(n);
            if (it == bound_.end())
                return false;
            out = ir::Value::of_int(it->second.value);
            return true;
        };
        for (std::size_t d = 0; d < s.size(); ++d) {
            const ir::Expr &dim = *p.shape[d];
            if (dim.kind == ir::ExprKind::Int || dim.kind == ir::ExprKind::Name)
                continue;
            std::string where = "dimension " + std::to_string(d) + " of parameter " + p.name;
            auto v = ir::evaluate_int(dim, lookup);
            if (!v)
                error(a.loc, where + " (" + ir::to_string(dim) + "): " + v.errors()[0].message);
            else if (*v != s[d])
                error(a.loc, where + " is " + std::to_string(s[d]) + " but " + ir::to_string(dim) +
                                 " = " + std::to_string(*v));
        }
    }

    const ir::Task &callee_;
    const std::string &head_;
    Diagnostics &d_;
    std::map<std::string, Binding> bound_;
    bool ok_ = true;
};

} // namespace

std::optional<Sizes> unify_shapes(const ir::Task &callee, const std::vector<ArgShape> &args,
                                  const std::string &head, Diagnostics &d) {
    return Unifier(callee, head, d).run(args);
}

} // namespace kiln::passes
