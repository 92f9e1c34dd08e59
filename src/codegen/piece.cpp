#include "codegen/piece.h"

#include "ir/event_printer.h"

namespace kiln::codegen {

void Scope::add(const event::Op& op) {
    if (op.kind == event::OpKind::Alloc)
        tensors[op.alloc.name] = op.alloc;
    else if (op.kind == event::OpKind::Part)
        parts[op.part.name] = op.part;
}

int64_t elements(const ir::Shape& s) {
    int64_t n = 1;
    for (auto e : s)
        n *= e;
    return n;
}

std::string c_expr(const ir::ExprPtr& e, const ExprHook& hook) {
    using K = ir::ExprKind;
    if (hook)
        if (auto spelled = hook(*e))
            return *spelled;
    auto sub = [&](size_t i) { return c_expr(e->args[i], hook); };
    auto bin = [&](const char* op) { return "(" + sub(0) + " " + op + " " + sub(1) + ")"; };
    switch (e->kind) {
    case K::Int:
        return std::to_string(e->int_value);
    case K::Name:
        return e->name;
    case K::Add:
        return bin("+");
    case K::Sub:
        return bin("-");
    case K::Mul:
        return bin("*");
    case K::Div:
        return bin("/"); // indices are non-negative: C division is floor division
    case K::Mod:
        return bin("%");
    case K::Neg:
        return "(-" + sub(0) + ")";
    case K::CeilDiv:
        return "((" + sub(0) + " + " + sub(1) + " - 1) / " + sub(1) + ")";
    case K::Min:
        return "min(" + sub(0) + ", " + sub(1) + ")";
    case K::Max:
        return "max(" + sub(0) + ", " + sub(1) + ")";
    case K::Float:
    case K::Grid:
        break;
    }
    throw DiagnosticError(
        Diagnostic{e->loc, "codegen: index expression '" + ir::to_string(e) + "' has no C form"});
}

namespace {

// "origin + index * tile", folding the common zero and unit cases so the output stays readable.
std::string offset_by(const std::string& origin, const ir::ExprPtr& index, int64_t tile) {
    std::string idx = c_expr(index);
    if (idx == "0")
        return origin;
    std::string term = tile == 1 ? idx : idx + " * " + std::to_string(tile);
    return origin == "0" ? term : origin + " + " + term;
}

Piece whole_tensor(const event::TensorDecl& t) {
    Piece p;
    p.tensor = &t;
    p.extent = t.shape;
    for (size_t d = 0; d < t.shape.size(); ++d) {
        p.origin.push_back("0");
        p.dims.push_back(static_cast<int>(d));
    }
    return p;
}

Result<Piece> resolve(const Scope& scope, const event::View& view, int depth) {
    if (depth > 32)
        return Diagnostic{{}, "codegen: partition chain of '" + view.name + "' is too deep"};
    if (auto t = scope.tensors.find(view.name); t != scope.tensors.end()) {
        if (!view.whole())
            return Diagnostic{{}, "codegen: tensor '" + view.name + "' indexed like a partition"};
        return whole_tensor(t->second);
    }
    auto part = scope.parts.find(view.name);
    if (part == scope.parts.end())
        return Diagnostic{{}, "codegen: view '" + view.name + "' names nothing in scope"};
    const event::Partition& p = part->second;
    if (p.spec.is_mma)
        return Diagnostic{{},
                          "codegen: view '" + event::print_view(view) +
                              "' is an mma fragment where a rectangular piece is needed"};
    auto source = resolve(scope, p.source, depth + 1);
    if (!source)
        return source;
    const auto& tile = p.spec.blocks.tile;
    if (tile.size() != source->dims.size() || view.index.size() != tile.size())
        return Diagnostic{{}, "codegen: partition '" + p.name + "' does not match its source"};
    Piece out = *source;
    out.dims.clear();
    out.padded = source->padded || p.spec.blocks.remainder == ir::Remainder::Pad;
    for (size_t d = 0; d < tile.size(); ++d) {
        int td = source->dims[d];
        out.origin[td] = offset_by(source->origin[td], view.index[d], tile[d].value_or(1));
        out.extent[td] = tile[d].value_or(1);
        std::vector<std::string> names;
        ir::collect_names(*view.index[d], names);
        out.vars.insert(names.begin(), names.end());
        if (tile[d])
            out.dims.push_back(td);
    }
    return out;
}

bool is_var(const ir::ExprPtr& e, const std::string& name) {
    return e && e->kind == ir::ExprKind::Name && e->name == name;
}

// One level of an mma fragment chain: `view` must be P[var] with P = mma(..., level).
Result<const event::Partition*> mma_step(const Scope& scope, const event::View& view,
                                         ir::Level level, const std::string& var) {
    auto part = scope.parts.find(view.name);
    if (part == scope.parts.end() || !part->second.spec.is_mma ||
        part->second.spec.mma.level != level || view.index.size() != 1 ||
        !is_var(view.index[0], var))
        return Diagnostic{{},
                          "codegen: '" + event::print_view(view) + "' is not the " +
                              std::string(ir::spelling(level)) + " mma fragment of processor '" +
                              var + "'"};
    return &part->second;
}

} // namespace

Result<Piece> resolve_piece(const Scope& scope, const event::View& view) {
    return resolve(scope, view, 0);
}

Result<Fragment> peel_fragment(const Scope& scope, const event::View& view,
                               const std::string& warp_var, const std::string& lane_var) {
    auto lane = mma_step(scope, view, ir::Level::Thread, lane_var);
    if (!lane)
        return lane.errors();
    auto warp = mma_step(scope, (*lane)->source, ir::Level::Warp, warp_var);
    if (!warp)
        return warp.errors();
    if ((*warp)->spec.mma.role != (*lane)->spec.mma.role)
        return Diagnostic{{},
                          "codegen: '" + event::print_view(view) +
                              "' mixes mma roles between its WARP and THREAD partitions"};
    return Fragment{(*warp)->source, (*lane)->spec.mma.role};
}

} // namespace kiln::codegen
