#pragma once
// Checks the structural rules of the event IR (src/ir/event.h) that every pass must preserve,
// so a pass's output can be verified after it runs:
//   - each copy, call, join and loop defines an event id (alloc and part none), each id once;
//   - a reference names an event defined earlier in the same or an enclosing body, or, with a
//     loop distance, one defined anywhere in the body of an enclosing `for`; it indexes every
//     dimension of that event (event_dims);
//   - a view names a tensor or partition in scope: a tensor unindexed, a partition with one
//     index per grid dimension;
//   - a call names a leaf of the program with as many tensor and scalar arguments as the leaf
//     has parameters of each kind, each view of its parameter's shape;
//   - a copy's source and destination have the same shape;
//   - a loop whose body defines events yields one;
//   - a `cross` reference joins operations of two different roles (dma / compute).
// Each violation is one Diagnostic at the offending op's Loc, naming the op (by its event, or
// the tensor an alloc or part declares), the tensor or event involved, and the rule.
#include "ir/event.h"

#include <vector>

namespace kiln::event {

std::vector<Diagnostic> verify_event_program(const EventProgram& program);

} // namespace kiln::event
