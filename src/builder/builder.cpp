#include "kiln/builder.h"

#include <limits>

namespace kiln {

namespace {
E bin(ir::ExprKind k, const E& a, const E& b) { return E(ir::binary(k, a.ptr(), b.ptr())); }

std::vector<ir::ExprPtr> exprs(const std::vector<E>& es) {
    std::vector<ir::ExprPtr> out;
    for (const auto& e : es)
        out.push_back(e.ptr());
    return out;
}

ir::Param tensor_param(std::string name, Privilege p, DType t, std::vector<E> shape) {
    ir::Param out;
    out.name = std::move(name);
    out.privilege = p;
    out.dtype = t;
    out.shape = exprs(shape);
    return out;
}
} // namespace

E operator+(E a, E b) { return bin(ir::ExprKind::Add, a, b); }
E operator-(E a, E b) { return bin(ir::ExprKind::Sub, a, b); }
E operator*(E a, E b) { return bin(ir::ExprKind::Mul, a, b); }
E operator/(E a, E b) { return bin(ir::ExprKind::Div, a, b); }
E operator%(E a, E b) { return bin(ir::ExprKind::Mod, a, b); }
E operator-(E a) { return E(ir::neg(a.ptr())); }
E ceildiv(E a, E b) { return bin(ir::ExprKind::CeilDiv, a, b); }
E min(E a, E b) { return bin(ir::ExprKind::Min, a, b); }
E max(E a, E b) { return bin(ir::ExprKind::Max, a, b); }
E grid(const std::string& partition, int64_t dim) { return E(ir::grid_ref(partition, dim)); }
E inf() { return E(std::numeric_limits<double>::infinity()); }

ir::Operand T(std::string name, std::vector<E> indices) {
    return ir::Operand{ir::TensorRef{std::move(name), exprs(indices), {}}};
}
ir::Operand S(E value) { return ir::Operand{value.ptr()}; }

ir::Param read(std::string n, DType t, std::vector<E> s) {
    return tensor_param(std::move(n), Privilege::Read, t, std::move(s));
}
ir::Param write(std::string n, DType t, std::vector<E> s) {
    return tensor_param(std::move(n), Privilege::Write, t, std::move(s));
}
ir::Param rw(std::string n, DType t, std::vector<E> s) {
    return tensor_param(std::move(n), Privilege::ReadWrite, t, std::move(s));
}
ir::Param reduce_add(std::string n, DType t, std::vector<E> s) {
    return tensor_param(std::move(n), Privilege::ReduceAdd, t, std::move(s));
}
ir::Param reduce_max(std::string n, DType t, std::vector<E> s) {
    return tensor_param(std::move(n), Privilege::ReduceMax, t, std::move(s));
}
ir::Param scalar(std::string name, DType t) {
    ir::Param out;
    out.name = std::move(name);
    out.is_tensor = false;
    out.dtype = t;
    return out;
}

BodyBuilder& BodyBuilder::tunable(std::vector<std::string> names) {
    out_.push_back({ir::TunableDecl{std::move(names), {}}});
    return *this;
}

BodyBuilder& BodyBuilder::tensor(std::string name, DType t, std::vector<E> shape) {
    out_.push_back({ir::LetTensor{std::move(name), t, exprs(shape), {}}});
    return *this;
}

BodyBuilder& BodyBuilder::blocks(std::string name, std::string source, std::vector<Tile> tile,
                                 bool pad) {
    ir::LetBlocks b{std::move(name), std::move(source), {}, ir::Remainder::Exact, {}};
    for (const auto& t : tile)
        b.tile.push_back(t.expr);
    b.remainder = pad ? ir::Remainder::Pad : ir::Remainder::Exact;
    out_.push_back({std::move(b)});
    return *this;
}

BodyBuilder& BodyBuilder::mma(std::string name, std::string source, MmaRole role, Level level,
                              std::optional<E> n) {
    out_.push_back({ir::LetMma{std::move(name), std::move(source), role, level,
                               n ? n->ptr() : nullptr, {}}});
    return *this;
}

BodyBuilder& BodyBuilder::let(std::string name, E value) {
    out_.push_back({ir::LetScalar{std::move(name), value.ptr(), {}}});
    return *this;
}

BodyBuilder& BodyBuilder::launch(std::string task, std::vector<ir::Operand> args,
                                 std::string label) {
    out_.push_back({ir::Launch{std::move(label), std::move(task), std::move(args), {}}});
    return *this;
}

BodyBuilder& BodyBuilder::loop(bool parallel, std::vector<std::string> vars, std::string grid_of,
                               std::vector<E> extents, const BodyFn& body) {
    ir::Loop l;
    l.parallel = parallel;
    l.vars = std::move(vars);
    l.grid_of = std::move(grid_of);
    l.extents = exprs(extents);
    BodyBuilder inner(l.body);
    body(inner);
    out_.push_back({std::move(l)});
    return *this;
}

BodyBuilder& BodyBuilder::srange(std::vector<std::string> vars, std::vector<E> extents,
                                 const BodyFn& body) {
    return loop(false, std::move(vars), {}, std::move(extents), body);
}
BodyBuilder& BodyBuilder::prange(std::vector<std::string> vars, std::vector<E> extents,
                                 const BodyFn& body) {
    return loop(true, std::move(vars), {}, std::move(extents), body);
}
BodyBuilder& BodyBuilder::srange_grid(std::vector<std::string> vars, std::string partition,
                                      const BodyFn& body) {
    return loop(false, std::move(vars), std::move(partition), {}, body);
}
BodyBuilder& BodyBuilder::prange_grid(std::vector<std::string> vars, std::string partition,
                                      const BodyFn& body) {
    return loop(true, std::move(vars), std::move(partition), {}, body);
}

BodyBuilder& BodyBuilder::op(std::string name, std::vector<ir::Operand> operands) {
    out_.push_back({ir::LeafOp{std::move(name), {}, std::move(operands), {}}});
    return *this;
}

BodyBuilder& BodyBuilder::call_external(std::string function, std::vector<ir::Operand> operands) {
    out_.push_back(
        {ir::LeafOp{"call_external", std::move(function), std::move(operands), {}}});
    return *this;
}

InstanceBuilder& InstanceBuilder::mem(std::vector<std::pair<std::string, Memory>> bindings) {
    for (auto& [t, m] : bindings)
        inst_.mems.push_back({t, m, {}});
    return *this;
}
InstanceBuilder& InstanceBuilder::tunable(std::vector<std::pair<std::string, int64_t>> bindings) {
    for (auto& [n, v] : bindings)
        inst_.tunables.push_back({n, v, {}});
    return *this;
}
InstanceBuilder&
InstanceBuilder::dispatch(std::vector<std::pair<std::string, std::string>> bindings) {
    for (auto& [s, i] : bindings)
        inst_.dispatch.push_back({s, i, {}});
    return *this;
}
InstanceBuilder&
InstanceBuilder::layout(std::vector<std::pair<std::string, mapping::Layout>> bindings) {
    for (auto& [t, l] : bindings)
        inst_.layouts.push_back({t, l, {}});
    return *this;
}
InstanceBuilder& InstanceBuilder::warpspecialize() {
    inst_.warpspecialize = true;
    return *this;
}
InstanceBuilder& InstanceBuilder::pipeline(int64_t depth) {
    inst_.pipeline = depth;
    return *this;
}
InstanceBuilder& InstanceBuilder::smem_limit(int64_t bytes) {
    inst_.smem_limit = bytes;
    return *this;
}
InstanceBuilder& InstanceBuilder::schedule(mapping::SchedulePolicy policy) {
    inst_.schedule = policy;
    return *this;
}
InstanceBuilder& InstanceBuilder::persistent() {
    inst_.persistent = true;
    return *this;
}

Builder::Builder(std::string program_name) { p_.name = std::move(program_name); }

Builder& Builder::sizes(std::vector<std::pair<std::string, int64_t>> sizes) {
    for (auto& [n, v] : sizes)
        p_.sizes.push_back({n, v, {}});
    return *this;
}

Builder& Builder::reference(std::string name, std::vector<std::string> args,
                            std::vector<std::pair<std::string, double>> attributes) {
    ir::Reference r{std::move(name), {}, {}};
    for (auto& a : args)
        r.args.push_back({a, std::nullopt});
    for (auto& [k, v] : attributes)
        r.args.push_back({k, v});
    p_.reference = std::move(r);
    return *this;
}

Builder& Builder::task(std::string name, std::vector<ir::Param> params) {
    p_.tasks.push_back({std::move(name), std::move(params), {}});
    return *this;
}

BodyBuilder Builder::variant(std::string name, std::string task, bool leaf) {
    variants_.push_back({std::move(name), std::move(task), leaf, {}, {}});
    return BodyBuilder(variants_.back().body);
}
BodyBuilder Builder::inner(std::string name, std::string task) {
    return variant(std::move(name), std::move(task), false);
}
BodyBuilder Builder::leaf(std::string name, std::string task) {
    return variant(std::move(name), std::move(task), true);
}

InstanceBuilder Builder::instance(std::string name, std::string variant, Level level) {
    mapping::Instance inst;
    inst.name = std::move(name);
    inst.variant = std::move(variant);
    inst.level = level;
    instances_.push_back(std::move(inst));
    return InstanceBuilder(instances_.back());
}

Builder& Builder::entry(std::string instance) {
    p_.mapping.entry = std::move(instance);
    return *this;
}

ir::Program Builder::build() const {
    ir::Program p = p_;
    p.variants.assign(variants_.begin(), variants_.end());
    p.mapping.instances.assign(instances_.begin(), instances_.end());
    return p;
}

} // namespace kiln
