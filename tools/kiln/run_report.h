#pragma once
// What `kiln run` and `kiln run --gpu` share: stopping on diagnostics, the sizes line, and the
// comparison of a run's outputs with the float64 reference (one line per output, the tolerance
// of its dtype unless one is given).
#include "interp/compare.h"
#include "tools/kiln/commands.h"

#include <map>
#include <string>

namespace kiln::cli {

// The value, or stop the command with its diagnostics (kExitError).
template <class T> T value_or_fail(Result<T> r) {
    if (!r)
        fail(r.errors());
    return std::move(r).value();
}

// "K=192 M=256 N=512"
std::string sizes_text(const std::map<std::string, int64_t>& sizes);

// Prints "C: rel error ..., max abs error ... vs float64 reference NAME (tolerance T for bf16):
// PASS|FAIL" per tensor of `reference`; true when all pass. tolerance 0: by each output's dtype.
bool report_comparisons(const interp::TensorMap& outputs, const interp::TensorMap& reference,
                        const std::string& reference_name, double tolerance);

} // namespace kiln::cli
