#pragma once
// Writes the canonical kiln text (docs/LANGUAGE.md): the form examples/gemm.kiln is written in,
// which parse_program reads back to the same IR. Comments are not part of the IR and are not
// printed; declarations come out grouped (program, sizes and reference, tasks, variants,
// mapping) in their order within each group; instance attributes in the documented order with
// defaults omitted.
#include "ir/program.h"

#include <string>
#include <vector>

namespace kiln::ir {

std::string print_program(const Program& p);
std::string print_expr(const ExprPtr& e);

// "a, b, c" from the printed elements of `items` (shared by the program and event printers).
template <class T, class F> std::string join(const std::vector<T>& items, F print) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + print(items[i]);
    return out;
}
// One leaf-variant statement without indentation or newline: `mma(C, A, B)`. Shared with the
// event IR printer, whose leaf definitions hold the same statements.
std::string print_leaf_op(const LeafOp& op);

} // namespace kiln::ir
