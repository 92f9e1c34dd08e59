#pragma once
// Where a view lives: the tensor it names and, per tensor dimension, the C expression of the
// piece's first element and the piece's extent. Resolves `blocks` partitions (squeezed
// dimensions included) down to the tensor; `mma` fragment partitions are peeled separately
// (peel_fragment) because they describe a register/thread layout, not a rectangle.
#include "ir/diagnostic.h"
#include "ir/event.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kiln::codegen {

// The tensors and partitions in scope, by name (the passes give every one a unique name).
struct Scope {
    std::map<std::string, event::TensorDecl> tensors;
    std::map<std::string, event::Partition> parts;
    void add(const event::Op& op); // records an alloc or part; other ops are ignored
};

struct Piece {
    const event::TensorDecl* tensor = nullptr;
    std::vector<std::string> origin; // per tensor dimension, a C expression
    ir::Shape extent;                // per tensor dimension (1 where squeezed)
    std::vector<int> dims;           // the tensor dimension of each piece dimension
    bool padded = false;             // some partition on the way pads (edge pieces are ragged)
    std::set<std::string> vars;      // the loop and processor variables the origin reads
};

// Resolves `view` through blocks partitions; an mma partition on the way is an error.
Result<Piece> resolve_piece(const Scope& scope, const event::View& view);

// A fragment view `P[t]` of `mma(Q[w], role, THREAD)` of `mma(V, role, WARP)`: the warpgroup
// view V, after checking the indices are the op's own warp and lane variables.
struct Fragment {
    event::View warpgroup_view;
    ir::MmaRole role = ir::MmaRole::Acc;
};
Result<Fragment> peel_fragment(const Scope& scope, const event::View& view,
                               const std::string& warp_var, const std::string& lane_var);

// How many elements a shape (or a grid of extents) holds.
int64_t elements(const ir::Shape& s);

// Spells some leaves of an expression itself (a leaf's scalar parameters, float literals);
// nullopt leaves the node to c_expr.
using ExprHook = std::function<std::optional<std::string>(const ir::Expr&)>;

// C spelling of an index expression over loop and processor variables.
std::string c_expr(const ir::ExprPtr& e, const ExprHook& hook = {});

} // namespace kiln::codegen
