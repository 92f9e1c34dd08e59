#pragma once
// A sink for the diagnostics of one pass run. Passes keep going after an error so that one run
// reports as many independent problems as it can; the sink drops repeats (a variant instantiated
// twice reports its error once) and orders what it keeps by source location.
#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace kiln::passes {

// "file:line:col", for messages that point at a second construct.
std::string loc_text(const Loc &loc);

class Diagnostics {
public:
    void error(const Loc &loc, std::string message);
    void add(const std::vector<Diagnostic> &ds);
    bool empty() const { return list_.empty(); }
    std::size_t size() const { return list_.size(); }
    // Unique diagnostics ordered by file, line, column, then message.
    std::vector<Diagnostic> take();

private:
    std::vector<Diagnostic> list_;
};

} // namespace kiln::passes
