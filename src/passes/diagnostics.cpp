#include "passes/diagnostics.h"

#include <algorithm>
#include <tuple>

namespace kiln::passes {

std::string loc_text(const Loc &loc) {
    return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

void Diagnostics::error(const Loc &loc, std::string message) {
    list_.push_back(Diagnostic{loc, std::move(message)});
}

void Diagnostics::add(const std::vector<Diagnostic> &ds) {
    list_.insert(list_.end(), ds.begin(), ds.end());
}

std::vector<Diagnostic> Diagnostics::take() {
    auto key = [](const Diagnostic &d) {
        return std::tie(d.loc.file, d.loc.line, d.loc.col, d.message);
    };
    std::stable_sort(list_.begin(), list_.end(),
                     [&](const Diagnostic &a, const Diagnostic &b) { return key(a) < key(b); });
    list_.erase(
        std::unique(list_.begin(), list_.end(),
                    [&](const Diagnostic &a, const Diagnostic &b) { return key(a) == key(b); }),
        list_.end());
    return std::move(list_);
}

} // namespace kiln::passes
