#pragma once
// instantiate: binds the problem sizes, verifies the program and its mapping, and builds the
// static task tree (Cypress §3.3: "the mapping specification statically instantiates a tree of
// tasks"). This is `kiln check` and `kiln tree`.
//
// Requires: nothing. First runs verify() (size-independent rules) and stops there if it finds
// anything. Then walks the entry instance with concrete sizes and checks, per tree node:
// - partitions: tiles divide their tensors unless padded, mma layouts fit (ir::partition_shape);
// - shapes, tiles and loop extents are the same in every iteration (no loop variables in them)
//   and extents are positive;
// - launches: callee shape symbols unify with the argument shapes; piece indices stay inside the
//   partition's grid where that can be decided; a write/rw argument inside a prange is a piece of
//   a disjoint partition indexed by every prange variable by itself (reduce privileges exempt);
//   a prange's task count fits the machine (processor_fit.h); a tensor mapped to NONE is not
//   materialized by a child at the same level; dispatch does not cycle;
// - leaf operations: operand shapes (leaf_rules.h).
// Guarantees: on success, a tree with one node per (launch site, instance) reached from the entry,
// every tensor's shape, dtype, privilege and memory concrete. On failure, every diagnostic found,
// each at the offending construct's file:line:col, ordered by location.
#include "mapping/machine.h"
#include "passes/task_tree.h"

namespace kiln::passes {

Result<TaskTree> instantiate(const ir::Program &program, const Sizes &overrides = {},
                             const mapping::Machine &machine = mapping::hopper());

} // namespace kiln::passes
