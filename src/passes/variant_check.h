#pragma once
// The size-independent rules of one variant body: which statements a leaf or an inner variant may
// hold, names and scopes (no duplicates, no unknown names), partition sources, `P.grid` and piece
// index arity, launch arguments (count, tensor or scalar, dtype, privilege escalation) and the
// access rules of leaf operations (leaf_rules.h).
#include "ir/program.h"
#include "passes/diagnostics.h"

namespace kiln::passes {

// Requires: the variant's task exists.
void check_variant(const ir::Program &program, const ir::Variant &variant, Diagnostics &d);

} // namespace kiln::passes
