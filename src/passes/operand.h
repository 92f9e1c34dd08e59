#pragma once
// Tensor or scalar? A bare name in a launch argument or leaf operand (`fill(C, x)`) can reach the
// IR either as a TensorRef without indices or as a Name expression: only the scope knows which
// names are tensors. Passes classify operands through this one function.
#include "ir/program.h"

#include <functional>
#include <string>

namespace kiln::passes {

struct OperandView {
    bool is_tensor = false;
    ir::TensorRef tensor; // when is_tensor
    ir::ExprPtr scalar;   // otherwise
};

// `names_tensor(n)`: does `n` denote a tensor or a partition in the current scope? An indexed
// reference is always a tensor use; any other name that is not a tensor is a scalar.
OperandView view_operand(const ir::Operand &op,
                         const std::function<bool(const std::string &)> &names_tensor);

// "Cp[i, j]" or "C".
std::string ref_text(const ir::TensorRef &ref);

} // namespace kiln::passes
