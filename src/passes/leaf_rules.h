#pragma once
// The rules of leaf operations (docs/LANGUAGE.md, leaf variant statements), in two halves:
// access rules that hold for every size (operand kinds, privileges, dtypes), checked by verify(),
// and shape rules, checked by instantiate() once the shapes are concrete.
//
// Privileges: an operand a leaf op writes needs write or rw; one it reads needs read or rw, or a
// write parameter that an earlier op of the same variant has written (a writer may read back what
// it produced). Ops that combine into their destination (mma += , rowsum += , rowmax = max(...))
// need rw, or the reduce privilege of their combining operator: reduce(+) for mma, mma_bt,
// rowsum and colsum; reduce(max) for rowmax and colmax. mask rewrites elements in place: rw.
// call_external is opaque: its first tensor operand counts as written, the others as read.
#include "ir/partition.h"
#include "ir/program.h"
#include "passes/diagnostics.h"
#include "passes/scope.h"

#include <functional>
#include <set>
#include <string>

namespace kiln::passes {

// Checks one leaf op of `variant` against the scope. `written` holds the write-only parameters
// that earlier ops of the variant have written; the op's own writes are added to it.
void check_leaf_access(const ir::LeafOp &op, const ir::Variant &variant, const ir::Task &task,
                       const Scope &scope, std::set<std::string> &written, Diagnostics &d);

// The concrete shape of a tensor visible to the op (nullptr: unknown, skip the check).
using ShapeOf = std::function<const ir::Shape *(const std::string &tensor)>;

// Checks the operand shapes of one leaf op; `where` names the instance ("instance gemm_thread").
void check_leaf_shapes(const ir::LeafOp &op, const ShapeOf &shape_of,
                       const std::function<bool(const std::string &)> &names_tensor,
                       const std::string &where, Diagnostics &d);

// The tensors a leaf op touches, by name.
std::vector<std::string>
leaf_tensor_operands(const ir::LeafOp &op,
                     const std::function<bool(const std::string &)> &names_tensor);

} // namespace kiln::passes
