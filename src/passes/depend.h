#pragma once
// depend: the dependence analysis of Cypress §4.2.1. A syntax-directed, in-order translation of
// the instantiated task tree into event IR with the copy-in/copy-out discipline. Contract:
// docs/passes/depend.md.
//
// Requires: a tree built by passes::instantiate from `program` (which must outlive the call).
// Guarantees:
// - every entry parameter is a `param` alloc; every partition a variant declares is a `part`
//   over the event tensor it partitions; every tensor a variant creates an alloc in its memory;
// - a launch gets a fresh alloc per tensor argument (in the memory its instance maps, with
//   `mirrors` = the caller's view, `origin` = instance.parameter, the instance's layout), a copy
//   in for read/rw arguments (a zero fill for reduce ones), the callee's body (a `call` of a
//   LeafDef for a leaf), and a copy out for write/rw arguments (`copy add|max` for reduce ones);
// - prange becomes `pfor` at the launched instance's level, srange `for` at the caller's; the
//   controls of an instance land on the innermost pfor around its body;
// - events: per tensor, a read waits for the last write, a write for the last write and every
//   read since; loop events are used after the loop (`%e[:]` for a pfor); every loop body
//   yields its sinks (joined when more than one);
// - deterministic names: events %e0, %e1, ... in emission order; fresh tensors parameter name +
//   counter (A1, A2, ...); partitions and loop variables keep their names unless taken.
#include "ir/event.h"
#include "passes/pass_context.h"
#include "passes/task_tree.h"

namespace kiln::passes {

Result<event::EventProgram> depend(const TaskTree& tree, const ir::Program& program,
                                   const PassContext& ctx);

} // namespace kiln::passes
