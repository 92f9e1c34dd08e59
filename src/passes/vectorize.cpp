#include "passes/vectorize.h"

#include "passes/event_tracker.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

namespace kiln::passes {
namespace {

using event::Block;
using event::EventRef;
using event::Op;
using event::OpKind;

// A pfor the GPU programming model makes implicit: the warpgroups, warps and threads of a block.
bool implicit(const Op& op) {
    return op.kind == OpKind::PFor && op.loop.level > ir::Level::Block;
}

// Every event reference of `b`: preconditions and yields, nested bodies included.
void for_each_ref(Block& b, const std::function<void(EventRef&)>& f) {
    for (auto& op : b.ops) {
        for (auto& r : op.after)
            f(r);
        if (is_loop(op))
            for_each_ref(op.loop.body, f);
    }
    if (b.yield)
        f(*b.yield);
}

std::set<std::string> defined_in(const Block& b) {
    std::set<std::string> ids;
    event::walk(b, [&](const Op& op) {
        if (!op.result.empty())
            ids.insert(op.result);
    });
    return ids;
}

// What references to a flattened pfor's event become: its body's yield, whose first `dims`
// indices take the place of the pfor event's indices.
struct Replacement {
    std::optional<EventRef> yield;
    std::size_t dims = 0;
};

using Replacements = std::map<std::string, Replacement>;

// The reference `r` to a flattened pfor's event, now naming its body's yield; none when the body
// defined no event (nothing to wait for).
std::optional<EventRef> replaced_ref(const EventRef& r, const Replacement& rep) {
    if (!rep.yield)
        return std::nullopt;
    EventRef out = *rep.yield;
    out.index.assign(r.index.begin(), r.index.end());
    out.index.insert(out.index.end(), rep.yield->index.begin() + rep.dims, rep.yield->index.end());
    out.distance = r.distance;
    out.cross = r.cross;
    return out;
}

std::vector<EventRef> replace_all(const std::vector<EventRef>& refs, const Replacements& reps) {
    std::vector<EventRef> out;
    for (const auto& r : refs) {
        auto it = reps.find(r.id);
        if (it == reps.end()) {
            add_unique(out, r);
            continue;
        }
        if (auto n = replaced_ref(r, it->second))
            add_unique(out, *n);
    }
    return out;
}

void replace_in_block(Block& b, const Replacements& reps) {
    for (auto& op : b.ops) {
        op.after = replace_all(op.after, reps);
        if (is_loop(op))
            replace_in_block(op.loop.body, reps);
    }
    if (b.yield && reps.count(b.yield->id))
        b.yield = replaced_ref(*b.yield, reps.at(b.yield->id));
}

void replace_in_op(Op& op, const Replacements& reps) {
    op.after = replace_all(op.after, reps);
    if (is_loop(op))
        replace_in_block(op.loop.body, reps);
}

class Vectorizer {
public:
    void block(Block& b) {
        Replacements reps;
        std::vector<Op> out;
        for (auto& op : b.ops) {
            if (is_loop(op))
                block(op.loop.body); // deepest first
            replace_in_op(op, reps);
            if (implicit(op))
                flatten(std::move(op), out, reps);
            else
                out.push_back(std::move(op));
        }
        b.ops = std::move(out);
        if (b.yield && reps.count(b.yield->id))
            b.yield = replaced_ref(*b.yield, reps.at(b.yield->id));
    }

private:
    // Splices the body of `pfor` into `out`, one instance of each operation per processor.
    void flatten(Op pfor, std::vector<Op>& out, Replacements& reps) {
        std::vector<event::ProcDim> dims = event::event_dims(pfor); // its over, then its variables
        std::vector<ir::ExprPtr> pointwise;
        for (const auto& d : dims)
            pointwise.push_back(ir::name_ref(d.var));
        Block& body = pfor.loop.body;
        const std::set<std::string> local = defined_in(body);
        event::walk(body,
                    [&](Op& op) { op.over.insert(op.over.begin(), dims.begin(), dims.end()); });
        for_each_ref(body, [&](EventRef& r) {
            if (local.count(r.id))
                r.index.insert(r.index.begin(), pointwise.begin(), pointwise.end());
        });
        for (auto& op : body.ops) {
            if (op.result.empty())
                continue; // allocs and parts wait for nothing
            std::vector<EventRef> after = pfor.after;
            for (const auto& r : op.after)
                add_unique(after, r);
            op.after = std::move(after);
        }
        reps[pfor.result] = Replacement{body.yield, dims.size()};
        for (auto& op : body.ops)
            out.push_back(std::move(op));
    }
};

} // namespace

Result<event::EventProgram> vectorize(event::EventProgram program, const PassContext&) {
    Vectorizer().block(program.body);
    return program;
}

} // namespace kiln::passes
