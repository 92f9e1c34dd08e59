#include "passes/entry_sizes.h"

#include "passes/scope.h"

#include <algorithm>

namespace kiln::passes {
namespace {

std::string symbol_list(const std::vector<std::string> &symbols) {
    if (symbols.empty())
        return "it has none";
    std::string out;
    for (const auto &s : symbols)
        out += (out.empty() ? "" : ", ") + s;
    return "its symbols: " + out;
}

} // namespace

std::optional<Sizes> bind_entry_sizes(const ir::Program &program, const ir::Task &entry_task,
                                      const Sizes &overrides, Diagnostics &d) {
    auto symbols = shape_symbols(entry_task);
    auto is_symbol = [&](const std::string &n) {
        return std::find(symbols.begin(), symbols.end(), n) != symbols.end();
    };
    std::string task = "entry task " + entry_task.name;
    std::size_t before = d.size();
    Sizes sizes;
    for (const auto &s : program.sizes) {
        if (!is_symbol(s.name))
            d.error(s.loc, "size " + s.name + " is not a shape symbol of " + task + " (" +
                               symbol_list(symbols) + ")");
        sizes[s.name] = s.value;
    }
    // Overrides come from the command line: the entry task's signature is the closest place.
    for (const auto &[name, value] : overrides) {
        if (!is_symbol(name))
            d.error(entry_task.loc, "size override " + name + "=" + std::to_string(value) +
                                        " is not a shape symbol of " + task + " (" +
                                        symbol_list(symbols) + ")");
        sizes[name] = value;
    }
    Sizes out;
    for (const auto &s : symbols) {
        auto it = sizes.find(s);
        if (it == sizes.end())
            d.error(entry_task.loc, "size symbol " + s + " of " + task +
                                        " has no value (add it to `sizes` or override it)");
        else if (it->second <= 0)
            d.error(entry_task.loc,
                    "size " + s + " = " + std::to_string(it->second) + " must be positive");
        else
            out[s] = it->second;
    }
    if (d.size() != before)
        return std::nullopt;
    return out;
}

} // namespace kiln::passes
