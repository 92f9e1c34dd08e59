#include "interp/entry.h"

#include <algorithm>

namespace kiln::interp {

Result<Entry> find_entry(const ir::Program& p) {
    const auto& m = p.mapping;
    Entry e;
    e.instance = m.find_instance(m.entry);
    if (!e.instance)
        return Diagnostic{m.entry_loc, "entry instance '" + m.entry + "' is not in the mapping"};
    e.variant = p.find_variant(e.instance->variant);
    if (!e.variant)
        return Diagnostic{e.instance->loc, "instance " + e.instance->name + " uses variant '" +
                                               e.instance->variant + "', which is not defined"};
    e.task = p.find_task(e.variant->task);
    if (!e.task)
        return Diagnostic{e.variant->loc, "variant " + e.variant->name + " is of task '" +
                                              e.variant->task + "', which is not defined"};
    return e;
}

namespace {

// Shape symbols of the entry task, in first-use order.
std::vector<std::string> shape_symbols(const ir::Task& t) {
    std::vector<std::string> out;
    for (const auto& prm : t.params)
        for (const auto& d : prm.shape)
            if (d && d->kind == ir::ExprKind::Name &&
                std::find(out.begin(), out.end(), d->name) == out.end())
                out.push_back(d->name);
    return out;
}

} // namespace

Result<Sizes> resolve_sizes(const ir::Program& p, const Sizes& overrides) {
    auto entry = find_entry(p);
    if (!entry)
        return entry.errors();
    const auto symbols = shape_symbols(*entry->task);
    auto is_symbol = [&](const std::string& n) {
        return std::find(symbols.begin(), symbols.end(), n) != symbols.end();
    };
    Sizes s;
    for (const auto& b : p.sizes)
        s[b.name] = b.value;
    for (const auto& [name, value] : overrides) {
        if (!is_symbol(name))
            return Diagnostic{p.loc, "size '" + name + "' is not a shape symbol of entry task " +
                                         entry->task->name};
        s[name] = value;
    }
    for (const auto& sym : symbols) {
        auto it = s.find(sym);
        if (it == s.end())
            return Diagnostic{entry->task->loc, "no size given for shape symbol '" + sym +
                                                    "' of entry task " + entry->task->name};
        if (it->second <= 0)
            return Diagnostic{entry->task->loc, "size " + sym + " = " +
                                                    std::to_string(it->second) +
                                                    " must be positive"};
    }
    return s;
}

Result<ir::Shape> entry_shape(const ir::Param& param, const Sizes& sizes) {
    ir::NameLookup names = ir::lookup_in(sizes);
    ir::Shape shape;
    for (const auto& d : param.shape) {
        if (!d)
            return Diagnostic{param.loc, "parameter " + param.name + " has an empty dimension"};
        auto v = ir::evaluate_int(*d, names);
        if (!v)
            return v.errors();
        shape.push_back(*v);
    }
    return shape;
}

} // namespace kiln::interp
