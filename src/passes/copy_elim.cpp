#include "passes/copy_elim.h"

#include "passes/copy_patterns.h"

#include <map>
#include <optional>

namespace kiln::passes {

namespace {

// The patterns index the program by name, so a name declared twice would merge two things.
std::optional<Diagnostic> duplicate_name(const event::EventProgram& p) {
    std::map<std::string, const char*> seen;
    std::optional<Diagnostic> dup;
    auto declare = [&](const std::string& name, const char* what, const Loc& loc) {
        if (name.empty() || dup)
            return;
        if (auto [it, fresh] = seen.emplace(name, what); !fresh)
            dup = Diagnostic{loc, "copy-elim: " + std::string(what) + " '" + name +
                                      "' is declared twice (already a " + it->second +
                                      "); the pass needs unique names"};
    };
    event::walk(p.body, [&](const event::Op& op) {
        if (op.kind == event::OpKind::Alloc)
            declare(op.alloc.name, "tensor", op.loc);
        else if (op.kind == event::OpKind::Part)
            declare(op.part.name, "partition", op.loc);
        declare(op.result.empty() ? "" : "%" + op.result, "event", op.loc);
    });
    return dup;
}

int64_t op_count(const event::Block& b) {
    int64_t n = 0;
    event::walk(b, [&](const event::Op&) { ++n; });
    return n;
}

} // namespace

Result<event::EventProgram> copy_elim(event::EventProgram program, const PassContext&) {
    if (auto dup = duplicate_name(program))
        return *dup;
    using Pattern = bool (*)(event::EventProgram&);
    // Spill patterns first (they may drop synchronization), then the ones that keep every
    // dependence, then cleanups. Dead copies go before everything: removing one never hides a
    // spill pair (its destination is read by no copy-in), and a spill pair's broadcast can only
    // be dropped once the copy-outs of the enclosing level are gone. Hoisting goes before spill
    // elimination: it brings the pairs of every tensor into one block, so the copy-outs of all
    // of them are known when a copy-in's broadcast over them is dropped.
    static constexpr Pattern kPatterns[] = {
        remove_dead_copy,      hoist_spill,
        eliminate_spill,       fold_mirror,
        fold_reduction,        remove_self_copy,
        remove_duplicate_copy, forward_join,
        remove_implied_wait,   remove_dead_declarations,
    };
    // Every rewrite removes an operation, a copy or a tensor, or moves a copy out of a loop.
    const int64_t limit = 16 * (op_count(program.body) + 16);
    for (int64_t step = 0; step < limit; ++step) {
        bool changed = false;
        for (Pattern apply : kPatterns)
            if ((changed = apply(program)))
                break;
        if (!changed)
            return program;
    }
    Diagnostic stuck;
    stuck.message = "copy-elim: no fixed point after " + std::to_string(limit) +
                    " rewrites (internal error: a pattern undoes another)";
    return stuck;
}

} // namespace kiln::passes
