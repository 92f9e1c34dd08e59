#pragma once
// alloc-smem (Cypress §4.2.4): binds every SHARED tensor to a byte offset in its block's shared
// memory, aliasing as few tensors as the limit allows, and orders the tensors that share bytes.
//
// Per BLOCK pfor: every SHARED tensor in its body needs bytes() (all stages) times its instances
// (one per `over` point and per iteration of a pfor inside the block), aligned to 1024 B for a
// swizzled layout and 128 B otherwise. Two tensors interfere unless every access of one happens
// before (src/passes/happens_before.h) every write of the other, in every pair of their
// instances; tensors used inside a common pipelined loop always interfere. Starting from the
// complete graph (no aliasing), auxiliary edges (between tensors that do not interfere) are
// removed one at a time, each time the one whose removal shrinks the first-fit plan most, until
// the plan fits the pfor's smem_limit (or the machine's shared memory).
//
// Requires: the names are unique (dependence analysis); copy elimination has removed every use
// of a NONE tensor; stages are final (run after pipeline-loops).
// Guarantees: every SHARED tensor has `offset` (instance i at offset + i * bytes()); tensors whose
// bytes overlap never interfere, and the first writers of the later one wait for the last
// accessors of the earlier one (and, across iterations of the innermost sequential loop around
// both, the reverse at distance 1), so the reuse is explicit in the events.
// Errors: a plan that does not fit even with every auxiliary edge removed (one diagnostic listing
// each SHARED tensor); an operation still using a NONE tensor; a SHARED tensor outside any
// BLOCK pfor.
#include "ir/event.h"
#include "passes/pass_context.h"

namespace kiln::passes {

Result<event::EventProgram> alloc_smem(event::EventProgram program, const PassContext& ctx);

} // namespace kiln::passes
