#include "ir/event_verify.h"

#include "ir/event_printer.h"

#include <set>

namespace kiln::event {
namespace {

// How messages name an op: `copy %e1`, `alloc A1`, `part Ap`.
std::string name_of(const Op& op) {
    std::string kind(spelling(op.kind));
    switch (op.kind) {
    case OpKind::Alloc:
        return kind + " " + op.alloc.name;
    case OpKind::Part:
        return kind + " " + op.part.name;
    default:
        return kind + " %" + op.result;
    }
}

// "1 index", "2 indices".
std::string count(std::size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// " at file:line:col" when the IR came from text.
std::string located(const Loc& l) {
    if (!l.known())
        return "";
    return " at " + l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

// One body being checked: what it has defined so far, and (for loop-carried references)
// every event it defines.
struct Scope {
    const Op* owner = nullptr; // the loop whose body this is; null at top level
    std::map<std::string, const Op*> events;
    std::map<std::string, const Op*> views; // allocs and parts
    std::set<std::string> body_events;
};

class Verifier {
public:
    explicit Verifier(const EventProgram& p) : prog_(p) {}

    std::vector<Diagnostic> run() {
        check_event_definitions();
        check_block(prog_.body, nullptr);
        return std::move(errors_);
    }

private:
    const EventProgram& prog_;
    std::vector<Diagnostic> errors_;
    std::vector<Scope> scopes_;

    void error(const Loc& loc, std::string message) {
        errors_.push_back(Diagnostic{loc, std::move(message)});
    }
    void error(const Op& op, std::string message) { error(op.loc, std::move(message)); }

    void check_event_definitions() {
        std::map<std::string, const Op*> first;
        walk(prog_.body, [&](const Op& op) {
            bool declares = op.kind == OpKind::Alloc || op.kind == OpKind::Part;
            if (op.result.empty() != declares) {
                error(op, declares ? name_of(op) + ": defines event %" + op.result +
                                         ", but an alloc or part defines none"
                                   : std::string(spelling(op.kind)) +
                                         ": defines no event (every copy, call, join and loop "
                                         "defines one)");
                return;
            }
            if (declares)
                return;
            auto [it, fresh] = first.emplace(op.result, &op);
            if (!fresh)
                error(op, name_of(op) + ": event %" + op.result + " is already defined by " +
                              name_of(*it->second) + located(it->second->loc) +
                              " (each event is defined once)");
        });
    }

    void check_block(const Block& b, const Op* owner) {
        Scope scope;
        scope.owner = owner;
        for (const auto& op : b.ops)
            if (!op.result.empty())
                scope.body_events.insert(op.result);
        scopes_.push_back(std::move(scope));
        for (const auto& op : b.ops) {
            check_op(op);
            declare(op);
        }
        if (b.yield)
            check_ref(*b.yield, owner
                                    ? Site{name_of(*owner) + ": its yield", owner->role, owner->loc}
                                    : Site{"the program's yield", Role::Any, {}});
        scopes_.pop_back();
    }

    void declare(const Op& op) {
        Scope& s = scopes_.back();
        if (op.kind == OpKind::Alloc)
            s.views[op.alloc.name] = &op;
        else if (op.kind == OpKind::Part)
            s.views[op.part.name] = &op;
        else
            s.events[op.result] = &op;
    }

    void check_op(const Op& op) {
        for (const auto& r : op.after)
            check_ref(r, Site{name_of(op) + ":", op.role, op.loc});
        switch (op.kind) {
        case OpKind::Alloc:
            if (op.alloc.mirrors)
                view_shape(*op.alloc.mirrors, op, "mirrors view");
            break;
        case OpKind::Part:
            view_shape(op.part.source, op, "partitioned view");
            break;
        case OpKind::Copy:
            check_copy(op);
            break;
        case OpKind::Call:
            check_call(op);
            break;
        case OpKind::For:
        case OpKind::PFor:
            check_loop(op);
            break;
        case OpKind::Join:
            break;
        }
    }

    // ---- events ----

    const Op* find_event(const EventRef& r) const {
        for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
            if (r.distance == 0) {
                if (auto it = s->events.find(r.id); it != s->events.end())
                    return it->second;
            } else if (s->owner && s->owner->kind == OpKind::For && s->body_events.count(r.id)) {
                // Loop-carried: the innermost enclosing for whose body defines the event.
                for (const auto& op : s->owner->loop.body.ops)
                    if (op.result == r.id)
                        return &op;
            }
        }
        return nullptr;
    }

    // Where a reference appears: an op's `after` list or a body's yield.
    struct Site {
        std::string name; // "copy %e1:", "for %e0: its yield"
        Role role = Role::Any;
        Loc loc;
    };

    void check_ref(const EventRef& r, const Site& user) {
        std::string at = user.name + " reference " + print_ref(r);
        const Op* def = find_event(r);
        if (!def) {
            error(user.loc, at + (r.distance == 0
                                      ? " names no event defined before it in this or an enclosing "
                                        "body"
                                      : " names no event of an enclosing for body (a loop-carried "
                                        "reference needs one)"));
            return;
        }
        if (!well_formed_loop(*def))
            return; // reported at the loop
        std::size_t dims = event_dims(*def).size();
        if (r.index.size() != dims)
            error(user.loc, at + " has " + count(r.index.size(), "index", "indices") + " but " +
                                name_of(*def) + " defines an event array of " +
                                count(dims, "dimension", "dimensions"));
        if (r.cross && (user.role == Role::Any || def->role == Role::Any || user.role == def->role))
            error(user.loc, at + " is cross, but " + name_of(*def) + " runs in role " +
                                std::string(spelling(def->role)) + " and this op in role " +
                                std::string(spelling(user.role)) +
                                " (cross joins a dma and a compute operation)");
    }

    // ---- views ----

    const Op* find_view(const std::string& name) const {
        for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
            if (auto it = s->views.find(name); it != s->views.end())
                return it->second;
        return nullptr;
    }

    // The shape of the tensor piece `v` names, or nothing (after reporting) if it names none.
    std::optional<Shape> view_shape(const View& v, const Op& user, const std::string& what) {
        std::string at = name_of(user) + ": " + what + " " + print_view(v);
        const Op* def = find_view(v.name);
        if (!def) {
            error(user, at + " names no tensor or partition in scope");
            return std::nullopt;
        }
        if (def->kind == OpKind::Alloc) {
            if (!v.whole()) {
                error(user, at + " indexes tensor " + v.name + ", which is not a partition");
                return std::nullopt;
            }
            return def->alloc.shape;
        }
        std::size_t rank = def->part.shape.grid.size();
        if (v.index.size() != rank) {
            error(user, at + " has " + count(v.index.size(), "index", "indices") +
                            " but partition " + v.name + " has a " + std::to_string(rank) +
                            "-d grid");
            return std::nullopt;
        }
        return def->part.shape.piece;
    }

    void check_copy(const Op& op) {
        auto src = view_shape(op.src, op, "source");
        auto dst = view_shape(op.dst, op, "destination");
        if (src && dst && *src != *dst)
            error(op, name_of(op) + ": source " + print_view(op.src) + " has shape " +
                          ir::shape_string(*src) + " but destination " + print_view(op.dst) +
                          " has shape " + ir::shape_string(*dst) +
                          " (a copy's views have the same shape)");
    }

    void check_call(const Op& op) {
        const LeafDef* leaf = prog_.find_leaf(op.callee);
        if (!leaf) {
            error(op, name_of(op) + ": calls unknown leaf " + op.callee);
            return;
        }
        std::vector<const LeafParam*> tensors;
        std::size_t scalars = 0;
        for (const auto& p : leaf->params)
            if (p.is_tensor)
                tensors.push_back(&p);
            else
                ++scalars;
        if (tensors.size() != op.args.size() || scalars != op.scalars.size()) {
            error(op, name_of(op) + ": leaf " + leaf->name + " takes " +
                          count(tensors.size(), "tensor", "tensors") + " and " +
                          count(scalars, "scalar", "scalars") + ", found " +
                          count(op.args.size(), "view", "views") + " and " +
                          count(op.scalars.size(), "scalar", "scalars"));
            return;
        }
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            auto shape = view_shape(op.args[i], op, "argument");
            if (shape && *shape != tensors[i]->shape)
                error(op, name_of(op) + ": argument " + print_view(op.args[i]) + " has shape " +
                              ir::shape_string(*shape) + " but parameter " + tensors[i]->name +
                              " of leaf " + leaf->name + " has shape " +
                              ir::shape_string(tensors[i]->shape));
        }
    }

    static bool well_formed_loop(const Op& op) {
        bool is_loop = op.kind == OpKind::For || op.kind == OpKind::PFor;
        return !is_loop || op.loop.vars.size() == op.loop.extents.size();
    }

    void check_loop(const Op& op) {
        const Block& body = op.loop.body;
        if (!well_formed_loop(op))
            error(op, name_of(op) + ": " + count(op.loop.vars.size(), "variable", "variables") +
                          " but " + count(op.loop.extents.size(), "extent", "extents") +
                          " (one extent per loop variable)");
        bool defines_events = false;
        for (const auto& inner : body.ops)
            defines_events |= !inner.result.empty();
        if (defines_events && !body.yield)
            error(op, name_of(op) + ": the body defines events but yields none (an iteration "
                                    "completes with its yield)");
        check_block(body, &op);
    }
};

} // namespace

std::vector<Diagnostic> verify_event_program(const EventProgram& program) {
    return Verifier(program).run();
}

} // namespace kiln::event
