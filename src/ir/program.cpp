#include "ir/program.h"

namespace kiln::ir {

const Param* Task::find_param(const std::string& n) const {
    for (const auto& p : params)
        if (p.name == n)
            return &p;
    return nullptr;
}

const Loc& Stmt::loc() const {
    return std::visit([](const auto& s) -> const Loc& { return s.loc; }, node);
}

std::vector<std::string> Variant::tunables() const {
    std::vector<std::string> out;
    for (const auto& s : body)
        if (const auto* t = std::get_if<TunableDecl>(&s.node))
            out.insert(out.end(), t->names.begin(), t->names.end());
    return out;
}

const Task* Program::find_task(const std::string& n) const {
    for (const auto& t : tasks)
        if (t.name == n)
            return &t;
    return nullptr;
}

const Variant* Program::find_variant(const std::string& n) const {
    for (const auto& v : variants)
        if (v.name == n)
            return &v;
    return nullptr;
}

} // namespace kiln::ir
