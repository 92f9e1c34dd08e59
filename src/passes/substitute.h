#pragma once
// Rewrites a program expression into the event IR's terms: names are replaced by what they stand
// for at the launch being lowered (a size, a tunable, a scalar argument's expression in the
// caller, a loop variable's event-IR name), `P.grid[d]` by the grid extent, and every
// subexpression without free names is folded to a literal ("k * BN" becomes "k * 128").
//
// Requires: every name the expression mentions is bound (else a Diagnostic naming it).
// Guarantees: the result mentions only names bound to non-literal expressions (loop variables).
#include "ir/expr.h"

#include <map>
#include <string>

namespace kiln::passes {

using Bindings = std::map<std::string, ir::ExprPtr>;

Result<ir::ExprPtr> substitute(const ir::ExprPtr& e, const Bindings& names,
                               const ir::GridLookup& grids);

// A literal holding `v` (an integer stays an integer).
ir::ExprPtr literal(const ir::Value& v);

} // namespace kiln::passes
