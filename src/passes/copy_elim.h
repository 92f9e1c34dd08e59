#pragma once
// copy-elim (Cypress §4.2.3): removes the copies and temporaries that the dependence analysis's
// copy-in/copy-out discipline introduced, by rewrite patterns in the style of Sequoia applied to
// a fixed point (src/passes/copy_patterns.h lists them in their order). Spill patterns run
// first: they can drop a synchronization (a copy-out then copy-in through the same pieces needs
// no broadcast between them), which the later patterns would have had to keep.
//
// Requires: the vectorized event IR (depend + vectorize): unique tensor, partition and event
// names, `for` loops not yet pipelined.
// Guarantees: the same results under the event semantics; every operation that waited on a
// removed one waits on that one's preconditions (or a point-wise equivalent), never on nothing;
// dtype-converting copies, copies into parameters and copies something reads stay; an alloc or
// part that nothing names is gone. Memory NONE tensors are removed where the patterns reach
// them (all of them for GEMM); one that remains is still named in the output.
// Errors: duplicate tensor, partition or event names (a Diagnostic naming the first one).
#include "ir/event.h"
#include "passes/pass_context.h"

namespace kiln::passes {

Result<event::EventProgram> copy_elim(event::EventProgram program, const PassContext& ctx);

} // namespace kiln::passes
