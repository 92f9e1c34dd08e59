#pragma once
// Compares a run's outputs with a reference: relative Frobenius error ||out - ref|| / ||ref||,
// the largest absolute error, and the number of NaN outputs. A NaN output means an element was
// never written (outputs start as NaN poison) or was computed from one, so it always fails.
#include "interp/interpreter.h"

#include <string>
#include <vector>

namespace kiln::interp {

struct Comparison {
    std::string tensor;
    double rel_error = 0;      // over the non-NaN elements; ||out - ref|| when ||ref|| = 0
    double max_abs_error = 0;  // over the non-NaN elements
    int64_t nan_count = 0;     // NaN outputs (every element when the output is missing)
    int64_t elements = 0;
    bool passed(double tolerance) const { return nan_count == 0 && rel_error <= tolerance; }
};

// One Comparison per tensor of `ref`, in name order.
std::vector<Comparison> compare(const TensorMap& out, const TensorMap& ref);

// The documented tolerance on rel_error for results of dtype `t` (bf16 1e-2, f16 1e-3, f32 1e-5,
// fp8 1e-1).
double tolerance_for(ir::DType t);

// Elements of `out` that differ from `ref` rounded to out's dtype (NaN counts as a difference):
// the exact check for small-integer inputs, where every partial sum is exact in f32.
int64_t exact_mismatches(const HostTensor& out, const HostTensor& ref);

// "C: rel 3.1e-03, max abs 1.2e-02, 0 NaN of 131072" — one line per comparison.
std::string describe(const std::vector<Comparison>& cs);

} // namespace kiln::interp
