#include "passes/shape_env.h"

#include <algorithm>

namespace kiln::passes {
namespace {

int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

Range hull(std::initializer_list<int64_t> xs) {
    return {std::min(xs), std::max(xs)};
}

} // namespace

ScalarSlot ScalarSlot::known(ir::Value v) {
    ScalarSlot s;
    s.value = v;
    return s;
}

ScalarSlot ScalarSlot::unknown_because(std::string why, ir::ExprPtr definition) {
    ScalarSlot s;
    s.unknown = std::move(why);
    s.definition = std::move(definition);
    return s;
}

ScalarSlot ScalarSlot::loop_variable(const std::string &name, int64_t extent) {
    ScalarSlot s;
    s.unknown = "loop variable " + name;
    s.loop_extent = extent;
    return s;
}

ScalarSlot ScalarSlot::unusable() {
    return ScalarSlot{};
}

const TensorSlot *ShapeEnv::tensor(const std::string &name) const {
    auto it = tensors_.find(name);
    return it == tensors_.end() ? nullptr : &it->second;
}

const PartitionInfo *ShapeEnv::partition(const std::string &name) const {
    auto it = partitions_.find(name);
    return it == partitions_.end() ? nullptr : &it->second;
}

bool ShapeEnv::names_tensor(const std::string &name) const {
    return tensors_.count(name) || partitions_.count(name);
}

ir::NameLookup ShapeEnv::names() const {
    return [this](const std::string &n, ir::Value &out) {
        auto it = scalars_.find(n);
        if (it == scalars_.end() || !it->second.value)
            return false;
        out = *it->second.value;
        return true;
    };
}

ir::GridLookup ShapeEnv::grids() const {
    return [this](const std::string &p, int64_t dim, int64_t &out) {
        const PartitionInfo *info = partition(p);
        if (!info || dim < 0 || std::size_t(dim) >= info->shape.grid.size())
            return false;
        out = info->shape.grid[dim];
        return true;
    };
}

std::string ShapeEnv::unknown_reason(const ir::Expr &e) const {
    if (e.kind == ir::ExprKind::Name) {
        auto it = scalars_.find(e.name);
        if (it == scalars_.end())
            return "?"; // unbound after an earlier error
        if (!it->second.value)
            return it->second.unknown.empty() ? "?" : it->second.unknown;
    }
    if (e.kind == ir::ExprKind::Grid && !partition(e.name))
        return "?";
    for (const auto &a : e.args)
        if (auto r = unknown_reason(*a); !r.empty())
            return r;
    return "";
}

std::optional<int64_t> ShapeEnv::static_int(const ir::Expr &e, const std::string &what,
                                            Diagnostics &d) const {
    std::string why = unknown_reason(e);
    if (why == "?")
        return std::nullopt;
    if (!why.empty()) {
        d.error(e.loc, what + " depends on " + why +
                           "; shapes, tiles and extents must be static and the same in every "
                           "iteration");
        return std::nullopt;
    }
    auto v = ir::evaluate_int(e, names(), grids());
    if (!v) {
        for (const auto &err : v.errors())
            d.error(err.loc, what + ": " + err.message);
        return std::nullopt;
    }
    return *v;
}

Result<ir::Value> ShapeEnv::evaluate(const ir::Expr &e) const {
    return ir::evaluate(e, names(), grids());
}

std::optional<ir::Value> ShapeEnv::value(const ir::Expr &e) const {
    if (!unknown_reason(e).empty())
        return std::nullopt;
    auto v = evaluate(e);
    return v ? std::optional<ir::Value>(*v) : std::nullopt;
}

std::optional<Range> ShapeEnv::range(const ir::Expr &e) const {
    using K = ir::ExprKind;
    if (unknown_reason(e).empty()) {
        auto v = value(e);
        if (!v || !v->is_int)
            return std::nullopt;
        return Range{v->i, v->i};
    }
    if (e.kind == K::Name) {
        auto it = scalars_.find(e.name);
        if (it == scalars_.end())
            return std::nullopt;
        if (it->second.loop_extent)
            return Range{0, *it->second.loop_extent - 1};
        return it->second.definition ? range(*it->second.definition) : std::nullopt;
    }
    if (e.kind == K::Neg) {
        auto a = range(*e.args[0]);
        return a ? std::optional<Range>(Range{-a->hi, -a->lo}) : std::nullopt;
    }
    if (e.args.size() != 2)
        return std::nullopt;
    auto a = range(*e.args[0]);
    auto b = range(*e.args[1]);
    if (!a || !b)
        return std::nullopt;
    switch (e.kind) {
    case K::Add:
        return Range{a->lo + b->lo, a->hi + b->hi};
    case K::Sub:
        return Range{a->lo - b->hi, a->hi - b->lo};
    case K::Mul:
        return hull({a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi});
    case K::Min:
        return Range{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    case K::Max:
        return Range{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    default:
        break;
    }
    // Division by a varying or non-positive divisor is not decided.
    if (b->lo != b->hi || b->lo <= 0)
        return std::nullopt;
    int64_t k = b->lo;
    switch (e.kind) {
    case K::Div:
        return Range{floor_div(a->lo, k), floor_div(a->hi, k)};
    case K::CeilDiv:
        return Range{-floor_div(-a->lo, k), -floor_div(-a->hi, k)};
    case K::Mod:
        return a->lo >= 0 && a->hi < k ? *a : Range{0, k - 1};
    default:
        return std::nullopt;
    }
}

} // namespace kiln::passes
