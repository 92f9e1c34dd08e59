#include "passes/scope.h"

#include <algorithm>
#include <cassert>

namespace kiln::passes {

Declared Declared::of(NameKind kind, const Loc &loc, ir::DType dtype, std::size_t rank) {
    Declared d;
    d.kind = kind;
    d.loc = loc;
    d.dtype = dtype;
    d.rank = rank;
    return d;
}

bool is_scalar(NameKind k) {
    return k != NameKind::TensorParam && k != NameKind::Tensor && k != NameKind::Partition;
}

std::string_view kind_text(NameKind k) {
    switch (k) {
    case NameKind::SizeSymbol:
        return "a shape symbol";
    case NameKind::ScalarParam:
        return "a scalar parameter";
    case NameKind::TensorParam:
        return "a tensor parameter";
    case NameKind::Tunable:
        return "a tunable";
    case NameKind::ScalarLet:
        return "a scalar";
    case NameKind::Tensor:
        return "a tensor";
    case NameKind::Partition:
        return "a partition";
    case NameKind::LoopVar:
        return "a loop variable";
    }
    return "a name";
}

std::vector<std::string> shape_symbols(const ir::Task &task) {
    std::vector<std::string> names;
    for (const auto &p : task.params)
        for (const auto &dim : p.shape)
            if (dim)
                ir::collect_names(*dim, names);
    std::vector<std::string> out;
    for (const auto &n : names)
        if (std::find(out.begin(), out.end(), n) == out.end())
            out.push_back(n);
    return out;
}

Scope::Scope(const ir::Task &task) {
    frames_.emplace_back();
    for (const auto &s : shape_symbols(task))
        declare(s, Declared::of(NameKind::SizeSymbol, task.loc));
    for (const auto &p : task.params) {
        auto kind = p.is_tensor ? NameKind::TensorParam : NameKind::ScalarParam;
        Declared d = Declared::of(kind, p.loc, p.dtype, p.shape.size());
        d.param = &p;
        declare(p.name, d);
    }
}

const Declared *Scope::find(const std::string &name) const {
    for (auto f = frames_.rbegin(); f != frames_.rend(); ++f)
        if (auto it = f->find(name); it != f->end())
            return &it->second;
    return nullptr;
}

const Declared *Scope::declare(const std::string &name, const Declared &d) {
    if (const Declared *visible = find(name))
        return visible;
    if (d.kind != NameKind::LoopVar) {
        if (auto it = unique_.find(name); it != unique_.end())
            return &it->second;
        unique_.emplace(name, d);
    }
    frames_.back().emplace(name, d);
    return nullptr;
}

bool Scope::names_tensor(const std::string &name) const {
    const Declared *d = find(name);
    return d && !is_scalar(d->kind);
}

void Scope::open() {
    frames_.emplace_back();
}

void Scope::close() {
    assert(frames_.size() > 1 && "closing the task's own scope");
    frames_.pop_back();
}

void check_expr(const ir::Expr &e, const Scope &scope, const std::string &where, Diagnostics &d) {
    if (e.kind == ir::ExprKind::Name) {
        const Declared *n = scope.find(e.name);
        if (!n)
            d.error(e.loc, "unknown name '" + e.name + "' in " + where);
        else if (!is_scalar(n->kind))
            d.error(e.loc, e.name + " is " + std::string(kind_text(n->kind)) +
                               ", not a scalar, in " + where);
    }
    if (e.kind == ir::ExprKind::Grid) {
        const Declared *p = scope.find(e.name);
        std::string text = ir::to_string(e);
        if (!p)
            d.error(e.loc, "unknown partition '" + e.name + "' in " + text + " in " + where);
        else if (p->kind != NameKind::Partition)
            d.error(e.loc, text + ": " + e.name + " is " + std::string(kind_text(p->kind)) +
                               ", not a partition, in " + where);
        else if (e.int_value < 0 || std::size_t(e.int_value) >= p->grid_rank)
            d.error(e.loc, text + ": " + e.name + " has a " + std::to_string(p->grid_rank) +
                               "-d grid, in " + where);
    }
    for (const auto &a : e.args)
        check_expr(*a, scope, where, d);
}

Declared partition_decl(const ir::LetBlocks &let, const Declared &source) {
    Declared d = Declared::of(NameKind::Partition, let.loc, source.dtype);
    d.grid_rank = let.tile.size();
    d.rank = std::count_if(let.tile.begin(), let.tile.end(), [](const auto &t) { return t; });
    d.source = let.source;
    return d;
}

Declared partition_decl(const ir::LetMma &let, const Declared &source) {
    Declared d = Declared::of(NameKind::Partition, let.loc, source.dtype, source.rank);
    // Only the accumulator split into instructions has a 2-d grid (rows of 64 x columns of N).
    d.grid_rank = let.role == ir::MmaRole::Acc && let.level == ir::Level::Warpgroup ? 2 : 1;
    d.source = let.source;
    return d;
}

} // namespace kiln::passes
