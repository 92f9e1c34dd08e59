#pragma once
// Shape unification at a launch (docs/LANGUAGE.md, task signatures): each dimension of a callee's
// tensor parameter is a literal, a shape symbol, or an expression over symbols. Symbols are bound
// by the first argument that mentions them and every other mention must agree; literals and
// expressions must equal the argument's extent.
#include "ir/program.h"
#include "passes/diagnostics.h"
#include "passes/task_tree.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::passes {

// One per callee parameter; `shape` is nullopt for scalars and for arguments that could not be
// resolved (already reported).
struct ArgShape {
    std::optional<ir::Shape> shape;
    std::string text; // the argument as written ("Ap[i, 0]")
    Loc loc;
};

// The callee's shape symbols, or nullopt after reporting each disagreement. `head` starts every
// message ("launch of gemm at gemm.kiln:31:5 in instance gemm_block: ").
std::optional<Sizes> unify_shapes(const ir::Task &callee, const std::vector<ArgShape> &args,
                                  const std::string &head, Diagnostics &d);

} // namespace kiln::passes
