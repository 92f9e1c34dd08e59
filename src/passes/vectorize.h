#pragma once
// vectorize: flattens the implicit parallel loops of a block (Cypress §4.2.2). Contract and
// example: docs/passes/vectorize.md.
//
// Requires: a verified event program (the dependence analysis's output, or anything later that
// still has pfors).
// Guarantees: no pfor at WARPGROUP, WARP or THREAD level remains; BLOCK (and HOST) pfors stay.
// Deepest first, each such pfor is replaced by its body, every operation of which (nested ones
// included) gains the loop's dimensions in `over` (outer first: the loop's own `over`, its
// variables, then what the operation already had); the variables keep their names and now name
// the processor index. References inside the body to events of the body gain the loop's
// variables as point-wise indices; references after the loop to the loop's event name the body's
// yield instead, with the loop's indices (usually `:`, a synchronization of those processors)
// followed by the yield's own. The loop's preconditions move onto the body's top-level
// operations. The event graph is otherwise unchanged: every ordering the pfor implied holds.
#include "ir/event.h"
#include "passes/pass_context.h"

namespace kiln::passes {

Result<event::EventProgram> vectorize(event::EventProgram program, const PassContext& ctx);

} // namespace kiln::passes
