#pragma once
// The builtin float64 references a program names with `reference NAME(ARGS)` (docs/LANGUAGE.md,
// "Builtin references"). They read the same (dtype-rounded) inputs the program reads and compute
// in float64 without any intermediate rounding; their outputs keep the parameter's dtype as a
// label but hold unrounded float64 values.
//
//   gemm(C, A, B)                      C = A·B
//   batched_gemm(C, A, B)              C[b] = A[b]·B[b] (any number of leading batch dimensions)
//   dual_gemm_swiglu(O, A, B1, B2)     O = silu(A·B1) ⊙ (A·B2)
//   gemm_rowsum(C, r, A, B)            C = A·B, r[i] = Σj C[i,j]
//   attention(O, Q, K, V, causal = 0/1, scale = s)
//                                      O = softmax(s·Q·Kᵀ, causal: key j > query i masked)·V per
//                                      leading (batch, head) index; scale defaults to 1/√D
#include "interp/interpreter.h"

#include <string>
#include <vector>

namespace kiln::interp {

// Runs the program's reference on `inputs` (the tensors make_inputs gave, before the run); the
// result holds the reference's output tensors only.
Result<TensorMap> run_reference(const ir::Program& p, const Sizes& sizes, const TensorMap& inputs);

// Names of the builtin references, sorted.
std::vector<std::string> reference_names();

} // namespace kiln::interp
