#include "ir/diagnostic.h"

namespace kiln {

std::string Diagnostic::str() const {
    if (!loc.known())
        return (loc.file.empty() ? "" : loc.file + ": ") + "error: " + message;
    return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
           ": error: " + message;
}

std::string format_diagnostics(const std::vector<Diagnostic>& ds) {
    std::string out;
    for (const auto& d : ds)
        out += d.str() + "\n";
    return out;
}

} // namespace kiln
