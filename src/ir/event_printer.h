#pragma once
// Writes the text form of the event IR (docs/event_ir.md), which parse_event_program reads back:
// print(parse(print(p))) == print(p), byte for byte.
//
// Deterministic: sections in a fixed order (header, leaf definitions, operations) separated by
// one blank line, two spaces of indentation per loop nesting level, optional attributes in the
// grammar's order and omitted when they hold their default, a note as a trailing `# ...`
// comment (a newline inside a note prints as a space, so it stays one comment; blanks around it
// are not printed).
#include "ir/event.h"

#include <string>

namespace kiln::event {

std::string print_event_program(const EventProgram& p);

// Pieces of the text form, shared with messages that quote the IR.
std::string print_view(const View& v);
std::string print_ref(const EventRef& r);

} // namespace kiln::event
