#pragma once
// The CPU interpreter for kiln programs: runs a program with its sequential semantics (Cypress
// §3.2) so every program has a reference result without a GPU. Semantics: docs/interpreter.md.
//
// Requires: a parsed program (verification is assumed but not relied on: anything unexpected is a
// Diagnostic, never a crash). Guarantees: prange runs its iterations in order; every launch
// dispatches through the mapping (label first, then task name); shape symbols are bound by
// unifying each parameter with its argument; tensors created by `let` start as NaN (poison), so
// reading an element nobody wrote shows up as NaN in the result.
#include "interp/entry.h"
#include "interp/host_tensor.h"
#include "ir/program.h"

#include <cstdint>
#include <map>
#include <string>

namespace kiln::interp {

using TensorMap = std::map<std::string, HostTensor>;

struct InputOptions {
    enum class Fill { Uniform, SmallIntegers };
    Fill fill = Fill::Uniform;
    double lo = -1.0, hi = 1.0;         // Uniform: values in [lo, hi)
    int64_t int_lo = -2, int_hi = 2;    // SmallIntegers: values in [int_lo, int_hi]
};

// Inputs for the entry task's tensor parameters at the given sizes: read, rw and reduce
// parameters get seeded random values (rounded to their dtype), write parameters are NaN (poison).
Result<TensorMap> make_inputs(const ir::Program& p, const Sizes& sizes, uint64_t seed,
                              const InputOptions& options = {});

// Runs the program from the mapping's entry instance on `tensors` (one per entry tensor
// parameter, shaped for `sizes`) and returns them after the run.
Result<TensorMap> run(const ir::Program& p, const Sizes& sizes, TensorMap tensors);

} // namespace kiln::interp
