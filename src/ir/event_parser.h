#pragma once
// Reads the event IR text form (docs/event_ir.md): what print_event_program writes, so that
// print(parse(print(p))) == print(p).
//
// Guarantees: every Op carries the Loc of its first token. Partition grids and piece shapes are
// computed with ir::partition_shape from the source view's shape (a tensor's alloc shape or a
// partition's piece shape), so a partition of an unknown name or an invalid spec is an error. A
// call argument is a View when it is indexed or names a tensor or partition in scope, otherwise
// a scalar expression. What the text does not carry gets a fixed value: Op::level of an alloc or
// part is HOST; a pfor's Op::level (the level that issues it, its `@LEVEL` being its iterations')
// is that of the enclosing loop body (HOST at top level). A note is the trailing comment of the
// op's line (of its `{` line for a loop), without the '#' and surrounding blanks.
// Syntax errors come back as one Diagnostic "file:line:col: error: expected X, found Y"; any
// input gives a program or a Diagnostic (nesting is bounded, so no input exhausts the stack).
// Not checked here (see verify_event_program): event ids, references, arities, shapes, callees.
#include "ir/event.h"

#include <string>
#include <string_view>

namespace kiln::event {

Result<EventProgram> parse_event_program(std::string_view text, const std::string& filename);
// Reads and parses the file at `path`; a file that cannot be read is a Diagnostic naming it.
Result<EventProgram> parse_event_file(const std::string& path);

} // namespace kiln::event
