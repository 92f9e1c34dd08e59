#pragma once
// Reads the kiln text form (docs/LANGUAGE.md): a program and its mapping in one file.
//
// Guarantees: every node carries the Loc of its first token; launch arguments and leaf operands
// that name a tensor in scope (a tensor parameter of the variant's task, a `let ... = tensor`, or
// a partition) are TensorRefs, everything else is a scalar expression. Syntax errors come back
// as one Diagnostic "file:line:col: error: expected X, found Y"; any input, however malformed,
// gives a Program or a Diagnostic (nesting is bounded, so no input exhausts the stack).
// Not checked here (see the verifier): types, shapes, privileges, names used but not declared.
#include "ir/program.h"

#include <string>
#include <string_view>

namespace kiln::ir {

Result<Program> parse_program(std::string_view text, const std::string& filename);
// Reads and parses the file at `path`; a file that cannot be read is a Diagnostic naming it.
Result<Program> parse_file(const std::string& path);

} // namespace kiln::ir
