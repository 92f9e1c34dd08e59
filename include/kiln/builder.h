#pragma once
// The C++ way to write a kiln program: a fluent builder that produces exactly the IR the parser
// produces for the same program (tests/unit/builder checks this on the GEMM example).
//
//   kiln::Builder b("gemm");
//   b.sizes({{"M", 256}, {"N", 512}, {"K", 192}});
//   b.task("gemm", {rw("C", f32, {"M", "N"}), read("A", bf16, {"M", "K"}), ...});
//   auto& v = b.inner("gemm_lanes", "gemm");
//   v.mma("Cp", "C", MmaRole::Acc, Level::Thread);
//   v.prange({"t"}, {32}, [](auto& body) { body.launch("gemm", {T("Cp", {E("t")}), ...}); });
//   b.instance("gemm_thread", "gemm_leaf", Level::Thread).mem({{"C", Memory::Register}});
//   ir::Program p = b.build();
#include "ir/program.h"

#include <deque>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

using ir::DType;
using ir::Level;
using ir::Memory;
using ir::MmaRole;
using ir::Privilege;

// An integer or float expression: E(128), E("M"), E("M") / E("G"), ceildiv(E("K"), E("W")).
class E {
public:
    E(int v) : e_(ir::int_lit(v)) {}
    E(int64_t v) : e_(ir::int_lit(v)) {}
    E(double v) : e_(ir::float_lit(v)) {}
    E(const char* name) : e_(ir::name_ref(name)) {}
    E(std::string name) : e_(ir::name_ref(std::move(name))) {}
    explicit E(ir::ExprPtr e) : e_(std::move(e)) {}
    const ir::ExprPtr& ptr() const { return e_; }

private:
    ir::ExprPtr e_;
};

E operator+(E a, E b);
E operator-(E a, E b);
E operator*(E a, E b);
E operator/(E a, E b);
E operator%(E a, E b);
E operator-(E a);
E ceildiv(E a, E b);
E min(E a, E b);
E max(E a, E b);
E grid(const std::string& partition, int64_t dim); // P.grid[d]
E inf();

// A tensor operand: T("A") or a partition piece T("Ap", {E("i"), 0}).
ir::Operand T(std::string name, std::vector<E> indices = {});
// A scalar operand.
ir::Operand S(E value);

ir::Param read(std::string name, DType t, std::vector<E> shape);
ir::Param write(std::string name, DType t, std::vector<E> shape);
ir::Param rw(std::string name, DType t, std::vector<E> shape);
ir::Param reduce_add(std::string name, DType t, std::vector<E> shape);
ir::Param reduce_max(std::string name, DType t, std::vector<E> shape);
ir::Param scalar(std::string name, DType t);

// The `_` entry of a blocks tile: an extent-1 dimension the pieces drop.
inline constexpr std::nullptr_t squeeze = nullptr;
struct Tile {
    Tile(E e) : expr(e.ptr()) {}
    Tile(int v) : expr(E(v).ptr()) {}
    Tile(const char* n) : expr(E(n).ptr()) {}
    Tile(std::nullptr_t) {}
    ir::ExprPtr expr;
};

// Statements of a variant body (or of a loop body inside it).
class BodyBuilder {
public:
    explicit BodyBuilder(std::vector<ir::Stmt>& out) : out_(out) {}
    BodyBuilder& tunable(std::vector<std::string> names);
    BodyBuilder& tensor(std::string name, DType t, std::vector<E> shape);
    BodyBuilder& blocks(std::string name, std::string source, std::vector<Tile> tile,
                        bool pad = false);
    BodyBuilder& mma(std::string name, std::string source, MmaRole role, Level level,
                     std::optional<E> n = std::nullopt);
    BodyBuilder& let(std::string name, E value);
    BodyBuilder& launch(std::string task, std::vector<ir::Operand> args, std::string label = {});
    using BodyFn = std::function<void(BodyBuilder&)>;
    BodyBuilder& srange(std::vector<std::string> vars, std::vector<E> extents, const BodyFn& body);
    BodyBuilder& prange(std::vector<std::string> vars, std::vector<E> extents, const BodyFn& body);
    // Loops over a partition's grid: `prange (i, j) in Cp.grid`.
    BodyBuilder& srange_grid(std::vector<std::string> vars, std::string partition,
                             const BodyFn& body);
    BodyBuilder& prange_grid(std::vector<std::string> vars, std::string partition,
                             const BodyFn& body);
    BodyBuilder& op(std::string name, std::vector<ir::Operand> operands);
    BodyBuilder& call_external(std::string function, std::vector<ir::Operand> operands);

private:
    BodyBuilder& loop(bool parallel, std::vector<std::string> vars, std::string grid_of,
                      std::vector<E> extents, const BodyFn& body);
    std::vector<ir::Stmt>& out_;
};

class InstanceBuilder {
public:
    explicit InstanceBuilder(mapping::Instance& inst) : inst_(inst) {}
    InstanceBuilder& mem(std::vector<std::pair<std::string, Memory>> bindings);
    InstanceBuilder& tunable(std::vector<std::pair<std::string, int64_t>> bindings);
    InstanceBuilder& dispatch(std::vector<std::pair<std::string, std::string>> bindings);
    InstanceBuilder& layout(std::vector<std::pair<std::string, mapping::Layout>> bindings);
    InstanceBuilder& warpspecialize();
    InstanceBuilder& pipeline(int64_t depth);
    InstanceBuilder& smem_limit(int64_t bytes);
    InstanceBuilder& schedule(mapping::SchedulePolicy policy);
    InstanceBuilder& persistent();

private:
    mapping::Instance& inst_;
};

class Builder {
public:
    explicit Builder(std::string program_name);
    Builder& sizes(std::vector<std::pair<std::string, int64_t>> sizes);
    // reference NAME(args, key = value ...)
    Builder& reference(std::string name, std::vector<std::string> args,
                       std::vector<std::pair<std::string, double>> attributes = {});
    Builder& task(std::string name, std::vector<ir::Param> params);
    BodyBuilder inner(std::string name, std::string task);
    BodyBuilder leaf(std::string name, std::string task);
    InstanceBuilder instance(std::string name, std::string variant, Level level);
    Builder& entry(std::string instance);
    // The finished program (the builder can keep going afterwards).
    ir::Program build() const;

private:
    BodyBuilder variant(std::string name, std::string task, bool leaf);
    ir::Program p_; // everything but variants and instances
    // Deques keep the references handed out by inner()/leaf()/instance() valid as more are added.
    std::deque<ir::Variant> variants_;
    std::deque<mapping::Instance> instances_;
};

} // namespace kiln
