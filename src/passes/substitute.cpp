#include "passes/substitute.h"

namespace kiln::passes {
namespace {

bool is_literal(const ir::ExprPtr& e) {
    return e->kind == ir::ExprKind::Int || e->kind == ir::ExprKind::Float;
}

// Folds a node whose operands are all literals; leaves anything else (or a fold that fails, such
// as a division by zero the program never evaluates) as it is.
ir::ExprPtr fold(ir::ExprPtr e) {
    for (const auto& a : e->args)
        if (!is_literal(a))
            return e;
    if (e->args.empty())
        return e;
    auto v = ir::evaluate(*e, [](const std::string&, ir::Value&) { return false; });
    return v ? literal(*v) : e;
}

ir::ExprPtr rebuild(const ir::Expr& e, std::vector<ir::ExprPtr> args) {
    auto out = std::make_shared<ir::Expr>(e);
    out->args = std::move(args);
    return out;
}

} // namespace

ir::ExprPtr literal(const ir::Value& v) {
    return v.is_int ? ir::int_lit(v.i) : ir::float_lit(v.f);
}

Result<ir::ExprPtr> substitute(const ir::ExprPtr& e, const Bindings& names,
                               const ir::GridLookup& grids) {
    if (!e)
        return Diagnostic{{}, "missing expression"};
    switch (e->kind) {
    case ir::ExprKind::Int:
    case ir::ExprKind::Float:
        return e;
    case ir::ExprKind::Name: {
        auto it = names.find(e->name);
        if (it == names.end())
            return Diagnostic{e->loc, "'" + e->name + "' has no value at this point"};
        return it->second;
    }
    case ir::ExprKind::Grid: {
        int64_t extent = 0;
        if (!grids || !grids(e->name, e->int_value, extent))
            return Diagnostic{e->loc, "'" + ir::to_string(e) + "' names no partition grid"};
        return ir::int_lit(extent);
    }
    default:
        break;
    }
    std::vector<ir::ExprPtr> args;
    for (const auto& a : e->args) {
        auto s = substitute(a, names, grids);
        if (!s)
            return s.errors();
        args.push_back(*s);
    }
    return fold(rebuild(*e, std::move(args)));
}

} // namespace kiln::passes
