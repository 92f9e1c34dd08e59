#pragma once
// The builtin leaf operations: one table shared by the parser (names), the verifier (operand
// kinds, privileges, shapes) and the interpreter (semantics). Semantics: docs/LANGUAGE.md.
#include <string_view>
#include <vector>

namespace kiln::ir {

// How a leaf op uses each operand.
enum class OperandUse {
    Write,      // tensor, overwritten
    Read,       // tensor, read
    Accumulate, // tensor, read and combined into (mma's C, reductions' destination)
    ReadOrScalar, // tensor (same shape as the destination, or one value per row) or scalar
    Scalar,     // scalar expression
};

enum class LeafKind {
    Mma,         // C += A·B
    MmaBT,       // C += A·Bᵀ (B stored [N, K])
    Copy,        // dst = cast(src)
    AddInto,     // dst += src (same shape): a whole tensor folded into a reduce(+) one
    Fill,        // dst = value
    Unary,       // dst = f(src)
    Scale,       // dst = src * s
    Binary,      // dst = f(x, y) with per-row / scalar broadcasting
    RowReduce,   // dst[i] = combine(dst[i], reduce_j src[i, j])
    ColReduce,   // dst[j] = combine(dst[j], reduce_i src[i, j])
    Mask,        // S[i, j] = -inf where masked (sequence limit, causal)
    External,    // call_external("fn", ...)
};

struct LeafOpInfo {
    std::string_view name;
    LeafKind kind;
    std::vector<OperandUse> operands; // empty for External (any)
};

const std::vector<LeafOpInfo>& leaf_ops();
const LeafOpInfo* find_leaf_op(std::string_view name);

} // namespace kiln::ir
