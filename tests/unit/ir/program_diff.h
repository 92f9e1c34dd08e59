#pragma once
// Structural comparison of two programs (locations ignored), for round-trip tests: returns an
// empty string when they are equal, otherwise where they first differ.
#include "ir/program.h"

#include <string>

namespace kiln::ir::testing {

std::string first_difference(const Program& a, const Program& b);

} // namespace kiln::ir::testing
