#pragma once
// CPU versions of the CUDA device functions a leaf may `call_external`. Each one must compute
// exactly what its device twin (device/kiln/) computes, up to the documented rounding: compute in
// float64, round once per stored element. To add one, write a function with the ExternalFn
// signature in externals.cpp and list it in the table there (docs/interpreter.md shows how).
#include "interp/leaf_eval.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::interp {

// Runs external `name` on evaluated operands; an unknown name or bad operands give a Diagnostic.
std::optional<Diagnostic> call_external(const std::string& name, const std::vector<LeafArg>& args,
                                        const Loc& loc);

// The names the interpreter knows, sorted.
std::vector<std::string> external_names();

} // namespace kiln::interp
