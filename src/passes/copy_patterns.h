#pragma once
// The rewrite patterns of copy elimination (Cypress §4.2.3, after Sequoia). Each finds a match,
// rewrites it and returns true, or returns false when nothing matches; copy_elim applies them to
// a fixed point, in the order (and for the reasons) given there. Every rewrite keeps the
// program's meaning under the event semantics of src/ir/event.h and keeps the event graph sound:
// a removed operation becomes a join of its preconditions (event_rewrite.h) before anything is
// forwarded, so no consumer ever ends up waiting on nothing.
//
// Requires: unique tensor, partition and event names; `for` loops not yet pipelined.
#include "ir/event.h"

namespace kiln::passes {

// Spill patterns (spill_patterns.cpp): they can drop synchronization, so they run first.

// In a `for`, `copy V -> T` at the start of every iteration and `copy T -> V` at its end, V
// loop-invariant and untouched otherwise: both move out of the loop (with T's alloc).
bool hoist_spill(event::EventProgram& p);
// `copy T -> V` then `copy V -> T'` in one block (V the same piece of the same partition, no
// write of V's tensor or access of T between, no conversion): T' becomes T, and the copy-in
// becomes a point-wise join on the copy-out, dropping the broadcast the copy-in waited on. All
// independent pairs of the outermost processor level with pairs go at once.
bool eliminate_spill(event::EventProgram& p);

// Copy patterns (copy_patterns.cpp): they preserve every dependence.

// A fresh allocation in the memory of the view it mirrors is that view: uses are renamed, which
// turns its copy-in and copy-out into self copies.
bool fold_mirror(event::EventProgram& p);
// A NONE tensor that only gathers a reduction (filled with the identity, folded into, folded
// into the view it mirrors): the folds go straight into that view (reduction_patterns.cpp).
bool fold_reduction(event::EventProgram& p);
// `copy V -> V`: becomes a join of its preconditions.
bool remove_self_copy(event::EventProgram& p);
// The second of two equal copies with no write of either tensor between: a join of its
// preconditions and the first copy.
bool remove_duplicate_copy(event::EventProgram& p);
// A copy into a non-parameter tensor that nothing reads, or whose pieces a later copy in the
// same block overwrites before anything reads them.
bool remove_dead_copy(event::EventProgram& p);
// A join of at most one event, or with at most one consumer: its consumers name its events
// instead.
bool forward_join(event::EventProgram& p);
// A wait another wait of the same operation implies: that event waits on every instance of it
// (directly or through such waits). The copies this pass removes leave such pairs behind.
bool remove_implied_wait(event::EventProgram& p);
// Allocs and parts nothing names any more.
bool remove_dead_declarations(event::EventProgram& p);

} // namespace kiln::passes
