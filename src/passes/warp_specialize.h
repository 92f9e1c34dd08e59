#pragma once
// warp-specialize (Cypress §4.2.5): splits the operations of each warp-specialized block between
// a DMA warpgroup and the compute warpgroups, and marks the dependences between the two.
//
// In every BLOCK pfor whose controls ask for `warpspecialize`: a copy from a GLOBAL tensor into
// a SHARED one (what the TMA does) gets role dma; every other copy and call gets role compute; a
// join takes its inputs' role when they agree and compute otherwise; a loop takes the role of
// its contents when they agree and stays `any` (run by both, each its own operations) otherwise.
// Every reference between a dma and a compute operation becomes `cross` (codegen realizes it
// with a shared-memory barrier); the producer of a mixed loop's event is its yield's producer
// (every operation of the body precedes the yield, so the yield's role signals the loop's end).
// A mixed loop's own references stay plain (both roles run it), and each one that comes from
// one role is handed, `cross`, to the first operations of the body in the other role. The pfor gets
// the per-thread register budgets of the two roles (Hopper setmaxnreg): the compute warpgroups (the
// largest WARPGROUP `over` extent in the block) share what the DMA warpgroup leaves of the register
// file.
//
// Requires: vectorized IR (WARPGROUP parallelism as `over` dimensions).
// Guarantees: roles and `cross` flags as above (so every `cross` joins a dma and a compute
// operation); `dma_registers` and `compute_registers` on the pfor's controls; nothing else
// changes but the references handed into mixed loops.
// Errors: more warpgroups (compute + DMA) than a block of the machine holds.
#include "ir/event.h"
#include "passes/pass_context.h"

namespace kiln::passes {

Result<event::EventProgram> warp_specialize(event::EventProgram program, const PassContext& ctx);

} // namespace kiln::passes
