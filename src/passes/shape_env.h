#pragma once
// The values of the names in one instantiated variant body: shape symbols, tunables, scalar
// parameters and lets, loop variables, tensors (with concrete shapes and memories) and
// partitions. Sizes-like expressions (shapes, tiles, extents) must have one value shared by every
// iteration; index expressions may vary, and their range over the loop domains is computed where
// it can be decided.
#include "passes/diagnostics.h"
#include "passes/task_tree.h"

#include <map>
#include <optional>
#include <string>

namespace kiln::passes {

struct ScalarSlot {
    std::optional<ir::Value> value;
    // Why there is no value, as the end of "... depends on <unknown>"; empty with no value means
    // an earlier error made the name unusable (already reported).
    std::string unknown;
    std::optional<int64_t> loop_extent; // loop variables: the domain [0, extent)
    ir::ExprPtr definition;             // lets without a value: their expression, for ranges

    static ScalarSlot known(ir::Value v);
    static ScalarSlot unknown_because(std::string why, ir::ExprPtr definition = nullptr);
    static ScalarSlot loop_variable(const std::string &name, int64_t extent);
    static ScalarSlot unusable(); // its definition failed; uses are skipped silently
};

struct TensorSlot {
    ir::DType dtype = ir::DType::F32;
    ir::Shape shape;
    ir::Memory memory = ir::Memory::Global;
    // Loops open where the tensor was declared (0 for parameters): a tensor created inside a
    // loop body is a fresh tensor in every iteration of the loops around its declaration.
    std::size_t depth = 0;
};

struct Range {
    int64_t lo = 0, hi = 0;
};

class ShapeEnv {
public:
    void set_scalar(const std::string &name, ScalarSlot s) { scalars_[name] = std::move(s); }
    void set_tensor(const std::string &name, TensorSlot t) { tensors_[name] = std::move(t); }
    void set_partition(const std::string &name, PartitionInfo p) { partitions_[name] = p; }
    void erase_scalar(const std::string &name) { scalars_.erase(name); }

    // nullptr when the name was never bound because its definition failed (already reported).
    const TensorSlot *tensor(const std::string &name) const;
    const PartitionInfo *partition(const std::string &name) const;
    bool names_tensor(const std::string &name) const;

    // A value shared by every iteration (a shape, tile or extent); `what` names it in messages
    // ("tile of partition Ap"). nullopt after reporting why there is none.
    std::optional<int64_t> static_int(const ir::Expr &e, const std::string &what,
                                      Diagnostics &d) const;
    // The value when every name in `e` has one; otherwise nullopt (no message).
    std::optional<ir::Value> value(const ir::Expr &e) const;
    // Evaluates `e` when every name in it has a value (see unknown_reason); failures such as a
    // division by zero come back as diagnostics.
    Result<ir::Value> evaluate(const ir::Expr &e) const;
    // Why `e` has no static value ("loop variable k"); empty when it has one.
    std::string unknown_reason(const ir::Expr &e) const;
    // The values an integer expression takes over the loop domains; nullopt when undecidable.
    std::optional<Range> range(const ir::Expr &e) const;

private:
    ir::NameLookup names() const;
    ir::GridLookup grids() const;

    std::map<std::string, ScalarSlot> scalars_;
    std::map<std::string, TensorSlot> tensors_;
    std::map<std::string, PartitionInfo> partitions_;
};

} // namespace kiln::passes
