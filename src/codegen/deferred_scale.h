#pragma once
// Deferred scales (attention's scaled scores): `scale(X, X, c)` of a register fragment by a
// positive literal c is not multiplied out where it stands. X keeps its unscaled values and the
// factor travels with it to the statements that read it, where the readers of FlashAttention's
// softmax take it for free: a mask (-inf stays -inf), a row max (the factor multiplies the
// reduced value: two multiplies per thread instead of one per element) and the sub-then-exp FMA
// (the factor joins its log2e). A fill drops it; any other touch multiplies X out first; an
// iteration that ends with X deferred drops the factor when the loop's next touch of X is a fill,
// and multiplies it out otherwise.
#include "codegen/code_writer.h"
#include "codegen/kernel_plan.h"

#include <map>
#include <set>
#include <string>

namespace kiln::codegen {

// Register fragment -> its factor as a C expression.
using DeferredScales = std::map<std::string, std::string>;

// Defers `stmt` and returns true if it is such a scale.
bool defer_scale(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                 const std::map<std::string, event::View>& b, const ir::LeafOp& stmt,
                 DeferredScales& deferred);

// Before `stmt` (`next`: the statement after it, or null): multiplies out the deferred registers
// it touches in a way that cannot take the factor, and returns the factor of the one it can (a
// row max's source, the x of a sub-then-exp pair), or "". A fill of one drops its factor.
std::string settle_deferred_scales(CodeWriter& w, const KernelPlan& plan, const event::Op& call,
                                   const std::map<std::string, event::View>& b,
                                   const ir::LeafOp& stmt, const ir::LeafOp* next,
                                   DeferredScales& deferred);

// Multiplies out the deferred registers among `regs`.
void multiply_out(CodeWriter& w, const KernelPlan& plan, DeferredScales& deferred,
                  const std::set<std::string>& regs);

// The end of an iteration: drops a register whose first touch in the loop body is a fill of it,
// multiplies out the others.
void end_iteration_scales(CodeWriter& w, const event::EventProgram& program,
                          const KernelPlan& plan, DeferredScales& deferred);

} // namespace kiln::codegen
