#pragma once
// pipeline-loops (Cypress §4.2.5, Figure 12): lets the DMA warpgroup of a warp-specialized block
// run D iterations ahead of the compute warpgroups.
//
// For every `for` directly containing a dma copy inside a BLOCK pfor with `warpspecialize` and
// `pipeline = D` (D > 1): the loop gets `pipeline = D`; every SHARED tensor allocated in its body
// and written by a dma copy gets `stages D on <loop variable>`; and the implicit serialization of
// iterations is replaced by loop-carried references computed from the tensor accesses (not from
// textual order). For every tensor the loop body writes, each conflicting pair of accesses (at
// least one writes) between iteration k - d and iteration k gets a reference `@-d` from the
// iteration-k access to the earlier one, where d = D for a staged tensor (the same buffer comes
// back every D iterations: the backward WAR edges from the readers of a stage to the DMA copy
// that refills it) and d = 1 otherwise (e.g. the accumulator chain). A pair is left out when
// another kept pair already implies it within the iteration (its consumer is no later and its
// producer no earlier). Accesses are taken at the level of the loop body (an inner loop is one
// access); references index a processor dimension point-wise only when the tensor has one
// instance per processor of it, and are `cross` between roles.
//
// Requires: warp-specialize has run (roles); names are unique.
// Guarantees: every ordering between iterations that the sequential loop relied on for tensor
// data is an explicit loop-carried reference; operations after the loop still wait for the
// loop's event (all iterations). Runs before alloc-smem, whose plan depends on the stages.
#include "ir/event.h"
#include "passes/pass_context.h"

namespace kiln::passes {

Result<event::EventProgram> pipeline_loops(event::EventProgram program, const PassContext& ctx);

} // namespace kiln::passes
