#pragma once
// Scalar expressions: shapes, tile sizes, loop extents, partition indices and leaf-op scalars.
// Nodes are immutable and shared; build them through the factory functions below.
#include "ir/diagnostic.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln::ir {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind {
    Int,   // 42
    Float, // 0.125, inf (written -inf after negation)
    Name,  // a size symbol, tunable, loop variable, scalar parameter or scalar let
    Grid,  // P.grid[d]: extent of dimension d of partition P's grid
    Add,
    Sub,
    Mul,
    Div, // floor division on integers
    Mod,
    Neg,
    CeilDiv, // ceildiv(a, b)
    Min,
    Max,
};

struct Expr {
    ExprKind kind;
    int64_t int_value = 0; // Int; Grid: the dimension
    double float_value = 0;
    std::string name; // Name; Grid: the partition
    std::vector<ExprPtr> args;
    Loc loc;
};

ExprPtr int_lit(int64_t v, Loc loc = {});
ExprPtr float_lit(double v, Loc loc = {});
ExprPtr name_ref(std::string name, Loc loc = {});
ExprPtr grid_ref(std::string partition, int64_t dim, Loc loc = {});
ExprPtr binary(ExprKind kind, ExprPtr a, ExprPtr b, Loc loc = {});
ExprPtr neg(ExprPtr a, Loc loc = {});

// Structural equality (locations ignored).
bool equal(const Expr& a, const Expr& b);
bool equal(const ExprPtr& a, const ExprPtr& b);

// Canonical text: fully determined by the tree, parenthesized only where precedence needs it.
std::string to_string(const Expr& e);
std::string to_string(const ExprPtr& e);

// Every Name the expression mentions (Grid partitions are reported with a leading '.').
void collect_names(const Expr& e, std::vector<std::string>& out);

// A scalar value during evaluation: integers stay exact, anything touching a float is a double.
struct Value {
    bool is_int = true;
    int64_t i = 0;
    double f = 0;
    static Value of_int(int64_t v) { return {true, v, double(v)}; }
    static Value of_float(double v) { return {false, 0, v}; }
    double as_double() const { return is_int ? double(i) : f; }
};

// Resolves names during evaluation; returns false if the name is unknown.
using NameLookup = std::function<bool(const std::string& name, Value& out)>;
// Looks names up in a table of integers (problem sizes, bound symbols).
NameLookup lookup_in(const std::map<std::string, int64_t>& values);
using GridLookup = std::function<bool(const std::string& partition, int64_t dim, int64_t& out)>;

// Evaluates `e`; failures (unknown name, division by zero) are diagnostics at the offending node.
Result<Value> evaluate(const Expr& e, const NameLookup& names, const GridLookup& grids = nullptr);
// Evaluates and requires an integer result.
Result<int64_t> evaluate_int(const Expr& e, const NameLookup& names,
                             const GridLookup& grids = nullptr);

} // namespace kiln::ir
