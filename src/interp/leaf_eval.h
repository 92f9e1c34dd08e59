#pragma once
// The builtin leaf operations (semantics: docs/LANGUAGE.md, "Leaf variant statements"). Every op
// computes in float64 and rounds once when it stores, except mma/mma_bt, which round the running
// sum to C's dtype after every product. Padding reads 0 and drops writes. NaN (poison) propagates
// through every op, max/min included, so a result that depends on an unwritten element is NaN.
#include "interp/view.h"
#include "ir/diagnostic.h"
#include "ir/program.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::interp {

// An evaluated operand of a leaf op: a tensor view or a scalar.
struct LeafArg {
    std::optional<View> tensor;
    double scalar = 0;
    Loc loc;
};

// Runs one builtin op (or call_external) on evaluated operands. Operand kinds and shapes are
// checked here too, so a program that skipped verification gets a Diagnostic, never a crash.
std::optional<Diagnostic> eval_leaf(const ir::LeafOp& op, const std::vector<LeafArg>& args);

// Operand accessors shared with the externals; they throw DiagnosticError (caught by eval_leaf
// and call_external) naming the op, the operand position and what was expected.
const View& tensor_operand(const std::vector<LeafArg>& args, std::size_t i, const std::string& op);
double scalar_operand(const std::vector<LeafArg>& args, std::size_t i, const std::string& op);
void require_same_shape(const View& a, const View& b, const std::string& op, const Loc& loc);

} // namespace kiln::interp
